"""What only the person at the app can do, for the runtime (host abilities and `plugins.install`): open a link,
type a code, review an install. Each is a dialog or a Textual call on the app's own loop."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from tui.app.dialogs.prompts import CodePrompt
from tui.app.i18n import t
from tui.runtime.plugins import InstallChoice, InstallReview
from widgets_render.safe_text import clean

if TYPE_CHECKING:
    from tui.app.harness import HarnessApp


def graphical_desktop() -> bool:
    """Whether a browser opened from here shows on a desktop (macOS, Windows, or an X11/Wayland display)."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class AppPerson:
    """The runtime's `PersonUi`, answered by dialogs in the running app."""

    def __init__(self, app: HarnessApp) -> None:
        self.app = app

    async def _ask(self, screen: Screen[Any]) -> Any:
        """Show a dialog and wait for its answer, from any task on the app's loop (no worker needed)."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

        def done(value: Any) -> None:
            if not answer.done():
                answer.set_result(value)

        self.app.push_screen(screen, callback=done)
        return await answer

    async def open_url(self, url: str) -> bool:
        if not url.startswith("https://"):
            return False
        return await self._open(url)

    async def open_campus_page(self, service: str) -> bool:
        from tui.runtime.campus.services import SERVICES

        known = SERVICES.get(service)
        if known is None:
            return False
        # The browser has its own login: the app's session cannot be carried over, so the plain page opens.
        return await self._open(f"https://{known.host}/")

    async def _open(self, url: str) -> bool:
        """Open a link where the person is: a new tab of the page when the app is served (textual-serve), the
        desktop's browser when there is a desktop. Never a text browser in this terminal: Python's `webbrowser`
        picks lynx or w3m when there is no display, which would take over the screen the app draws on (and
        block it) — then the link is not opened. Either way the address is said, to copy."""
        opened = False
        if self.app.is_web:
            self.app.open_url(url)
            opened = True
        elif graphical_desktop():
            import webbrowser

            opened = bool(await asyncio.to_thread(webbrowser.open, url))
        said = "opened_url" if opened else "copy_url"
        self.app.notify(clean(f"{t(said, self.app.locale)}: {url}"), markup=False, timeout=12)
        return opened

    async def pick_files(self, types: list[str], multiple: bool) -> list[dict[str, Any]] | None:
        return None  # no file picker in a terminal yet: the ability reports that nothing was picked

    async def await_sms_code(self) -> str | None:
        code = await self._ask(CodePrompt(t("sms_code", self.app.locale), self.app.locale))
        return code if isinstance(code, str) else None

    async def review_install(self, review: InstallReview) -> bool | InstallChoice:
        from tui.app.dialogs.review import InstallReviewDialog  # Markdown costs ~35 ms: not on the start path

        dialog = InstallReviewDialog(review, self.app.locale)
        if not await self._ask(dialog):
            return False
        return InstallChoice(dict(dialog.effects))  # a remote server's tools: what the student picked for each
