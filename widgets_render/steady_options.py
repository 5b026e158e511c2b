"""Textual's `OptionList`, without its page-key race: the app's choice lists are this one.

Textual 8.2's `OptionList` pages (PgUp / PgDn) through a line map that is only built once the list has been laid
out. A page key that reaches a list mounted a moment ago (a dialog opened and PgDn pressed in one burst; the key
masher found it in the command palette) looked up an empty map and ended the app with `KeyError: 0`. Here the map
is brought up to date first, as Textual's own scrolling does, and a list that has no lines yet ignores the key.
A list squeezed to no width measures one line per option instead of wrapping its text at width 0.
"""

from __future__ import annotations

from typing import Literal

from textual.geometry import Size
from textual.widgets import OptionList


def page_ready(options: OptionList) -> bool:
    """The list can move by a page: its line map covers the highlighted option (built now when it can be)."""
    options._update_lines()
    return (options.highlighted or 0) in options._index_to_line


class SteadyOptionList(OptionList):
    """`OptionList` whose page keys wait until it has been laid out, and that measures itself at no width (see the
    module's docstring)."""

    def _move_page(self, direction: Literal[-1, 1]) -> None:
        if page_ready(self):
            super()._move_page(direction)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # Squeezed to no width (a dialog on a 50×15 terminal mid-resize), wrapping an option's text raised
        # `range() arg 3 must not be zero` and ended the app (MASH_SCALE=20, seed 4, after 12,446 keys): a line
        # per option until there is room.
        if width <= 0:
            return self.option_count
        return super().get_content_height(container, viewport, width)
