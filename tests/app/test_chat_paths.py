"""助手 along the paths an outsider took (issue 19's try-out): the conversation survives a change of language,
PageUp/PageDown scroll the chat from the message box, an export in the demo lands where it is kept and speaks
the app's language, and the English card and the Chinese provider list say things in their own language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Select, Static

from tests.app.helpers import open_settings_section, settle, until
from tests.app.test_chat_pane import SIZE, ask, card_ready, card_text, chat_app, shown
from tui.app.widgets.approval_card import ApprovalCard
from tui.app.widgets.chat_log import ChatLog
from tui.app.widgets.chat_pane import ChatPane


async def answered(pilot: Any, app: Any, question: str) -> ChatPane:
    """Ask, and wait for the whole answer."""
    await ask(pilot, app, question)
    pane: ChatPane = app.query_one(ChatPane)
    await until(pilot, lambda: not pane.running and pane.last_answer, 10)
    return pane


async def test_the_conversation_stays_in_view_when_the_language_changes(tmp_path: Path) -> None:
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        pane = await answered(pilot, app, "二教今天有哪些空教室?")
        cid = pane.cid
        await app.set_language("en")
        await settle(pilot, app)
        await pilot.press("2")
        await until(pilot, lambda: app.query(ChatPane) and "二教今天有哪些空教室?" in shown(app), 10)
        assert app.query_one(ChatPane).cid == cid
        assert "201" in shown(app)  # the answer too, not only the question
        await pilot.press("ctrl+n")  # a new chat is empty, in the new language as well
        await settle(pilot, app)
        assert "二教今天有哪些空教室?" not in shown(app) and app.query_one(ChatPane).cid is None


async def test_page_keys_in_the_message_box_scroll_the_chat(tmp_path: Path) -> None:
    app = chat_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        for question in ("二教今天有哪些空教室?", "校园卡余额多少", "下一班校车几点"):
            await answered(pilot, app, question)
        await settle(pilot, app)
        log = app.query_one(ChatLog)
        bottom = log.max_scroll_y
        assert bottom > 0 and log.scroll_y == bottom
        app.query_one("#chat-input").focus()
        await pilot.press("pageup")
        await settle(pilot, app)
        assert log.scroll_y < bottom and app.focused is app.query_one("#chat-input")
        await pilot.press("pagedown", "pagedown")
        await settle(pilot, app)
        assert log.scroll_y == log.max_scroll_y


async def test_an_export_in_the_demo_is_kept_where_the_app_started_and_speaks_chinese(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo's data folder goes when the app quits; an export written there was lost."""
    started_in = tmp_path / "here"
    started_in.mkdir()
    monkeypatch.chdir(started_in)
    app = chat_app(tmp_path / "data", None)
    app.throwaway = True  # as `pku-harness --demo` makes it
    async with app.run_test(size=SIZE) as pilot:
        pane = await answered(pilot, app, "二教今天有哪些空教室?")
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        path = started_in / f"{pane.cid}.md"
        assert path.exists(), list(started_in.iterdir())
    text = path.read_text(encoding="utf-8")
    assert "**你:** 二教今天有哪些空教室?" in text and "**助手:** 【演示模型】" in text
    assert "工具 `classrooms__free`" in text and "  - 完成: " in text and "You:" not in text


async def test_an_english_denial_and_a_chinese_provider_list_use_their_own_words(tmp_path: Path) -> None:
    app = chat_app(tmp_path, None, locale="en")
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "Top up my campus card with 50 yuan")
        await until(pilot, lambda: card_ready(app), 10)
        app.query_one("#reason").focus()
        await pilot.press(*"too much", "enter")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and pane.last_answer, 10)
        said = card_text(app.query_one(ApprovalCard))
        assert "Denied: too much" in said and "：" not in said
    zh = chat_app(tmp_path / "zh", None)
    async with zh.run_test(size=SIZE) as pilot:
        await open_settings_section(pilot, zh, "model")
        providers = zh.query_one("#model-provider", Select)
        labels = [str(prompt) for prompt, _ in providers._options]
        assert "其他 OpenAI 兼容服务" in labels and "Other OpenAI-compatible" not in labels


async def test_the_command_lines_demo_answers_with_the_students_own_model(
    isolated_data_dir: Path, tmp_path: Path
) -> None:
    """`pku-harness --demo` gives the app a throw-away folder it made itself; the model the student set up was
    copied only when the app made the folder, so from the command line the demo model answered anyway."""
    from tests.runtime.fake_openai import FakeOpenAI, text
    from tui.app.app import make_app
    from tui.runtime.chat.providers import save_config
    from tui.runtime.store import Store, default_path

    server = FakeOpenAI(text("真模型在回答。"))
    with server.serve() as url:
        own = Store(default_path())
        save_config(own, "custom", url, "any")
        own.close()
        app = make_app(demo=True, data_dir=tmp_path / "demo", throwaway=True)
        async with app.run_test(size=SIZE) as pilot:
            pane = await answered(pilot, app, "你好")
        assert pane.last_answer == "真模型在回答。" and len(server.requests) == 1


async def test_removing_the_model_in_settings_brings_the_demo_model_back(tmp_path: Path) -> None:
    """Found by an outsider: a model set up in the demo (Ollama, not running) answered every question with a
    connection error, and nothing could remove it but restarting."""
    from textual.widgets import Button

    from tui.runtime.chat.providers import load_config, save_config

    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        save_config(app.runtime.store, "ollama", model="qwen2.5")
        await open_settings_section(pilot, app, "model")
        remove = app.query_one("#model-clear", Button)
        assert remove.display and "qwen2.5" in str(app.query_one("#model-state", Static).render())
        await pilot.click("#model-clear")
        await settle(pilot, app)
        assert load_config(app.runtime.store) is None and not app.query_one("#model-clear", Button).display
        assert "演示模型" in str(app.query_one("#model-state", Static).render())
        pane = await answered(pilot, app, "二教今天有哪些空教室?")
        assert pane.last_answer.startswith("【演示模型】")
