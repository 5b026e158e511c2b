"""The chat at a model's speed and over long conversations: a 2,000-chunk answer is drawn in far fewer appends
than chunks (per-chunk awaits capped the stream at ~20 chunks/s), only the latest turns are live widgets (the
rest a press of 更早的消息 away), a stored 300-turn conversation opens as a few dozen widgets, and the note
that older turns were summarised is a collapsed line."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Collapsible, Markdown

from tests.app.helpers import settle, until
from tests.app.test_chat_pane import SIZE, ask, chat_app, shown
from tests.runtime.fake_openai import FakeOpenAI, text
from tui.app.widgets import chat_log
from tui.app.widgets.chat_log import ChatLog
from tui.app.widgets.chat_pane import ChatPane
from tui.runtime.chat.history import ChatHistory


@pytest.fixture
def fake() -> Iterator[tuple[FakeOpenAI, str]]:
    server = FakeOpenAI()
    with server.serve() as url:
        yield server, url


async def test_a_long_stream_is_drawn_in_batches(
    tmp_path: Path, fake: tuple[FakeOpenAI, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, url = fake
    parts = [f"第{i}段" if i % 50 else "\n\n" for i in range(800)]
    server.add(text(*parts))
    appends: list[str] = []
    times: list[float] = []
    real = Markdown.append

    def counted(self: Markdown, markdown: str) -> Any:
        appends.append(markdown)
        times.append(time.monotonic())
        return real(self, markdown)

    monkeypatch.setattr(Markdown, "append", counted)
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "长回答")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and pane.last_answer, 60)
        await settle(pilot, app)
        answer = app.query_one(".answer", Markdown)
        assert answer.source == "".join(parts)  # nothing lost or reordered by the batching
        # Per-chunk appends would be 800: the stream joins what arrived while the last append was drawn.
        assert 1 < len(appends) < 300, len(appends)  # drawn as it came, not all at the end
        # At most one append a frame: appending again as soon as one ends starved the read (chat_log.py). The
        # last one is what stop() draws at once when the answer ends (CI saw it 19 ms after the one before).
        gaps = [b - a for a, b in itertools.pairwise(times)][:-1]
        assert all(gap >= chat_log.FRAME_S * 0.9 for gap in gaps), gaps
        log = app.query_one(ChatLog)
        assert log.scroll_y == log.max_scroll_y > 0  # it followed the answer to its end


async def test_only_the_latest_turns_are_live_widgets(
    tmp_path: Path, fake: tuple[FakeOpenAI, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chat_log, "KEEP_TURNS", 3)
    monkeypatch.setattr(chat_log, "PAGE_TURNS", 2)
    server, url = fake
    for i in range(7):
        server.add(text(f"回答 {i}", "\n\n- 一\n- 二"))
    app = chat_app(tmp_path, url)
    async with app.run_test(size=SIZE) as pilot:
        for i in range(7):
            await ask(pilot, app, f"问题 {i}")
            pane = app.query_one(ChatPane)
            await until(pilot, lambda i=i, pane=pane: not pane.running and f"回答 {i}" in pane.last_answer, 10)
        await settle(pilot, app)
        log = app.query_one(ChatLog)
        users = [str(w.render()) for w in log.query(".user")]
        assert users == ["问题 4", "问题 5", "问题 6"] and log.hidden == 4
        earlier = log.query_one("#chat-earlier", Button)
        assert "还有 4 轮" in str(earlier.label)
        await pilot.click(earlier)
        await settle(pilot, app)
        users = [str(w.render()) for w in log.query(".user")]
        assert users == ["问题 2", "问题 3", "问题 4", "问题 5", "问题 6"]  # above, in order
        assert "回答 2" in shown(app) and "还有 2 轮" in str(log.query_one("#chat-earlier", Button).label)


async def test_a_300_turn_conversation_opens_as_a_few_widgets(tmp_path: Path) -> None:
    app = chat_app(tmp_path, None)
    history = ChatHistory(app.runtime.store)
    cid = history.start("问题 0")
    for i in range(300):
        history.append(cid, {"role": "user", "content": f"问题 {i}"})
        history.append(
            cid, {"role": "assistant", "content": f"回答 {i}\n\n- 一\n- 二\n\n| a | b |\n|---|---|\n| 1 | 2 |"}
        )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await until(pilot, lambda: app.query(ChatPane))
        pane = app.query_one(ChatPane)
        await pane.resume(cid)
        await settle(pilot, app)
        log = app.query_one(ChatLog)
        widgets = len(list(log.walk_children()))
        assert len(log.query(".user")) == chat_log.KEEP_TURNS and log.hidden == 280
        assert widgets < 600, widgets  # about 18 a turn here: every turn live would be over 5,000
        assert pane.last_answer.startswith("回答 299")


async def test_the_summary_of_left_out_turns_is_one_collapsed_line(
    tmp_path: Path, fake: tuple[FakeOpenAI, str]
) -> None:
    server, url = fake
    app = chat_app(tmp_path, None)
    from tui.runtime.chat.providers import save_config

    save_config(app.runtime.store, "ollama", url, "any")  # a 4k window
    history = ChatHistory(app.runtime.store)
    cid = history.start("q")
    for i in range(200):
        history.append(cid, {"role": "user", "content": f"问题 {i}：" + "二教今天有哪些空教室?" * 3})
        history.append(cid, {"role": "assistant", "content": "回答。" * 40})
    server.add(text("好的。"), text("好的。"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("2")
        await until(pilot, lambda: app.query(ChatPane))
        pane = app.query_one(ChatPane)
        await pane.resume(cid)
        await ask(pilot, app, "再问一次")
        await until(pilot, lambda: not pane.running and pane.last_answer == "好的。", 10)
        await ask(pilot, app, "还有")
        await until(pilot, lambda: not pane.running and len(server.requests) == 2, 10)
        await settle(pilot, app)
        notes = app.query(".context").results(Collapsible)
        [note] = list(notes)  # said once: the second turn left out no more
        assert note.collapsed and "只把摘要发给了模型" in str(note.title)
        assert "earlier turns of this conversation are not included" in server.requests[0]["messages"][0]["content"]
