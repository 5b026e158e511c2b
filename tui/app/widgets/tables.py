"""The app's tables: a DataTable that says "nothing yet" when it has no rows, instead of a bare header line."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.containers import ScrollableContainer
from textual.geometry import Region, Size, Spacing
from textual.strip import Strip
from textual.widgets import DataTable

from widgets_render.simple_widgets import literal

#: A column is never made narrower than this to fit (nor narrower than its text).
MIN_COLUMN = 8


def fit_widths(natural: list[int], width: int, padding: int = 1) -> list[int]:
    """Column widths that fit `width` cells with their padding: the natural ones when they fit; else every column
    wider than a common cap is cut to it (the cap as high as fits, never under MIN_COLUMN)."""
    room = width - 2 * padding * len(natural)
    if sum(natural) <= room:
        return natural
    low, high = MIN_COLUMN, max(natural)
    while low < high:  # the highest cap whose columns fit
        cap = (low + high + 1) // 2
        if sum(min(n, cap) for n in natural) <= room:
            low = cap
        else:
            high = cap - 1
    return [min(n, low) for n in natural]


class Table(DataTable[Text]):
    """A DataTable with a line under its header while it is empty (`empty`, an i18n sentence, never data).

    The line is drawn in the table itself, so every way a table empties (built empty, `clear()` on a refresh,
    the last row removed) shows it, and the first row replaces it without a change of layout.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"table--empty"}
    DEFAULT_CSS = """
    Table > .table--empty { color: $text-muted; text-style: italic; }
    """

    def __init__(self, *, empty: str, fit: bool = False, **kwargs: Any) -> None:
        """With `fit`, the columns share the table's width and long cells wrap (`fit_columns`)."""
        super().__init__(**kwargs)
        self.empty = empty
        self.fit = fit

    def on_resize(self) -> None:
        if self.fit:
            self.call_after_refresh(self.fit_columns)

    def fit_columns(self, rows_changed: bool = False) -> None:
        """The columns share the width there is: each as wide as its text when they fit, else the widest cut to
        a common cap and their cells wrapped (at 80 columns 可访问范围's last column was cut to 树洞验). The rows
        are added again with the new widths (a row's height is measured when it is added); keys and the cursor
        stay. Call it with `rows_changed` after filling a fitted table anew."""
        room = self.scrollable_content_region.width
        if not self.is_attached or room <= 0 or not self.columns:
            return
        columns = list(self.columns.values())
        rows = [(key, self.get_row(key)) for key in self.rows]
        natural = [
            max([cell_len(str(c.label)), *(cell_len(str(cells[i])) for _, cells in rows)])
            for i, c in enumerate(columns)
        ]
        widths = fit_widths(natural, room, self.cell_padding)
        if not rows_changed and [c.width for c in columns] == widths and not any(c.auto_width for c in columns):
            return
        cursor = self.cursor_coordinate
        self.clear(columns=True)
        for column, width in zip(columns, widths, strict=True):
            self.add_column(literal(str(column.label)), width=width, key=column.key.value)
        for key, cells in rows:
            self.add_row(*[literal(str(cell)) for cell in cells], key=key.value, height=None)
        if self.row_count:
            self.cursor_coordinate = self.validate_cursor_coordinate(cursor)

    def _empty_line(self) -> int:
        return self.header_height if self.show_header else 0

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        height = super().get_content_height(container, viewport, width)
        return height if self.row_count else max(height, self._empty_line() + 1)

    def render_line(self, y: int) -> Strip:
        if self.row_count or y != self._empty_line():
            return super().render_line(y)
        # The whole component style, not the part the CSS sets: `$text-muted` is an `auto` colour, which only the
        # whole style resolves against the table's background (alone it came out white, 1.4:1 on light grey).
        style = self.rich_style + self.get_component_rich_style("table--empty")
        return Strip([Segment(" " + self.empty, style)]).adjust_cell_length(self.size.width, self.rich_style)

    def _scroll_cursor_into_view(self, animate: bool = False) -> None:
        """The cursor stays in sight: the table scrolls itself (Textual), and a table as tall as its rows inside
        a scrolling pane (插件's tables) has the pane scroll to the cursor's row — ↓ used to move the cursor off
        the screen, and Enter then opened a row the student could not see."""
        super()._scroll_cursor_into_view(animate)
        if self.cursor_type == "column" or not self.row_count:
            return
        pane = next((a for a in self.ancestors if isinstance(a, ScrollableContainer)), None)
        if pane is None or not self.is_attached:
            return
        _, y, _, height = self._get_row_region(self.cursor_row)
        top = self.virtual_region.y + self.styles.gutter.top + y - int(self.scroll_y)
        header = self.header_height if self.show_header else 0
        pane.scroll_to_region(
            Region(0, top, 1, height), animate=animate, spacing=Spacing(header, 0, 0, 0), immediate=True
        )
