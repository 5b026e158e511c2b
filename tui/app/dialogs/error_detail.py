"""详情 of an error card: the technical text (what failed, file:line, step, URL, ids) in a read-only text area the
student can select from, with a button that copies all of it — for a bug report or the plugin's author."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static, TextArea

from tui.app.dialogs.base import Dialog
from tui.app.dialogs.prompts import DIALOG_CSS
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain


class ErrorDetailDialog(LocalBindings, Dialog[None]):
    """The full technical text of one error; `c` copies it, Escape closes."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ErrorDetailDialog")
        + """
    ErrorDetailDialog > Vertical { width: 90; }
    ErrorDetailDialog .title { text-style: bold; }
    ErrorDetailDialog TextArea { height: auto; max-height: 16; margin-top: 1; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close"),
        Binding("c", "copy", "error_copy"),
    ]

    def __init__(self, summary: str, detail: str, locale: str = "zh") -> None:
        super().__init__()
        self.summary = summary
        self.detail = clean(detail)
        self.locale = locale

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(t("error_detail_title", self.locale), markup=False, classes="title")
            yield Static(plain(self.summary), markup=False, id="error-detail-summary")
            yield TextArea(
                clean(self.detail), read_only=True, soft_wrap=True, show_line_numbers=False, id="error-detail"
            )
            with Horizontal():
                yield Button(t("error_copy", self.locale), id="error-copy")
                yield Button(t("close", self.locale), id="error-close", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#error-close", Button).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self.detail)
        self.notify(t("error_copied", self.locale), timeout=2)

    @on(Button.Pressed, "#error-copy")
    def copy_pressed(self) -> None:
        self.action_copy()

    @on(Button.Pressed, "#error-close")
    def close_pressed(self) -> None:
        self.dismiss(None)
