"""Scheduled checks in the app: "notify me when…" from a tool result, the notification centre, and 设置 → 定时检查
with each check's state and run log. Notification text is shown as plain text, never as markup or to the model.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Select, Static

from tui.app.dialogs import DIALOG_CSS
from tui.app.i18n import t
from tui.runtime.registry import ToolInfo
from tui.runtime.scheduler.checks import Check, Checks
from tui.runtime.scheduler.notices import Notice, Notices
from tui.runtime.scheduler.timing import beijing
from tui.runtime.store import Store
from widgets_render.safe_text import clean
from widgets_render.steady_select import SteadySelect
from widgets_render.textual_render import literal, plain

SCHEDULES = [
    ("every_30m", "every 30m"),
    ("every_1h", "every 1h"),
    ("daily_0730", "30 7 * * *"),
    ("weekdays_0800", "0 8 * * 1-5"),
    ("custom", ""),
]
#: "Tell me when it changes": object comparison is by identity in the plugin language, so compare the JSON text.
CHANGED = "previous != null && stringify(result) != stringify(previous)"


class CheckDialog(ModalScreen[Check | None]):
    """Create a check on a read tool with the input just used: schedule, optional condition, message."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="CheckDialog")
        + """
    CheckDialog > Vertical { width: 80; }
    CheckDialog .muted { color: $text-muted; }
    CheckDialog #check-error { color: $error; }
    CheckDialog Select { width: 1fr; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "取消 Cancel")]

    def __init__(self, store: Store, tool: ToolInfo, args: dict[str, Any], locale: str) -> None:
        super().__init__()
        self.store = store
        self.tool = tool
        self.args = args
        self.locale = locale

    def compose(self) -> ComposeResult:
        loc = self.locale
        with Vertical():
            yield Static(t("notify_me", loc), markup=False, classes="title")
            yield Static(plain(f"{self.tool.title} ({self.tool.id}) {json.dumps(self.args, ensure_ascii=False)}"),
                         markup=False, classes="muted")  # fmt: skip
            yield Input(clean(self.tool.title), placeholder=t("check_title", loc), id="check-title")
            with Horizontal():
                yield SteadySelect([(literal(t(k, loc)), v or "custom") for k, v in SCHEDULES], value="every 30m",
                             allow_blank=False, id="check-schedule")  # fmt: skip
                yield Input(placeholder="every 2h · 0 8 * * 1-5", id="check-custom", disabled=True)
            with Horizontal():
                yield SteadySelect([(t("when_always", loc), "always"), (t("when_changed", loc), "changed"),
                              (t("when_expr", loc), "expr")], value="changed", allow_blank=False,
                             id="check-when")  # fmt: skip
                yield Input(placeholder="result.balanceYuan < 20", id="check-condition", disabled=True)
            yield Input(placeholder=t("check_message", loc), id="check-message")
            yield Static("", markup=False, id="check-error")
            with Horizontal():
                yield Button(t("cancel", loc), id="check-cancel")
                yield Button(t("save", loc), id="check-save", variant="primary")

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Select.Changed)
    def chosen(self, event: Select.Changed) -> None:
        event.stop()  # not the app's language/theme selects
        self.query_one("#check-custom", Input).disabled = self.query_one("#check-schedule", Select).value != "custom"
        self.query_one("#check-condition", Input).disabled = self.query_one("#check-when", Select).value != "expr"

    @on(Button.Pressed, "#check-cancel")
    def cancelled(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#check-save")
    def save(self) -> None:
        schedule = str(self.query_one("#check-schedule", Select).value)
        if schedule == "custom":
            schedule = self.query_one("#check-custom", Input).value.strip()
        when = self.query_one("#check-when", Select).value
        condition = {"always": None, "changed": CHANGED}.get(str(when), self.query_one("#check-condition", Input).value)
        try:
            check = Checks(self.store).add(
                self.query_one("#check-title", Input).value,
                schedule,
                tool=self.tool.id,
                args=self.args,
                condition=condition or None,
                message=self.query_one("#check-message", Input).value.strip() or None,
            )
        except ValueError as e:
            self.query_one("#check-error", Static).update(plain(str(e)))
            return
        self.dismiss(check)


class NotificationCentre(ModalScreen[None]):
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
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "关闭 Close")]

    def __init__(self, notices: Notices, locale: str) -> None:
        super().__init__()
        self.notices = notices
        self.locale = locale
        self.shown: dict[str, Notice] = {}

    def compose(self) -> ComposeResult:
        loc = self.locale
        with Vertical():
            yield Static(t("notifications", loc), markup=False, classes="title")
            table: DataTable[Text] = DataTable(id="notices", cursor_type="row", zebra_stripes=True)
            table.add_columns(t("time", loc), t("source", loc), t("message", loc))
            for n in self.notices.all():
                key = str(n.id)
                self.shown[key] = n
                mark = "" if n.read else "● "
                table.add_row(literal(beijing(n.at_ms)), literal(mark + n.title), literal(n.message[:120]), key=key)
            yield table
            if not self.shown:
                yield Static(t("no_notifications", loc), markup=False, classes="muted")
            yield VerticalScroll(id="notice-detail")
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
        from tui.app.tool_form import result_view

        detail = self.query_one("#notice-detail", VerticalScroll)
        await detail.remove_children()
        await detail.mount(Static(plain(notice.message), markup=False))
        if notice.result is not None:
            await detail.mount(result_view(notice.result, widget_id="notice-result"))


class ChecksPanel(Vertical):
    """设置 → 定时检查: every check with its schedule, next run, last outcome; Enter for approve, pause, log,
    remove; `a` approves a plugin's assistant task (it waits for the student before its first run)."""

    DEFAULT_CSS = """
    ChecksPanel { height: auto; padding: 0 1; }
    ChecksPanel DataTable { height: auto; max-height: 12; }
    ChecksPanel .muted { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("a", "approve", "批准 Approve")]

    def __init__(self, store: Store, locale: str) -> None:
        super().__init__(id="checks-panel")
        self.store = store
        self.locale = locale

    def compose(self) -> ComposeResult:
        loc = self.locale
        table: DataTable[Text] = DataTable(id="checks", cursor_type="row", zebra_stripes=True)
        table.add_columns(t("check_title", loc), t("schedule", loc), t("runs", loc), t("next_run", loc),
                          t("state", loc))  # fmt: skip
        yield table
        yield Static(t("checks_hint", loc), markup=False, classes="muted")

    def on_mount(self) -> None:
        self.fill()

    def on_show(self) -> None:
        self.fill()

    def fill(self) -> None:
        table = self.query_one("#checks", DataTable)
        table.clear()
        for c in Checks(self.store).all():
            state = t("paused", self.locale) if not c.enabled else c.last_error or t("check_ok", self.locale)
            if c.awaiting_approval:
                state = t("awaiting_approval", self.locale)
            what = c.tool or t("assistant", self.locale)
            cells = (c.title, c.timing, what, beijing(c.next_ms), state)
            table.add_row(*(literal(str(x)[:60]) for x in cells), key=c.id)

    @on(DataTable.RowSelected, "#checks")
    def chosen(self, event: DataTable.RowSelected) -> None:
        self.run_worker(self.manage(str(event.row_key.value)), group="check", exclusive=True)

    async def manage(self, check_id: str) -> None:
        """Pause or resume, the run log, or remove (dialogs wait, so this runs in a worker)."""
        from tui.app.dialogs import ChooseDialog

        checks = Checks(self.store)
        check = checks.get(check_id)
        if check is None:
            return
        loc = self.locale
        toggle = t("resume" if not check.enabled else "pause", loc)
        approve, log, remove = t("approve_task", loc), t("run_log", loc), t("remove_check", loc)
        options = [approve] * check.awaiting_approval + [toggle, log, remove]
        choice = await self.app.push_screen_wait(ChooseDialog(clean(check.title), options))
        if choice == approve:
            await self.approve(check)
        elif choice == toggle:
            checks.set_enabled(check.id, not check.enabled)
        elif choice == log:
            await self.app.push_screen_wait(RunLogDialog(checks, check, loc))
        elif choice == remove:
            checks.remove(check.id)
        self.fill()

    def action_approve(self) -> None:
        table = self.query_one("#checks", DataTable)
        if not table.row_count:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        check = Checks(self.store).get(str(key))
        if check is not None and check.awaiting_approval:
            self.run_worker(self.approve(check), group="check", exclusive=True)

    async def approve(self, check: Check) -> None:
        """Show what the plugin's task would ask the assistant, and approve it on yes."""
        from tui.app.dialogs import ConfirmDialog

        question = t("approve_question", self.locale).format(plugin=check.source, title=check.title,
                                                              prompt=check.prompt or "")  # fmt: skip
        if await self.app.push_screen_wait(ConfirmDialog(clean(question), self.locale)):
            Checks(self.store).approve(check.id)
        self.fill()


class RunLogDialog(ModalScreen[None]):
    """One check's runs, newest first."""

    DEFAULT_CSS = DIALOG_CSS.format(name="RunLogDialog") + "RunLogDialog > Vertical { width: 100; }"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "关闭 Close")]

    def __init__(self, checks: Checks, check: Check, locale: str) -> None:
        super().__init__()
        self.checks = checks
        self.check = check
        self.locale = locale

    def compose(self) -> ComposeResult:
        loc = self.locale
        with Vertical():
            yield Static(plain(f"{self.check.title} · {self.check.timing}"), markup=False, classes="title")
            table: DataTable[Text] = DataTable(id="run-log", zebra_stripes=True)
            table.add_columns(t("time", loc), "ms", t("outcome", loc), t("detail", loc))
            for run in self.checks.runs(self.check.id):
                table.add_row(literal(beijing(run.at_ms)), literal(str(run.duration_ms)),
                              literal(t(f"outcome_{run.outcome}", loc)), literal(run.detail[:100]))  # fmt: skip
            yield table
            with Horizontal():
                yield Button(t("close", loc), id="run-log-close")

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#run-log-close")
    def closed(self) -> None:
        self.dismiss(None)
