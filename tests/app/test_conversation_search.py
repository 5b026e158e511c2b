"""助手's Ctrl+O as a student uses it: earlier conversations listed newest first, narrowed as a search is typed
(Chinese of three characters and of two), opened with the keyboard alone or a click; Esc closes; fast keys and a
double Enter never end the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input

from tests.app.helpers import burst, settle, until
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.conversation_search import ConversationSearch, ResultList
from tui.app.widgets.chat_pane import ChatPane
from tui.runtime.chat.history import ChatHistory

NOW = "2026-11-30T12:00:00+08:00"
SIZE = (110, 40)

#: Three conversations, oldest first: (first question, answer).
TALKS = [
    ("二教今天有空教室吗？", "二教现在空着 201 和 202。"),
    ("去昌平的校车几点发车", "下一班 12:30 从燕园出发。"),
    ("哪里可以打印", "理教和图书馆都有打印机，二教没有。"),
]


def stored(app: PkuHarnessApp) -> list[str]:
    """TALKS in the app's store (as the chat would have left them); their ids, oldest first."""
    history = ChatHistory(app.runtime.store)
    ids = []
    for n, (question, answer) in enumerate(TALKS):
        cid = history.start(question)
        history.append(cid, {"role": "user", "content": question})
        history.append(cid, {"role": "assistant", "content": answer})
        app.runtime.store.db.execute("UPDATE chat_sessions SET updated_ms = ? WHERE id = ?", (n + 1, cid))
        ids.append(cid)
    return ids


def dialog(app: PkuHarnessApp) -> ConversationSearch:
    screen = app.screen
    assert isinstance(screen, ConversationSearch)
    return screen


def rows(app: PkuHarnessApp) -> list[str]:
    """The list as the student reads it: each row's text."""
    results = dialog(app).query_one(ResultList)
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


def status(app: PkuHarnessApp) -> str:
    """The line under the list: how many, and for what."""
    return str(dialog(app).query_one("#conversation-status").render())


def shown(app: PkuHarnessApp) -> str:
    from textual.widgets import Markdown, Static

    pane = app.query_one(ChatPane)
    return "\n".join([str(w.render()) for w in pane.query(Static)] + [w.source for w in pane.query(Markdown)])


async def opened(pilot: Any, app: PkuHarnessApp) -> ConversationSearch:
    """助手, then Ctrl+O from the message box: the dialog with its list."""
    await pilot.press("2")
    await until(pilot, lambda: app.query("#chat-input"))
    app.query_one("#chat-input").focus()
    await pilot.press("ctrl+o")
    await until(pilot, lambda: isinstance(app.screen, ConversationSearch) and app.screen.query(ResultList))
    await pilot.pause(0.05)  # not settle(): the chat's worker waits for the dialog's answer
    return dialog(app)


async def typed(pilot: Any, app: PkuHarnessApp, text: str) -> None:
    """Type into the search box key by key (after emptying it), as a student does."""
    box = dialog(app).query_one(Input)
    await pilot.press(*["backspace"] * len(box.value), *text)
    await until(pilot, lambda: dialog(app).query_text == text)


async def test_typing_narrows_the_list_and_the_keyboard_opens_a_conversation(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    rooms, bus, printing = stored(app)
    async with app.run_test(size=SIZE) as pilot:
        search = await opened(pilot, app)
        assert search.query_one(Input).has_focus
        assert [r.split("  ")[0] for r in rows(app)] == ["哪里可以打印", "去昌平的校车几点发车", "二教今天有空教室吗？"]
        assert "共 3 段对话，最新的在前" in status(app)

        await typed(pilot, app, "空教室")  # three characters: the full-text index
        assert [r.split("  ")[0] for r in rows(app)] == ["二教今天有空教室吗？"]
        assert "1 段对话提到「空教室」" in status(app)
        await typed(pilot, app, "燕园")  # two characters: found in an answer, the text around it under the title
        [hit] = rows(app)
        assert hit.startswith("去昌平的校车几点发车") and hit.endswith("\n  下一班 12:30 从燕园出发。")
        await typed(pilot, app, "二教")
        assert [r.split("  ")[0] for r in rows(app)] == ["哪里可以打印", "二教今天有空教室吗？"]
        assert "理教和图书馆都有打印机，二教没有。" in rows(app)[0]  # the hit is in its answer, not its title
        await typed(pilot, app, "图书馆 二教")  # every word, in one message
        assert [r.split("  ")[0] for r in rows(app)] == ["哪里可以打印"]
        await typed(pilot, app, "没说过的话")
        assert rows(app) == [] and "没有对话提到「没说过的话」" in status(app)
        assert not search.query_one(ResultList).display  # no empty frame under the box

        await typed(pilot, app, "二教")
        await pilot.press("down", "down")  # into the list, then its second row
        results = search.query_one(ResultList)
        assert results.has_focus and results.highlighted == 1
        await pilot.press("up", "up")  # ↑ on the first row: back to the box
        assert search.query_one(Input).has_focus
        await pilot.press("down", "down", "enter")
        await until(pilot, lambda: not isinstance(app.screen, ConversationSearch))
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: pane.cid == rooms and "二教现在空着 201 和 202。" in shown(app))
        assert "二教今天有空教室吗？" in shown(app) and bus != printing


