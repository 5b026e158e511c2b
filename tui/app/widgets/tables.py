"""The app's tables: a DataTable that says "nothing yet" when it has no rows, instead of a bare header line."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.segment import Segment
from rich.text import Text
from textual.containers import ScrollableContainer
from textual.geometry import Region, Size, Spacing
from textual.strip import Strip
from textual.widgets import DataTable


class Table(DataTable[Text]):
    """A DataTable with a line under its header while it is empty (`empty`, an i18n sentence, never data).

    The line is drawn in the table itself, so every way a table empties (built empty, `clear()` on a refresh,
    the last row removed) shows it, and the first row replaces it without a change of layout.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"table--empty"}
    DEFAULT_CSS = """
    Table > .table--empty { color: $text-muted; text-style: italic; }
    """

    def __init__(self, *, empty: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.empty = empty

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
