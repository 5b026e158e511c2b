"""Textual's `Header`, without its title race: the app's screens show this one.

Textual 8.2's `Header` updates its title from a watcher of the screen's and the app's title, and that watcher
looks up its `HeaderTitle` child, catching only a missing screen. A plugin page sets its title once its body is
built; when that came while the page was closing (its children already removed), the lookup raised `NoMatches`
and ended the app — found by the key masher at MASH_SCALE=20. Here a title that has nowhere to go is dropped.

When the title and its subtitle do not fit (80 columns with the F1 key panel open left 48), the app's name goes
first: "演示模式：11-30 12:00 的录制数据，不联网" says what matters, "PKU harness — 演示模式：11-30 1…" did not.
"""

from __future__ import annotations

import contextlib

from textual.content import Content
from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.events import Mount, Resize
from textual.widget import Widget
from textual.widgets import Header
from textual.widgets._header import HeaderTitle

#: Columns of the header that are not its title: the icon on the left and the room kept free on the right.
BESIDE_TITLE = 16


class SteadyHeader(Header):
    """`Header` whose title watcher survives the header's children being gone (see the module's docstring)."""

    def format_title(self) -> Content:
        """The title and subtitle; the subtitle alone when both do not fit (see the module docstring)."""
        whole = super().format_title()
        sub_title = self.screen_sub_title
        if sub_title and whole.cell_length > self.size.width - BESIDE_TITLE > 0:
            return Content(sub_title)
        return whole

    def _set_title(self) -> None:
        with contextlib.suppress(NoScreen, NoMatches):  # the header is closing: no title to update
            self.query_one(HeaderTitle).update(self.format_title())  # markup: Content, no markup parsed

    def _on_mount(self, event: Mount) -> None:
        Widget._on_mount(self, event)  # what Header's own handler would have let run after it
        self.watch(self.app, "title", self._set_title)
        self.watch(self.app, "sub_title", self._set_title)
        self.watch(self.screen, "title", self._set_title)
        self.watch(self.screen, "sub_title", self._set_title)
        event.prevent_default()  # not Header's handler: it would add the watcher that raised

    def on_resize(self, event: Resize) -> None:
        """Narrower or wider: the title may (or may no longer) have to drop the app's name."""
        self._set_title()


__all__ = ["SteadyHeader"]
