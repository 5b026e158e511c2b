"""IAAA logins against the fake campus: password (RSA), wrong password, the mobile token, QR, binding a token."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from tui.runtime.campus.iaaa import LoginError, OtpBinding, QrLogin, encrypt_password
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.totp import totp
from tui.runtime.campus.vault import KEYRING_SERVICE

from ...conftest import MemoryKeyring
from ..fake_campus import FakeCampus
from .conftest import PASSWORD, USER


async def test_password_login_encrypts_and_keeps_the_token_in_keyring(
    session: CampusSession, fake: FakeCampus, memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    state = await session.login("treehole", USER, PASSWORD)
    assert state.token and state.token.startswith("jwt-")
    assert state.expires_at and state.expires_at > 0
    login = next(s for s in fake.seen if s.path.endswith("/oauthlogin.do"))
    form = FakeCampus.form(login)
    assert PASSWORD not in login.body.decode() and len(base64.b64decode(form["password"])) == 128  # RSA-1024 block
    assert form["appid"] == "PKU Helper" and form["otpCode"] == ""
    assert form["redirUrl"].startswith("https://treehole.pku.edu.cn/chapi/cas_iaaa_login?version=3&uuid=")
    stored = json.loads(memory_keyring.items[(KEYRING_SERVICE, "campus:session:treehole")])
    assert stored["token"] == state.token and stored["extra"]["fullUuid"].startswith("Web_PKUHOLE_2.0.0_WEB_UUID_")
    session.store.db.commit()
    assert state.token.encode() not in (tmp_path / "app.sqlite3").read_bytes()  # never in the SQLite store
    assert session.secrets.scrub_text(f"t={state.token}") == "t=‹secret›"


async def test_the_device_id_is_kept_across_logins(session: CampusSession) -> None:
    first = await session.login("treehole", USER, PASSWORD)
    second = await session.login("treehole", USER, PASSWORD)
    assert first.extra["device"] == second.extra["device"] and len(first.extra["device"]) == 12
    assert first.extra["fullUuid"].endswith("-" + first.extra["device"])


async def test_wrong_password_says_what_iaaa_said(session: CampusSession, fake: FakeCampus) -> None:
    with pytest.raises(LoginError, match="用户名或密码错误") as caught:
        await session.login("treehole", USER, "wrong")
    assert caught.value.kind == "password"
    assert session.state("treehole") is None and "wrong" not in str(caught.value)


async def test_an_account_with_the_mobile_token_needs_its_code(session: CampusSession, fake: FakeCampus) -> None:
    secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    fake.otp[USER] = secret
    with pytest.raises(LoginError) as caught:
        await session.login("treehole", USER, PASSWORD)
    assert caught.value.kind == "otp"
    assert await session.login("treehole", USER, PASSWORD, otp_code=totp(secret))  # typed by the student
    session.set_otp_secret(secret.lower())  # or the bound secret supplies it by itself
    assert await session.login("treehole", USER, PASSWORD)
    assert fake.iaaa_logins == ["PKU Helper", "PKU Helper"]


def test_encrypt_password_accepts_the_bare_key_body_iaaa_sends() -> None:
    from cryptography.hazmat.primitives.asymmetric import padding

    from ..fake_campus import _KEY, _PEM_BODY

    encrypted = encrypt_password(_PEM_BODY, "密码 with spaces")
    assert _KEY.decrypt(base64.b64decode(encrypted), padding.PKCS1v15()).decode() == "密码 with spaces"
    with pytest.raises(LoginError, match="cannot read"):
        encrypt_password("not a key", "x")


async def test_qr_login_waits_for_the_scan_then_logs_in(session: CampusSession, fake: FakeCampus) -> None:
    qr = QrLogin(session.net, "PKU Helper", "https://treehole.pku.edu.cn/chapi/cas_iaaa_login")
    assert (await qr.start()).startswith(b"\x89PNG")
    assert await qr.poll() is None  # E10: not scanned yet
    fake.qr_scanned = True
    token = await qr.poll()
    assert token is not None
    state = await session.login_with_token("treehole", token)
    assert state.token in fake.treehole_jwts
    fake.qr_expired = True
    with pytest.raises(LoginError) as caught:
        await qr.poll()
    assert caught.value.kind == "expired"


async def test_binding_a_mobile_token_through_iaaa(session: CampusSession, fake: FakeCampus) -> None:
    binding = OtpBinding(session.net, USER)
    with pytest.raises(LoginError, match="用户名或密码错误"):
        await OtpBinding(session.net, USER).start("wrong")
    assert await binding.start(PASSWORD) == "138****0000"
    with pytest.raises(LoginError, match="短信验证码错误"):
        await binding.finish("000000" if fake.sms["bind"] != "000000" else "111111")
    bound = await binding.finish(fake.sms["bind"])
    assert fake.otp[USER] == bound["secret"] and bound["personId"] == USER
    session.set_otp_secret(bound["secret"], bound["personId"])
    assert await session.login("treehole", USER, PASSWORD)  # the bound token now answers IAAA by itself


async def test_request_logs_never_show_a_token(
    session: CampusSession, fake: FakeCampus, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    from tui.runtime.secrets import scrub_logs

    scrub_logs(session.secrets)
    with caplog.at_level(logging.DEBUG, logger="httpx"):
        state = await session.login("treehole", USER, PASSWORD)
    exchange = next(s for s in fake.seen if s.path == "/chapi/cas_iaaa_login")
    token = exchange.query["token"][0]
    assert "cas_iaaa_login" in caplog.text  # httpx did log the exchange's request line …
    assert token not in caplog.text and (state.token or "") not in caplog.text  # … with the token masked
    assert "‹secret›" in caplog.text
