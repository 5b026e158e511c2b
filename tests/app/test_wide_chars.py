"""Chinese text under an overlay stays whole (tui/app/wide_chars.py; Textualize/textual#6357).

At 80×24 the toast "已移除「校园活动」：按 u 撤销，或按 a 加回来" over the notices widget came out as
"已  除「校园活动」… a   回来": every edge of a widget behind the toast that crossed its text split a
double-width character into two spaces. Here a row of narrow boxes (an edge every 3 cells, so any CJK text
over them straddles edges) lies under a box on a layer above them, as a toast or a dialog is; the full frame
and a partial update of the box are read."""

from __future__ import annotations

import re

from rich.console import Console
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from tui.app.wide_chars import keep_wide_characters

MESSAGE = "已移除「校园活动」：按 u 撤销，或按 a 加回来"
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Boxes(App[None]):
    CSS = """
    Screen { layers: base top; }
    Horizontal { height: 100%; }
    Horizontal Static { width: 3; height: 100%; }
    #over { layer: top; offset: 5 2; width: 60; height: 3; background: $panel; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            for i in range(30):
                yield Static("课程通知" if i % 2 else "北大")
        yield Static(MESSAGE, id="over", markup=False)


def screen_text(app: App[None]) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def shown_message(app: App[None]) -> tuple[str, str]:
    """The whole frame's text, and what a partial update of the box writes (escapes and moves removed)."""
    async with app.run_test(size=(90, 24)) as pilot:
        await pilot.pause()
        full = screen_text(app)
        compositor = app.screen._compositor
        over = app.query_one("#over")
        over.refresh()
        compositor.update_widgets({over})
        update = compositor.render_partial_update()
        assert update is not None
        partial = ESCAPES.sub("", update.render_segments(Console(width=90, color_system="truecolor")))
    return full, partial


async def test_an_overlay_over_many_edges_keeps_every_character() -> None:
    assert keep_wide_characters()  # Textual 8.2.8: the replaced methods are the ones it was written for
    full, partial = await shown_message(Boxes())
    flat = full.replace("\n", "")
    for piece in ("已移除「校园活动」", "按 u 撤销", "加回来"):
        assert piece in flat, full
        assert piece in partial.replace("\n", ""), partial


async def test_the_boxes_behind_still_show_where_the_toast_is_not() -> None:
    """Merging the overlay's pieces takes nothing from the widgets behind it: their text outside it is drawn."""
    keep_wide_characters()
    full, _ = await shown_message(Boxes())
    lines = full.splitlines()
    assert lines[0].startswith("北 课 北 课")  # above the overlay: the boxes as they are (one character a line)
    assert lines[2].startswith("   通" + MESSAGE)  # left of it, on its line: box 1 still shows 通
