""" "Notify me when…" from a tool result, and a scheduled check's run log, as typed dialogs."""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Select, Static

from tui.app.dialogs.base import Dialog
from tui.app.dialogs.prompts import DIALOG_CSS
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.app.widgets.tables import Table
from tui.app.words import input_words, schedule_text, when_text
from tui.runtime.message import say, say_error
from tui.runtime.registry import ToolInfo
from tui.runtime.scheduler.checks import Check, Checks
from tui.runtime.scheduler.timing import beijing
from tui.runtime.store import Store
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal, plain
from widgets_render.steady_select import SteadySelect

SCHEDULES = [
    ("every_30m", "every 30m"),
    ("every_1h", "every 1h"),
    ("daily_0730", "30 7 * * *"),
    ("weekdays_0800", "0 8 * * 1-5"),
    ("custom", ""),
]


#: "Tell me when it changes": object comparison is by identity in the plugin language, so compare the JSON text.
CHANGED = "previous != null && stringify(result) != stringify(previous)"

#: The comparisons a student picks instead of writing one ("when my balance is under 20").
COMPARISONS = {"below": "<", "above": ">"}
IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def number_fields(result: Any) -> list[tuple[str, float]]:
    """The numbers in a tool's result a condition can compare, as (expression path, value now): the result itself,
    its fields, and the fields of its objects one level down (`result.card.balanceYuan`)."""

    def path(parent: str, key: str) -> str:
        return f"{parent}.{key}" if IDENTIFIER.fullmatch(key) else f"{parent}[{json.dumps(key, ensure_ascii=False)}]"

    found: list[tuple[str, float]] = []
    if isinstance(result, (int, float)) and not isinstance(result, bool):
        found.append(("result", float(result)))
    if isinstance(result, dict):
        for key, value in result.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                found.append((path("result", str(key)), float(value)))
            elif isinstance(value, dict):
                found += [
                    (path(path("result", str(key)), str(k)), float(v))
                    for k, v in value.items()
                    if isinstance(v, (int, float)) and not isinstance(v, bool)
                ]
    return found[:40]


def compared(field: str, comparison: str, text: str) -> str | None:
    """The condition "field below/above the number in `text`", or None when `text` is not a number."""
    try:
        number = float(text.strip())
    except ValueError:
        return None
    if number != number or number in (float("inf"), float("-inf")):
        return None
    shown = int(number) if number.is_integer() else number
    return f"{field} {COMPARISONS[comparison]} {shown}"


