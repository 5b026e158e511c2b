"""The demo model writes a plugin ("帮我写一个显示图书馆新书的插件" in `--demo`): the draft workflow a real model
follows, through the real gate (each write asks), validator, recorded-test runner and install review; the plugin
it writes validates, its test passes, and it installs (its widget and tool are there)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.test_agent import Card
from tests.runtime.test_draft_agent import Student
from tui.runtime.chat.agent import Agent, AgentEvent
from tui.runtime.chat.demo_model import DemoModel
from tui.runtime.chat.demo_writer import FILES
from tui.runtime.chat.history import ChatHistory
from tui.runtime.gate import Approval
from tui.runtime.runtime import DEMO_NOW, Runtime


@pytest.fixture
def student() -> Student:
    return Student()


@pytest.fixture
def runtime(tmp_path: Path, student: Student) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3", demo=True, ui=student)  # type: ignore[arg-type]
    yield rt
    rt.close()


class DemoChat:
    def __init__(self, runtime: Runtime) -> None:
        self.events: list[AgentEvent] = []

        async def emit(event: AgentEvent) -> None:
            self.events.append(event)

        history = ChatHistory(runtime.store)
        self.agent = Agent(runtime, DemoModel(pause_s=0), history, emit)
        self.agent.now = DEMO_NOW
        self.cid = history.start("test")

    async def send(self, message: str) -> Any:
        return await self.agent.send(self.cid, message)


async def test_the_demo_model_writes_checks_tests_and_installs_a_plugin(runtime: Runtime, student: Student) -> None:
    runtime.gate.approver = card = Card(Approval(True))
    chat = DemoChat(runtime)
    first = await chat.send("帮我写一个显示图书馆新书的插件")
    tools = [v.tool_id for v in first.calls]
    assert tools == ["plugins.draftWrite"] * 4 + ["plugins.draftValidate", "plugins.draftTest"], tools
    assert all(v.status == "ok" for v in first.calls), [(v.tool_id, v.message) for v in first.calls]
    assert [r.tool.id for r in card.shown] == ["plugins.draftWrite"] * 4  # each write asked the student
    assert "草稿「新书」写好了" in first.answer and "说「安装」" in first.answer
    assert sorted(f.path for f in runtime.drafts.files("libnew")) == sorted(FILES)
    assert first.calls[-1].result["ok"] is True and first.calls[-1].result["passed"] == 1

    second = await chat.send("安装")
    assert [v.tool_id for v in second.calls] == ["plugins.draftInstall"]
    [review] = student.reviews  # the normal install review, of a community plugin
    assert review.plugin_id == "libnew" and not review.official
    assert "装好了" in second.answer
    assert runtime.installs.get("libnew") is not None
    assert "libnew" in runtime.registry.plugins and "books" in runtime.registry.plugins["libnew"].plugin.widgets
    # The installed copy keeps no tests/: the demo answers its requests from the draft's recordings (the widget
    # had said "the demo has no recording of this request" right after the assistant installed it).
    assert not (runtime.folders["libnew"] / "tests").exists()
    outcome = await runtime.gate.call("libnew.list", {"q": "小说"}, "user", now=DEMO_NOW)
    assert outcome.status == "ok", outcome.message
    assert "三体" in str(outcome.result)


async def test_declined_writes_leave_the_draft_incomplete_and_say_so(runtime: Runtime) -> None:
    runtime.gate.approver = Card(Approval(False, reason="先不要"))
    result = await DemoChat(runtime).send("帮我写一个显示图书馆新书的插件")
    assert [v.tool_id for v in result.calls] == ["plugins.draftWrite"] * 4
    assert "你没有同意写入 4 个文件（先不要）" in result.answer and not runtime.drafts.exists("libnew")
    assert "?" not in result.answer, result.answer


async def test_in_english_too(runtime: Runtime) -> None:
    runtime.gate.approver = Card(Approval(True))
    result = await DemoChat(runtime).send("Write a plugin that shows new library books")
    assert result.answer.startswith("[demo model] The draft 新书 is written"), result.answer


async def test_a_no_on_the_install_review_is_said_in_the_students_words(tmp_path: Path) -> None:
    class No:
        async def review_install(self, review: object) -> bool:
            return False

    rt = Runtime.open(tmp_path / "no.sqlite3", demo=True, ui=No())  # type: ignore[arg-type]
    try:
        rt.gate.approver = Card(Approval(True))
        chat = DemoChat(rt)
        await chat.send("帮我写一个显示图书馆新书的插件")
        result = await chat.send("安装")
        assert result.answer == "【演示模型】好，先不安装。草稿还在，随时可以再装。", result.answer
    finally:
        rt.close()
