"""The campus layer against a fake built from the independent clients' facts (issue 17, items 2–7 and 9): each test
here failed on the code before it, for a reason a live service would have given."""

from __future__ import annotations

import json
import time

import pytest

from tui.lang.host import HttpRequest
from tui.runtime.campus.iaaa import LoginError, QrLogin, _failure
from tui.runtime.campus.services import CARD_UA
from tui.runtime.campus.session import CampusSession, LoginRequired
from tui.runtime.campus.totp import totp
from tui.runtime.campus.treehole import Treehole
from tui.runtime.message import say_error

from ..fake_campus import FakeCampus
from .conftest import PASSWORD, USER

EL = "https://elective.pku.edu.cn/elective2008/edu/pku/stu/elective/controller/electiveWork/showResults.do"
CW = "https://cwfw.pku.edu.cn/WF_CWBS"
SECRET = "JBSWY3DPEHPK3PXP"


async def test_elective_logs_in_a_dual_degree_student_and_notices_its_own_expiry_page(
    session: CampusSession, fake: FakeCampus
) -> None:
    """Elective wants a JSESSIONID before the SSO (else not 200), a sida that is not lowercase hex, a Referer from
    elective, and says "您尚未登录或者会话超时" on a 200 page when the session is gone (PKUAutoElective)."""
    session.remember_account(USER, PASSWORD, remember=False)
    first = await session.request(HttpRequest("GET", EL, {}, None, "elective"))
    assert "选课结果" in first.body.decode()
    sso = next(s for s in fake.seen if s.path.endswith("ssoLogin.do") and "token" in s.query)
    assert "JSESSIONID=" in sso.headers.get("cookie", "")
    fake.expire_sessions()
    again = await session.request(HttpRequest("GET", EL, {}, None, "elective"))
    assert "选课结果" in again.body.decode()  # logged in again and sent once more, not the expiry page
    assert fake.iaaa_logins == ["syllabus", "syllabus"]


async def test_a_spent_token_at_elective_is_said_not_taken_for_a_login(session: CampusSession) -> None:
    with pytest.raises(LoginError) as caught:
        await session.login_with_token("elective", "iaaa-spent")
    assert caught.value.args[0].key == "campus_elective_token_invalid"
    assert session.state("elective") is None


async def test_cwfw_sys_error_is_an_answer_not_an_expiry(session: CampusSession, fake: FakeCampus) -> None:
    """pkucli `cwfw/src/api.rs`: `SYS_ERROR` is the server rejecting the request — sent once, no new login."""
    session.remember_account(USER, PASSWORD, remember=False)
    post = HttpRequest("POST", f"{CW}/commonUpdate_responseButtonEvent.action", {}, b"cmd=x", "cwfw")
    answer = await session.request(post, "write")
    assert "SYS_ERROR" in answer.body.decode()
    assert fake.iaaa_logins == ["IIPF"] and fake.count("commonUpdate_responseButtonEvent") == 1


async def test_cwfw_expiry_is_a_roles_menu_without_its_user_context(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=False)
    menu = HttpRequest("POST", f"{CW}/loadRolesMenu.action", {}, b"", "cwfw")
    assert "userContext" in (await session.request(menu)).body.decode()
    fake.expire_sessions()
    assert "userContext" in (await session.request(menu)).body.decode()
    assert fake.iaaa_logins == ["IIPF", "IIPF"]


async def test_the_treehole_login_check_takes_the_mobile_token(session: CampusSession, fake: FakeCampus) -> None:
    """The web bundle's check is `POST /api/login_iaaa_check_token {code}`; the bound token answers it by itself."""
    session.remember_account(USER, PASSWORD, remember=False)
    fake.otp[USER] = SECRET
    session.set_otp_secret(SECRET)
    fake.treehole_needs_login_sms = True
    events = {"request": {"url": "/chapi/api/v3/events/list"}}
    answer = await Treehole(session).verify(events)
    assert answer["success"] is True
    checked = [s for s in fake.seen if s.path == "/api/login_iaaa_check_token"]
    assert len(checked) == 1 and json.loads(checked[0].body)["code"] in (totp(SECRET), totp(SECRET, time.time() - 30))
    assert fake.count("/check_otp") == 0


