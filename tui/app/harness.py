"""What the app's parts need of the app, as a base class the app implements.

Panes, the plugin admin and the person's abilities need the runtime, the locale, the pinned clock and a way to
rebuild the tabs. They type against `HarnessApp` rather than the concrete `PkuHarnessApp`, so that no module of
the app imports `app.py` back (the file circles the house plan forbids), and a test can give them a small app.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.content import Content

from tui.app.attention import Attention
from tui.app.keys import LocalTextual
from tui.runtime.commands import QuickCommand
from tui.runtime.runtime import Runtime


class HarnessApp(LocalTextual):
    """The shell the app's parts live in: the runtime, the UI locale, the pinned clock, a rebuild, and its way of
    calling the student back from another window (`attention`)."""

    runtime: Runtime
    #: "zh" or "en": every visible string is looked up in this locale.
    locale: str
    #: an ISO time when the clock is pinned (`--demo`, `--now`), else None.
    now: str | None
    #: `--demo`: recorded answers and no network at all (no installs from links, no logins, no update checks).
    demo: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.attention = Attention(self)
        """Tells the student when the app waits for them while they look at another window (attention.py)."""
        self.chat_cid: str | None = None
        """The conversation 助手 shows (kept across rebuilds of the shell)."""
        self.chat_draft: str | None = None
        """The plugin draft the draft panel in 助手 shows (kept across rebuilds of the shell)."""
        self.throwaway = False
        """The data directory goes when the app quits (`--demo`): what the student keeps is written elsewhere."""

    def on_app_focus(self, event: events.AppFocus) -> None:
        self.attention.focus_reported()

    def on_app_blur(self, event: events.AppBlur) -> None:
        self.attention.focus_reported()

    def watch_app_focus(self, focused: bool) -> None:
        """Back in the app — told by the terminal, or by a key or a click (Textual takes those as focus) — the
        window title is the terminal's own again."""
        if focused:
            self.attention.back()

    def on_unmount(self) -> None:
        self.attention.back()  # the app quits: the window title it set must not outlive it

    async def rebuild(self, tab: str | None) -> None:
        """Recompose the tabs after a change of plugins, locale or theme, landing on `tab` (None: where it was)."""
        raise NotImplementedError

    def refill_plugin(self, plugin_id: str) -> None:
        """A plugin's widgets fetch anew (its settings changed, or one of its tools changed something)."""
        raise NotImplementedError

    def open_draft(self, draft_id: str) -> None:
        """Continue a plugin draft: 助手 with the draft panel showing it, the focus in the chat's input."""
        raise NotImplementedError

    def install_draft(self, draft_id: str, tab: str | None) -> None:
        """Validate a draft and open the install review (the student asked for it); the shell lands on `tab`."""
        raise NotImplementedError

    def discard_draft(self, draft_id: str) -> None:
        """Ask, then delete a draft."""
        raise NotImplementedError

    def drafts_changed(self) -> None:
        """A draft was written, installed or discarded: the draft panel and the 草稿 list read it again."""
        raise NotImplementedError

    def run_command(self, command: QuickCommand) -> None:
        """Carry out a plugin's quick command: send its prompt in 助手, run its tool, or open its screen."""
        raise NotImplementedError

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's title and sub-title. Textual dims the sub-title (4.4:1 on the light header); the theme's
        muted foreground is tuned to 4.5:1 (tui/app/themes.py)."""
        if not sub_title:
            return Content(title)
        return Content.assemble(Content(title), (" — ", "$foreground-muted"), (sub_title, "$foreground-muted"))
