"""The student in another window is told when the app waits for them (issue 19 item 6): an approval card, a
verification code, a long answer. The bell, the window title and a desktop notification (a fake `notify-send` on
PATH records its arguments), each switched off in 设置 → 提醒."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import Switch

from tests.app.helpers import open_settings_section, settle, until
from tests.app.test_chat_pane import card_ready, chat_app, chat_ready, shown
from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tui.app import attention
from tui.app.app import PkuHarnessApp
from tui.app.dialogs.prompts import CodePrompt

SIZE = (110, 40)
APPROVAL_TITLE = "\x1b]0;● PKU harness — 等待你的确认\x07"


@pytest.fixture
def fake() -> Iterator[tuple[FakeOpenAI, str]]:
    server = FakeOpenAI()
    with server.serve() as url:
        yield server, url


@pytest.fixture
def notify_send(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `notify-send` on PATH that writes its arguments (one per line) to the file returned."""
    out = tmp_path / "notify-send.log"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "notify-send"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" >> {out}\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    for name in ("SSH_CONNECTION", "SSH_TTY"):  # on this machine's desktop, not a terminal's far end
        monkeypatch.delenv(name, raising=False)
    return out


def watched(app: PkuHarnessApp) -> tuple[list[int], list[str]]:
    """The bells rung and what was written to the terminal (a headless app has none to write to)."""
    bells: list[int] = []
    written: list[str] = []
    app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
    app.attention._write = written.append  # type: ignore[method-assign]
    app.attention.platform = "linux"
    return bells, written


async def blur(pilot: Any, app: PkuHarnessApp) -> None:
    """The terminal reports that the student went to another window."""
    app.post_message(events.AppBlur())
    await until(pilot, lambda: not app.app_focus)


async def send(pilot: Any, app: PkuHarnessApp, message: str) -> None:
    """Send from the chat without a key (a key would tell Textual the student is back)."""
    box = await chat_ready(pilot, app)
    box.load_text(message)
    box.action_send()


