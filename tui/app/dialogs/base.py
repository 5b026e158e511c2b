"""Screens that answer once: the base of every dialog and page the app pushes.

Textual's `Screen.dismiss` pops whatever screen is on top. Keys typed fast reach a screen before its first answer
has taken it off the stack (Enter Enter on a list, two clicks on 关闭, a `close` action and Escape): the second
dismiss then popped the screen *below* — the dashboard's own screen, which raised `ScreenStackError` and ended
the app, or a plugin page the student never closed. Here a screen answers at most once, and only while it is on
top; an answer given while another screen covers it (the command palette, a login screen that opened by itself)
is kept and given when the screen is back on top.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ScreenStackError
from textual.await_complete import AwaitComplete
from textual.command import CommandList
from textual.command import CommandPalette as TextualPalette
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen, ScreenResultType
from textual.widgets.option_list import Option

from tui.app.i18n import t
from widgets_render.steady_options import page_ready

if TYPE_CHECKING:
    _Screen = Screen[Any]
else:
    # At run time a plain mixin: Textual inherits CSS and component classes along the *first* DOM base only, so
    # the Textual screen class must come first among the DOM bases (ModalScreen's dimmed backdrop, the palette's
    # styles).
    _Screen = object


def _nothing() -> AwaitComplete:
    """An already finished await, like the one `dismiss` returns (Textual leaves `nothing` untyped)."""
    return AwaitComplete.nothing()  # type: ignore[no-untyped-call, no-any-return]


def _focusable_now(widget: Any) -> bool:
    """`widget` is in the app and not on its way out (Textual marks a widget `_pruning` as its removal starts)."""
    return bool(widget.is_attached) and not getattr(widget, "_pruning", False)


class AnswerOnce(_Screen):
    """Mixed into a screen (before the Textual screen class): `dismiss` is idempotent, the first answer counts."""

    _answered = False
    _pending: tuple[Any] | None = None
    """An answer given while another screen was on top of this one."""

    @property
    def answered(self) -> bool:
        """This screen has been dismissed (its result, if any, has gone to whoever pushed it)."""
        return self._answered

    def _on_top(self) -> bool:
        try:
            return self.app.screen is self
        except ScreenStackError:  # the app is shutting down
            return False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        """Answer `result` and close, once; a repeated or misplaced call does nothing (see the module)."""
        if self._answered:
            return _nothing()
        if not self._on_top():
            if self in self.app.screen_stack:
                self._pending = (result,)  # covered: answer when the screen on top has gone
            return _nothing()
        self._answered = True
        return super().dismiss(result)

    def set_focus(self, widget: Any, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """Focus `widget`, unless it is being removed: Textual moves the focus off a widget when its removal
        starts, so a focus given to it during the removal (a tab landing on a dashboard frame that a refill is
        replacing) would stay on a node outside the app — and with it every key of the app (`1`–`4`) went dead,
        since keys are looked up from the focused widget up to the app. Found by the key masher."""
        if widget is not None and not _focusable_now(widget):
            widget = self.focused if self.focused is not None and _focusable_now(self.focused) else None
        super().set_focus(widget, scroll_visible, from_app_focus)

    def on_screen_resume(self) -> None:
        """Back on top: give an answer that came while covered. (Textual calls this beside a subclass's own.)"""
        if self._pending is not None and not self._answered:
            (result,) = self._pending
            self._pending = None
            self.dismiss(result)


class OnceScreen(AnswerOnce, Screen[ScreenResultType]):
    """A full screen (a plugin page) that answers once."""


class Dialog(AnswerOnce, ModalScreen[ScreenResultType]):
    """The base of the app's dialogs: a typed modal screen that answers once."""


class CommandPalette(AnswerOnce, TextualPalette):
    """Textual's command palette (Ctrl+P), answering once, and not searching once it has closed.

    Found by the key masher: Ctrl+P, a letter, Escape in one burst started the palette's search worker after
    the palette had closed; its first query failed and the worker's error ended the app."""

    @work(exclusive=True, group=TextualPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        if self.answered or not self.query(CommandList):
            return
        try:
            await TextualPalette._gather_commands.__wrapped__(self, search_value)  # type: ignore[attr-defined]
        except NoMatches:
            # The palette closed while its providers were searching (key mashing seed 0 on a loaded CI machine:
            # the search's later query found no list): nothing is left to show the commands in.
            if not (self.answered or self._closing or self._pruning or not self.is_attached):
                raise

    def _start_no_matches_countdown(self, search_value: str) -> None:
        # Textual's own says "No matches found" in English whatever the app's language (an outsider's run).
        self._stop_no_matches_countdown()
        locale = str(getattr(self.app, "locale", "zh"))

        def show() -> None:
            lists = self.query(CommandList)
            if search_value and lists:
                lists.first().add_option(Option(t("no_matches", locale), disabled=True, id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show)

    def _action_command_list(self, action: str) -> None:
        # PgUp / PgDn on a list not laid out yet ended the app (`widgets_render.steady_options`); any key on a
        # palette whose list is gone (it is closing: key mashing seed 2, Ctrl+P then Ctrl+Home) ended it too.
        lists = self.query(CommandList)
        if not lists or (action in ("page_up", "page_down") and not page_ready(lists.first())):
            return
        super()._action_command_list(action)


__all__ = ["AnswerOnce", "CommandPalette", "Dialog", "OnceScreen"]
