"""The assistant's composer: the message box the student writes in, and the line saying the assistant works.

The box is a `TextArea`, so a message can have many lines and a long paste keeps every one. Enter sends; a new
line is Shift+Enter where the terminal tells it from Enter, and Ctrl+J everywhere. Terminals speaking the kitty
keyboard protocol (which Textual turns on: kitty, WezTerm, foot, Ghostty, Alacritty, iTerm2) send Shift+Enter as
its own key, and so do xterm with modifyOtherKeys and tmux with `extended-keys`; most others (GNOME Terminal, a
plain xterm, macOS Terminal, tmux by default) send the same byte for both, but every terminal sends Ctrl+J as a
line feed. ↑ in an empty box brings the last message
back to edit. The box grows with its text up to a few lines, then scrolls.

`WorkingLine` is a spinner and the seconds since the turn began, shown for as long as the turn runs: while the
model thinks before its first token, while a tool runs, while the answer streams. It goes when the turn has
ended — answered and stored, failed, or stopped — so an answer on screen without the line is in the history too.
It is not shown while an approval card waits for the student: then the assistant waits, it does not work.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widgets import Static, TextArea

from tui.app.i18n import t
from widgets_render.simple_widgets import plain

if TYPE_CHECKING:
    from tui.app.widgets.quick_command_list import QuickCommandList

#: The box shows this many lines of text at most, then scrolls (the border takes two more rows).
MAX_LINES = 6
#: Shift+Enter where the terminal tells it from Enter — "shift+enter" from the kitty protocol, "shift+\r" as
#: Textual 8.2 names xterm's modifyOtherKeys form `CSI 27;2;13~` (xterm with it on, tmux with `extended-keys`) —
#: and Ctrl+J (a line feed) in every terminal.
NEWLINE_KEYS = ("shift+enter", "shift+\r", "ctrl+j")
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
#: How often the spinner turns (the seconds shown change once a second).
FRAME_S = 0.1


class ChatInput(TextArea):
    """The message box: Enter sends, Shift+Enter or Ctrl+J a new line, ↑ in an empty box edits the last message."""

    DEFAULT_CSS = f"""
    ChatInput {{ height: auto; max-height: {MAX_LINES + 2}; }}
    ChatInput > .text-area--placeholder {{ color: $text-muted; }}
    """
    # Enter and the new-line keys are acted on in `_on_key`, in the box's own queue of keys: a binding runs
    # elsewhere (a priority one as the key arrives, others once it has bubbled up to the app), out of order with
    # the letters around it when keys come in a burst, so a message would be sent without its last letters or a
    # line break land after them. Their bindings are what the footer and the key panel show.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "send", "send"),
        Binding("shift+enter,ctrl+j", "newline", "key_newline", show=False),
        # The TextArea's own ↑ (cursor up), shown in the footer for what it does in an empty box.
        Binding("up", "cursor_up", "key_edit"),
        # The pane's keys, not the TextArea's delete-right and redo (the Delete key and Super+Y still do those).
        Binding("ctrl+d,ctrl+y", "leave_to_pane", show=False),
        # A page of the box when its text is longer than it shows; else a page of the chat (the pane's keys).
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
    ]

    class Submitted(Message):
        """Enter: the text to send (the box is not cleared here; the pane decides whether it sends)."""

        def __init__(self, box: ChatInput, text: str) -> None:
            super().__init__()
            self.box = box
            self.text = text

        @property
        def control(self) -> ChatInput:
            return self.box

    class EditLast(Message):
        """↑ in an empty box: bring back the last message to edit."""

        def __init__(self, box: ChatInput) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> ChatInput:
            return self.box

    def __init__(self, placeholder: str, id: str | None = None) -> None:
        super().__init__(placeholder=placeholder, id=id, soft_wrap=True, highlight_cursor_line=False)
        self.commands: QuickCommandList | None = None
        """The quick commands' list the box drives while its text starts with `/` (quick_command_list.py)."""

    def render_line(self, y: int) -> Strip:
        """A line of the box. Squeezed to no room for text (a narrow terminal mid-resize), an empty box draws
        blank: Textual's TextArea wraps its placeholder to the text width, and a width of 0 raised (`range()` arg
        3 must not be zero) and ended the app — found by the key masher at MASH_SCALE=20."""
        if self.content_size.width <= 0 and not self.text:
            return Strip.blank(self.size.width, self.rich_style)
        return super().render_line(y)

    async def _on_key(self, event: events.Key) -> None:
        listed = self.commands
        if listed is not None and listed.open and event.key in ("up", "down", "enter", "escape"):
            # The `/` list is open: ↑/↓ move in it, Enter carries out its command, Esc closes it (the text stays).
            handled = listed.choose() if event.key == "enter" else True  # nothing to choose: Enter sends
            if handled:
                event.stop()
                event.prevent_default()
                if event.key in ("up", "down"):
                    listed.move(-1 if event.key == "up" else 1)
                elif event.key == "escape":
                    listed.close()
                return
        if event.key == "enter" or event.key in NEWLINE_KEYS:
            event.stop()
            event.prevent_default()  # the TextArea's own handler is not run (it would take Enter as a new line)
            if event.key == "enter":
                self.action_send()
            else:
                self.action_newline()

    def action_send(self) -> None:
        self.post_message(self.Submitted(self, self.text))

    def action_page(self, step: int) -> None:
        """PageUp/PageDown: through the box's own text when it scrolls, otherwise the chat scrolls (an
        outsider found no way to page the chat from the box, where the focus stays)."""
        if self.max_scroll_y <= 0:
            raise SkipAction()
        if step < 0:
            self.action_cursor_page_up()
        else:
            self.action_cursor_page_down()

    def action_leave_to_pane(self) -> None:
        raise SkipAction()  # the binding chain goes on to the chat pane's binding of the same key

    def action_newline(self) -> None:
        """A line break where the cursor is, replacing a selection (as typing does)."""
        if self.read_only:
            return
        result = self.replace("\n", *self.selection, maintain_selection_offset=False)
        self.move_cursor(result.end_location)

    def action_undo(self) -> None:
        """Ctrl+Z; an undo Textual cannot apply (its history named a line the box no longer has: the key masher's
        seed 3 in CI, after 105 keys) leaves the text as it is and forgets the history, instead of ending the app."""
        try:
            super().action_undo()
        except ValueError:
            self.history.clear()

    def action_redo(self) -> None:
        """Ctrl+Y's neighbour (Super+Y): as `action_undo`, a redo that cannot be applied forgets the history."""
        try:
            super().action_redo()
        except ValueError:
            self.history.clear()

    def action_cursor_up(self, select: bool = False) -> None:
        if not self.text and not select:
            self.post_message(self.EditLast(self))
            return
        super().action_cursor_up(select)


