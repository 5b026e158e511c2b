"""The 助手 tab driven like a student would, against the fake OpenAI-compatible server: streamed answers, tool
lines, the approval card (allow once / always / deny with a reason), error banners, no model, settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Collapsible, Input, Markdown, Static

from tests.app.helpers import open_settings_section, settle, until
from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.prompts import ChooseDialog, ConfirmDialog
from tui.app.screens.tool_form import ToolFormScreen
from tui.app.widgets.approval_card import ApprovalCard
from tui.app.widgets.chat_input import ChatInput
from tui.app.widgets.chat_pane import ChatPane
from tui.runtime.chat.providers import save_config

NOW = "2026-11-30T12:00:00+08:00"
SIZE = (110, 40)


@pytest.fixture
def fake() -> Iterator[tuple[FakeOpenAI, str]]:
    server = FakeOpenAI()
    with server.serve() as url:
        yield server, url


def chat_app(tmp_path: Path, url: str | None, locale: str = "zh") -> PkuHarnessApp:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    if url:
        save_config(app.runtime.store, "custom", url, "any")
    return app


def shown(app: PkuHarnessApp) -> str:
    pane = app.query_one(ChatPane)
    parts = [str(w.render()) for w in pane.query(Static) if not isinstance(w, Button)]
    parts += [w.source for w in pane.query(Markdown)]
    parts += [str(c.title) for c in pane.query(Collapsible)]
    return "\n".join(parts)


def working(app: PkuHarnessApp) -> bool:
    """The working line (spinner and seconds) is on screen: a turn runs."""
    return bool(app.query_one("#chat-working").display)


def card_text(card: ApprovalCard) -> str:
    """What an approval card says, line by line."""
    return "\n".join(str(s.render()) for s in card.query(Static))


def card_ready(app: PkuHarnessApp, n: int = 1) -> bool:
    """The `n`th approval card is on screen: its buttons have a place a click can reach (a card just mounted
    has none yet, and a click there lands elsewhere)."""
    cards = app.query(ApprovalCard)
    if len(cards) < n:
        return False
    buttons = cards[n - 1].query(Button)
    return len(buttons) > 0 and all(b.region for b in buttons)  # a card mounted before its buttons has none yet


async def chat_ready(pilot: Any, app: PkuHarnessApp) -> ChatInput:
    """The chat input, once the assistant tab (mounted after the first paint) is there."""
    await until(pilot, lambda: app.query("#chat-input"))
    return app.query_one("#chat-input", ChatInput)


async def ask(pilot: Any, app: PkuHarnessApp, message: str) -> None:
    await pilot.press("2")
    box = await chat_ready(pilot, app)
    box.load_text(message)
    box.focus()
    await pilot.press("enter")


async def test_a_streamed_answer_with_a_tool_call(tmp_path: Path, fake: tuple[FakeOpenAI, str]) -> None:
    server, url = fake
    server.add(calls(call("classrooms__free", '{"building": "二教"}'),
                     usage={"prompt_tokens": 80, "completion_tokens": 5, "total_tokens": 85}),
               text("二教有 **201** 和 202。",
               usage={"prompt_tokens": 90, "completion_tokens": 9, "total_tokens": 99}))  # fmt: skip
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "二教今天有哪些空教室?")
        await until(pilot, lambda: "二教有 **201** 和 202。" in shown(app), 10)
        await settle(pilot, app)
        text_now = shown(app)
        assert "二教今天有哪些空教室?" in text_now and "空闲教室 · 完成 ·" in text_now
        assert "共 184" in text_now  # token usage of both requests, as the server counted them
        line = app.query_one(".tool-ok", Collapsible)
        assert line.collapsed  # a success stays one line until opened
        # The dashboard fills its widgets (as the student) meanwhile: the chat's call is not always the newest row.
        assert ("classrooms.free", "agent") in [(e.tool, e.actor) for e in app.runtime.audit.recent(20)]


async def test_the_approval_card_allow_once_always_and_deny(tmp_path: Path, fake: tuple[FakeOpenAI, str]) -> None:
    server, url = fake
    server.add(
        calls(call("memory__remember", '{"text": "我住 45 楼"}')), text("记住了。"),
        calls(call("memory__remember", '{"text": "周五有课"}', id="c2")), text("也记住了。"),
        calls(call("memory__forget", '{"id": "m-1"}', id="c3")), text("好，不删。"),
    )  # fmt: skip
    app = chat_app(tmp_path, url)
    bells: list[int] = []
    app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "记住我住 45 楼")
        await until(pilot, lambda: card_ready(app), 10)
        assert bells == [1]  # the student is told something waits
        card = app.query_one(ApprovalCard)
        said = card_text(card)
        assert "记忆 · 记住一件事 (memory.remember) · 修改" in said and '"我住 45 楼"' in said
        assert "这个插件的修改工具设为「先询问」" in said  # the gate's reason, in the app's language
        await pilot.click("#once")
        await until(pilot, lambda: "记住了。" in shown(app), 10)
        assert "已允许一次" in shown(app)  # the card stays, saying what was decided
        assert app.runtime.grants.mode("memory", "write", True, None) == "ask"

        await ask(pilot, app, "再记住周五有课")
        await until(pilot, lambda: card_ready(app, 2), 10)
        await pilot.click(app.query(ApprovalCard).last().query_one("#always"))
        await until(pilot, lambda: "也记住了。" in shown(app), 10)
        assert app.runtime.grants.mode("memory", "write", True, None) == "allow"
        assert "已在设置里把 记忆 的 修改 工具改为「允许」" in shown(app)  # the app's word, not `write`

        await ask(pilot, app, "删掉它")  # forget is a write too: now allowed, so it runs without a card
        await until(pilot, lambda: "好，不删。" in shown(app), 10)
        assert len(app.query(ApprovalCard)) == 2


async def test_deny_with_a_reason_reaches_the_model(tmp_path: Path, fake: tuple[FakeOpenAI, str]) -> None:
    server, url = fake
    server.add(calls(call("memory__remember", '{"text": "x"}')), text("好的，不记。"))
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "记住 x")
        await until(pilot, lambda: card_ready(app), 10)
        app.query_one("#reason", Input).value = "这个不用记"
        await pilot.click("#deny")
        await until(pilot, lambda: "好的，不记。" in shown(app), 10)
        await settle(pilot, app)
        assert "已拒绝：这个不用记" in shown(app)
        copied: list[str] = []
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
        app.query_one(ChatPane).action_copy_answer()
        await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
        dialog = app.screen
        assert isinstance(dialog, ChooseDialog) and dialog.choices[0].startswith("1. 好的，不记。")
        dialog.dismiss(dialog.choices[1])
        await until(pilot, lambda: copied == ["记住 x"])
        failed = app.query_one(".tool-declined", Collapsible)
        assert not failed.collapsed  # failures are shown expanded
        tool_message = next(m for m in server.requests[1]["messages"] if m["role"] == "tool")
        assert "这个不用记" in tool_message["content"]


async def test_errors_become_a_banner_with_what_to_do(tmp_path: Path, fake: tuple[FakeOpenAI, str]) -> None:
    server, url = fake
    server.add({"status": 402, "body": {"error": {"message": "Insufficient Balance"}}})
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "你好")
        await until(pilot, lambda: app.query(".banner"), 10)
        assert "账户余额不足" in shown(app) and "Insufficient Balance" in shown(app)
        # The detail under it speaks the app's language too; the server's own words stay as they came.
        assert "账户余额不足（HTTP 402）：" in shown(app)
        assert "no balance left" not in shown(app)


async def test_retry_and_resume_a_conversation(tmp_path: Path, fake: tuple[FakeOpenAI, str]) -> None:
    server, url = fake
    # The stream ends a second after its text: the answer is on screen a second before it can be stored.
    server.add({"status": 500}, {"status": 500}, {"status": 500}, {**text("第二次成功"), "last_delay": 1})
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "你好")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: app.query(".banner") and not working(app), 15)
        assert "服务器出错了" in shown(app)
        pane.action_retry()
        # The answer is on screen while it streams, and stored when the model has finished: the working line goes
        # only after that, so what the student sees as ended is in the history.
        await until(pilot, lambda: "第二次成功" in shown(app) and not working(app), 10)
        cid = pane.cid
        assert [m["role"] for m in pane.history.messages(cid)] == ["user", "assistant"]  # type: ignore[arg-type]
        await pane.action_new()
        assert "第二次成功" not in shown(app)
        await pane.resume(cid)  # type: ignore[arg-type]
        assert "第二次成功" in shown(app) and "你好" in shown(app)


async def test_without_a_model_it_says_how_and_still_runs_tools(tmp_path: Path, monkeypatch: Any) -> None:
    # As outside the demo: no configured model and no demo model (test_demo_assistant has the demo's).
    monkeypatch.setattr("tui.runtime.chat.demo_model.DEMO_CONFIG", None)
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        assert "还没有设置模型" in shown(app) and "pku-harness model set" in shown(app)
        await pilot.click("#run-tool")
        await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
        dialog = app.screen
        assert isinstance(dialog, ChooseDialog)
        dialog.dismiss(next(c for c in dialog.choices if "(shuttle.next)" in c))
        await until(pilot, lambda: isinstance(app.screen, ToolFormScreen))


async def test_setting_a_model_in_settings(tmp_path: Path, fake: tuple[FakeOpenAI, str], memory_keyring: Any) -> None:
    server, url = fake
    server.add(text("你好！"))
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_section(pilot, app, "model")
        app.query_one("#model-provider").value = "vllm"  # type: ignore[attr-defined]
        await settle(pilot, app)
        assert app.query_one("#model-url", Input).value == "http://127.0.0.1:8000/v1"
        app.query_one("#model-url", Input).value = url
        app.query_one("#model-name", Input).value = "qwen"
        app.query_one("#model-key", Input).value = "sk-local-1"
        await pilot.click("#model-save")
        await settle(pilot, app)
        assert app.query_one("#model-key", Input).value == ""  # the key does not stay on screen
        assert memory_keyring.items[("pku-harness", "model:vllm")] == "sk-local-1"
        await ask(pilot, app, "hi")
        await until(pilot, lambda: "你好！" in shown(app), 10)
        assert server.requests[0]["model"] == "qwen" and server.headers[0]["authorization"] == "Bearer sk-local-1"


async def test_escape_stops_a_running_reply(tmp_path: Path, fake: tuple[FakeOpenAI, str]) -> None:
    server, url = fake
    server.add({**text("太慢了"), "delay": 3}, text("下一句"))
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "你好")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: pane.running)
        await pilot.press("escape")
        await until(pilot, lambda: not pane.running and "已停止" in shown(app), 5)
        assert "太慢了" not in shown(app)


async def test_edit_and_resend_then_delete(tmp_path: Path, fake: tuple[FakeOpenAI, str]) -> None:
    server, url = fake
    server.add(text("一教没有"), text("二教有 201"))
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "一教有空教室吗")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: "一教没有" in shown(app) and not pane.running, 10)
        box = app.query_one("#chat-input", ChatInput)
        box.focus()
        await pilot.press("up")  # the last message comes back to edit
        assert box.text == "一教有空教室吗"
        box.load_text("二教有空教室吗")
        await pilot.press("enter")
        await until(pilot, lambda: "二教有 201" in shown(app) and not pane.running, 10)
        assert "一教没有" not in shown(app)  # the edited message and its answer are gone
        cid = pane.cid
        assert [m.get("content") for m in pane.history.messages(cid)] == ["二教有空教室吗", "二教有 201"]  # type: ignore[arg-type]
        assert server.requests[1]["messages"][-1] == {"role": "user", "content": "二教有空教室吗"}
        pane.action_delete_conversation()
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        app.screen.dismiss(True)
        await until(pilot, lambda: pane.history.conversations() == [] and pane.cid is None)
