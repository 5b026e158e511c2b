"""Textual's `Lazy`, without its race with an app that is ending: the tabs' bodies are this one.

`Lazy` mounts its widget after the first refresh. An app told to end in that moment (SIGTERM or SIGHUP from the
terminal, `q` pressed as it starts, a shell rebuilt) has begun taking the tab pane down; the late mount then raised
`MountError: Can't mount widget(s) before TabPane(id='settings') is mounted`, and the app ended with a traceback
and exit code 1 instead of quitting cleanly (found by the demo's SIGTERM test under a loaded machine). Here the
mount is skipped when its place is going away.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.lazy import Lazy
from textual.widget import MountError, Widget


class SteadyLazy(Lazy):
    """`Lazy` that does not mount into a pane being taken down (see the module's docstring)."""

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        if isinstance(self.parent, Widget):
            self.call_after_refresh(self.mount_now)

    async def mount_now(self) -> None:
        """Put the body in this one's place, unless the pane (or the app) is going."""
        parent = self.parent
        if not isinstance(parent, Widget) or not self.is_attached or not parent.is_attached:
            return
        if parent._closing or parent._pruning:
            return  # the pane (or the app) is going: nothing to show any more
        try:
            await parent.mount(self._replace_widget, after=self)
        except MountError:  # it began to go between the check and the mount
            return
        await self.remove()


#: How often a `WhenIdle` tab looks whether it may mount.
POLL_S = 0.05
#: The longest a `WhenIdle` tab waits for the first paint's work to finish before it mounts anyway.
WAIT_AT_MOST_S = 3.0


class WhenIdle(SteadyLazy):
    """A tab's body that mounts once `busy()` is false (the dashboard has shown its first widgets), when its tab
    is opened, or after WAIT_AT_MOST_S, whichever comes first.

    The plugins and settings tabs hold a row, a settings panel and a table line per installed plugin: with 200
    installed, composing them took ~7 s on the app's loop right after the first paint, and the dashboard's
    widgets waited behind them (issue 22 item 8). They now come after the widgets, or at once when asked for.
    """

    def __init__(self, make: Callable[[], Widget], busy: Callable[[], bool]) -> None:
        super().__init__(Widget())  # the body itself is made only when it mounts (`make`): its rows cost too
        self.make = make
        self.busy = busy
        self.waited = 0.0
        self.opened = False

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        self.set_timer(POLL_S, self.poll)

    async def poll(self) -> None:
        if not self.is_attached:  # the app closed or rebuilt its shell while this waited
            return
        self.waited += POLL_S
        pane = self.parent
        shown = pane is not None and getattr(pane.parent, "current", None) == pane.id
        if shown or self.waited >= WAIT_AT_MOST_S or not self.busy():
            await self.open()
        elif self.is_attached and not self.opened:
            self.set_timer(POLL_S, self.poll)

    async def open(self) -> None:
        """Make the body and mount it now (its tab was opened: the app awaits this), once."""
        if not self.opened and self.is_attached:
            self.opened = True
            self._replace_widget = self.make()
            await self.mount_now()
