"""设置 → 定时检查: the scheduled checks and assistant tasks, with pause / resume, the run log, approval and removal."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from tui.app.dialogs.check import RunLogDialog
from tui.app.i18n import t
from tui.app.widgets.tables import Table
from tui.app.words import cut_cells, schedule_text, when_text
from tui.runtime.message import say
from tui.runtime.registry import Registry
from tui.runtime.scheduler.checks import Check, Checks
from tui.runtime.store import Store
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal

if TYPE_CHECKING:
    from tui.runtime.scheduler.runner import RunReport

#: Runs one check now by its id: its report, or None when it could not run (gone, waiting, being run).
RunNow = Callable[[str], Awaitable["RunReport | None"]]

#: Below this many columns the list is narrow (see `ChecksPanel.narrow`).
NARROW_BELOW = 100


class ChecksPanel(Vertical):
    """设置 → 定时检查: every check with its schedule, next run, last outcome; Enter for approve, run now, details
    and run log, pause, remove; `a` approves a plugin's assistant task (it waits for the student before its first
    run)."""

    DEFAULT_CSS = """
    ChecksPanel { height: auto; padding: 0 1; }
    ChecksPanel DataTable { height: auto; max-height: 12; }
    ChecksPanel .muted { color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("a", "approve", "approve_task")]

    def __init__(self, store: Store, locale: str, tools: Registry | None = None, run_now: RunNow | None = None) -> None:
        super().__init__(id="checks-panel")
        self.store = store
        self.locale = locale
        self.tools = tools
        """Where a check's tool is found by id, to show its title."""
        self.run_now = run_now
        """Runs one check now (立即运行); None where nothing can run it (the menu leaves it out)."""
        self.waiting: set[str] = set()
        """The listed checks that wait for approval (what `a` acts on), as of the last fill."""
        self.shown_narrow: bool | None = None
        """The layout the table's columns are in (None before the first fill)."""

    def compose(self) -> ComposeResult:
        loc = self.locale
        yield Table(empty=t("no_checks_yet", loc), id="checks", cursor_type="row", zebra_stripes=True)
        yield Static(t("checks_hint", loc), markup=False, classes="muted")

    @property
    def narrow(self) -> bool:
        """Under 100 columns the list leaves out what each check runs (Enter and its run log name it) and cuts
        long titles and states, so the state and the next run stay in sight at 80 columns."""
        return self.app.size.width < NARROW_BELOW

    def on_resize(self) -> None:
        if self.narrow != self.shown_narrow:
            self.fill()

    def on_mount(self) -> None:
        self.fill()

    def on_show(self) -> None:
        self.fill()

    def fill(self) -> None:
        """(Re)list the checks; the cursor stays on the check it was on (background rounds refill every 30 s)."""
        tables = self.query("#checks").results(DataTable)
        table = next(tables, None)
        if table is None:  # mounted as the app closes (a hidden tab mounts late): nothing to fill
            return
        chosen = self.chosen_id()
        row = table.cursor_row
        loc, narrow = self.locale, self.narrow
        if narrow != self.shown_narrow or not table.columns:
            self.shown_narrow = narrow
            table.clear(columns=True)
            # The state before the next run, the tool last: at 80 columns the last columns are the ones cut.
            headings = [t("check_title", loc), t("schedule", loc), t("state", loc), t("next_run", loc)]
            table.add_columns(*headings, *([] if narrow else [t("runs", loc)]))
        else:
            table.clear()
        listed = Checks(self.store).all()
        self.waiting = {c.id for c in listed if c.awaiting_approval}
        for c in listed:
            state = say(c.last_error, self.locale) if c.last_error else t("check_ok", self.locale)
            if c.last_ms is None and not c.last_error:
                state = t("not_run_yet", self.locale)
            if not c.enabled:
                state = t("paused", self.locale)
            if c.awaiting_approval:
                state = t("awaiting_approval", self.locale)
            what = self.what(c)
            most = 14 if narrow else 40  # cells; the whole title and state are in the dialog and the run log
            cells = [cut_cells(c.title, most), schedule_text(c.timing, loc), cut_cells(state, most)]
            cells += [when_text(c.next_ms, loc)] + ([] if narrow else [what])
            table.add_row(*(literal(x) for x in cells), key=c.id)
        if not table.row_count:
            return
        # the same check if it is still there, else the row where the cursor was (the one after a removed check)
        row = (
            table.get_row_index(chosen)
            if chosen is not None and chosen in table.rows
            else min(row, table.row_count - 1)
        )
        table.move_cursor(row=row, animate=False, scroll=False)

    def what(self, check: Check) -> str:
        """What a check runs, by its title (not its id), or the assistant for a task."""
        tool = self.tools.find(check.tool) if self.tools is not None and check.tool else None
        return tool.title if tool is not None else check.tool or t("assistant", self.locale)

    def chosen_id(self) -> str | None:
        """The id of the check under the cursor, or None when the table is empty."""
        table = self.query_one("#checks", DataTable)
        if not table.row_count or not table.is_valid_row_index(table.cursor_row):
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    @on(DataTable.RowSelected, "#checks")
    def chosen(self, event: DataTable.RowSelected) -> None:
        self.run_worker(self.manage(str(event.row_key.value)), group="check", exclusive=True)

    async def manage(self, check_id: str) -> None:
        """Pause or resume, the run log, or remove (dialogs wait, so this runs in a worker)."""
        from tui.app.dialogs.prompts import ChooseDialog, ConfirmDialog

        checks = Checks(self.store)
        check = checks.get(check_id)
        if check is None:
            return
        loc = self.locale
        toggle = t("resume" if not check.enabled else "pause", loc)
        approve, log, remove = t("approve_task", loc), t("details_and_log", loc), t("remove_check", loc)
        run = t("run_now", loc)
        runnable = self.run_now is not None and not check.awaiting_approval
        options = [approve] * check.awaiting_approval + [run] * runnable + [log, toggle, remove]
        choice = await self.app.push_screen_wait(ChooseDialog(clean(check.title), options))
        if choice == approve:
            await self.approve(check)
        elif choice == run and self.run_now is not None:
            report = await self.run_now(check.id)
            if report is not None:
                outcome = t(f"outcome_{report.outcome}", loc)
                self.notify(clean(t("ran_now", loc).format(title=check.title, outcome=outcome)), markup=False)
        elif choice == toggle:
            checks.set_enabled(check.id, not check.enabled)
        elif choice == log:
            tool = self.tools.find(check.tool) if self.tools is not None and check.tool else None
            await self.app.push_screen_wait(RunLogDialog(checks, check, loc, tool))
        elif choice == remove and await self.app.push_screen_wait(
            ConfirmDialog(t("remove_check_question", loc).format(title=clean(check.title)), loc)
        ):
            checks.remove(check.id)
        self.fill()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`a` (approve) is offered only on a plugin's task that waits for approval (the footer showed it on every
        check, and pressing it on a student's own check did nothing)."""
        if action != "approve":
            return True
        return self.chosen_id() in self.waiting  # no store read: the footer asks on every focus change

    @on(DataTable.RowHighlighted, "#checks")
    def moved(self) -> None:
        self.refresh_bindings()

    def action_approve(self) -> None:
        key = self.chosen_id()
        check = Checks(self.store).get(key) if key is not None else None
        if check is not None and check.awaiting_approval:
            self.run_worker(self.approve(check), group="check", exclusive=True)

    async def approve(self, check: Check) -> None:
        """Show what the plugin's task would ask the assistant, and approve it on yes."""
        from tui.app.dialogs.prompts import ConfirmDialog

        question = t("approve_question", self.locale).format(plugin=check.source, title=check.title,
                                                              prompt=check.prompt or "")  # fmt: skip
        if await self.app.push_screen_wait(ConfirmDialog(clean(question), self.locale)):
            Checks(self.store).approve(check.id)
        self.fill()
