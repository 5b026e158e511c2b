"""Plugins' quick commands (快捷指令, issue 18 item 2) as a student meets them: in the Ctrl+P palette with the
plugin's name, and in 助手 by typing `/`; choosing one sends its prompt, runs its tool, or opens its screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.widgets import Markdown

from tests.app.helpers import settle, until
from tests.app.language_walk import screen_text
from tests.runtime.fake_openai import FakeOpenAI, text
from tui.app.app import PkuHarnessApp, make_app
from tui.app.screens.plugin_screen import PluginScreen
from tui.app.screens.tool_form import ToolFormScreen
from tui.app.widgets.chat_input import ChatInput
from tui.app.widgets.quick_command_list import QuickCommandList
from tui.runtime.chat.providers import save_config

PREFS = Path(__file__).resolve().parents[1] / "fixtures" / "plugins" / "prefs"
NOW = "2026-11-30T12:00:00+08:00"
SIZE = (110, 36)


@pytest.fixture
def fake() -> Iterator[tuple[FakeOpenAI, str]]:
    server = FakeOpenAI()
    with server.serve() as url:
        yield server, url


def prefs_app(tmp_path: Path, locale: str = "zh") -> PkuHarnessApp:
    return make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale, extra=[PREFS])


async def from_palette(pilot: Any, app: PkuHarnessApp, typed: str) -> list[str]:
    """Ctrl+P, type, and the palette's hits (their text); Enter then runs the highlighted first one."""
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    for ch in typed:
        await pilot.press(ch)
    await until(pilot, lambda: app.screen.query_one("CommandList").option_count)
    await pilot.pause(0.2)
    listed = app.screen.query_one("CommandList")
    return [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]


async def slash(pilot: Any, app: PkuHarnessApp, typed: str) -> QuickCommandList:
    """In 助手, type `typed` into the message box; the `/` list under it."""
    await pilot.press("2")
    await until(pilot, lambda: app.query("#chat-input"))
    box = app.query_one("#chat-input", ChatInput)
    box.focus()
    await pilot.pause()
    for ch in typed:
        await pilot.press(ch)
    await pilot.pause()
    return app.query_one(QuickCommandList)


def labels(listed: QuickCommandList) -> list[str]:
    return [c.label for c in listed.shown] if listed.open else []


async def test_the_notices_command_is_in_the_palette_and_is_sent_to_the_assistant(
    tmp_path: Path, fake: tuple[FakeOpenAI, str]
) -> None:
    server, url = fake
    server.add(text("今天有两条和你有关的通知。"))
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    save_config(app.runtime.store, "custom", url, "any")
    async with app.run_test(size=SIZE) as pilot:
        hits = await from_palette(pilot, app, "今天的通知")
        assert any("通知 · 今天的通知" in h for h in hits), hits
        await pilot.press("enter")
        await until(pilot, lambda: any("两条" in m.source for m in app.query(Markdown)), 10)
        asked = server.requests[0]["messages"][-1]
        assert asked == {"role": "user", "content": "看看今天学校有什么新通知，挑和我有关的说。"}
        assert app.query_one("#chat-input", ChatInput).text == ""  # sent, not left in the box


