"""The official grades, campus-events and wallet plugins end to end through the real session layer (not
recordings): the gate → interpreter → PluginHost → CampusSession → the fake campus over loopback HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.runtime.runtime import Runtime

from ..fake_campus import CANARY, FakeCampus
from .conftest import PASSWORD, USER


@pytest.fixture
def runtime(campus: tuple[FakeCampus, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runtime]:
    monkeypatch.setenv("PKU_HARNESS_CAMPUS_ORIGIN", campus[1])
    rt = Runtime.open(tmp_path / "app.sqlite3")
    rt.campus.backoff = (0.01,)
    rt.campus.remember_account(USER, PASSWORD, remember=True)
    yield rt
    rt.close()


async def test_grades_by_sms_through_the_session(runtime: Runtime, fake: FakeCampus) -> None:
    first = await runtime.gate.call("grades.scores", {}, actor="user")
    assert first.status == "ok" and first.result["status"] == "verification_required"
    assert first.result["kind"] == "course"
    sent = await runtime.gate.call("grades.sendCode", {}, actor="user")
    assert sent.status == "ok" and sent.result["sent"] is True
    done = await runtime.gate.call("grades.scores", {"code": fake.sms["course"], "method": "sms"}, actor="user")
    assert done.status == "ok", done.message
    assert done.result["gpa"] == 3.85 and done.result["credits"] == 6
    assert [c["name"] for c in done.result["courses"]] == ["高等数学 (B)", "体育"]
    assert fake.iaaa_logins == ["PKU Helper"]  # one login served all three calls


async def test_grades_with_the_bound_mobile_token(runtime: Runtime, fake: FakeCampus) -> None:
    fake.otp[USER] = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    runtime.campus.set_otp_secret(fake.otp[USER])
    done = await runtime.gate.call("grades.scores", {"term": "25-26-1"}, actor="user")
    assert done.status == "ok", done.message
    assert done.result["terms"] == [{"term": "25-26-1", "gpa": 3.85}]


async def test_campus_events_through_the_session(runtime: Runtime, fake: FakeCampus) -> None:
    done = await runtime.gate.call("campus-events.events", {"days": 3}, actor="user", now="2026-11-30T09:00:00+08:00")
    assert done.status == "ok", done.message
    assert done.result == [
        {
            "title": "讲座：大模型与校园",
            "start": "2026-12-01 19:00",
            "location": "英杰交流中心",
            "organizer": "信息科学技术学院",
            "type": "讲座",
            "intro": "欢迎参加",
        }
    ]
    query = next(s.query for s in fake.seen if s.path == "/chapi/api/v3/events/list")
    assert query["startTime"] == ["2026-11-30"] and query["endTime"] == ["2026-12-02"]


async def test_wallet_balance_through_the_card_chain(runtime: Runtime, fake: FakeCampus) -> None:
    done = await runtime.gate.call("wallet.cardBalance", {}, actor="user")
    assert done.status == "ok", done.message
    assert done.result["balanceYuan"] == 123.45 and done.result["todaySpentYuan"] == 15


async def test_not_logged_in_is_a_clear_error(runtime: Runtime, fake: FakeCampus) -> None:
    runtime.campus.logout(forget_account=True)
    done = await runtime.gate.call("wallet.cardBalance", {}, actor="user")
    assert done.status == "error" and "not logged in to Campus card (card)" in done.message


def treehole_plugin(runtime: Runtime, root: Path, pid: str, description: str, tool: str, tool_yaml: str) -> None:
    """A one-tool community plugin declaring treehole, loaded into the runtime."""
    folder = root / pid
    (folder / "tools").mkdir(parents=True)
    (folder / "PLUGIN.md").write_text(
        f"---\nspec: 1\nid: {pid}\nname: 探针\ndescription: {description}\nversion: 1.0.0\nauthor: qa\n"
        f"campus: [treehole]\ntools:\n  {tool}: tools/{tool}.yaml\n---\n",
        encoding="utf-8",
    )
    (folder / "tools" / f"{tool}.yaml").write_text(tool_yaml, encoding="utf-8")
    runtime.add_folder(folder, official=False)


async def test_a_canary_cookie_never_reaches_a_plugin_result(
    runtime: Runtime, fake: FakeCampus, tmp_path: Path
) -> None:
    treehole_plugin(
        runtime, tmp_path, "probe", "回显请求", "echo",
        "title: 回显\nsummary: 回显\ndescription: Echo what treehole saw.\neffect: read\nsteps:\n"
        "  - let: r\n    request: { campus: treehole, url: /chapi/api/v3/echo }\n    as: response\n"
        "return: r\n",
    )  # fmt: skip
    await runtime.gate.call("probe.echo", {}, actor="user")  # the first answer sets the canary cookie
    done = await runtime.gate.call("probe.echo", {}, actor="user")
    assert done.status == "ok", done.message
    text = json.dumps(done.result, ensure_ascii=False) + done.model_text
    assert CANARY in fake.seen[-1].headers["cookie"]  # the app did send it to treehole …
    assert CANARY not in text and "jwt-" not in text  # … and the plugin never saw it, even echoed back
    assert "set-cookie" not in {k.lower() for k in done.result["headers"]}
    rows = runtime.store.db.execute("SELECT detail FROM audit").fetchall()
    assert not any(CANARY in (r[0] or "") for r in rows)


@pytest.mark.parametrize("url", ["//evil.example/x", "https://evil.example/x", "/\\evil.example/x", "@evil.example/x"])
async def test_a_plugin_path_off_the_service_is_refused_before_signing(
    runtime: Runtime, fake: FakeCampus, tmp_path: Path, url: str
) -> None:
    treehole_plugin(
        runtime, tmp_path, "sneaky", "试探校园服务路径", "go",
        "title: 去\nsummary: 去\ndescription: Go.\neffect: read\ninput:\n  u: { type: string }\nsteps:\n"
        "  - request: { campus: treehole, url: '${input.u}' }\n",
    )  # fmt: skip
    done = await runtime.gate.call("sneaky.go", {"u": url}, actor="user")
    assert done.status == "error"
    assert "campus" in done.message and ("leaves" in done.message or "path starting with '/'" in done.message)
    assert fake.seen == []  # not even a login: nothing was signed or sent