async def test_a_typed_mobile_token_code_passes_the_treehole_login_check(
    session: CampusSession, fake: FakeCampus
) -> None:
    session.remember_account(USER, PASSWORD, remember=False)
    fake.otp[USER] = SECRET  # bound on the phone only
    await session.login("treehole", otp_code=totp(SECRET))
    fake.treehole_needs_login_sms = True
    treehole = Treehole(session)
    events = {"request": {"url": "/chapi/api/v3/events/list"}}
    asked = await treehole.verify(events)
    assert asked["status"] == "verification_required" and asked["methods"] == ["sms", "otp"]
    assert (await treehole.verify({**events, "code": totp(SECRET), "via": "otp"}))["success"] is True


@pytest.mark.parametrize(
    ("code", "words", "kind"),
    [
        ("E01", "用户名或密码错误", "password"),
        ("E03", "请输入验证码", "captcha"),
        ("E04", "请输入验证码", "sms"),
        ("E05", "请输入验证码", "otp"),  # the code decides, not the words (they said 令牌 before)
        ("E02", "账号未激活", "activation"),
        ("E99", "手机令牌错误", "otp"),  # an unlisted code: the words are the fallback
        ("", "短信验证码错误", "sms"),
    ],
)
def test_iaaa_answers_are_read_by_their_code(code: str, words: str, kind: str) -> None:
    assert _failure({"success": False, "errors": {"code": code, "msg": words}}).kind == kind


async def test_a_captcha_ends_an_automatic_login_with_what_to_do(session: CampusSession, fake: FakeCampus) -> None:
    """After wrong passwords IAAA wants the picture code (E03): the background login stops and says to log in once
    in a browser; it is never posted again at once."""
    fake.captcha_after = 0
    session.remember_account(USER, PASSWORD, remember=False)
    with pytest.raises(LoginRequired) as caught:
        await session.request(HttpRequest("GET", "https://treehole.pku.edu.cn/chapi/api/v3/events/list", {}, None,
                                          "treehole"))  # fmt: skip
    assert "请先在浏览器里登录一次 IAAA" in say_error(caught.value, "zh")
    assert fake.count("/oauthlogin.do") == 1


async def test_every_request_carries_what_the_working_clients_send(session: CampusSession, fake: FakeCampus) -> None:
    """pkucli sends a browser User-Agent everywhere, the card's Android one to the card, and these Referers: its's
    login (`portal/src/netfee.rs`), cwfw's subsystem entry (`cwfw/src/login.rs`), IAAA's QR image (`iaaa.rs`)."""
    session.remember_account(USER, PASSWORD, remember=False)
    for name in ("its", "cwfw", "card", "elective", "treehole"):
        await session.login(name)
    flow = QrLogin(session.net, "syllabus", "http://elective.pku.edu.cn:80/elective2008/ssoLogin.do")
    await flow.start()
    agents = {s.headers.get("user-agent", "") for s in fake.seen}
    assert not [a for a in agents if "python-httpx" in a or not a]
    assert {s.headers["user-agent"] for s in fake.seen if s.host == "bdcard.pku.edu.cn"} == {CARD_UA}

    def referer(path: str) -> str:
        return next(s for s in fake.seen if s.path == path).headers.get("referer", "")

    assert referer("/cas/webLogin") == "https://its.pku.edu.cn/"
    assert referer("/WF_CWBS/main2.jsp") == "https://cwfw.pku.edu.cn/WFManager/home3.jsp"
    assert referer("/iaaa/genQRCode.do") == "https://iaaa.pku.edu.cn/iaaa/oauth.jsp"


async def test_an_account_with_the_sms_second_factor_logs_in_with_the_texted_code(
    session: CampusSession, fake: FakeCampus
) -> None:
    """Issue 17 item 8: IAAA answers E04 without the code; `sendSMSCode.do` texts it; `smsCode` carries it."""
    fake.sms_login.add(USER)
    with pytest.raises(LoginError) as caught:
        await session.login("treehole", USER, PASSWORD)
    assert caught.value.kind == "sms"
    assert await session.send_sms_code("treehole", USER) == "138****0000"
    await session.login("treehole", USER, PASSWORD, sms_code=fake.sms["iaaa"])
    assert session.state("treehole") is not None
    with pytest.raises(LoginError, match="请60秒后再试"):  # IAAA's own wait, said
        await session.send_sms_code("treehole", USER)
