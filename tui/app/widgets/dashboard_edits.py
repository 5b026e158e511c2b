"""Editing the dashboard with the keys a student uses on a focused widget: `[`/`]` move it, `s` cycles its size, `x`
removes it (`u` puts it back where it stood), `a` adds one of the hidden widgets. Each change is made to the
stored layout and the grid rebuilt from it as one step, under the grid's lock. `Dashboard` (dashboard.py) is the
grid these act on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual import work
from textual.containers import VerticalScroll

from tui.app.dialogs.prompts import ChooseDialog
from tui.app.i18n import t
from tui.app.screens.screen_spec import pick_text
from tui.app.widgets.dashboard_slots import Slot, available
from tui.runtime.runtime import Runtime
from widgets_render.safe_text import clean


class DashboardEdits(VerticalScroll):
    """The layout-editing keys of the dashboard; the grid itself (filling, ticking, tapping) is `Dashboard`'s."""

    runtime: Runtime
    locale: str
    slots: list[Slot]
    grid_lock: asyncio.Lock
    adding: bool
    undo: tuple[dict[str, Any], str] | None

    def focused_slot(self) -> Slot | None:
        raise NotImplementedError

    def title_of(self, slot: Slot) -> str:
        raise NotImplementedError

    def refresh_all(self, force: bool = False) -> None:
        raise NotImplementedError

    async def _rebuild(self, keep_focus: str | None) -> None:
        raise NotImplementedError

    async def relayout(self, keep_focus: str | None, change: Callable[[], object] | None = None) -> None:
        raise NotImplementedError

    async def _edit_focused(self, edit: Callable[[Slot, list[str]], str | bool | None]) -> None:
        """Change the layout for the focused widget and rebuild, as one step. The focused widget is read under
        the lock, so a key that arrives while an earlier change is being drawn acts on what the screen shows.
        `edit` returns the id to keep the focus on, None for none, or False to change nothing."""
        async with self.grid_lock:
            slot = self.focused_slot()
            keep = edit(slot, [s.id for s in available(self.runtime)]) if slot is not None else False
            if keep is False:
                return
            await self._rebuild(keep if isinstance(keep, str) else None)
        self.refresh_all()

    async def action_move(self, step: int) -> None:
        def move(slot: Slot, ids: list[str]) -> str:
            self.runtime.layout.move(ids, slot.id, step)
            return slot.id

        await self._edit_focused(move)

    async def action_resize(self) -> None:
        def resize(slot: Slot, ids: list[str]) -> str | bool:
            if len(slot.sizes) < 2:
                return False
            current = slot.size if slot.size in slot.sizes else slot.spec.get("defaultSize") or slot.sizes[0]
            sizes = slot.sizes
            following = sizes[(sizes.index(current) + 1) % len(sizes)] if current in sizes else sizes[0]
            self.runtime.layout.resize(ids, slot.id, following)
            size = t(f"size_{following}", self.locale)
            shown = t("widget_size", self.locale).format(widget=self.title_of(slot), size=size)
            self.notify(clean(shown), timeout=2, markup=False)
            return slot.id

        await self._edit_focused(resize)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`u` is offered only while there is a removal to undo."""
        return self.undo is not None if action == "undo" else True

    async def action_remove(self) -> None:
        def remove(slot: Slot, ids: list[str]) -> str | None:
            # One key and the widget is gone: say so, and keep what it was, so `u` puts it back where it stood.
            self.undo = (self.runtime.layout.snapshot(), slot.id)
            self.refresh_bindings()
            shown = t("widget_removed", self.locale).format(widget=self.widget_label(slot))
            self.notify(clean(shown), timeout=5, markup=False)
            self.runtime.layout.remove(ids, slot.id)
            # The focus moves to the widget that takes its place (the one before, when it was the last).
            rest = [s.id for s in self.slots if s.id != slot.id]
            return rest[min(self.slots.index(slot), len(rest) - 1)] if rest else None

        await self._edit_focused(remove)

    async def action_undo(self) -> None:
        """Put the last removed widget back, in its place and size, with the focus on it."""
        if self.undo is None:
            return
        snapshot, widget = self.undo
        self.undo = None
        self.refresh_bindings()
        await self.relayout(widget, lambda: self.runtime.layout.restore(snapshot))

    @work(group="dashboard-add", exit_on_error=False)
    async def action_add(self) -> None:
        if self.adding:
            return  # `a a`: one dialog
        ids = [s.id for s in available(self.runtime)]
        hidden = self.runtime.layout.hidden(ids)
        if not hidden:
            self.notify(t("nothing_to_add", self.locale), timeout=2)
            return
        self.adding = True
        try:
            names = {s.id: self.widget_label(s) for s in available(self.runtime)}
            labels = [names.get(h, h) for h in hidden]  # what a student knows them by, not `wallet/balance`
            chosen = await self.app.push_screen_wait(ChooseDialog(t("add_widget", self.locale), hidden, labels))
        finally:
            self.adding = False
        if chosen:
            await self.relayout(
                chosen, lambda: self.runtime.layout.add([s.id for s in available(self.runtime)], chosen)
            )

    def widget_label(self, slot: Slot) -> str:
        """A widget as the add dialog lists it: its title (a template's, which needs data, as its plugin's name)
        and its plugin, e.g. "校园卡 · 校园卡" reads "校园卡"."""
        title = slot.spec.get("title") if isinstance(slot.spec, dict) else None
        text = pick_text(title, self.locale) if title is not None else ""
        plugin = self.runtime.registry.plugin_name(slot.plugin_id)
        if not text or "${" in text:
            return plugin
        return text if text == plugin else f"{text} · {plugin}"
