"""What the student does with a plugin draft from the app — continue it in 助手, install it, discard it — from
the draft panel (draft_panel.py) and from 插件 → 草稿 (drafts_table.py), the same way from both.

Installing is the normal install of a local folder (the install review, every rule of installing, the shell
rebuilt after): the student pressed 安装, so no approval card asks first. A draft installed before is updated
from its folder instead (what changed applied, or more permissions through the update approval). A draft with
errors is not offered to the review: the student is told how many and where to read them. Discarding asks, then
the folder goes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from tui.app.i18n import t
from tui.runtime.message import say_error
from tui.runtime.plugins.drafts import DraftError
from tui.runtime.plugins.report import validation_report
from widgets_render.safe_text import clean

if TYPE_CHECKING:
    from tui.app.harness import HarnessApp

#: Installs a link or a folder through the install review, then rebuilds the shell on the tab given.
Install = Callable[[str, "str | None"], Awaitable[bool]]
#: Takes the changes of an installed plugin's source (applied, or through the update approval).
Update = Callable[[str], Awaitable[None]]


class DraftActions:
    """The app's draft actions (module docstring); one per app."""

    def __init__(self, app: HarnessApp, install: Install, update: Update) -> None:
        self.app = app
        self._install = install
        self._update = update

    def _say(self, text: str, severity: str = "information") -> None:
        self.app.notify(clean(text)[:500], severity=severity, timeout=6, markup=False)  # type: ignore[arg-type]

    async def install(self, draft_id: str, tab: str | None) -> bool:
        """Validate the draft (on a thread), then the install review; True when the student installed it."""
        loc = self.app.locale
        try:
            folder = self.app.runtime.drafts.folder(draft_id)
        except DraftError as e:
            self._say(t("draft_action_failed", loc).format(error=say_error(e, loc)), "error")
            return False
        report = await asyncio.to_thread(validation_report, folder)
        if not report.ok:
            self._say(t("draft_fix_first", loc).format(id=draft_id, count=max(report.errors, 1)), "warning")
            self.changed()
            return False
        record = self.app.runtime.installs.get(report.plugin.manifest.id) if report.plugin is not None else None
        if record is not None and record.source == str(folder):
            # installed from this draft before: installing it again after an edit is its update (an outsider
            # was sent to `plugins update` on the command line)
            await self._update(record.id)
            self.changed()
            return True
        installed = await self._install(str(folder), tab)
        self.changed()
        return installed

    async def discard(self, draft_id: str) -> bool:
        """Ask, then delete the draft's folder; True when it went."""
        from tui.app.dialogs.prompts import ConfirmDialog

        loc, drafts = self.app.locale, self.app.runtime.drafts
        try:
            files = len(await asyncio.to_thread(drafts.files, draft_id))
        except DraftError as e:
            self._say(t("draft_action_failed", loc).format(error=say_error(e, loc)), "error")
            self.changed()
            return False
        question = t("draft_discard_question", loc).format(id=draft_id, files=files)
        folder = str(drafts.root / draft_id)
        installed = next((r for r in self.app.runtime.installs.all() if r.source == folder), None)
        if installed is not None:  # its later updates come from this folder (an outsider's update then failed)
            question += "\n" + t("draft_discard_installed", loc).format(id=installed.id)
        if not await self.app.push_screen_wait(ConfirmDialog(question, loc)):
            return False
        try:
            await asyncio.to_thread(drafts.discard, draft_id)
        except (DraftError, OSError) as e:
            self._say(t("draft_action_failed", loc).format(error=say_error(e, loc)), "error")
            self.changed()
            return False
        self._say(t("draft_discarded", loc).format(id=draft_id))
        if self.app.chat_draft == draft_id:
            self.app.chat_draft = None
        self.changed()
        return True

    def changed(self) -> None:
        """Drafts changed: the panel reads its draft again (or goes, when the draft went), the 草稿 list refills."""
        from tui.app.widgets.draft_panel import DraftPanel
        from tui.app.widgets.drafts_table import DraftsTable

        shell = self.app.screen_stack[0] if self.app.screen_stack else None
        if shell is None:
            return
        for panel in shell.query(DraftPanel):
            if panel.draft_id is not None and panel.draft_id != self.app.chat_draft:
                panel.hide()
            else:
                panel.reload()
        for table in shell.query(DraftsTable):
            table.refill()
