"""插件: add a plugin from a link, every plugin screen (Enter opens it), every tool (Enter opens its form)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static

from tui.app.i18n import t, term
from tui.app.screens.screen_spec import pick_text
from tui.app.widgets.plugin_admin import InstallBar
from tui.app.widgets.tables import Table
from tui.runtime.runtime import Runtime
from widgets_render.screen_params import opens_alone
from widgets_render.simple_widgets import literal

if TYPE_CHECKING:
    from tui.app.harness import HarnessApp


def plugins_page(
    runtime: Runtime, locale: str, install: Callable[[str], Awaitable[Any]], shell: HarnessApp | None = None
) -> VerticalScroll:
    """The 插件 tab's body (with the app's `shell`, its 草稿 section too)."""
    # Not a Tab stop: its link box and tables scroll it to themselves, and a stop on the page itself showed
    # nothing while letters typed there ran shortcuts (an outsider typed a link there and opened 通知).
    remote: list[Widget] = []
    if runtime.remote.plugin_ids():  # a remote plugin's server: its state, and its tools that wait for review
        from tui.app.widgets.remote_tools import RemoteServersTable

        remote = [
            Static(t("remote_servers", locale), markup=False, classes="heading"),
            RemoteServersTable(runtime, locale, "remote-servers"),
        ]
    drafts: list[Widget] = []
    if shell is not None:
        from tui.app.widgets.drafts_table import DraftsTable

        drafts = [Static(t("drafts_heading", locale), markup=False, classes="heading"), DraftsTable(shell)]
    return VerticalScroll(
        Static(t("add_plugin", locale), markup=False, classes="heading"),
        InstallBar(locale, install),
        *remote,
        *drafts,
        Static(t("screens", locale), markup=False, classes="heading"),
        screens_table(runtime, locale),
        Static(t("tools_heading", locale), markup=False, classes="heading"),
        tools_table(runtime, locale),
        id="plugins-pane",
        can_focus=False,
    )


def tools_table(runtime: Runtime, locale: str) -> DataTable[Text]:
    """Every tool: its plugin, title, id, effect and the assistant's mode for it."""
    return ToolsTable(runtime, locale)


class ToolsTable(Table):
    """Every tool, filled again when a remote server's state or tools change: the page is built before the
    servers connect, and their tools arrive (or go) afterwards — the table used to stay without them."""

    def __init__(self, runtime: Runtime, locale: str) -> None:
        super().__init__(empty=t("no_plugins_yet", locale), id="tools", cursor_type="row", zebra_stripes=True, fit=True)
        self.runtime = runtime
        self.locale = locale
        self.add_columns(t("plugin", locale), t("tool", locale), t("id_column", locale), t("effect", locale),
                         t("mode", locale))  # fmt: skip
        self.shown: list[tuple[str, ...]] = []
        self.fill()

    def rows_now(self) -> list[tuple[str, ...]]:
        """(id, plugin, title, id, effect, mode) of every tool as the registry has it now."""
        rt, loc = self.runtime, self.locale
        return [
            (
                tool.id,
                rt.registry.plugin_name(tool.plugin_id),
                tool.title,
                tool.id,
                term(tool.effect, loc),
                term(rt.gate.mode(tool), loc),
            )
            for tool in rt.registry.tools()
        ]

    def fill(self) -> None:
        """The rows as the registry has them (the cursor stays on its tool when it is still there)."""
        rows = self.rows_now()
        if rows == self.shown:
            return
        kept = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value if self.row_count else None
        self.shown = rows
        self.clear()
        for key, *cells in rows:
            self.add_row(*map(literal, cells), key=key)
        if kept is not None and kept in self.rows:
            self.move_cursor(row=self.get_row_index(kept))
        self.fit_columns(rows_changed=True)

    def on_mount(self) -> None:
        self.runtime.remote.listeners.append(self._changed)

    def on_unmount(self) -> None:
        if self._changed in self.runtime.remote.listeners:
            self.runtime.remote.listeners.remove(self._changed)

    def _changed(self, _plugin_id: str) -> None:
        if self.is_attached:
            self.fill()


def screens_table(runtime: Runtime, locale: str) -> DataTable[Text]:
    """Every plugin screen; Enter opens it."""
    table = Table(empty=t("no_screens_yet", locale), id="screens", cursor_type="row")
    table.add_columns(t("plugin", locale), t("screen", locale), t("id_column", locale))
    for pid, inst in sorted(runtime.registry.plugins.items()):
        for name, spec in inst.plugin.screens.items():
            if not opens_alone(spec):  # a detail screen opens from the screen that gives its params
                continue
            title = spec.get("title") if isinstance(spec, dict) else None
            shown = pick_text(title, locale) if title else name
            cells = (runtime.registry.plugin_name(pid), shown, f"{pid}/{name}")
            table.add_row(*map(literal, cells), key=f"{pid}/{name}")
    return table
