"""The small typed prompts every part of the app asks with: a yes/no confirmation, a choice from a list and the
verification-code prompt."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, OptionList, Static

from tui.app.dialogs.base import Dialog
from tui.app.harness import HarnessApp
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from widgets_render.simple_widgets import plain
from widgets_render.steady_options import SteadyOptionList

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{ width: 60; max-width: 100%; height: auto; border: thick $primary; background: $surface;
    padding: 1 2; }}
{name} Horizontal {{ height: auto; margin-top: 1; align: right middle; }}
{name} Button {{ margin-left: 1; }}
"""


class ConfirmDialog(LocalBindings, Dialog[bool]):
    """An author's `confirm` text with Yes / No (y / n / Escape)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmDialog")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str, locale: str = "zh") -> None:
        super().__init__()
        self.question = question
        self.locale = locale

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(self.question), markup=False)
            with Horizontal():
                # the keys on the buttons, as on an error card's (重试 r): y and n answer from anywhere in it
                yield Button(plain(f"{t('no', self.locale)} n"), id="no")
                yield Button(plain(f"{t('yes', self.locale)} y"), id="yes", variant="primary")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class CodePrompt(LocalBindings, Dialog[str | None]):
    """The standard prompt for a `verification_required` result: SMS or one-time code, or cancel."""

    DEFAULT_CSS = DIALOG_CSS.format(name="CodePrompt")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, message: str, locale: str = "zh") -> None:
        super().__init__()
        self.message = message
        self.locale = locale

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(t("code_title", self.locale), markup=False, classes="title")
            yield Static(plain(self.message), markup=False)
            yield Input(placeholder=t("code_placeholder", self.locale), id="code", max_length=12)
            with Horizontal():
                yield Button(t("no", self.locale), id="cancel")
                yield Button(t("yes", self.locale), id="ok", variant="primary")

    def on_mount(self) -> None:
        # Focused here, not left to Textual: it focuses a new screen's first field only while the terminal has the
        # focus, and a prompt that opened while the student was in another window took no typing once they came
        # back. From that window they are told a code is needed (attention.py).
        for box in self.query("#code"):  # none when the app quit before the prompt was mounted
            box.focus()
        if isinstance(self.app, HarnessApp):
            self.app.attention.waiting("code", self.message)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        code = self.query_one("#code", Input).value.strip()
        self.dismiss(code or None if event.button.id == "ok" else None)


class ChooseDialog(LocalBindings, Dialog[str | None]):
    """Pick one of a few plain choices (Enter), or Escape for none."""

    DEFAULT_CSS = DIALOG_CSS.format(name="ChooseDialog")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, title: str, choices: list[str], labels: list[str] | None = None) -> None:
        """`choices` are what the dialog answers; `labels`, when given, what the student reads for each."""
        super().__init__()
        self.heading = title
        self.choices = choices
        self.labels = labels if labels is not None and len(labels) == len(choices) else choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(self.heading), markup=False)
            yield SteadyOptionList(*[plain(label) for label in self.labels], id="choices")

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index])
