"""Components draw every prop the docs give them: a divider's label, a progress bar filled by `pct(part, whole)`."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import ProgressBar, Rule, Static

from tui.app.genui_bridge import LangEvaluator
from widgets_render.resolve import resolve
from widgets_render.textual_render import build
from widgets_render.viewmodel import VNode

NOW = "2026-11-30T12:00:00+08:00"


def node(body: dict[str, Any]) -> VNode:
    out = resolve({"spec": 1, "kind": "widget", "title": "t", "body": body}, "w", LangEvaluator(NOW), {"now": NOW})
    assert isinstance(out.body, VNode)
    return out.body


class Host(App[None]):
    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__()
        self.node = node(body)

    def compose(self) -> ComposeResult:
        yield build(self.node)


async def test_a_divider_shows_its_label_on_one_line() -> None:
    app = Host({"type": "divider", "label": {"zh": "通知 [b]x[/b]", "en": "Notices"}})
    async with app.run_test(size=(40, 10)):
        line = app.query_one(Static)
        shown = str(line.render())
        assert shown.startswith("── 通知 [b]x[/b] ─")  # literal text, then the rule
        assert line.region.height == 1 and line.region.width == 40  # cut at the edge, not wrapped


async def test_a_divider_without_a_label_is_a_plain_rule() -> None:
    app = Host({"type": "divider"})
    async with app.run_test(size=(40, 10)):
        assert app.query(Rule) and not app.query(Static)


async def test_progress_is_filled_by_pct_and_max_still_counts() -> None:
    app = Host({"type": "progress", "value": "${pct(75, 80)}", "showPct": True})
    async with app.run_test(size=(60, 5)):
        bar = app.query_one(ProgressBar)
        assert bar.total == 1.0 and bar.percentage is not None and round(bar.percentage, 4) == 0.9375
    app = Host({"type": "progress", "value": 75, "max": 80})
    async with app.run_test(size=(60, 5)):
        bar = app.query_one(ProgressBar)
        assert bar.percentage is not None and round(bar.percentage, 4) == 0.9375


async def test_text_variants_lines_and_wrap_are_drawn() -> None:
    long = "很长的一段话 " * 30
    body = {
        "type": "column",
        "children": [
            {"type": "text", "text": "标题", "variant": "title"},
            {"type": "text", "text": "小字", "variant": "caption"},
            {"type": "text", "text": long, "maxLines": 2},
            {"type": "text", "text": long, "wrap": False},
        ],
    }
    app = Host(body)
    async with app.run_test(size=(40, 20)):
        title, caption, clamped, one_line = app.query(Static)
        assert "bold" in str(title.styles.text_style) and caption.has_class("tone-muted")
        assert clamped.region.height == 2 and one_line.region.height == 1


async def test_stat_delta_and_big_and_gaps_and_grid_columns() -> None:
    from textual.containers import Grid
    from textual.widgets import Digits

    body = {
        "type": "column",
        "gap": 1,
        "children": [
            {"type": "stat", "label": "余额", "value": 52.5, "unit": "元", "delta": -3},
            {"type": "stat", "label": "排队", "value": 12, "big": True},
            {"type": "grid", "columns": 3, "children": [{"type": "text", "text": str(i)} for i in range(6)]},
        ],
    }
    app = Host(body)
    async with app.run_test(size=(60, 30)):
        first = app.query(Static).first()
        assert str(first.render()) == "余额  52.5 元  ▼3"
        assert app.query_one(Digits).value == "12"
        grid = app.query_one(Grid)
        assert grid.styles.grid_size_columns == 3
        cells = [w for w in grid.children]
        assert len({c.region.y for c in cells}) == 2  # six cells in two rows of three
        assert first.region.bottom + 1 <= app.query_one(Digits).region.y  # the gap below the first stat
