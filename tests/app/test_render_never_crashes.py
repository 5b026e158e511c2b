"""The renderer's promise (genui.md §2.10): mutated specs and hostile data give widgets or error cards, and the
app never exits — checked by mounting them in a running app."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.app.genui_bridge import LangEvaluator
from widgets_render.resolve import resolve
from widgets_render.textual_render import WidgetFrame

NOW = "2026-11-30T12:00:00+08:00"
SPECS = [json.loads(p.read_text("utf-8")) for p in sorted(Path("plugins_builtin").glob("*/widgets/*.json"))]
HOSTILE = st.sampled_from(
    [
        "[/bold]",
        "[link=https://x]y",
        "[red]x[/]",
        "\x1b]52;c;QUJD\x07",
        "\x1b[2J",
        "x" * 10_000,
        None,
        1e308,
        float("nan"),
        [],
        {},
        True,
        "${now}",
    ]
)
DATA = st.recursive(
    HOSTILE | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "rooms",
                    "buildings",
                    "times",
                    "balanceYuan",
                    "people",
                    "seats",
                    "canteen",
                    "title",
                    "status",
                    "message",
                    "gpa",
                    "terms",
                    "start",
                    "level",
                    "source",
                    "date",
                ]
            ),
            inner,
            max_size=6,
        )
    ),
    max_leaves=30,
)


class Harness(App[None]):
    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="box")


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    which=st.integers(0, len(SPECS) - 1),
    data=DATA,
    drop=st.sampled_from([None, "body", "let", "source", "title"]),
    size=st.sampled_from(["small", "medium", "large"]),
)
async def test_mounting_any_mutation_never_ends_the_app(which: int, data: Any, drop: str | None, size: str) -> None:
    spec = copy.deepcopy(SPECS[which])
    if drop:
        spec.pop(drop, None)
    resolved = resolve(spec, "w.json", LangEvaluator(NOW), {"data": data, "meta": {}, "now": NOW}, size)
    app = Harness()
    async with app.run_test(size=(80, 30)) as pilot:
        await app.query_one("#box").mount(WidgetFrame(resolved, "w.json"))
        await pilot.pause()
        assert app.is_running
        frame = app.query_one(WidgetFrame)
        for static in frame.query(Static):
            text = str(static.render())
            assert "\x1b" not in text  # control codes never reach the terminal
