"""Moving between the shell's four tabs from anywhere, and where the focus lands when a tab opens.

Why the tab keys used to die: switching `TabbedContent.active` hides the old pane; Textual then sends the focused
widget a Hide, and its blur (`Screen._reset_focus`) hands the focus to a *sibling* of that widget — one whose own
`display` is still true, although its pane is now hidden. The sibling's focus bubbles up as `TabPane.Focused`,
and `TabbedContent` answers that by making the old pane active again. So `1`–`4` (and the palette's entries)
did nothing whenever the focus sat in a pane with more than one focusable widget: a widget on the dashboard, a
table, a select, a button. The cure is to take the focus out of the pane before switching, then to put it where
the student expects it on the new tab.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.command import CommandPalette
from textual.containers import ScrollableContainer, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane
from textual.widgets._tabbed_content import ContentTab

#: The tabs in the order of their keys 1–4.
TABS = ("home", "assistant", "plugins", "settings")

#: Where the focus lands on a tab opened by key or palette (None: the pane's first focusable widget). The
#: plugins tab skips its link box: a focused text field would take the digits, and the next `1` would type.
LANDING = {"home": "WidgetFrame", "assistant": "#chat-input", "plugins": "#screens", "settings": "#settings-sections"}


#: How many frames a tab key waits for a shell that is being composed again before it gives up.
REBUILD_FRAMES = 50


class ShellTabs(TabbedContent):
    """The shell's tabs: a tab is made active by the focus only while that focus is still in it.

    Textual's `TabbedContent` shows the pane of a widget that gets the focus, through a `TabPane.Focused` message
    handled later, and takes it as it comes. On a busy machine the message for a pane the student just left came
    after the next tab key: 4 then 1 (the 设置 landing's focus still on its way) ended on 设置 again — the
    navigation test's "intermittent switch back". A message whose pane no longer holds the focus is stale.
    """

    def _on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        # Textual calls the handler of every class in the MRO: `prevent_default` keeps TabbedContent's from running.
        focused = self.screen.focused
        if focused is None or event.tab_pane not in focused.ancestors_with_self:
            event.stop()
            event.prevent_default()  # the focus has moved on since: the student's later choice stands


def show_tab(app: App[Any], tab: str, waited: int = 0) -> bool:
    """Show one of the shell's tabs from anywhere; False when a dialog is waiting for its answer.

    Pages pushed over the shell (plugin screens, tool forms) close first, like a phone's tab bar, which always
    leads to the tab itself; a modal dialog is never closed from under the code awaiting it. A key that comes
    while the shell is composed again (after an install, an update, a language switch) waits for its tab bar:
    setting `active` before its tabs are mounted raised `ValueError: No Tab with id` and ended the app.
    """
    shell = app.screen_stack[0]
    above = app.screen_stack[1:]
    if any(s.is_modal and not isinstance(s, CommandPalette) for s in above):
        return False
    close_pages(app, shell)
    tabs = tab_bar(shell, tab)
    if tabs is None:
        if waited < REBUILD_FRAMES:
            shell.call_after_refresh(show_tab, app, tab, waited + 1)
        return True
    if tabs.active == tab and above:
        return True  # back on the tab the page was opened from: the focus the student left there returns
    switch_to(shell, tabs, tab)
    return True


def tab_bar(shell: Screen[Any], tab: str) -> TabbedContent | None:
    """The shell's tabs, once their bar holds `tab` (None while the shell is being composed again)."""
    found = shell.query(TabbedContent)
    tabs = found.first() if found else None
    return tabs if tabs is not None and tabs.query(f"#tabs-list > #{ContentTab.add_prefix(tab)}") else None


def switch_to(shell: Screen[Any], tabs: TabbedContent, tab: str) -> None:
    """Make `tab` the active one and land the focus on it."""
    shell.set_focus(None)  # see the module docstring: a focused widget in the old pane would switch it back
    tabs.active = tab
    shell.call_after_refresh(focus_landing, shell, tab)


def close_pages(app: App[Any], shell: Screen[Any]) -> None:
    """Close the pages over the shell now, the top one first, each looked at at the moment it closes.

    Not Textual's `pop_until_active`: it lists the screens above and dismisses them later, and `Screen.dismiss`
    pops whatever is on top *then*. Keys queued behind the tab key (Enter, Escape, Ctrl+P) had meanwhile closed
    a listed screen or opened another, so the late dismisses closed the wrong screen — and, once only the shell
    was left, asked Textual to pop the last screen (`ScreenStackError`, the app ended). Here only the screen on
    top is closed, only while it is above the shell; one that does not leave the stack stops the loop.
    """
    while True:
        stack = app.screen_stack
        top = stack[-1]
        if len(stack) < 2 or top is shell or (top.is_modal and not isinstance(top, CommandPalette)):
            return
        top.dismiss()  # on top: its own dismiss (an `AnswerOnce` answers once, a pending answer included)
        if top in app.screen_stack:
            return  # it did not close (an answer already on its way): popping again would close another screen


def landing(shell: Screen[Any], tab: str) -> Widget | None:
    """The widget that gets the focus when `tab` opens (None while its pane has not mounted yet)."""
    pane = shell.query_one(f"TabPane#{tab}", TabPane)
    selector = LANDING.get(tab)
    if selector is not None:
        target = next((w for w in pane.query(selector) if not getattr(w, "_pruning", False)), None)
        if target is not None and target.focusable:
            return target
    # The pane's own scroll container is focusable too, but a student lands on its first control.
    inside = [w for w in shell.focus_chain if pane in w.ancestors]
    return next((w for w in inside if not isinstance(w, ScrollableContainer)), inside[0] if inside else None)


def focus_landing(shell: Screen[Any], tab: str) -> None:
    """Focus the tab's landing widget, unless the student already moved on to another tab (or the shell is being
    composed again: its new panes take the focus when they mount)."""
    tabs = shell.query(TabbedContent)
    if not tabs or tabs.first().active != tab or not shell.query(f"TabPane#{tab}"):
        return
    target = landing(shell, tab)
    if target is not None:
        shell.set_focus(target)
        # and in sight: the pane keeps the scroll it had, and set_focus's own scroll ran before the pane was
        # laid out again — on 插件 the focus was on the screens list, scrolled away, while the tools table
        # showed its cursor, so Enter opened what the student could not see.
        target.call_after_refresh(target.scroll_visible, animate=False)


class ScrollStop(VerticalScroll):
    """A scrolling pane that is a Tab stop only when Tab has a reason to stop there: it has something to scroll.

    Textual makes every scroll container focusable, and it draws nothing when one has the focus: a student
    pressed Tab on a tool form and saw nothing happen (the form's pane had taken the focus, with nothing to
    scroll). Focused, it tints itself and lights its scroll bar (app.tcss), so a stop is always seen."""

    def allow_focus(self) -> bool:
        return self.can_focus and (self.max_scroll_y > 0 or self.max_scroll_x > 0)
