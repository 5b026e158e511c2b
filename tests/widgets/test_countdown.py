"""The countdown: its formats, and a `tick: 1s` countdown that counts down by itself only while it is shown."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from tests.app.helpers import until
from tui.app.genui_bridge import LangEvaluator
from widgets_render.resolve import resolve, tick_seconds
from widgets_render.simple_widgets import GenCountdown, countdown_text
from widgets_render.textual_render import build
from widgets_render.viewmodel import VNode

NOW = "2026-11-30T12:00:00+08:00"


@pytest.mark.parametrize(
    ("seconds", "fmt", "locale", "shown"),
    [
        (125.9, "minutes", "zh", "2 分钟后"),
        (3725, "minutes", "en", "in 1 h 2 min"),
        (125.2, "clock", "zh", "02:06"),  # a timer rounds up: the 126th second is not over yet
        (3725, "clock", "zh", "1:02:05"),
        (125, "auto", "zh", "02:05"),  # under an hour: a clock
        (3725, "auto", "zh", "1 小时 2 分钟后"),
        (-1, "clock", "zh", "已发车"),
        (None, "clock", "zh", "—"),
    ],
)
def test_countdown_formats(seconds: float | None, fmt: str, locale: str, shown: str) -> None:
    assert countdown_text(seconds, fmt, "已发车", locale) == shown


def test_tick_values() -> None:
    assert [tick_seconds(v) for v in ("1s", "30s", "2m", "0s", "fast", None, "1h")] == [1, 30, 120, 1, None, None, None]


def countdown(to: str, tick: str | None) -> VNode:
    spec = {"spec": 1, "kind": "widget", "title": "t",
            "body": {"type": "countdown", "to": to, "format": "clock", "tick": tick}}  # fmt: skip
    out = resolve(spec, "w", LangEvaluator(NOW), {"now": NOW})
    assert isinstance(out.body, VNode)
    return out.body


class Host(App[None]):
    def __init__(self, node: VNode) -> None:
        super().__init__()
        self.node = node

    def compose(self) -> ComposeResult:
        yield build(self.node)


async def test_a_ticking_countdown_counts_down_while_shown() -> None:
    app = Host(countdown("2026-11-30T12:02:00+08:00", "1s"))
    async with app.run_test() as pilot:
        widget = app.query_one(GenCountdown)
        assert str(widget.render()) == "02:00"
        await until(pilot, lambda: str(widget.render()) == "01:59", 3)
        widget.display = False  # hidden: the tick does nothing
        shown = str(widget.render())
        await pilot.pause(1.3)
        assert str(widget.render()) == shown
        widget.display = True
        await until(pilot, lambda: str(widget.render()) not in (shown, "02:00"), 3)


async def test_a_countdown_without_tick_stays_put() -> None:
    app = Host(countdown("2026-11-30T12:02:00+08:00", None))
    async with app.run_test() as pilot:
        await pilot.pause(1.2)
        assert str(app.query_one(Static).render()) == "02:00"
