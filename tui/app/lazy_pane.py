"""Textual's `Lazy`, without its race with an app that is ending: the tabs' bodies are this one.

`Lazy` mounts its widget after the first refresh. An app told to end in that moment (SIGTERM or SIGHUP from the
terminal, `q` pressed as it starts, a shell rebuilt) has begun taking the tab pane down; the late mount then raised
`MountError: Can't mount widget(s) before TabPane(id='settings') is mounted`, and the app ended with a traceback
and exit code 1 instead of quitting cleanly (found by the demo's SIGTERM test under a loaded machine). Here the
mount is skipped when its place is going away.
"""

from __future__ import annotations

from textual.lazy import Lazy
from textual.widget import MountError, Widget


class SteadyLazy(Lazy):
    """`Lazy` that does not mount into a pane being taken down (see the module's docstring)."""

    async def mount_composed_widgets(self, widgets: list[Widget]) -> None:
        parent = self.parent
        if not isinstance(parent, Widget):
            return

        async def mount() -> None:
            if not self.is_attached or not parent.is_attached or parent._closing or parent._pruning:
                return  # the pane (or the app) is going: nothing to show any more
            try:
                await parent.mount(self._replace_widget, after=self)
            except MountError:  # it began to go between the check and the mount
                return
            await self.remove()

        self.call_after_refresh(mount)