class CheckDialog(LocalBindings, Dialog[Check | None]):
    """Create a check on a read tool with the input just used: schedule, optional condition, message."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="CheckDialog")
        + """
    CheckDialog > Vertical { width: 80; max-height: 100%; overflow-y: auto; padding: 0 1; }
    CheckDialog .title { text-style: bold; }
    CheckDialog .muted { color: $text-muted; }
    CheckDialog .label { color: $text-muted; margin-top: 1; }
    CheckDialog #check-error { color: $error; }
    CheckDialog Select, CheckDialog Input { width: 100%; }
    CheckDialog #check-compare { height: auto; margin-top: 0; align: left top; }
    CheckDialog #check-compare Select { width: 2fr; }  /* the field and the number side by side */
    /* level with the select's box, which the dialogs' Horizontal rule gives a line above (SelectCurrent is one) */
    CheckDialog #check-compare Input { width: 1fr; margin-top: 1; }
    CheckDialog .-hidden { display: none; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, store: Store, tool: ToolInfo, args: dict[str, Any], locale: str, result: Any = None) -> None:
        super().__init__()
        self.store = store
        self.tool = tool
        self.args = args
        self.locale = locale
        self.numbers = number_fields(result)
        """The result's numbers a student can compare without writing a condition."""

    def field_title(self, path: str) -> str:
        """A number of the result by the tool's title for it (余额（元）), not its key (balanceYuan; an outsider's
        run); a key without a title as it is."""
        key = path.removeprefix("result.")
        titles = self.tool.result_titles
        return titles.get(key) or titles.get(key.rsplit(".", 1)[-1]) or key

    def compose(self) -> ComposeResult:
        # One field a line, each select the dialog's full width (beside an input they were squeezed to one cell).
        loc = self.locale
        with Vertical():
            yield Static(plain(self._title("changed")), markup=False, classes="title", id="check-heading")
            # What the check runs, as the student knows it: the tool and the inputs given (no internal id).
            given = input_words(self.args, self.tool, loc)
            yield Static(plain(f"{self.tool.title}  {given}".strip()), markup=False, classes="muted")
            # Each box has its label above it: once filled in, placeholders no longer say which box is which.
            yield Static(t("check_title", loc), markup=False, classes="label")
            yield Input(clean(self.tool.title), placeholder=t("check_title", loc), id="check-title")
            yield Static(t("check_how_often", loc), markup=False, classes="label")
            yield SteadySelect([(literal(t(k, loc)), v or "custom") for k, v in SCHEDULES], value="every 30m",
                               allow_blank=False, id="check-schedule")  # fmt: skip
            yield Input(placeholder="every 2h · 0 8 * * 1-5", id="check-custom", classes="-hidden")
            yield Static(t("check_when", loc), markup=False, classes="label")
            # "when my balance is under 20" without writing an expression, when the result has numbers
            compare = [(t("when_below", loc), "below"), (t("when_above", loc), "above")] if self.numbers else []
            whens = [(t("when_always", loc), "always"), (t("when_changed", loc), "changed"), *compare,
                     (t("when_expr", loc), "expr")]  # fmt: skip
            yield SteadySelect(whens, value="changed", allow_blank=False, id="check-when")
            with Horizontal(id="check-compare", classes="-hidden"):
                fields = [
                    (literal(f"{self.field_title(path)}{t('now_is', loc).format(value=f'{value:g}')}"), path)
                    for path, value in self.numbers
                ]
                yield SteadySelect(  # each prompt is literal() Text: the result's keys are plugin data
                    fields or [("—", "")],
                    value=self.numbers[0][0] if self.numbers else "",
                    allow_blank=False,
                    id="check-field",
                )  # fmt: skip
                yield Input(placeholder=t("check_number", loc), id="check-number", type="number")
            yield Input(placeholder=t("check_condition_hint", loc), id="check-condition", classes="-hidden")
            yield Static(t("check_message_label", loc), markup=False, classes="label")
            yield Input(placeholder=t("check_message", loc), id="check-message")
            yield Static("", markup=False, id="check-error")
            with Horizontal():
                yield Button(t("cancel", loc), id="check-cancel")
                yield Button(t("save", loc), id="check-save", variant="primary")

    def on_mount(self) -> None:
        # The title box has the focus and the dialog scrolled to it, hiding the heading at 80×24.
        self.call_after_refresh(self.query_one(Vertical).scroll_home, animate=False)

    def _say(self, text: str) -> None:
        """Show why the check cannot be saved (app text or an error said in words), in sight with the buttons."""
        error = self.query_one("#check-error", Static)
        error.update(plain(text))
        self.call_after_refresh(self.query_one(Vertical).scroll_end, animate=False)

    def _title(self, when: str) -> str:
        """The heading says what the chosen condition does (it used to promise a condition the default lacks)."""
        return t("check_heading", self.locale).format(when=t(f"when_{when}", self.locale))

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Select.Changed)
    def chosen(self, event: Select.Changed) -> None:
        event.stop()  # not the app's language/theme selects
        custom = self.query_one("#check-schedule", Select).value == "custom"
        when = str(self.query_one("#check-when", Select).value)
        self.query_one("#check-custom", Input).set_class(not custom, "-hidden")
        self.query_one("#check-condition", Input).set_class(when != "expr", "-hidden")
        self.query_one("#check-compare").set_class(when not in COMPARISONS, "-hidden")
        # The box for it appears right after the select, where Tab goes next; the focus stays on the select (it
        # used to jump into the box, and a student's Tab then skipped past it to the message).
        self.query_one("#check-heading", Static).update(plain(self._title(when)))

    @on(Button.Pressed, "#check-cancel")
    def cancelled(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#check-save")
    def save(self) -> None:
        schedule = str(self.query_one("#check-schedule", Select).value)
        if schedule == "custom":
            schedule = self.query_one("#check-custom", Input).value.strip()
        when = str(self.query_one("#check-when", Select).value)
        condition = {"always": None, "changed": CHANGED}.get(when, self.query_one("#check-condition", Input).value)
        if when in COMPARISONS:
            field = str(self.query_one("#check-field", Select).value)
            condition = compared(field, when, self.query_one("#check-number", Input).value)
            if condition is None:
                self._say(t("check_number_missing", self.locale))
                self.query_one("#check-number", Input).focus()
                return
        if when == "expr" and not str(condition).strip():
            self._say(t("check_condition_missing", self.locale))
            return
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
            self._say(say_error(e, self.locale))
            return
        self.dismiss(check)


def check_details(check: Check, tool: ToolInfo | None, locale: str) -> list[str]:
    """What a check does, in lines a student reads: what it runs and with what, when it notifies and with which
    words (or what it asks the assistant), and when it runs next. The list showed none of it: a student could
    not tell which condition a check had."""
    lines = []
    if check.kind == "prompt":
        lines.append(t("check_asks", locale).format(prompt=check.prompt or ""))
    else:
        what = tool.title if tool else check.tool or ""
        if check.args:  # with the input it is given, as the tool's form says it
            what = t("check_with_input", locale).format(tool=what, input=input_words(check.args, tool, locale))
        lines.append(t("check_runs_tool", locale).format(tool=what))
        if check.condition == CHANGED:  # the default, in words: the expression told a student nothing
            lines.append(t("check_notifies_when", locale).format(condition=t("result_changes", locale)))
        elif check.condition:
            lines.append(t("check_notifies_when", locale).format(condition=check.condition))
        else:
            lines.append(t("check_every_run", locale))
        if check.message:
            lines.append(t("check_text", locale).format(message=check.message))
    lines.append(t("check_next", locale).format(when=when_text(check.next_ms, locale)))
    return lines


class RunLogDialog(LocalBindings, Dialog[None]):
    """One check: what it does (`check_details`), then its runs, newest first."""

    DEFAULT_CSS = DIALOG_CSS.format(name="RunLogDialog") + "RunLogDialog > Vertical { width: 100; }"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "close")]

    def __init__(self, checks: Checks, check: Check, locale: str, tool: ToolInfo | None = None) -> None:
        super().__init__()
        self.checks = checks
        self.check = check
        self.locale = locale
        self.tool = tool
        """The tool the check runs (None for an assistant task, or when the tool is gone)."""

    def compose(self) -> ComposeResult:
        loc = self.locale
        with Vertical():
            when = schedule_text(self.check.timing, self.locale)
            yield Static(plain(f"{self.check.title} · {when}"), markup=False, classes="title")
            for line in check_details(self.check, self.tool, loc):
                yield Static(plain(line), markup=False, classes="check-detail")
            table = Table(empty=t("no_runs_yet", loc), id="run-log", zebra_stripes=True)
            table.add_columns(t("time", loc), t("duration_ms", loc), t("outcome", loc), t("detail", loc))
            for run in self.checks.runs(self.check.id):
                detail = say(run.detail, loc)[:100]
                table.add_row(literal(beijing(run.at_ms)), literal(str(run.duration_ms)),
                              literal(t(f"outcome_{run.outcome}", loc)), literal(detail))  # fmt: skip
            yield table
            with Horizontal():
                yield Button(t("close", loc), id="run-log-close")

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#run-log-close")
    def closed(self) -> None:
        self.dismiss(None)
