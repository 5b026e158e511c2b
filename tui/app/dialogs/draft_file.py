"""One file of a plugin draft, read-only: a text area the student can scroll and select from, never edit (the
draft is changed by the assistant's `draftWrite` or in an editor). Its text is the draft's own: no markup."""

from __future__ import annotations

import asyncio
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
from tui.runtime.plugins.drafts import DraftError, Drafts
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain


class DraftFileDialog(LocalBindings, Dialog[None]):
    """The file's text in a read-only text area; Escape or 关闭 closes."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="DraftFileDialog")
        + """
    DraftFileDialog > Vertical { width: 100; max-height: 90%; }
    DraftFileDialog .title { text-style: bold; }
    DraftFileDialog TextArea { height: 1fr; min-height: 3; max-height: 30; margin-top: 1; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "close")]

    def __init__(self, drafts: Drafts, draft_id: str, path: str, locale: str = "zh") -> None:
        super().__init__()
        self.drafts = drafts
        self.draft_id = draft_id
        self.path = path
        self.locale = locale

    def compose(self) -> ComposeResult:
        with Vertical():
            title = t("draft_file_title", self.locale).format(id=self.draft_id, path=self.path)
            yield Static(plain(clean(title)), markup=False, classes="title")
            yield TextArea("", read_only=True, soft_wrap=True, show_line_numbers=True, id="draft-file-text")
            with Horizontal():
                yield Button(t("close", self.locale), id="draft-file-close", variant="primary")

    async def on_mount(self) -> None:
        area = self.query_one("#draft-file-text", TextArea)
        try:
            text = await asyncio.to_thread(self.drafts.read, self.draft_id, self.path)
        except DraftError as e:
            text = str(e)
        area.load_text(clean(text))
        area.focus()  # the arrows scroll it; typing changes nothing (read_only)

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#draft-file-close")
    def close_pressed(self) -> None:
        self.dismiss(None)
