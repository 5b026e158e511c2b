"""Signed campus requests: host checks before signing, stripped headers, re-login once, politeness, retries."""

from __future__ import annotations

import asyncio
import json

import pytest

from tui.lang.host import HostError, HttpRequest
from tui.runtime.campus.session import CampusSession, LoginRequired

from ..fake_campus import CANARY, FakeCampus
from .conftest import PASSWORD, USER

TH = "https://treehole.pku.edu.cn"


def get(path: str, service: str = "treehole", headers: dict[str, str] | None = None) -> HttpRequest:
    host = {"treehole": TH, "card": "https://bdcard.pku.edu.cn", "bdkj": "https://bdkj.pku.edu.cn",
            "its": "https://its.pku.edu.cn"}[service]  # fmt: skip
    return HttpRequest("GET", host + path, headers or {}, None, service)


async def test_a_request_is_signed_and_answered_without_credentials(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    response = await session.request(get("/chapi/api/v3/echo?x=1"))
    assert response.status == 200
    signed = fake.seen[-1].headers
    assert signed["authorization"].startswith("Bearer jwt-") and signed["uuid"].startswith("Web_PKUHOLE")
    echoed = json.loads(response.body)["data"]["headers"]
    # The echo of the signed request is masked before the plugin reads it (it used to hold the JWT and uuid).
    assert echoed["authorization"] == "‹secret›" and echoed["uuid"] == "‹secret›"
    assert signed["authorization"][7:] not in response.body.decode() and signed["uuid"] not in response.body.decode()
    assert "set-cookie" not in {k.lower() for k in response.headers}  # the canary cookie stays in the jar
    # the canary cookie is sent back to treehole on the next request, as a browser would
    await session.request(get("/chapi/api/v3/echo"))
    assert CANARY in fake.seen[-1].headers["cookie"]


async def test_plugin_supplied_credential_headers_are_dropped(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=False)
    sneaky = {"Cookie": "a=b", "Authorization": "Bearer mine", "Host": "evil.example", "X-Forwarded-For": "1.2.3.4",
              "uuid": "forged", "X-Custom": "kept"}  # fmt: skip
    await session.request(get("/chapi/api/v3/echo", headers=sneaky))
    seen = fake.seen[-1].headers
    assert seen["authorization"] != "Bearer mine" and seen["uuid"] != "forged" and seen["host"] == "treehole.pku.edu.cn"
    assert "a=b" not in seen.get("cookie", "") and "x-forwarded-for" not in seen and seen["x-custom"] == "kept"


@pytest.mark.parametrize(
    "url", ["https://evil.example/x", "http://treehole.pku.edu.cn/x", "https://treehole.pku.edu.cn.evil.example/x"]
)
async def test_a_request_off_the_service_host_is_refused_before_signing(
    session: CampusSession, fake: FakeCampus, url: str
) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    with pytest.raises(HostError, match="campus path must stay on treehole"):
        await session.request(HttpRequest("GET", url, {}, None, "treehole"))
    assert fake.seen == []  # nothing was sent, not even a login


async def test_an_expired_session_logs_in_again_once_and_retries(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    await session.request(get("/chapi/api/v3/hole/list_comments?page=1"))
    fake.expire_sessions()  # the server now answers 401
    response = await session.request(get("/chapi/api/v3/hole/list_comments?page=1"))
    assert response.status == 200
    assert fake.iaaa_logins == ["PKU Helper", "PKU Helper"]
    assert [s.path for s in fake.seen if s.path.startswith("/chapi/api")].count("/chapi/api/v3/hole/list_comments") == 3


async def test_a_passed_local_expiry_logs_in_before_sending(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    state = await session.login("treehole")
    session.clock = lambda: (state.expires_at or 0) + 1
    await session.request(get("/chapi/api/v3/hole/list_comments"))
    assert len(fake.iaaa_logins) == 2 and fake.count("/v3/hole/list_comments") == 1  # no doomed request first


async def test_two_concurrent_requests_cause_one_relogin(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    await session.login("treehole")
    fake.expire_sessions()
    fake.delay = 0.05  # both requests are in flight with the old token together
    answers = await asyncio.gather(*(session.request(get("/chapi/api/v3/hole/list_comments")) for _ in range(2)))
    assert [a.status for a in answers] == [200, 200]
    assert fake.iaaa_logins == ["PKU Helper", "PKU Helper"]  # the first login and exactly one re-login


async def test_without_stored_credentials_the_student_is_asked_to_log_in(
    session: CampusSession, fake: FakeCampus
) -> None:
    asked: list[tuple[str, str]] = []
    session.on_login_required.append(lambda service, message: asked.append((service, message)))
    with pytest.raises(LoginRequired, match=r"not logged in to Treehole \(treehole\).*pku-harness login treehole"):
        await session.request(get("/chapi/api/v3/hole/list_comments"))
    assert asked and asked[0][0] == "treehole"
    assert fake.seen == []


async def test_at_most_two_requests_per_host_at_once(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    await session.login("treehole")
    fake.delay = 0.1
    started = asyncio.get_running_loop().time()
    await asyncio.gather(*(session.request(get("/chapi/api/v3/hole/list_comments")) for _ in range(4)))
    elapsed = asyncio.get_running_loop().time() - started
    assert elapsed >= 0.2  # four requests, two at a time, 0.1 s each: at least two rounds


async def test_reads_are_retried_after_5xx_but_writes_never(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    read = await session.request(get("/chapi/api/v3/flaky"), "read")
    assert read.status == 503 and fake.count("/v3/flaky") == 3  # two backoffs, then the answer as it is
    write = await session.request(HttpRequest("POST", TH + "/chapi/api/v3/flaky", {}, b"{}", "treehole"), "write")
    assert write.status == 503 and fake.count("/v3/flaky") == 4  # sent once: it may have happened


async def test_card_chain_signing_and_its_expiry_signature(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    response = await session.request(get("/berserker-app/ykt/tsm/queryCard", "card"))
    doc = json.loads(response.body)
    assert doc["success"] is True and doc["data"]["card"][0]["elec_accamt"] == 12345
    sent = fake.seen[-1]
    assert sent.headers["synjones-auth"].startswith("bearer card-") and sent.query["synAccessSource"] == ["h5"]
    assert sent.headers["user-agent"].startswith("PKUANDROID")
    assert "card-" not in response.url and "card-" not in json.dumps(dict(response.headers))
    fake.expire_sessions()  # the card answers HTTP 200 with code 401
    assert json.loads((await session.request(get("/berserker-app/ykt/tsm/queryCard", "card"))).body)["success"]
    assert fake.iaaa_logins == ["portal2017", "portal2017"]


async def test_a_cookie_service_and_its_redirect_to_iaaa(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    response = await session.request(get("/personal/user", "bdkj"))
    assert json.loads(response.body)["name"] == "张三"
    session._jars["bdkj"].clear()  # the server forgot us: it now redirects to IAAA
    assert json.loads((await session.request(get("/personal/user", "bdkj"))).body)["account"] == USER
    assert fake.iaaa_logins == ["bdkj", "bdkj"]


@pytest.mark.parametrize("name", ["cwpay", "library", "library-space"])
async def test_undocumented_services_are_not_guessed(session: CampusSession, name: str) -> None:
    with pytest.raises(HostError, match="not supported yet"):
        await session.request(HttpRequest("GET", "https://x.pku.edu.cn/", {}, None, name))


async def test_status_of_every_service(session: CampusSession) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    await session.login("treehole")
    states = {s.name: s.state for s in session.status()}
    assert states["treehole"] == "logged_in" and states["card"] == "logged_out" and states["library"] == "unsupported"
    session.logout("treehole")
    assert {s.name: s.state for s in session.status()}["treehole"] == "logged_out"
    assert session.account() is not None
    session.logout(forget_account=True)
    assert session.account() is None


async def test_a_redirect_off_the_service_host_is_not_followed(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    response = await session.request(get("/chapi/api/v3/away"))
    assert response.status == 302 and response.headers["location"] == "https://evil.example/steal"
    assert not [s for s in fake.seen if s.host == "evil.example"]  # nothing, least of all the token, went there


@pytest.mark.parametrize(
    ("service", "path", "expect", "app_id"),
    [
        ("blackboard", "/webapps/portal/execute/tabs/tabAction", "当前学期课程", "blackboard"),
        (
            "elective",
            "/elective2008/edu/pku/stu/elective/controller/electiveWork/showResults.do",
            "选课结果",
            "syllabus",
        ),
        ("cwfw", "/WF_CWBS/loadRolesMenu.action", "userContext", "IIPF"),
    ],
)
async def test_cookie_services_log_in_through_their_chains(
    session: CampusSession, fake: FakeCampus, service: str, path: str, expect: str, app_id: str
) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    host = {"blackboard": "course", "elective": "elective", "cwfw": "cwfw"}[service]
    response = await session.request(HttpRequest("GET", f"https://{host}.pku.edu.cn{path}", {}, None, service))
    assert expect in response.body.decode()
    session._jars[service].clear()  # the server forgets the session: its own expiry signature brings a re-login
    response = await session.request(HttpRequest("GET", f"https://{host}.pku.edu.cn{path}", {}, None, service))
    assert expect in response.body.decode() and fake.iaaa_logins == [app_id, app_id]


async def test_its_logs_in_with_its_own_form(session: CampusSession, fake: FakeCampus) -> None:
    session.remember_account(USER, PASSWORD, remember=True)
    response = await session.request(get("/netportal/itsUtil?operation=info", "its"))
    assert "10元" in response.body.decode() and fake.iaaa_logins == []  # not IAAA
    session.remember_account(USER, "wrong", remember=True)
    session.logout("its")
    with pytest.raises(LoginRequired, match="its: 密码错误"):
        await session.request(get("/netportal/itsUtil?operation=info", "its"))
