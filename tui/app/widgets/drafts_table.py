"""插件 → 草稿: the plugin drafts in the data folder — id, name, files, size, modified, ✓ or how many problems —
with Enter (continue it in 助手), i (install: the review) and d (discard: asked first).

The list is read on a thread and refilled when drafts change: after the chat's draft tools and the panel's
actions (draft_actions.py), and when the page is looked at while a draft changed on disk (an editor, the
command line). Each draft's check runs once per change of its files. Names are the drafts' own text: literal.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from tui.app.draft_state import size_text
from tui.app.i18n import t
from tui.app.widgets.tables import Table
from tui.runtime.plugins.drafts import DraftError, DraftInfo, Drafts
from tui.runtime.plugins.report import validation_report
from widgets_render.safe_text import one_line
from widgets_render.simple_widgets import literal

if TYPE_CHECKING:
    from tui.app.harness import HarnessApp

#: How often the list looks for drafts changed outside the app while it is on screen (seconds).
LOOK_EVERY_S = 3.0


def draft_problems(drafts: Drafts, draft_id: str) -> int:
    """How many problems the draft's check finds (errors and warnings, as the panel counts them)."""
    report = validation_report(drafts.folder(draft_id))
    return len(report.to_json()["problems"])


class DraftsTable(Table):
    """The drafts (module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "install", "key_install"),
        Binding("d", "discard", "key_discard"),
    ]

    def __init__(self, shell: HarnessApp) -> None:
        super().__init__(empty=t("drafts_none", shell.locale), id="drafts", cursor_type="row", zebra_stripes=True)
        self.shell = shell
        self.locale = shell.locale
        loc = self.locale
        self.add_columns(t("drafts_id", loc), t("drafts_name", loc), t("drafts_files", loc), t("drafts_size", loc),
                         t("drafts_modified", loc), t("drafts_state", loc))  # fmt: skip
        self.infos: list[DraftInfo] = []
        self.checked: dict[tuple[str, int], int] = {}
        """Each draft's problem count by (id, modified): a draft is checked again only when its files change."""

    def on_mount(self) -> None:
        self.refill()
        self.set_interval(LOOK_EVERY_S, self._look)

    def _look(self) -> None:
        if self.is_attached and self.screen.is_current and self.region.height:  # on screen (its tab is open)
            self.refill()

    def refill(self) -> None:
        """Read the drafts again (on a worker; one at a time: the latest wins)."""
        self.run_worker(self._refill(), group="drafts-table", exclusive=True, exit_on_error=False)

    async def _refill(self) -> None:
        drafts = self.shell.runtime.drafts
        infos = await asyncio.to_thread(drafts.all)
        for info in infos:
            key = (info.id, info.modified_ms)
            if key not in self.checked:
                try:
                    self.checked[key] = await asyncio.to_thread(draft_problems, drafts, info.id)
                except DraftError:
                    self.checked[key] = -1  # gone meanwhile: the next look leaves it out
        if infos == self.infos and self.row_count == len(infos):
            return
        self.infos = infos
        kept = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value if self.row_count else None
        self.clear()
        for info in infos:
            self.add_row(*map(literal, self._cells(info)), key=info.id)
        if kept is not None and kept in self.rows:
            self.move_cursor(row=self.get_row_index(kept))

    def _cells(self, info: DraftInfo) -> tuple[str, ...]:
        count = self.checked.get((info.id, info.modified_ms), 0)
        state = t("draft_ok", self.locale) if count == 0 else t("draft_problem_count", self.locale).format(count=count)
        modified = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.modified_ms / 1000))
        return (info.id, one_line(info.name or "—"), str(info.files), size_text(info.bytes), modified, state)

    def _chosen(self) -> str | None:
        if not self.row_count:
            return None
        return str(self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value)

    @on(DataTable.RowSelected)
    def continue_draft(self, event: DataTable.RowSelected) -> None:
        """Enter: the draft in 助手 (the panel shows it, the input has the focus)."""
        event.stop()
        self.shell.open_draft(str(event.row_key.value))

    def action_install(self) -> None:
        chosen = self._chosen()
        if chosen is not None:
            self.shell.install_draft(chosen, "plugins")

    def action_discard(self) -> None:
        chosen = self._chosen()
        if chosen is not None:
            self.shell.discard_draft(chosen)
