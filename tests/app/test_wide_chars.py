"""Chinese text under an overlay stays whole (tui/app/wide_chars.py; Textualize/textual#6357).

At 80×24 the toast "已移除「校园活动」：按 u 撤销，或按 a 加回来" over the notices widget came out as
"已  除「校园活动」… a   回来": every edge of a widget behind the toast that crossed its text split a
double-width character into two spaces. Here a row of narrow boxes (an edge every 3 cells, so any CJK text
over them straddles edges) lies under a box on a layer above them, as a toast or a dialog is; the full frame
and a partial update of the box are read."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from rich.console import Console
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.strip import Strip
from textual.widgets import Static

from tui.app.wide_chars import ORIGINALS, keep_wide_characters

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


class Layers(App[None]):
    """Random boxes on three layers, ASCII only, one of no width: where no wide character is cut, the replaced
    compositor must draw exactly what Textual's draws."""

    CSS = "Screen { layers: a b c; } .box { position: absolute; }"

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed

    def compose(self) -> ComposeResult:
        chance = random.Random(self.seed)
        for i in range(12):
            box = Static(f"box {i} " * 6, classes="box", markup=False)
            box.styles.layer = chance.choice("abc")
            box.styles.offset = (chance.randrange(0, 70), chance.randrange(0, 20))
            box.styles.width = 0 if i == 5 else chance.randrange(3, 40)
            box.styles.height = chance.randrange(1, 6)
            box.styles.background = chance.choice(["red", "green", "blue", "black"])
            yield box


@pytest.mark.parametrize("seed", range(6))
async def test_without_wide_characters_the_frame_is_textuals_own(seed: int) -> None:
    keep_wide_characters()
    app = Layers(seed)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        ours = compositor._render_chops(compositor.size.region, lambda y: True)
        theirs = ORIGINALS["_render_chops"](compositor, compositor.size.region, lambda y: True)
    for y, (mine, textual) in enumerate(zip(ours, theirs, strict=True)):  # type: ignore[call-overload]
        assert cells(mine.values()) == cells(textual.values()), y


def cells(pieces: object) -> list[tuple[str, object]]:
    """Each cell of a line with its style (not how it is split into segments, nor the mouse offsets in meta)."""
    line = Strip.join(pieces)  # type: ignore[arg-type]
    return [(ch, seg.style.clear_meta_and_links() if seg.style else None) for seg in line for ch in seg.text]


MOVE = re.compile(r"\x1b\[(\d+);(\d+)H")
STYLE = re.compile(r"\x1b\[[0-9;]*m")


def paint(output: str, screen: list[str]) -> list[str]:
    """What a terminal showing `screen` shows after `output` (cursor moves and text; styles dropped)."""
    grid = [list(row) for row in screen]
    x = y = 0
    for part in re.split(r"(\x1b\[\d+;\d+H|\n)", STYLE.sub("", output)):
        if moved := MOVE.fullmatch(part):
            y, x = int(moved[1]) - 1, int(moved[2]) - 1
        elif part == "\n":
            y, x = y + 1, 0
        else:
            for i, ch in enumerate(part):
                grid[y][x + i] = ch
            x += len(part)
    return ["".join(row) for row in grid]


@pytest.mark.parametrize("seed", range(6))
async def test_a_partial_update_writes_what_shows_where_it_changed(seed: int) -> None:
    """After a partial update every cell of the changed boxes shows what the frame holds, and any other cell it
    writes holds it too — for the replaced compositor as for Textual's own (checked alike, as the reference)."""
    keep_wide_characters()
    app = Layers(seed)
    console = Console(width=80, color_system="truecolor")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        compositor = app.screen._compositor
        boxes = list(app.query(".box"))
        chance = random.Random(seed)
        for _ in range(5):
            dirty = set(chance.sample(boxes, 3))
            for box in dirty:
                box.update(f"now {chance.randrange(1000)} " * 6)
            await pilot.pause()
            shown = [strip.text for strip in compositor.render_strips()]
            stale = ["~" * 80] * 24  # what the terminal held before: anything but the frame
            changed = {
                (x, y) for box in dirty for y in box.region.line_range for x in range(box.region.x, box.region.right)
            }
            for own in (False, True):
                for box in dirty:
                    box.refresh()
                compositor.update_widgets(dirty)
                with textuals_own(own):
                    update = compositor.render_partial_update()
                painted = paint(update.render_segments(console), stale) if update else stale
                for y in range(24):
                    for x in range(80):
                        if (x, y) in changed:
                            assert painted[y][x] == shown[y][x], (own, x, y)
                        else:
                            assert painted[y][x] in (shown[y][x], "~"), (own, x, y)


@contextmanager
def textuals_own(own: bool) -> Iterator[None]:
    """Within: Textual's own compositor methods (when `own`), both of them, as Textual calls one from the other."""
    if not own:
        yield
        return
    ours = {name: getattr(Compositor, name) for name in ORIGINALS}
    for name, method in ORIGINALS.items():
        setattr(Compositor, name, method)
    try:
        yield
    finally:
        for name, method in ours.items():
            setattr(Compositor, name, method)
