"""The Textual widget of each component that holds no other (text, stat, divider, countdown …), and the safe text
every widget is given: `plain()` content or `literal()` Text, cleaned of terminal escapes and never read as markup.

Split from `textual_render.py`, which builds the tree of widgets from these.
"""

from __future__ import annotations

import math
import time

from rich.text import Text
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Digits, Static

from widgets_render.safe_text import clean
from widgets_render.viewmodel import VNode


def plain(text: str) -> Content:
    """Text that came from a plugin, a server, a model or the student, as Textual content: cleaned of escapes, bidi
    and invisible characters (`safe_text.clean`) and never read as markup, so `[@click=…]` is shown, not run, and
    `[/]` cannot raise. Every widget text that can hold such data goes in this way (or as `literal()`)."""
    return Content(clean(text))


def as_markup(text: str) -> str:
    """Text for the few places Textual only ever reads as markup (the command palette's titles): cleaned, and every
    `[` escaped, so plugin text shows as written and no `[@click=…]` tag or style can form. (Textual's own
    `markup.escape` leaves `[$var]` tags and backslashes as they are.)"""
    return clean(text).replace("[", "\\[")


def literal(value: object) -> Text:
    """A DataTable cell shown exactly as written: DataTable parses a plain `str` as Rich markup, so plugin text
    like `[/bold]` would raise and `[b]x[/b]` would turn bold. Control codes are removed as everywhere else."""
    return Text(clean(value if isinstance(value, str) else str(value)), end="")


def static_text(text: str, node: VNode | None = None, *classes: str) -> Static:
    tone = f"tone-{node.tone}" if node is not None and node.tone else ""
    warn = " ⚠" if node is not None and node.warnings else ""
    return Static(plain(text + warn), markup=False, classes=" ".join(c for c in (tone, *classes) if c))


def truthy(v: object) -> bool:
    return v is True or (isinstance(v, int | float) and not isinstance(v, bool) and v != 0)


def spaced(children: list[Widget], gap: object, side: str) -> list[Widget]:
    """Children `gap` cells apart (a column's below each, a row's to the right of each but the last)."""
    cells = int(number(gap)) if gap is not None else None
    if cells is None:
        return children
    cells = max(0, min(cells, 8))
    for child in children[:-1]:
        child.styles.margin = (0, 0, cells, 0) if side == "bottom" else (0, cells, 0, 0)
    if children:
        children[-1].styles.margin = (0, 0, 0, 0)
    return children


def aligned(box: Widget, align: object) -> None:
    """`align`: where a column puts its children across it, and a row along its line (start, center, end)."""
    if align == "center":
        box.styles.align_horizontal = "center"
    elif align == "end":
        box.styles.align_horizontal = "right"


def text_widget(node: VNode) -> Static:
    """A `text`: its `variant` (title bold, caption muted), `maxLines` (cut with …) and `wrap: false` (one line)."""
    p = node.props
    variant = p.get("variant") or "body"
    extra = ["tone-muted"] if variant == "caption" and not node.tone else []
    widget = static_text(str(p.get("text", "")), node, f"text-{variant}", *extra)
    if variant == "title":
        widget.styles.text_style = "bold"
    if p.get("wrap") is False:
        widget.styles.text_wrap = "nowrap"
        widget.styles.text_overflow = "ellipsis"
    lines = p.get("maxLines")
    if isinstance(lines, int) and not isinstance(lines, bool) and lines > 0:
        widget.styles.max_height = lines
        widget.styles.overflow_y = "hidden"
    return widget


def stat_widget(node: VNode) -> Widget:
    """A `stat`: label, value and unit, its `delta` after them (▲ up, ▼ down), and `big` digits for a number."""
    p = node.props
    unit = f" {p['unit']}" if p.get("unit") else ""
    label = f"{p['label']}  " if p.get("label") else ""
    value = as_text(p.get("value"))
    delta = p.get("delta")
    change = ""
    if isinstance(delta, int | float) and not isinstance(delta, bool):
        change = f"  ▲{as_text(delta)}" if delta > 0 else f"  ▼{as_text(-delta)}" if delta < 0 else "  ±0"
    elif isinstance(delta, str) and delta.strip():
        change = f"  {delta.strip()}"
    if truthy(p.get("big")) and value and all(c in "0123456789+-.,:% " for c in value):
        big = Digits(value, classes="gen-stat gen-big")
        # the label above the digits, with the unit and the change: "余额 · 元 ▼3"
        caption = " · ".join(part for part in (label.strip(), unit.strip()) if part) + change
        return Vertical(static_text(caption.strip(), node, "tone-muted"), big, classes="gen-column") if caption else big
    stat = static_text(f"{label}{value}{unit}{change}", node, "gen-stat")
    if truthy(p.get("big")):
        stat.styles.text_style = "bold"
    return stat


def number(v: object) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0.0


def as_text(v: object) -> str:
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else f"{v:g}"
    return "" if v is None else str(v)


def time_text(node: VNode) -> str:
    p = node.props
    if node.kind == "time":
        value = str(p.get("value") or "")
        style = p.get("style") or "datetime"
        shown = value[11:16] if style == "clock" else value[:10] if style == "date" else value[:16].replace("T", " ")
        return f"{p.get('prefix', '')}{shown}"
    seconds = p.get("seconds")
    return countdown_text(seconds if isinstance(seconds, int | float) else None, p.get("format"), p.get("past"),
                          str(p.get("locale") or "zh"))  # fmt: skip


def countdown_text(seconds: float | None, fmt: object, past: object, locale: str) -> str:
    """A countdown as text: `minutes` (12 分钟后), `clock` (12:05 or 1:02:05), or `auto` (clock under an hour)."""
    if seconds is None:
        return "—"
    if seconds < 0:
        return str(past or "—")
    if fmt == "clock" or (fmt == "auto" and seconds < 3600):
        # A timer rounds up: with 119.4 s left the 120th second is still running, so it reads 02:00.
        hours, rest = divmod(math.ceil(seconds), 3600)
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60:02d}:{rest % 60:02d}"
    hours, mins = divmod(math.floor(seconds) // 60, 60)
    if locale == "en":
        return f"in {hours} h {mins} min" if hours else f"in {mins} min"
    return f"{hours} 小时 {mins} 分钟后" if hours else f"{mins} 分钟后"


class GenCountdown(Static):
    """A countdown that ticks by itself (`tick`), only while it is on screen (genui §2.6): the time left is the
    resolved value minus the time since it was resolved, so a fixed demo clock still counts down."""

    def __init__(self, node: VNode) -> None:
        tone = f" tone-{node.tone}" if node.tone else ""
        super().__init__(plain(time_text(node)), markup=False, classes="gen-countdown" + tone)
        self.node = node
        self.started = time.monotonic()

    def on_mount(self) -> None:
        tick = self.node.props.get("tickSeconds")
        if isinstance(tick, int | float) and isinstance(self.node.props.get("seconds"), int | float):
            self.set_interval(float(tick), self.tick)

    def tick(self) -> None:
        if not self.is_on_screen:
            return  # hidden: no work (the next visible tick catches up, the clock is monotonic)
        p = self.node.props
        left = float(p["seconds"]) - (time.monotonic() - self.started)
        self.update(plain(countdown_text(left, p.get("format"), p.get("past"), str(p.get("locale") or "zh"))))
