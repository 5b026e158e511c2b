"""The notification centre: every notice the scheduled checks and plugins raised, newest first, read on open."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, DataTable, Static

from tui.app.dialogs.base import Dialog
from tui.app.dialogs.prompts import DIALOG_CSS
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.app.navigation import ScrollStop
from tui.app.widgets.tables import Table
from tui.runtime.message import say
from tui.runtime.scheduler.notices import Notice, Notices
from tui.runtime.scheduler.timing import beijing
from widgets_render.simple_widgets import literal, plain


class NotificationCentre(LocalBindings, Dialog[None]):
    """Every notification, newest first: time, source, message; Enter shows the result (or opens the task's
    conversation). Opening it marks them read."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="NotificationCentre")
        + """
    NotificationCentre > Vertical { width: 100; max-height: 90%; }
    NotificationCentre DataTable { height: auto; max-height: 20; }
    NotificationCentre #notice-detail { height: auto; max-height: 12; margin-top: 1; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "close")]

    def __init__(
        self, notices: Notices, locale: str, result_titles: Callable[[str], Mapping[str, str]] | None = None
    ) -> None:
        super().__init__()
        self.notices = notices
        self.locale = locale
        self.shown: dict[str, Notice] = {}
        self.result_titles = result_titles or (lambda _source: {})
        """A notice's source (its check) → the titles of its tool's result keys."""

    def compose(self) -> ComposeResult:
        loc = self.locale
        with Vertical():
            yield Static(t("notifications", loc), markup=False, classes="title")
            table = Table(empty=t("no_notifications", loc), id="notices", cursor_type="row", zebra_stripes=True)
            table.add_columns(t("time", loc), t("source", loc), t("message", loc))
            for n in self.notices.all():
                key = str(n.id)
                self.shown[key] = n
                mark = "" if n.read else "● "
                table.add_row(
                    literal(beijing(n.at_ms)), literal(mark + n.title), literal(say(n.message, loc)[:120]), key=key
                )
            yield table
            yield ScrollStop(id="notice-detail")
            with Horizontal():
                yield Button(t("close", loc), id="notices-close")

    def on_mount(self) -> None:
        self.notices.mark_read()  # the student has now seen them (the ● marks stay for this look)

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#notices-close")
    def closed(self) -> None:
        self.dismiss(None)

    @on(DataTable.RowSelected, "#notices")
    async def opened(self, event: DataTable.RowSelected) -> None:
        notice = self.shown.get(str(event.row_key.value))
        if notice is None:
            return
        if notice.session:
            self.dismiss(None)
            await self.app.open_conversation(notice.session)  # type: ignore[attr-defined]
            return
        from tui.app.widgets.result_view import fitting_width, result_view

        detail = self.query_one("#notice-detail", VerticalScroll)
        await detail.remove_children()
        await detail.mount(Static(plain(say(notice.message, self.locale)), markup=False))
        if notice.result is not None:
            width = fitting_width(detail)
            titles = self.result_titles(notice.source)
            view = result_view(notice.result, widget_id="notice-result", locale=self.locale, width=width, titles=titles)
            await detail.mount(view)
