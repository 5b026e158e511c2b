"""Scheduled assistant tasks through the chat loop as the `scheduler` caller, against the fake model server:
only read tools are offered, a write the model asks for anyway is refused and logged, the answer is a
notification and a conversation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tui.runtime.chat.client import ModelClient
from tui.runtime.chat.history import ChatHistory
from tui.runtime.chat.providers import ModelConfig
from tui.runtime.runtime import Runtime
from tui.runtime.scheduler.checks import Checks
from tui.runtime.scheduler.runner import Scheduler
from tui.runtime.scheduler.tasks import task_runner

T0 = 1_796_053_800_000


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3", demo=True)
    yield rt
    rt.close()


async def run_task(runtime: Runtime, fake: FakeOpenAI, url: str, prompt: str) -> tuple[str, str]:
    check = Checks(runtime.store).add("早上的空教室", "30 7 * * *", prompt=prompt, now=T0)
    clock = [T0 + 8 * 3600 * 1000]
    client = ModelClient(ModelConfig("custom", url, "any"), "sk-test")
    scheduler = Scheduler(runtime, runtime.notices, task_runner(runtime, client), clock=lambda: clock[0])
    try:
        reports = await scheduler.run_due()
    finally:
        await client.close()
    assert len(reports) == 1
    return check.id, reports[0].outcome


async def test_a_task_gets_read_tools_only_and_its_answer_is_a_notification(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        calls(call("classrooms__free", '{"building": "二教"}')),
        text("二教 201 和 202 现在空着。"),
    )
    with fake.serve() as url:
        check_id, outcome = await run_task(runtime, fake, url, "二教现在哪些教室空着？")
    assert outcome == "ok"
    offered = {t["function"]["name"] for t in fake.requests[0]["tools"]}
    assert "classrooms__free" in offered
    assert not {"memory__remember", "scheduler__create", "wallet__recharge", "grades__sendCode"} & offered
    notice = runtime.notices.all()[0]
    assert notice.source == check_id and notice.message == "二教 201 和 202 现在空着。"
    history = ChatHistory(runtime.store)
    assert notice.session is not None and history.messages(notice.session)[-1]["content"] == notice.message
    assert Checks(runtime.store).runs(check_id)[0].outcome == "ok"


async def test_a_write_the_model_asks_for_is_refused_and_logged(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        calls(call("memory__remember", '{"text": "每天早上提醒我"}')),
        text("我没法在定时任务里记住东西。"),
    )
    with fake.serve() as url:
        check_id, outcome = await run_task(runtime, fake, url, "记住：每天早上提醒我")
    assert outcome == "refused"
    run = Checks(runtime.store).runs(check_id)[0]
    assert run.outcome == "refused" and "memory.remember" in run.detail
    assert runtime.store.db.execute("SELECT count(*) FROM memory").fetchone()[0] == 0
    tool_reply = fake.requests[1]["messages"][-1]
    assert tool_reply["role"] == "tool" and "scheduled runs may only read" in tool_reply["content"]
    assert "我没法" in runtime.notices.all()[0].message


async def test_without_a_model_a_task_is_an_error_in_the_log(runtime: Runtime) -> None:
    check = Checks(runtime.store).add("问", "every 1m", prompt="你好", now=T0)
    scheduler = Scheduler(runtime, runtime.notices, task_runner(runtime), clock=lambda: T0 + 60_000)
    reports = await scheduler.run_due()
    assert reports[0].outcome == "error" and "no model" in Checks(runtime.store).runs(check.id)[0].detail
