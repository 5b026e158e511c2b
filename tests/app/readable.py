"""What a person sees, checked from the compositor's own segments: every text run's contrast against the cell
behind it (WCAG relative luminance) and where the focusable widgets and the footer's key hints landed.

Read from the running app, not from stored SVGs: a scene is rendered once per theme, language and size in-process
and checked, so no baseline is multiplied."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.color import Color
from rich.segment import Segment
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer

#: WCAG 2 AA: normal text 4.5:1; large or bold text 3:1.
NORMAL, BOLD = 4.5, 3.0


def _channel(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    r, g, b = (_channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio, 1 (same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _graphic(ch: str) -> bool:
    """Borders, boxes, blocks, bars and braille are drawing, not text (exempt, like a border)."""
    o = ord(ch)
    return ch.isspace() or 0x2500 <= o <= 0x259F or 0x2800 <= o <= 0x28FF or 0xE000 <= o <= 0xF8FF


def _rgb(color: Color | None, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if color is None or color.is_default:
        return default
    triplet = color.get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


@dataclass(frozen=True)
class Run:
    """One text run on the screen with the two colours a reader gets."""

    x: int
    y: int
    text: str
    fg: tuple[int, int, int]
    bg: tuple[int, int, int]
    bold: bool

    @property
    def ratio(self) -> float:
        return contrast(self.fg, self.bg)

    def __str__(self) -> str:
        fg, bg = ("#{:02x}{:02x}{:02x}".format(*c) for c in (self.fg, self.bg))
        return f"({self.x},{self.y}) {self.text.strip()!r} {fg} on {bg} = {self.ratio:.2f}:1"


def runs(app: Any) -> list[Run]:
    """Every segment of the current screen that holds text. Behind a dialog the screen is dimmed on purpose
    (a backdrop, not meant to be read while the dialog asks): WCAG exempts such incidental text, so only the
    dialog itself is drawn and checked."""
    modal = isinstance(app.screen, ModalScreen)
    # The backdrop is blended into the dialog screen's own cached lines, so rendering without the screens below
    # still shows them: keep only the cells inside the dialog's own widgets.
    inside = [child.region for child in app.screen.children if child.display] if modal else []
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens, simplify=True)
    background = app.current_theme.background or "#000000"
    foreground = app.current_theme.foreground or "#ffffff"
    default_bg = _rgb(Color.parse(background), (0, 0, 0))
    default_fg = _rgb(Color.parse(foreground), (255, 255, 255))
    out = []
    for y, line in enumerate(update.strips):
        x = 0
        for strip in line:
            for segment in strip:
                text, style, control = segment
                if control:
                    continue
                width = Segment(text).cell_length
                if style is not None and any(not _graphic(ch) for ch in text):
                    fg, bg = _rgb(style.color, default_fg), _rgb(style.bgcolor, default_bg)
                    if style.reverse:
                        fg, bg = bg, fg
                    if style.dim:  # a terminal draws dim text about half way to the background
                        fg = tuple((f + b) // 2 for f, b in zip(fg, bg, strict=True))  # type: ignore[assignment]
                    if not modal or any(r.contains(x, y) for r in inside):
                        out.append(Run(x, y, text, fg, bg, bool(style.bold)))
                x += width
    return out


def unreadable(app: Any) -> list[Run]:
    """Text runs below 4.5:1 (3:1 when bold) against what is behind them."""
    return [r for r in runs(app) if r.ratio < (BOLD if r.bold else NORMAL)]


def _cut_by(widget: Widget) -> Widget | None:
    """The first container that cuts `widget` at its sides and does not scroll sideways, if any (the dialog box
    whose buttons a box pushed past its edge: on the screen, and not seen)."""
    region = widget.region
    for box in widget.ancestors_with_self[1:]:
        sideways = getattr(box, "allow_horizontal_scroll", False)
        if (
            isinstance(box, Widget)
            and box.region
            and not sideways
            and not region.x >= box.region.x <= region.right <= box.region.right
        ):
            return box
    return None


def misplaced(app: Any) -> list[str]:
    """Focusable widgets a person cannot use (narrower than 3 cells, outside the screen), any widget that runs past
    the screen's side with nothing to scroll it back (F1's key list was cut at 80 columns: Textual placed its panel
    by 33% of the width and sized it by our minimum), and footer key hints cut by the screen's edge."""
    screen, (width, height) = app.screen, app.size
    problems = []
    for widget in screen.walk_children():
        region = widget.region
        sideways = [a for a in widget.ancestors_with_self[1:] if getattr(a, "allow_horizontal_scroll", False)]
        if region and (region.x < 0 or region.right > width) and not sideways:
            problems.append(
                f"{type(widget).__name__}#{widget.id or '?'} at {tuple(region)} runs past the {width}-cell screen"
            )
    for widget in screen.focus_chain:
        region = widget.region
        name = f"{type(widget).__name__}#{widget.id or '?'}"
        if region.width < 3:
            problems.append(f"{name} is {region.width} cell(s) wide at {region.x},{region.y}")
        scrolls = [a for a in widget.ancestors_with_self[1:] if getattr(a, "allow_vertical_scroll", False)]
        cut_by = _cut_by(widget)
        if region.x < 0 or region.right > width:
            problems.append(f"{name} at {tuple(region)} is outside the {width}x{height} screen")
        elif cut_by is not None:  # on the screen, yet cut by a box that does not scroll sideways (a dialog's)
            problems.append(f"{name} at {tuple(region)} runs out of {type(cut_by).__name__} {tuple(cut_by.region)}")
        elif (region.y < 0 or region.bottom > height) and not scrolls:
            problems.append(f"{name} at {tuple(region)} is below the {width}x{height} screen, and nothing scrolls")
    for footer in screen.query(Footer):
        edge = footer.region.right
        for key in footer.children:
            r = key.region
            if r and r.x < edge < r.right:
                problems.append(f"the footer cuts the key hint {key.render()!s:.30} at {tuple(r)} (edge x={edge})")
    return problems