class WorkingLine(Static):
    """A spinner and the seconds the assistant has worked on this turn; hidden when it does not work."""

    DEFAULT_CSS = """
    WorkingLine { height: 1; padding: 0 1; color: $text-muted; display: none; }
    WorkingLine.-working { display: block; }
    """

    def __init__(self, locale: str, id: str | None = None) -> None:
        super().__init__("", markup=False, id=id)
        self.locale = locale
        self.started: float | None = None
        """When the turn began (monotonic); None between turns."""
        self.doing = ""
        """What runs now: empty while the model thinks, else the title of the running tool."""
        self.frame = 0
        self._timer: Timer | None = None

    @property
    def working(self) -> bool:
        """Whether the line is shown now."""
        return self.has_class("-working")

    def begin(self) -> None:
        """The turn starts: show, counting from now."""
        self.started = time.monotonic()
        self.frame = 0
        self.show("")

    def show(self, doing: str) -> None:
        """Shown (again) for the rest of the turn: the model thinks (`doing` empty) or a tool runs."""
        if self.started is None:
            return
        self.doing = doing
        self.add_class("-working")
        if self._timer is None:
            self._timer = self.set_interval(FRAME_S, self._tick)
        self._draw()

    def hide(self) -> None:
        """The student is asked: the time keeps counting, the line is not shown."""
        self.remove_class("-working")
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def end(self) -> None:
        """The turn ended (answer, error or stop)."""
        self.hide()
        self.started = None

    def _tick(self) -> None:
        self.frame = (self.frame + 1) % len(SPINNER)
        self._draw()

    def _draw(self) -> None:
        seconds = int(time.monotonic() - (self.started or time.monotonic()))
        if self.doing:
            text = t("working_tool", self.locale).format(tool=self.doing, seconds=seconds)
        else:
            text = t("working", self.locale).format(seconds=seconds)
        self.update(plain(f"{SPINNER[self.frame]} {text}"))
