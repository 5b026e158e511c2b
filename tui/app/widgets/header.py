"""Textual's `Header`, without its title race: the app's screens show this one.

Textual 8.2's `Header` updates its title from a watcher of the screen's and the app's title, and that watcher
looks up its `HeaderTitle` child, catching only a missing screen. A plugin page sets its title once its body is
built; when that came while the page was closing (its children already removed), the lookup raised `NoMatches`
and ended the app — found by the key masher at MASH_SCALE=20. Here a title that has nowhere to go is dropped.
"""

from __future__ import annotations

import contextlib

from textual.css.query import NoMatches
from textual.dom import NoScreen
from textual.events import Mount
from textual.widget import Widget
from textual.widgets import Header
from textual.widgets._header import HeaderTitle


class SteadyHeader(Header):
    """`Header` whose title watcher survives the header's children being gone (see the module's docstring)."""

    def _on_mount(self, event: Mount) -> None:
        async def set_title() -> None:
            with contextlib.suppress(NoScreen, NoMatches):  # the header is closing: no title to update
                self.query_one(HeaderTitle).update(self.format_title())  # markup: Content, no markup parsed

        Widget._on_mount(self, event)  # what Header's own handler would have let run after it
        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)
        event.prevent_default()  # not Header's handler: it would add the watcher that raised


__all__ = ["SteadyHeader"]