async def test_an_approval_card_calls_the_student_back(
    tmp_path: Path, fake: tuple[FakeOpenAI, str], notify_send: Path
) -> None:
    server, url = fake
    server.add(calls(call("memory__remember", '{"text": "我住 45 楼"}')), text("记住了。"))
    app = chat_app(tmp_path, url)
    bells, written = watched(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await chat_ready(pilot, app)
        await blur(pilot, app)
        await send(pilot, app, "记住我住 45 楼")
        await until(pilot, lambda: card_ready(app), 10)
        assert bells == [1]
        assert app.attention.title_shown == "● PKU harness — 等待你的确认"
        assert written[:2] == ["\x1b[22;0t", APPROVAL_TITLE]  # the terminal's own title kept on its stack
        await until(pilot, notify_send.exists, 10)
        await until(pilot, lambda: notify_send.read_text().count("\n") >= 4)
        argv = notify_send.read_text().splitlines()
        assert argv == ["--app-name=PKU harness", "--", "助手等你确认", "记忆 · 记住一件事"]

        app.post_message(events.AppFocus())  # back in the window: the terminal's title again
        await until(pilot, lambda: app.attention.title_shown is None)
        assert written[-1] == "\x1b]0;PKU harness\x07\x1b[23;0t"
        await pilot.click("#once")
        await until(pilot, lambda: "记住了。" in shown(app), 10)
        assert bells == [1] and len(app.attention.sent) == 1  # the answer was quick: nothing more


async def test_switched_off_in_settings_nothing_is_said(
    tmp_path: Path, fake: tuple[FakeOpenAI, str], notify_send: Path
) -> None:
    server, url = fake
    server.add(calls(call("memory__remember", '{"text": "x"}')), text("好。"))
    app = chat_app(tmp_path, url)
    bells, written = watched(app)
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_section(pilot, app, "alerts")
        switches = [app.query_one(f"#attention-{name}", Switch) for name in attention.SWITCHES]
        assert all(s.value for s in switches)  # on by default
        await pilot.press("enter")  # into the section: its first switch
        assert switches[0].has_focus
        await pilot.press("space", "tab", "space", "tab", "space")
        await until(pilot, lambda: not any(s.value for s in switches))
        assert not any(app.attention.enabled(name) for name in attention.SWITCHES)  # kept in the store

        await pilot.press("escape", "2")
        await chat_ready(pilot, app)
        await blur(pilot, app)
        await send(pilot, app, "记住 x")
        await until(pilot, lambda: card_ready(app), 10)  # the card waits: told before it came, or never
        await pilot.pause(0.3)
        assert bells == [] and written == [] and app.attention.sent == []
        assert not notify_send.exists()


async def test_a_long_answer_is_announced_only_to_a_student_elsewhere(
    tmp_path: Path, fake: tuple[FakeOpenAI, str], notify_send: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, url = fake
    server.add(text("一。"), text("二。"), text("三。"))
    app = chat_app(tmp_path, url)
    bells, written = watched(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await chat_ready(pilot, app)
        await blur(pilot, app)
        await send(pilot, app, "快问")  # blurred, but a quick answer: the student was waiting for it
        await until(pilot, lambda: "一。" in shown(app), 10)
        await settle(pilot, app)
        assert bells == [] and app.attention.sent == []

        monkeypatch.setattr(attention, "LONG_TURN_S", 0.0)  # every turn counts as long from here
        await send(pilot, app, "慢问")
        await until(pilot, lambda: "二。" in shown(app), 10)
        await until(pilot, lambda: app.attention.sent != [], 10)
        assert bells == [1] and "\x1b]0;● PKU harness — 助手已回答\x07" in written
        await until(pilot, lambda: notify_send.exists() and "助手回答完了" in notify_send.read_text(), 10)
        assert re.search(r"\n用了 \d+ 秒\n", notify_send.read_text())  # the turn's time

        app.post_message(events.AppFocus())
        await until(pilot, lambda: app.attention.title_shown is None)
        await send(pilot, app, "再问")  # looking at it: nothing
        await until(pilot, lambda: "三。" in shown(app), 10)
        await settle(pilot, app)
        assert bells == [1] and len(app.attention.sent) == 1


async def test_without_focus_reports_only_the_approval_card_rings(
    tmp_path: Path, fake: tuple[FakeOpenAI, str], notify_send: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal that never says where the student looks: the card rings as it always did, no title, no
    notification, and a finished answer says nothing (it would on every turn)."""
    server, url = fake
    server.add(calls(call("memory__remember", '{"text": "x"}')), text("好。"))
    monkeypatch.setattr(attention, "LONG_TURN_S", 0.0)
    app = chat_app(tmp_path, url)
    bells, written = watched(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await send(pilot, app, "记住 x")
        await until(pilot, lambda: card_ready(app), 10)
        await pilot.click("#once")
        await until(pilot, lambda: "好。" in shown(app), 10)
        await settle(pilot, app)
        assert bells == [1] and written == [] and app.attention.sent == []


async def test_a_verification_code_prompt_calls_the_student_back(tmp_path: Path, notify_send: Path) -> None:
    app = chat_app(tmp_path, None)
    bells, written = watched(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await blur(pilot, app)
        asked = app.run_worker(app.runtime.abilities.ui.await_sms_code())  # a plugin's sms.awaitCode
        await until(pilot, lambda: isinstance(app.screen, CodePrompt))
        await until(pilot, lambda: bells == [1])  # once the prompt is mounted (it is on top before that)
        assert "\x1b]0;● PKU harness — 等待你输入验证码\x07" in written
        await until(pilot, lambda: notify_send.exists() and notify_send.read_text().count("\n") >= 4, 10)
        assert notify_send.read_text().splitlines()[2:] == ["需要你输入验证码", "请输入收到的短信验证码"]
        await pilot.press(*"123456", "enter")  # typing: the student is back, and the code goes into the prompt
        await until(pilot, lambda: asked.is_finished)
        assert asked.result == "123456"
        assert app.attention.title_shown is None