async def test_without_a_model_a_prompt_command_waits_in_the_box_and_says_why(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr("tui.runtime.chat.demo_model.DEMO_CONFIG", None)  # as outside the demo: no model at all
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await from_palette(pilot, app, "今天的通知")
        await pilot.press("enter")
        await until(pilot, lambda: app.query("#chat-input") and app.query_one("#chat-input", ChatInput).text, 5)
        assert app.query_one("#chat-input", ChatInput).text == "看看今天学校有什么新通知，挑和我有关的说。"
        await until(pilot, lambda: any("还没有设置模型" in str(n.message) for n in app._notifications), 5)


async def test_slash_lists_the_commands_and_narrows_them(tmp_path: Path) -> None:
    app = prefs_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        listed = await slash(pilot, app, "/")
        assert labels(listed) == [
            "通知 · 今天的通知", "学习偏好 · 打个招呼", "学习偏好 · 看看偏好", "学习偏好 · 偏好卡片"
        ]  # fmt: skip
        for ch in "偏好":
            await pilot.press(ch)
        await pilot.pause()
        # the plugin's name has 偏好 too: its three, not the notices one
        assert labels(listed) == ["学习偏好 · 打个招呼", "学习偏好 · 看看偏好", "学习偏好 · 偏好卡片"]
        await pilot.press("escape")  # closes the list, keeps the text
        await pilot.pause()
        assert not listed.open and app.query_one("#chat-input", ChatInput).text == "/偏好"
        await pilot.press("backspace", "backspace", "backspace")
        await pilot.pause()
        assert not listed.open  # no `/` left: no list


async def test_a_tool_command_runs_its_tool_in_the_form(tmp_path: Path) -> None:
    app = prefs_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        listed = await slash(pilot, app, "/看看")
        assert labels(listed) == ["学习偏好 · 看看偏好"]
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ToolFormScreen))
        await until(pilot, lambda: "同学" in screen_text(app), 10)
        assert app.screen_stack[0].query_one("#chat-input", ChatInput).text == ""  # the `/…` left the box
        assert ("prefs.echo", "user") in [(e.tool, e.actor) for e in app.runtime.audit.recent(20)]


async def test_a_screen_command_opens_its_screen_with_its_params(tmp_path: Path) -> None:
    app = prefs_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        listed = await slash(pilot, app, "/偏好")
        await pilot.press("up", "enter")  # ↑ from the first wraps to the last: 偏好卡片
        await until(pilot, lambda: isinstance(app.screen, PluginScreen))
        await until(pilot, lambda: "早上好，同学" in screen_text(app), 10)
        assert not listed.open


async def test_a_click_on_a_listed_command_chooses_it(tmp_path: Path) -> None:
    app = prefs_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        listed = await slash(pilot, app, "/卡片")
        await settle(pilot, app)
        assert labels(listed) == ["学习偏好 · 偏好卡片"]
        await pilot.click(QuickCommandList, offset=(4, 0))  # its one row
        await until(pilot, lambda: isinstance(app.screen, PluginScreen))


async def test_enter_on_a_slash_that_names_no_command_sends_the_text(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr("tui.runtime.chat.demo_model.DEMO_CONFIG", None)  # as outside the demo: no model at all
    app = prefs_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        listed = await slash(pilot, app, "/zzz")
        assert not listed.open
        await pilot.press("enter")  # no model: the text stays and the app says why, as for any message
        await until(pilot, lambda: any("还没有设置模型" in str(n.message) for n in app._notifications), 5)
        assert app.query_one("#chat-input", ChatInput).text == "/zzz"


async def test_english_titles_in_the_palette_and_the_list(tmp_path: Path) -> None:
    app = prefs_app(tmp_path, locale="en")
    async with app.run_test(size=SIZE) as pilot:
        hits = await from_palette(pilot, app, "Say hello")
        assert any("Study preferences · Say hello" in h for h in hits), hits
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, CommandPalette))
        listed = await slash(pilot, app, "/")
        assert "Study preferences · Preferences card" in labels(listed)
        assert "Notices · Today's notices" in labels(listed)


async def test_a_palette_search_that_finds_nothing_says_so_in_the_apps_language(tmp_path: Path) -> None:
    """An outsider's run: Textual's "No matches found" stayed English in the Chinese palette."""
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        for ch in "kkkkkk":
            await pilot.press(ch)
        listed = app.screen.query_one("CommandList")
        first = lambda: str(listed.get_option_at_index(0).prompt) if listed.option_count else ""  # noqa: E731
        await until(pilot, lambda: first() == "没有找到", 5)
        assert listed.option_count == 1
