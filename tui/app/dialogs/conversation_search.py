"""Earlier conversations, found again (助手, Ctrl+O): a search box over a list that follows what is typed.

With the box empty the list holds the newest conversations; each word typed narrows it to the conversations whose
title or one of whose messages holds every word (`ChatHistory.search`: a full-text index, so Chinese is found
too), and a hit in a message shows the text around it, the words marked. The keyboard alone reaches everything:
type, ↓ into the list (↑ on its first row goes back to the box, a letter typed there goes to the box too), Enter
opens; Enter in the box opens the highlighted row at once. A click opens a row. Esc closes.

Titles and messages are the student's and the model's text: shown cleaned and never read as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from tui.app.dialogs.base import Dialog
from tui.app.dialogs.prompts import DIALOG_CSS
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.app.words import cut_cells, when_text
from tui.runtime.chat.search import words
from widgets_render.safe_text import clean, one_line
from widgets_render.simple_widgets import plain
from widgets_render.steady_options import SteadyOptionList

if TYPE_CHECKING:
    from tui.runtime.chat.history import ChatHistory, Conversation

#: The most rows the list holds: the newest ones; a search finds older ones.
LIMIT = 100

#: Cells a row's title and its snippet take at most: a row stays one line (two with a snippet) in an 80-column
#: terminal, where the list is 72 cells wide and the date after the title takes up to 16.
TITLE_CELLS = 54
SNIPPET_CELLS = 68

#: How a word found is marked in a row (bold and underlined reads in every theme, with or without colour).
MARK = "bold underline"


def row_text(c: Conversation, locale: str) -> tuple[str, int, int]:
    """One conversation's row as text — its title and date, and under them the text a search found in it — with
    where the title and the date end."""
    title = cut_cells(one_line(c.title), TITLE_CELLS)
    date = one_line(when_text(c.updated_ms, locale))
    text = f"{title}  {date}"
    if c.snippet:
        text += "\n  " + cut_cells(one_line(c.snippet), SNIPPET_CELLS)
    return text, len(title), len(title) + 2 + len(date)


def dress(row: Text, title_end: int, date_end: int, query: str) -> None:
    """Style a row made from `row_text`: the title bold, the date dim, the text found italic, and each word of
    `query` marked where it is in the title or the text found."""
    row.stylize("bold", 0, title_end)
    row.stylize("dim", title_end, date_end)
    row.stylize("italic", date_end)
    folded = row.plain.lower()
    if len(folded) != len(row.plain):  # a letter whose lower case is longer: places would not match, mark none
        return
    for word in words(query):
        needle = word.lower()
        at = folded.find(needle)
        while at >= 0:
            if not title_end <= at < date_end:
                row.stylize(MARK, at, at + len(needle))
            at = folded.find(needle, at + len(needle))


class ResultList(SteadyOptionList):
    """The list of conversations; ↑ on its first row hands the focus back to the search box."""

    class Top(Message):
        """↑ was pressed on the first row."""

    def action_cursor_up(self) -> None:
        """Move up a row, or leave the list for the box from the first one."""
        if not self.highlighted:
            self.post_message(self.Top())
            return
        super().action_cursor_up()


class ConversationSearch(LocalBindings, Dialog[str | None]):
    """Find an earlier conversation and answer its id (None: closed)."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ConversationSearch")
        + """
    ConversationSearch > Vertical { width: 90; max-height: 90%; }
    ConversationSearch .title { text-style: bold; }
    ConversationSearch #conversation-query { margin-top: 1; }
    ConversationSearch #conversation-list { height: auto; max-height: 24; margin-top: 1; }
    ConversationSearch #conversation-status { color: $text-muted; margin-top: 1; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close"),
        Binding("down", "into_list", "history_into_list", show=False),
    ]

    def __init__(self, history: ChatHistory, locale: str) -> None:
        super().__init__()
        self.history = history
        self.locale = locale
        self.query_text = ""
        """The search the list shows the answer to."""
        self.found: list[Conversation] = history.search("", LIMIT)

    def compose(self) -> ComposeResult:
        loc = self.locale
        with Vertical():
            yield Static(t("history", loc), markup=False, classes="title")
            # not selected on focus: a letter typed in the list (sent to the box) adds to the search, never replaces it
            yield Input(placeholder=t("history_search", loc), id="conversation-query", select_on_focus=False)
            yield ResultList(*self._options(), id="conversation-list")
            yield Static(plain(self._status()), id="conversation-status")
            yield Static(t("history_keys", loc), markup=False, classes="keys")

    def on_mount(self) -> None:
        results = self.query_one(ResultList)
        results.highlighted = 0 if self.found else None
        self.query_one(Input).focus()

    def _options(self) -> list[Option]:
        options = []
        for c in self.found:
            text, title_end, date_end = row_text(c, self.locale)
            row = Text(clean(text), end="")  # the student's and the model's words: cleaned, never markup
            dress(row, title_end, date_end, self.query_text)
            options.append(Option(row, id=c.id))
        return options

    def _status(self) -> str:
        """How many rows the list holds, and for what (the query cut short: it is the student's, maybe pasted)."""
        loc, query = self.locale, cut_cells(one_line(self.query_text.strip()), 24)
        if not words(self.query_text):
            return t("history_newest" if len(self.found) >= LIMIT else "history_all", loc).format(count=len(self.found))
        if self.found:
            return t("history_hits", loc).format(count=len(self.found), query=query)
        return t("history_none", loc).format(query=query)

    @on(Input.Changed, "#conversation-query")
    def typed(self, event: Input.Changed) -> None:
        """The list follows the box as it is typed in (the search is an index lookup: milliseconds)."""
        if self.answered or event.value == self.query_text:
            return
        self.query_text = event.value
        self.found = self.history.search(event.value, LIMIT)
        results = self.query_one(ResultList)
        results.clear_options()
        results.add_options(self._options())
        results.highlighted = 0 if self.found else None
        results.display = bool(self.found)  # no empty frame: the line under it says nothing was found
        self.query_one("#conversation-status", Static).update(plain(self._status()))

    @on(Input.Submitted, "#conversation-query")
    def submitted(self) -> None:
        """Enter in the box opens the highlighted row (the best match as typed so far)."""
        results = self.query_one(ResultList)
        if results.highlighted is not None and results.highlighted < len(self.found):
            self.dismiss(self.found[results.highlighted].id)

    def action_into_list(self) -> None:
        """↓ from the box: into the list, on its first row."""
        results = self.query_one(ResultList)
        if self.found and not results.has_focus:
            results.focus()
            results.highlighted = results.highlighted or 0

    @on(ResultList.Top)
    def back_to_box(self) -> None:
        self.query_one(Input).focus()

    def on_key(self, event: events.Key) -> None:
        """A letter or Backspace typed in the list goes to the box: the student searches on without going back."""
        if self.answered:  # a key of a burst that came after the answer: the dialog is on its way out
            return
        box = self.query_one(Input)
        if box.has_focus:
            return
        if event.is_printable and event.character:
            box.focus()
            box.cursor_position = len(box.value)
            box.insert_text_at_cursor(event.character)
            event.stop()
        elif event.key == "backspace":
            box.focus()
            box.cursor_position = len(box.value)
            box.action_delete_left()
            event.stop()

    @on(OptionList.OptionSelected, "#conversation-list")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on a row, or a click: open it."""
        if event.option.id is not None:
            self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)
