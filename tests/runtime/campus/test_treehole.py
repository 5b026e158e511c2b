"""verify.treehole and verify.treeholeSendCode against the fake treehole: course data by SMS and by the mobile
token, the login SMS check, "not expired yet" counted as sent, and treehole's own messages on failure."""

from __future__ import annotations

import pytest

from tui.lang.host import HostError
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.totp import totp
from tui.runtime.campus.treehole import Treehole

from ..fake_campus import FakeCampus
from .conftest import PASSWORD, USER

SCORES = {"request": {"url": "/chapi/api/course/score_v2"}}
SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


@pytest.fixture
def treehole(session: CampusSession) -> Treehole:
    session.remember_account(USER, PASSWORD, remember=True)
    return Treehole(session)


async def test_course_data_asks_then_an_sms_code_answers(treehole: Treehole, fake: FakeCampus) -> None:
    asked = await treehole.verify(SCORES)
    assert asked["status"] == "verification_required" and asked["kind"] == "course"
    assert (
        asked["methods"] == ["sms", "otp"]
        and "请先获取授权码" in asked["message"]
        and "treeholeSendCode" in asked["next"]
    )
    assert treehole.pending() == "course"
    sent = await treehole.send_code({})  # the pending kind is used
    assert sent == {"sent": True, "kind": "course", "message": "发送成功"}
    with pytest.raises(HostError, match="did not accept the code: 验证码错误"):
        await treehole.verify({**SCORES, "code": "000000" if fake.sms["course"] != "000000" else "111111"})
    answer = await treehole.verify({**SCORES, "code": fake.sms["course"], "via": "sms"})
    assert answer["success"] is True and answer["data"]["score"]["gpa"]["gpa"] == "3.85"
    assert treehole.pending() is None


async def test_the_bound_mobile_token_is_tried_by_itself(treehole: Treehole, fake: FakeCampus) -> None:
    fake.otp[USER] = SECRET
    treehole.session.set_otp_secret(SECRET)
    answer = await treehole.verify(SCORES)  # no code given: the token's code is submitted, the request retried
    assert answer["success"] is True
    submitted = [s for s in fake.seen if s.path.endswith("password_get_token")]
    assert len(submitted) == 1 and fake.count("/course/score_v2") == 2


async def test_a_code_from_the_mobile_token_typed_by_the_student(treehole: Treehole, fake: FakeCampus) -> None:
    fake.otp[USER] = SECRET  # bound on the student's phone, not in the app
    await treehole.session.login("treehole", otp_code=totp(SECRET))
    assert (await treehole.verify(SCORES))["status"] == "verification_required"
    answer = await treehole.verify({**SCORES, "code": totp(SECRET), "via": "otp"})
    assert answer["success"] is True


async def test_the_login_sms_check(treehole: Treehole, fake: FakeCampus) -> None:
    fake.treehole_needs_login_sms = True
    events = {"request": {"url": "/chapi/api/v3/events/list", "query": {"startTime": "2026-11-30"}}}
    asked = await treehole.verify(events)
    assert (asked["kind"], asked["methods"]) == ("login", ["sms", "otp"])
    await treehole.send_code({})
    answer = await treehole.verify({**events, "code": fake.sms["login"]})  # via defaults to sms
    assert answer["data"]["list"][0]["event_name"].startswith("讲座")
    assert fake.seen[-1].query["startTime"] == ["2026-11-30"]


async def test_a_code_not_expired_yet_counts_as_sent(treehole: Treehole, fake: FakeCampus) -> None:
    await treehole.verify(SCORES)
    assert (await treehole.send_code({}))["sent"] is True
    again = await treehole.send_code({})  # within the app's cooldown: not sent to treehole again
    assert again["sent"] is True and "秒后可以再发" in again["message"] and fake.count("send_get_token_message") == 1
    other = Treehole(treehole.session)  # another process: treehole itself says the code is still valid
    assert (await other.send_code({}))["message"] == "验证码未过期，请勿重复发送"
    assert fake.count("send_get_token_message") == 2


async def test_without_a_pending_check_the_kind_must_be_named(treehole: Treehole, fake: FakeCampus) -> None:
    with pytest.raises(HostError, match="no verification is waiting; pass kind"):
        await treehole.send_code({})
    with pytest.raises(HostError, match="say which one the code is for"):
        await treehole.verify({**SCORES, "code": "123456"})
    assert (await treehole.send_code({"kind": "login"}))["kind"] == "login"


async def test_no_success_true_is_a_failure_with_treeholes_message(treehole: Treehole) -> None:
    with pytest.raises(HostError, match="treehole: no /nothing"):
        await treehole.verify({"request": {"url": "/chapi/api/nothing"}})


@pytest.mark.parametrize("url", ["//evil.example/x", "https://evil.example/x", "relative/x"])
async def test_the_request_must_be_a_treehole_path(treehole: Treehole, fake: FakeCampus, url: str) -> None:
    with pytest.raises(HostError, match="verify.treehole:"):
        await treehole.verify({"request": {"url": url}})
    assert fake.seen == []


async def test_the_pending_check_survives_a_restart(treehole: Treehole, session: CampusSession) -> None:
    await treehole.verify(SCORES)
    fresh = CampusSession(session.store, session.secrets, session.vault, session.net)
    assert Treehole(fresh).pending() == "course"
    assert {s.name: s.state for s in fresh.status()}["treehole"] == "verification"
