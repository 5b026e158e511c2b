"""插件: add a plugin from a link, every plugin screen (Enter opens it), every tool (Enter opens its form)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

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


def plugins_page(runtime: Runtime, locale: str, install: Callable[[str], Awaitable[Any]]) -> VerticalScroll:
    """The 插件 tab's body."""
    # Not a Tab stop: its link box and tables scroll it to themselves, and a stop on the page itself showed
    # nothing while letters typed there ran shortcuts (an outsider typed a link there and opened 通知).
    remote: list[Widget] = []
    if runtime.remote.plugin_ids():  # a remote plugin's server: its state, and its tools that wait for review
        from tui.app.widgets.remote_tools import RemoteServersTable

        remote = [
            Static(t("remote_servers", locale), markup=False, classes="heading"),
            RemoteServersTable(runtime, locale, "remote-servers"),
        ]
    return VerticalScroll(
        Static(t("add_plugin", locale), markup=False, classes="heading"),
        InstallBar(locale, install),
        *remote,
        Static(t("screens", locale), markup=False, classes="heading"),
        screens_table(runtime, locale),
        Static(t("tools_heading", locale), markup=False, classes="heading"),
        tools_table(runtime, locale),
        id="plugins-pane",
        can_focus=False,
    )


def tools_table(runtime: Runtime, locale: str) -> DataTable[Text]:
    """Every tool: its plugin, title, id, effect and the assistant's mode for it."""
    table = Table(empty=t("no_plugins_yet", locale), id="tools", cursor_type="row", zebra_stripes=True, fit=True)
    table.add_columns(t("plugin", locale), t("tool", locale), t("id_column", locale), t("effect", locale),
                      t("mode", locale))  # fmt: skip
    for tool in runtime.registry.tools():
        name = runtime.registry.plugin_name(tool.plugin_id)
        cells = (name, tool.title, tool.id, term(tool.effect, locale), term(runtime.gate.mode(tool), locale))
        table.add_row(*map(literal, cells), key=tool.id)
    return table


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