async def test_enter_in_the_box_opens_the_first_hit_and_a_letter_in_the_list_goes_to_the_box(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    _, bus, _ = stored(app)
    async with app.run_test(size=SIZE) as pilot:
        search = await opened(pilot, app)
        await pilot.press("down", "down")
        await pilot.press(*"校车")  # typed while in the list: the search goes on in the box
        await until(pilot, lambda: search.query_text == "校车")
        assert search.query_one(Input).has_focus and len(rows(app)) == 1
        await pilot.press("enter")
        await until(pilot, lambda: app.query_one(ChatPane).cid == bus)


async def test_a_click_opens_a_row_and_escape_closes_without_opening(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    _, _, printing = stored(app)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ConversationSearch))
        assert app.query_one(ChatPane).cid is None
        await opened(pilot, app)
        await pilot.click(ResultList, offset=(4, 1))  # the first row (under the border): the newest
        await until(pilot, lambda: app.query_one(ChatPane).cid == printing)
        assert not isinstance(app.screen, ConversationSearch)


async def test_a_double_enter_and_fast_keys_open_once_and_the_app_lives(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    rooms, _, _ = stored(app)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, app)
        burst(app, [*"空教室", "enter", "enter"])  # typed and sent at once: the list follows before Enter
        await until(pilot, lambda: app.query_one(ChatPane).cid == rooms)
        await settle(pilot, app)
        assert app.return_code is None and app._exception is None
        assert not isinstance(app.screen, ConversationSearch)
        await opened(pilot, app)
        burst(app, ["down", "enter", "enter", "escape", "ctrl+o", "escape"])
        await settle(pilot, app)
        assert app.return_code is None and app._exception is None


async def test_without_conversations_ctrl_o_says_so_and_in_english_the_dialog_speaks_it(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await until(pilot, lambda: app.query("#chat-input"))
        app.query_one("#chat-input").focus()
        await pilot.press("ctrl+o")
        await until(pilot, lambda: any("No conversations yet" in str(n.message) for n in app._notifications))
        assert not isinstance(app.screen, ConversationSearch)
        stored(app)
        await opened(pilot, app)
        assert "3 in all, newest first" in status(app)
        await typed(pilot, app, "library")
        assert "No conversation mentions “library”" in status(app)


async def test_a_configured_model_names_a_new_conversation_and_ctrl_o_lists_it_so(tmp_path: Path) -> None:
    """After the first answer the model is asked for a title (its own short request); Ctrl+O then lists the
    conversation by it, and the second question asks for none."""
    from tests.app.test_chat_pane import ask, chat_app
    from tests.runtime.fake_openai import FakeOpenAI, text

    fake = FakeOpenAI(text("二教现在空着 201 和 202。"), text("下午也空着。"))
    fake.titles.append(text("「二教空教室」"))
    with fake.serve() as url:
        app = chat_app(tmp_path, url)
        async with app.run_test(size=SIZE) as pilot:
            await ask(pilot, app, "二教今天有空教室吗？我想下午自习")
            pane = app.query_one(ChatPane)
            await until(pilot, lambda: len(fake.title_requests) == 1 and not pane.running)
            history = ChatHistory(app.runtime.store)
            await until(pilot, lambda: history.conversations()[0].title == "二教空教室")
            await ask(pilot, app, "下午呢")
            await until(pilot, lambda: not pane.running and "下午也空着" in pane.last_answer)
            await opened(pilot, app)
            assert rows(app)[0].startswith("二教空教室  ")
            await typed(pilot, app, "空教室")
            await until(pilot, lambda: len(rows(app)) == 1)
    assert len(fake.title_requests) == 1 and len(fake.requests) == 2
