"""`pku-harness login | logout | status` against the loopback fake campus, with the in-memory keyring."""

from __future__ import annotations

import json
from pathlib import Path

import keyring
import pytest
from click.testing import CliRunner
from keyring.backends import fail

from tui.cli.main import cli
from tui.runtime.campus.totp import totp

from .conftest import MemoryKeyring
from .runtime.fake_campus import FakeCampus

USER, PASSWORD = "2100012345", "correct horse"


@pytest.fixture
def fake(campus_env: FakeCampus) -> FakeCampus:
    return campus_env


def invoke(*args: str, input: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_login_to_one_service_then_status_then_logout(fake: FakeCampus, memory_keyring: MemoryKeyring) -> None:
    code, out, err = invoke("login", "treehole", input=f"{USER}\n{PASSWORD}\n")
    assert code == 0, err
    assert out.strip() == "treehole: logged in" and PASSWORD not in out + err
    stored = json.loads(memory_keyring.items[("pku-harness", "campus:account")])
    assert stored == {"username": USER, "password": PASSWORD}
    code, out, _ = invoke("status")
    assert f"account: {USER}  password stored: yes  mobile token: no  secrets in: keyring" in out
    assert "treehole       树洞              logged in  until" in out
    assert "library" in out and "not supported yet" in out
    code, out, _ = invoke("logout", "--forget-password")
    assert code == 0 and ("pku-harness", "campus:account") not in memory_keyring.items
    assert "treehole       树洞              not logged in" in invoke("status")[1]


def test_login_without_a_service_logs_in_to_every_one_the_plugins_use(fake: FakeCampus) -> None:
    code, out, err = invoke("login", "--no-remember", input=f"{USER}\n{PASSWORD}\n")
    assert code == 0, err
    assert out.splitlines() == ["treehole: logged in", "card: logged in"]  # grades/events and the wallet
    assert sorted(fake.iaaa_logins) == ["PKU Helper", "portal2017"]


def test_a_wrong_password_stops_at_the_first_service(fake: FakeCampus) -> None:
    code, _, err = invoke("login", input=f"{USER}\nwrong\n")
    assert code == 1 and "treehole: IAAA: 用户名或密码错误" in err and "card" not in err
    assert len([s for s in fake.seen if s.path.endswith("oauthlogin.do")]) == 1  # no second try to lock the account


def test_an_account_with_the_mobile_token_is_asked_for_its_code(fake: FakeCampus) -> None:
    fake.otp[USER] = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    code, out, err = invoke("login", "treehole", input=f"{USER}\n{PASSWORD}\n{totp(fake.otp[USER])}\n")
    assert code == 0, err
    assert "mobile-token code" in err and out.strip() == "treehole: logged in"


def test_an_account_with_the_sms_second_factor_is_texted_and_asked_for_the_code(fake: FakeCampus) -> None:
    fake.sms_login.add(USER)
    fake.next_sms = "246810"
    code, out, err = invoke("login", "treehole", input=f"{USER}\n{PASSWORD}\n246810\n")
    assert code == 0, err
    assert "texted a login code to 138****0000" in out and "SMS code" in err
    assert out.strip().endswith("treehole: logged in") and fake.count("/sendSMSCode.do") == 1


def test_bind_a_mobile_token_then_it_answers_iaaa(fake: FakeCampus, monkeypatch: pytest.MonkeyPatch) -> None:
    # The fake texts a random code; the test reads it from the fake at the moment the prompt asks for it.
    import click

    real_prompt = click.prompt

    def prompt(text: str, *a: object, **kw: object) -> object:
        if text.startswith("the code texted"):
            return fake.sms["bind"]
        return real_prompt(text, *a, **kw)

    monkeypatch.setattr(click, "prompt", prompt)
    code, out, err = invoke("login", "--bind-otp", input=f"{USER}\n{PASSWORD}\n")
    assert code == 0, err
    assert "mobile token bound" in out and USER in fake.otp
    code, out, err = invoke("login", "treehole", input=f"{USER}\n{PASSWORD}\n")
    assert code == 0 and "mobile-token code" not in err  # the bound secret supplied it
    assert fake.otp[USER] not in invoke("status")[1]
    assert f"secret={fake.otp[USER]}" in invoke("status", "--otp-uri")[1]


def test_enter_an_existing_secret(fake: FakeCampus) -> None:
    assert invoke("login", "--otp-secret", input="not base32!\n")[0] == 1
    code, out, _ = invoke("login", "--otp-secret", input="jbsw y3dp ehpk 3pxp\n")
    assert code == 0 and "mobile token saved" in out


def test_qr_login_draws_the_code_and_waits_for_the_scan(fake: FakeCampus, monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.cli.campus as campus_cli

    monkeypatch.setattr(campus_cli, "QR_EVERY", 0.01)
    original = FakeCampus.iaaa

    def iaaa(self: FakeCampus, seen: object) -> object:
        answer = original(self, seen)  # type: ignore[arg-type]
        if getattr(seen, "path", "").endswith("oauthlogin4QRCode.do"):
            self.qr_scanned = True  # scanned after the first poll
        return answer

    monkeypatch.setattr(FakeCampus, "iaaa", iaaa)
    code, out, err = invoke("login", "treehole", "--qr")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[-1] == "treehole: logged in"
    assert len(lines) == 14 and set(lines[0]) == {"█"} and "▀" in "".join(lines)  # 21 modules + quiet zone


def test_qr_login_of_every_service_shows_a_code_for_each(fake: FakeCampus, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17 item 10: IAAA's QR token is for one app: `login --qr` shows one code per service and says why."""
    import tui.cli.campus as campus_cli

    monkeypatch.setattr(campus_cli, "QR_EVERY", 0.01)
    original = FakeCampus.iaaa

    def iaaa(self: FakeCampus, seen: object) -> object:
        if getattr(seen, "path", "").endswith("oauthlogin4QRCode.do"):
            self.qr_scanned = True  # each code is scanned
        return original(self, seen)  # type: ignore[arg-type]

    monkeypatch.setattr(FakeCampus, "iaaa", iaaa)
    code, out, err = invoke("login", "--qr")
    assert code == 0, err
    logged = [line.split(":")[0] for line in out.splitlines() if line.endswith(": logged in")]
    assert len(logged) >= 2 and fake.count("/genQRCode.do") == len(logged)
    assert f"(1 of {len(logged)}: a scan logs in one service, so each needs its own)" in err


def test_no_keyring_is_said_plainly_and_a_vault_file_can_be_chosen(fake: FakeCampus, tmp_path: Path) -> None:
    keyring.set_keyring(fail.Keyring())
    code, out, err = invoke("login", "treehole", input=f"{USER}\n{PASSWORD}\n")
    assert code == 0 and "no usable keyring" in err and "memory for this session only" in err
    vault = f"{tmp_path}/campus.vault"
    code, out, err = invoke("login", "treehole", "--vault-file", vault, input=f"vpw\nvpw\n{USER}\n{PASSWORD}\n")
    assert code == 0, err
    assert PASSWORD.encode() not in Path(vault).read_bytes()
    code, out, err = invoke("status", input="vpw\n")  # the chosen file is used from now on, unlocked by its password
    assert "password stored: yes" in out and "secrets in: file" in out
    assert invoke("status", input="nope\n")[0] == 1


def test_unsupported_service(fake: FakeCampus) -> None:
    code, _, err = invoke("login", "library")
    assert code == 1 and "not supported yet" in err


def test_status_columns_line_up_in_terminal_cells() -> None:
    from rich.cells import cell_len

    from tui.cli.campus import STATES

    code, out, _ = invoke("status")
    rows = out.splitlines()[1:]
    assert code == 0 and len(rows) >= 10
    starts = set()
    for row in rows:
        state = max((s for s in STATES.values() if s in row), key=len)
        starts.add(cell_len(row[: row.index(state)]))  # where the state column starts, in cells on screen
    assert len(starts) == 1, out


def configured_vault(data: Path) -> object:
    from tui.runtime.settings import read_setting
    from tui.runtime.store import Store

    store = Store(data / "pku-harness.sqlite3")
    try:
        return read_setting(store, "campus.vaultFile")
    finally:
        store.close()


@pytest.mark.parametrize("answers", ["", "vpw\n", "vpw\nother\n"])  # EOF (Ctrl+D), then EOF at the confirmation …
def test_an_aborted_vault_file_login_is_not_remembered(isolated_data_dir: Path, tmp_path: Path, answers: str) -> None:
    vault = tmp_path / "campus.vault"
    code, _, err = invoke("login", "--vault-file", str(vault), input=answers)
    assert code == 1 and "Traceback" not in err
    assert configured_vault(isolated_data_dir) is None and not vault.exists()
    code, out, _ = invoke("status")  # no prompt: the keyring is still where secrets go
    assert code == 0 and "secrets in: keyring" in out


def test_a_wrong_vault_password_is_not_remembered(fake: FakeCampus, isolated_data_dir: Path, tmp_path: Path) -> None:
    vault = tmp_path / "campus.vault"
    assert invoke("login", "treehole", "--vault-file", str(vault), input=f"vpw\nvpw\n{USER}\n{PASSWORD}\n")[0] == 0
    assert invoke("logout", "--forget-vault")[0] == 0
    code, _, err = invoke("login", "--vault-file", str(vault), input="wrong\n")
    assert code == 1 and f"wrong password for {vault}" in err
    assert configured_vault(isolated_data_dir) is None
    code, out, _ = invoke("status")
    assert code == 0 and "secrets in: keyring" in out


@pytest.mark.parametrize("damage", ["missing", "not a vault"])
def test_a_missing_vault_file_blocks_only_what_needs_it_and_can_be_forgotten(
    fake: FakeCampus, isolated_data_dir: Path, tmp_path: Path, damage: str
) -> None:
    vault = tmp_path / "campus.vault"
    assert invoke("login", "treehole", "--vault-file", str(vault), input=f"vpw\nvpw\n{USER}\n{PASSWORD}\n")[0] == 0
    if damage == "missing":
        vault.unlink()
    else:
        vault.write_text("not json", "utf-8")
    code, out, err = invoke("status")  # no prompt for a password that cannot open anything
    assert code == 0 and "treehole" in out and "logout --forget-vault" in err and str(vault) in err
    assert invoke("tools", "list")[0] == 0
    code, _, err = invoke("login", "treehole")  # logging in needs it: refused, and nothing is made in its place
    assert code == 1 and "logout --forget-vault" in err
    assert vault.exists() == (damage != "missing")
    code, out, _ = invoke("logout", "--forget-vault")
    assert code == 0 and f"stopped using the vault file {vault}" in out and "keyring" in out
    assert configured_vault(isolated_data_dir) is None
    code, out, err = invoke("status")
    assert code == 0 and "secrets in: keyring" in out and "vault" not in err


def test_forget_vault_needs_no_password_and_leaves_the_file(fake: FakeCampus, tmp_path: Path) -> None:
    vault = tmp_path / "campus.vault"
    assert invoke("login", "treehole", "--vault-file", str(vault), input=f"vpw\nvpw\n{USER}\n{PASSWORD}\n")[0] == 0
    before = vault.read_bytes()
    assert invoke("logout", "--forget-vault", input="")[0] == 0
    assert vault.read_bytes() == before
    assert invoke("logout", "--forget-vault", "--forget-password")[0] == 2  # it goes alone
