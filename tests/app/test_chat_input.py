"""The assistant's composer driven with the keyboard, against the fake OpenAI-compatible server: Enter sends,
Shift+Enter and Ctrl+J break the line, a long paste arrives whole in the request, the box grows then scrolls,
the working line (spinner and seconds) while the model works, the pane's keys acting from the box, the footer.

The tests type with the pilot and read what the server received, so they say the same thing of any input widget.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from tests.app.helpers import settle, until
from tests.app.test_chat_pane import SIZE, chat_app, shown
from tests.runtime.fake_openai import FakeOpenAI, text
from tui.app.dialogs.prompts import ChooseDialog, ConfirmDialog
from tui.app.widgets.chat_pane import ChatPane


@pytest.fixture
def fake() -> Iterator[tuple[FakeOpenAI, str]]:
    server = FakeOpenAI()
    with server.serve() as url:
        yield server, url


async def focused_box(pilot: Any, app: Any) -> Any:
    """The assistant tab's message box, focused (the tab mounts after the first paint)."""
    await pilot.press("2")
    await until(pilot, lambda: app.query("#chat-input"))
    box = app.query_one("#chat-input")
    box.focus()
    await pilot.pause()
    return box


def sent(server: FakeOpenAI, n: int = 0) -> str:
    """The last message of the `n`th request the server received (the student's)."""
    return str(server.requests[n]["messages"][-1]["content"])


def working_line(app: Any) -> Static | None:
    """The spinner line when it is on screen."""
    found = app.query("#chat-working")
    return found.first() if found and found.first().display else None


async def test_enter_sends_and_shift_enter_or_ctrl_j_break_the_line(tmp_path: Path, fake: Any) -> None:
    server, url = fake
    server.add(text("好的"))
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await focused_box(pilot, app)
        await pilot.press("a", "shift+enter", "b", "ctrl+j", "c")
        app.post_message(events.Key("shift+\r", "\r"))  # Shift+Enter from xterm's modifyOtherKeys (tmux too)
        await pilot.press("d")
        assert not server.requests  # a new line is not a send
        await pilot.press("enter")
        await until(pilot, lambda: server.requests, 10)
        assert sent(server) == "a\nb\nc\nd"
        await until(pilot, lambda: "好的" in shown(app), 10)
        assert "a\nb\nc\nd" in shown(app)  # the student's message is shown with its lines


async def test_keys_that_arrive_at_once_keep_their_order(tmp_path: Path, fake: Any) -> None:
    """A burst of keys (typed fast over ssh, `tmux send-keys`, a terminal without bracketed paste): the line break
    and the Enter act where they came, after the letters before them."""
    server, url = fake
    server.add(text("好的"))
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await focused_box(pilot, app)
        for key, char in [("a", "a"), ("b", "b"), ("ctrl+j", "\n"), ("c", "c"), ("d", "d"), ("enter", "\r")]:
            app.post_message(events.Key(key, char))  # all queued before any is handled
        await until(pilot, lambda: server.requests, 10)
        assert sent(server) == "ab\ncd"


async def test_a_400_line_paste_keeps_every_line(tmp_path: Path, fake: Any) -> None:
    server, url = fake
    server.add(text("收到"))
    app = chat_app(tmp_path, url)
    lines = [f"第 {i} 行：{'x' * (i % 7)}" for i in range(1, 401)]
    async with app.run_test(size=SIZE) as pilot:
        await focused_box(pilot, app)
        app.post_message(events.Paste("\n".join(lines)))  # what the terminal sends for a bracketed paste
        await pilot.pause()
        assert not server.requests  # a pasted line break does not send
        await pilot.press("enter")
        await until(pilot, lambda: server.requests, 10)
        assert sent(server).split("\n") == lines


async def test_a_pasted_text_with_carriage_returns_keeps_its_lines(tmp_path: Path, fake: Any) -> None:
    """Terminals send a pasted line break as CR: it is a line break in the message, not Enter."""
    server, url = fake
    server.add(text("收到"))
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await focused_box(pilot, app)
        app.post_message(events.Paste("一\r二\r\n三"))
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: server.requests, 10)
        assert sent(server) == "一\n二\n三"


async def test_the_box_grows_with_its_text_then_scrolls(tmp_path: Path) -> None:
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        box = await focused_box(pilot, app)
        empty = box.outer_size.height
        await pilot.press("a", "ctrl+j", "b", "ctrl+j", "c")
        await pilot.pause()
        assert box.outer_size.height == empty + 2  # three lines: two more rows
        for _ in range(20):
            await pilot.press("ctrl+j", "d")
        await pilot.pause()
        assert box.outer_size.height == empty + 5  # six lines of text at most, then it scrolls
        assert box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y  # the cursor's line is in view


async def test_a_spinner_and_seconds_while_the_model_works(tmp_path: Path, fake: Any) -> None:
    server, url = fake
    # The first token comes 4 s after the headers: the spinner must be seen in two different seconds before it,
    # and under load the line appeared late enough that 2.5 s held one (failed once in a clean-clone run).
    server.add({**text("想好了"), "first_delay": 4.0})
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await focused_box(pilot, app)
        assert working_line(app) is None  # nothing runs yet
        await pilot.press("h", "i", "enter")
        await until(pilot, lambda: working_line(app), 5)
        frames: set[str] = set()
        seconds: set[str] = set()

        def counting() -> bool:
            line = working_line(app)
            shown_now = str(line.render()) if line is not None else ""
            found = re.fullmatch(r"(\S) 助手在工作… (\d+) 秒", shown_now)
            if found:
                frames.add(found[1])
                seconds.add(found[2])
            return len(frames) > 1 and len(seconds) > 1

        await until(pilot, counting, 10)  # the spinner turns and the seconds go up
        assert "想好了" not in shown(app)  # all that while, no token had come
        await until(pilot, lambda: "想好了" in shown(app) and working_line(app) is None, 10)
        assert not app.query_one(ChatPane).running


