"""The quick commands (快捷指令) 助手 offers while the student types `/`: a list above the message box.

Typing `/` shows every plugin's commands; the words after it narrow the list (title, plugin or id). ↑/↓ move
through it, Enter or a click carries the highlighted one out, Esc closes it and leaves the text. A message that
starts with `/` and matches no command is sent as written (Enter does what it always does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.app.i18n import t
from tui.runtime.commands import QuickCommand, matching
from widgets_render.safe_text import clean
from widgets_render.steady_options import SteadyOptionList

if TYPE_CHECKING:
    from tui.runtime.registry import Registry

#: Rows the list takes at most; more commands scroll.
MAX_ROWS = 6


def offered(text: str) -> bool:
    """Whether the box's text asks for the list: one line that starts with `/`."""
    return text.startswith("/") and "\n" not in text


def kind_word(command: QuickCommand, locale: str) -> str:
    """What choosing it does, in a word: 问助手, 运行工具, 打开页面."""
    return t(f"command_{command.kind}", locale)


class QuickCommandList(SteadyOptionList):
    """The commands matching what follows `/`; hidden while the box does not start with it."""

    DEFAULT_CSS = f"""
    QuickCommandList {{
        height: auto; max-height: {MAX_ROWS}; display: none; margin: 0 1; border: none; padding: 0 1;
        background: $boost;
    }}
    QuickCommandList.-shown {{ display: block; }}
    """

    class Chosen(Message):
        """A command was chosen (Enter in the box, or a click)."""

        def __init__(self, command: QuickCommand) -> None:
            super().__init__()
            self.command = command

    def __init__(self, registry: Registry, locale: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.registry = registry
        self.locale = locale
        self.shown: list[QuickCommand] = []
        self.can_focus = False  # the box keeps the focus: its ↑/↓/Enter/Esc reach the list through it

    @property
    def open(self) -> bool:
        return self.has_class("-shown")

    def follow(self, text: str) -> None:
        """Show the commands `text` names, or hide the list."""
        from tui.runtime.commands import quick_commands

        found = matching(quick_commands(self.registry), text) if offered(text) else []
        if [c.id for c in found] != [c.id for c in self.shown]:
            self.shown = found
            self.clear_options()
            width = max((cell_len(c.label) for c in found), default=0) + 2  # what each does, in one column
            self.add_options(
                Option(
                    # plain text, not markup: a plugin's title is shown as written
                    Content(clean(c.label + " " * (width - cell_len(c.label)) + kind_word(c, self.locale))),
                    id=c.id,
                )
                for c in found
            )
            if found:
                self.highlighted = 0
        self.set_class(bool(found), "-shown")

    def close(self) -> None:
        self.shown = []
        self.clear_options()
        self.remove_class("-shown")

    def move(self, step: int) -> None:
        """↑/↓ from the box."""
        if self.shown:
            now = self.highlighted if self.highlighted is not None else -step
            self.highlighted = (now + step) % len(self.shown)

    def choose(self) -> bool:
        """Enter from the box: carry out the highlighted command; False when the list offers none."""
        if not self.open or not self.shown or self.highlighted is None:
            return False
        self.post_message(self.Chosen(self.shown[self.highlighted]))
        return True

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()  # a click: the same as Enter on it
        self.highlighted = event.option_index
        self.choose()
