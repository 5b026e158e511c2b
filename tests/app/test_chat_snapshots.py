"""SVG snapshots of the chat pane: a streamed answer with an expanded tool call, an approval card (wide, and on a
phone's width), an error banner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Collapsible

from tests.app.helpers import settle, until
from tests.app.test_chat_pane import NOW, SIZE, ask, card_ready, chat_ready, shown
from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tui.app.app import make_app
from tui.runtime.chat.providers import save_config


class FrozenTime:
    """Tool durations are shown; a snapshot needs them fixed."""

    @staticmethod
    def monotonic() -> float:
        return 0.0


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FakeOpenAI, str]]:
    monkeypatch.setattr("tui.runtime.chat.agent.time", FrozenTime)
    fake = FakeOpenAI()
    with fake.serve() as url:
        yield fake, url


def scene(tmp_path: Path, url: str) -> Any:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    save_config(app.runtime.store, "custom", url, "any")
    return app


def test_streamed_answer_with_an_expanded_tool_call(snap_compare: Any, tmp_path: Path, server: Any) -> None:
    fake, url = server
    fake.add(
        calls({"reasoning_content": "查二教。"}, call("classrooms__free", '{"building": "二教"}'), usage={
            "prompt_tokens": 790, "completion_tokens": 12, "total_tokens": 802}),
        text("二教现在空着：\n\n- **201**（1-2 节）\n- **202**（2-3 节）", usage={
            "prompt_tokens": 812, "completion_tokens": 31, "total_tokens": 843}),
    )  # fmt: skip
    app = scene(tmp_path, url)

    async def drive(pilot: Any) -> None:
        (await chat_ready(pilot, app)).cursor_blink = False  # a blinking cursor makes the picture random
        await ask(pilot, app, "二教今天有哪些空教室?")
        await until(pilot, lambda: "202" in shown(app) and "1645" in shown(app), 10)
        app.query_one(".tool-ok", Collapsible).collapsed = False
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=SIZE, run_before=drive)


def test_an_approval_card(snap_compare: Any, tmp_path: Path, server: Any) -> None:
    fake, url = server
    fake.add(calls(call("memory__remember", '{"text": "我住 45 楼 [b]粗[/b]"}'), usage={
        "prompt_tokens": 700, "completion_tokens": 20, "total_tokens": 720}))  # fmt: skip
    app = scene(tmp_path, url)

    async def drive(pilot: Any) -> None:
        (await chat_ready(pilot, app)).cursor_blink = False  # a blinking cursor makes the picture random
        await ask(pilot, app, "记住我住 45 楼")
        await until(pilot, lambda: card_ready(app), 10)
        await pilot.pause(0.2)  # not settle(): the chat's worker is waiting for this card, it does not complete

    assert snap_compare(app, terminal_size=SIZE, run_before=drive)


def test_an_approval_card_on_a_phone(snap_compare: Any, tmp_path: Path, server: Any) -> None:
    """At a phone's 43 columns the answers stack, each the card's width (拒绝 and the reason box were off the
    screen)."""
    fake, url = server
    fake.add(calls(call("wallet__recharge", '{"amountYuan": 50}'), usage={
        "prompt_tokens": 700, "completion_tokens": 20, "total_tokens": 720}))  # fmt: skip
    app = scene(tmp_path, url)

    async def drive(pilot: Any) -> None:
        (await chat_ready(pilot, app)).cursor_blink = False  # a blinking cursor makes the picture random
        await ask(pilot, app, "给校园卡充值 50 元")
        await until(pilot, lambda: card_ready(app), 10)
        await pilot.pause(0.2)  # not settle(): the chat's worker is waiting for this card, it does not complete

    assert snap_compare(app, terminal_size=(43, 46), run_before=drive)


def test_an_error_banner(snap_compare: Any, tmp_path: Path, server: Any) -> None:
    fake, url = server
    fake.add({"status": 401, "body": {"error": {"message": "Authentication Fails (invalid key)"}}})
    app = scene(tmp_path, url)

    async def drive(pilot: Any) -> None:
        (await chat_ready(pilot, app)).cursor_blink = False  # a blinking cursor makes the picture random
        await ask(pilot, app, "你好")
        await until(pilot, lambda: app.query(".banner"), 10)
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=SIZE, run_before=drive)