async def test_export_and_the_other_pane_keys_act_from_the_box(tmp_path: Path, fake: Any) -> None:
    server, url = fake
    server.add(text("二教有 201"))
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        box = await focused_box(pilot, app)
        await pilot.press("h", "i", "enter")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: "二教有 201" in shown(app) and working_line(app) is None, 10)
        assert app.focused is box
        await pilot.press("ctrl+s")  # export
        exported = tmp_path / f"{pane.cid}.md"
        await until(pilot, exported.exists)
        assert "**助手:** 二教有 201" in exported.read_text(encoding="utf-8")  # in the app's language
        await pilot.press("a", "b", "c", "home", "ctrl+e", "d")  # Ctrl+E stays the box's end of line
        assert box.text == "abcd"
        await pilot.press("ctrl+y")  # copy a message
        await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
        await pilot.press("escape")
        await until(pilot, lambda: app.focused is box)
        await pilot.press("home", "ctrl+d")  # delete the conversation (asked first), not the character after the cursor
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("escape")
        await settle(pilot, app)
        assert box.text == "abcd" and pane.history.conversations()


async def test_the_footer_shows_the_keys_of_the_box(tmp_path: Path, fake: Any) -> None:
    server, url = fake
    server.add({**text("慢"), "first_delay": 2})
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await focused_box(pilot, app)
        await settle(pilot, app)

        def footer() -> dict[str, tuple[str, bool]]:
            return {k.key: (k.description, k.has_class("-disabled")) for k in app.query(FooterKey)}

        keys = footer()
        assert keys["enter"] == ("发送", False)  # one language: the keys speak the UI's
        assert keys["up"] == ("编辑上一条", False)
        assert keys["escape"] == ("停止 / 离开", False)  # nothing runs: Esc leaves the box (then 1–4 switch tabs)
        await pilot.press("h", "i", "enter")
        await until(pilot, lambda: footer()["escape"] == ("停止 / 离开", False), 5)
        await pilot.press("escape")
        await until(pilot, lambda: "已停止" in shown(app), 5)
        assert working_line(app) is None


@pytest.mark.parametrize("ours", [True, False])
async def test_an_empty_box_squeezed_to_no_width_draws_blank(ours: bool) -> None:
    """Found by the key masher at MASH_SCALE=20: mid-resize at 50x15 the box was drawn 4 cells wide while its
    room for text was 0 (the crash's locals), and Textual's wrap of the placeholder raised ValueError and ended
    the app. The box is drawn in that state here."""
    from textual.app import App, ComposeResult
    from textual.geometry import Size
    from textual.widgets import TextArea

    from tui.app.widgets.chat_input import ChatInput

    base = ChatInput if ours else TextArea

    class Squeezed(base):  # type: ignore[misc, valid-type]
        @property
        def content_size(self) -> Size:
            return Size(0, 1)

    words = "Ask, e.g. free rooms in 二教 now?"  # the English placeholder: its spaces are where the wrap failed
    box = Squeezed(words) if ours else Squeezed(placeholder=words)

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield box

    app = Host()
    if ours:
        async with app.run_test(size=(40, 8)) as pilot:
            await pilot.pause()
            assert app._exception is None and box.render_line(0).cell_length == box.size.width
    else:  # Textual's own TextArea: the crash this guards against ends the app
        with pytest.raises(ValueError, match="must not be zero"):
            async with app.run_test(size=(40, 8)) as pilot:
                await pilot.pause()


async def test_with_no_model_the_message_stays_in_the_box(tmp_path: Path, monkeypatch: Any) -> None:
    """Found by a new student: with no model set up, Enter emptied the box and the message was gone (not shown,
    not in the history, not brought back by ↑). It stays in the box, and a notice says what to do."""
    monkeypatch.setattr("tui.runtime.chat.demo_model.DEMO_CONFIG", None)  # as outside the demo
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        box = await focused_box(pilot, app)
        await pilot.press(*"二教", "ctrl+j", *"第二行", "enter")
        await settle(pilot, app)
        assert box.text == "二教\n第二行"
        said = [str(n.message) for n in app._notifications]
        assert any("消息留在输入框里" in m for m in said), said


async def test_an_undo_textual_cannot_apply_keeps_the_text_and_the_app(tmp_path: Path, monkeypatch: Any) -> None:
    """Fault injection for what the key masher met in CI (seed 3, 105 keys): TextArea's undo raised
    `ValueError: The document line index 1 is out of bounds` and ended the app. Now the text stays, the history
    goes."""
    from textual.widgets import TextArea

    def broken(self: TextArea) -> None:
        raise ValueError("The document line index 1 is out of bounds. The document contains 1 lines.")

    monkeypatch.setattr(TextArea, "undo", broken)
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        box = await focused_box(pilot, app)
        for ch in "ab":
            await pilot.press(ch)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app._exception is None and box.text == "ab"
        assert not box.history.undo_stack
