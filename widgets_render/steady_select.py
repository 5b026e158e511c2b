"""Textual's `Select`, without its start-up race: every select of the app and of generated forms is this one.

Textual 8.2's `Select` sets its value in its own mount handler and shows it through its `SelectCurrent` child
with `query_one("#label")`; but the child composes that label in its own message loop, so a select mounted
under load (the whole shell is recomposed when the student switches the language) can run the handler first and
crash the app with `NoMatches: '#label'`. Here the current value is remembered until the label exists, and the
label is composed showing it.
"""

from __future__ import annotations

from typing import Any, Literal

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.widgets import Select
from textual.widgets._select import NonSelectableStatic, NoSelection, SelectCurrent, SelectOverlay

from widgets_render.steady_options import page_ready


class _SteadyCurrent(SelectCurrent):
    """The current value's box: an update that comes before the label is composed is shown once it is."""

    def update(self, label: RenderableType | NoSelection) -> None:
        """Show `label` now when the label widget exists, else keep it for compose()."""
        if self.query("#label"):
            super().update(label)
            return
        self.label = label  # markup: the Select's own option prompt, made safe where the options were built
        self.has_value = label is not Select.NULL

    def compose(self) -> ComposeResult:
        shown = self.placeholder if isinstance(self.label, NoSelection) else self.label
        yield NonSelectableStatic(shown, id="label")
        yield NonSelectableStatic("▼", classes="arrow down-arrow")
        yield NonSelectableStatic("▲", classes="arrow up-arrow")


class _SteadyOverlay(SelectOverlay):
    """The select's option list: a page key that comes before the list is laid out is ignored (the key masher:
    a select opened and PgDn in one burst ended the app with `KeyError: 0`; `widgets_render.steady_options`)."""

    def _move_page(self, direction: Literal[-1, 1]) -> None:
        if page_ready(self):
            super()._move_page(direction)


class SteadySelect(Select[Any]):
    """`Select` whose first value never races its own label, nor its list's page keys (see the module)."""

    def _setup_options_renderables(self) -> None:
        # A select removed as it mounted (a form closed in the same moment) has no list left to fill: Textual
        # raised NoMatches from its mount handler and ended the app.
        if self.query(SelectOverlay):
            super()._setup_options_renderables()

    def compose(self) -> ComposeResult:
        yield _SteadyCurrent(self.prompt)
        yield _SteadyOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)


__all__ = ["SteadySelect"]
