"""设置: a list of sections on the left (外观, 提醒, 模型, 校园账号, 远程登录, 定时检查, 权限, 可访问范围, 更新,
审计) and the chosen section on the right, as posting and harlequin lay out their settings. At a phone's width
(`PHONE_BELOW`) the list is a short strip over the section, which gets the whole width (beside the list it had 22
columns: 外观's theme select and 权限's columns were off the screen).

↑/↓ in the list shows a section at once; Enter, → or Tab goes into it; Esc comes back to the list. Every section
stays mounted (a ContentSwitcher only hides the others), so the panes keep their state and ids while hidden.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.widgets import ContentSwitcher, DataTable, OptionList, Select, Static, Switch
from textual.widgets.option_list import Option

from tui.app.attention import SWITCHES, backend_words
from tui.app.dialogs.prompts import ConfirmDialog
from tui.app.harness import HarnessApp
from tui.app.i18n import t, term
from tui.app.themes import THEMES
from tui.app.widgets.campus_settings import CampusSettings
from tui.app.widgets.checks_panel import ChecksPanel
from tui.app.widgets.model_settings import ModelSettings
from tui.app.widgets.plugin_admin import PluginAdmin, builtin_table, installed_table
from tui.app.widgets.plugin_settings_panel import PluginSettingsPanel
from tui.app.widgets.remote_logins import RemoteLogins
from tui.app.widgets.tables import Table
from tui.app.words import listed, reach_words
from tui.lang.documents.common import Effect
from tui.runtime.permissions import EFFECTS, MODES, Mode
from tui.runtime.scheduler.timing import BEIJING
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal, plain
from widgets_render.steady_options import SteadyOptionList
from widgets_render.steady_select import SteadySelect

if TYPE_CHECKING:
    from tui.runtime.scheduler.runner import RunReport

#: The student's theme choice → the Textual theme.
#: The sections in the list's order: the option id, its short label, the heading over its content.
SECTIONS = (
    ("appearance", "section_appearance", "appearance"),
    ("alerts", "section_alerts", "alerts"),
    ("model", "section_model", "model"),
    ("campus", "section_campus", "campus_account"),
    ("remote", "section_remote", "remote_logins_heading"),
    ("checks", "section_checks", "scheduled_checks"),
    ("permissions", "section_permissions", "permissions"),
    ("plugin-settings", "section_plugin_settings", "plugin_settings"),
    ("reach", "section_reach", "reach"),
    ("updates", "section_updates", "updates"),
    ("audit", "section_audit", "audit"),
)
#: Below this width the section list gets narrower, so the content keeps room for its tables.
NARROW_BELOW = 100
#: Below this width the section list goes over the section (a phone's 40-odd columns).
PHONE_BELOW = 60


class SectionList(SteadyOptionList):
    """The section list: ↑/↓ choose (the content follows), Enter or → goes into the section."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("right", "select", "key_enter_section", show=False)]

    def on_mount(self) -> None:
        # The list highlights its first section itself: the page's own mount handler could run while the
        # language switch recomposed the shell and the list was already gone (NoMatches, seen in a full run).
        if self.highlighted is None and self.option_count:
            self.highlighted = 0


class Section(VerticalScroll, can_focus=False):
    """One section's content; it scrolls to whatever is focused in it, so it takes no focus itself (Tab from the
    list lands on the section's first control)."""


class SettingsPage(Horizontal):
    """设置 as a section list and the chosen section; the settings' own handlers (theme, language, permissions,
    auto-update, managing an installed plugin) live here, the app only builds it."""

    DEFAULT_CSS = """
    SettingsPage { height: 1fr; }
    SettingsPage #settings-nav { width: 22; height: 1fr; }
    SettingsPage.-narrow #settings-nav { width: 20; }  /* "Scheduled checks" on one line */
    SettingsPage.-narrow #settings-nav .muted { display: none; }  /* the keys are in F1's key panel */
    SettingsPage.-narrow #settings-content Button { width: auto; min-width: 8; }
    SettingsPage #settings-sections { height: 1fr; }
    SettingsPage #settings-nav .muted { color: $text-muted; padding: 0 1; }
    SettingsPage #settings-content { width: 1fr; height: 1fr; }
    SettingsPage .settings-section { height: 1fr; }
    SettingsPage.-phone { layout: vertical; }
    SettingsPage.-phone #settings-nav { width: 100%; height: auto; border-bottom: solid $primary-darken-2; }
    SettingsPage.-phone #settings-sections { height: auto; max-height: 7; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "to_sections", "key_to_sections", show=False),
        # 刷新 here reads the section again (the footer's r refreshed the widgets behind, and 审计 stayed as it was)
        Binding("r", "refresh_section", "refresh"),
    ]

    def __init__(
        self, app: HarnessApp, admin: PluginAdmin, data_dir: Path, set_language: Callable[[str], Awaitable[None]]
    ) -> None:
        super().__init__(id="settings-pane")
        self.harness = app
        self.admin = admin
        self.data_dir = data_dir
        self.set_language = set_language
        self.locale = app.locale

    def compose(self) -> ComposeResult:
        loc = self.locale
        options = [Option(plain(t(label, loc)), id=key) for key, label, _ in SECTIONS]
        with Vertical(id="settings-nav"):
            yield SectionList(*options, id="settings-sections")
            yield Static(t("sections_hint", loc), markup=False, classes="muted")
        with ContentSwitcher(id="settings-content", initial="section-appearance"):
            for key, _, heading in SECTIONS:
                with Section(id=f"section-{key}", classes="settings-section"):
                    yield Static(plain(t(heading, loc)), markup=False, classes="heading")
                    yield from self.section(key)

    def section(self, key: str) -> ComposeResult:
        """One section's content, under its heading."""
        rt, loc = self.harness.runtime, self.locale
        if key == "appearance":
            yield Horizontal(
                SteadySelect([("中文", "zh"), ("English", "en")], value=loc, allow_blank=False, id="language"),
                SteadySelect(
                    [(t("dark", loc), "dark"), (t("light", loc), "light")],
                    value=rt.settings.get("theme"),
                    allow_blank=False,
                    id="theme",
                ),
                id="appearance",
            )
        elif key == "alerts":
            yield from self.alert_switches()
        elif key == "model":
            yield ModelSettings(rt.store, loc)
        elif key == "campus":
            yield CampusSettings(rt.campus, rt.campus_services(), loc, self.data_dir, demo=self.harness.demo)
        elif key == "remote":
            yield RemoteLogins(self.harness)
        elif key == "checks":
            yield ChecksPanel(rt.store, loc, rt.registry, run_now=self.run_check_now)
        elif key == "permissions":
            yield self.permissions_table()
        elif key == "plugin-settings":
            yield PluginSettingsPanel(rt, loc, self.harness.refill_plugin)
        elif key == "reach":
            yield self.reach_table()
        elif key == "updates":
            yield Horizontal(
                Switch(self.admin.installer.auto_update_enabled(), id="auto-update-all"),
                Static(t("auto_update_all", loc), markup=False),
                id="auto-update-row",
            )
            yield Static(t("builtin_updates", loc), markup=False, classes="subheading")
            yield builtin_table(self.harness, self.admin.installer)
            yield Static(t("installed_updates", loc), markup=False, classes="subheading")
            yield installed_table(self.harness)
            if rt.remote.plugin_ids():  # remote plugins' servers: connection states, tools that wait
                from tui.app.widgets.remote_tools import RemoteServersTable

                yield Static(t("remote_servers", loc), markup=False, classes="heading")
                yield RemoteServersTable(rt, loc, "remote-servers-settings")
        elif key == "audit":
            yield self.audit_table()

    def alert_switches(self) -> ComposeResult:
        """提醒: when the bell, the window title and a desktop notification tell the student the app waits for
        them, each switched on or off; and which way desktop notifications go here."""
        loc, attention = self.locale, self.harness.attention
        yield Static(t("alerts_when", loc), markup=False, classes="alerts-hint")
        for switch in SWITCHES:
            yield Horizontal(
                Switch(attention.enabled(switch), id=f"attention-{switch}"),
                Static(plain(t(f"attention_switch_{switch}", loc)), markup=False),
                classes="switch-row",
            )
        via = backend_words(attention.backend(), loc)
        yield Static(plain(via), markup=False, classes="alerts-hint", id="attention-via")

    async def run_check_now(self, check_id: str) -> RunReport | None:
        """立即运行: one check through the scheduler, as a due run would go (the gate as the scheduler)."""
        from tui.runtime.scheduler.runner import Scheduler
        from tui.runtime.scheduler.tasks import task_runner

        rt = self.harness.runtime
        return await Scheduler(rt, rt.notices, task_runner(rt)).run_now(check_id)

    def permissions_table(self) -> Table:
        """allow / ask / deny per plugin and effect; Enter on a mode cycles it. Its columns share the width there
        is (long plugin names wrap): at a phone's width 花钱 and 公开 were off the screen."""
        rt, loc = self.harness.runtime, self.locale
        table = Table(empty=t("no_plugins_yet", loc), id="permissions", cursor_type="cell", fit=True)
        table.add_columns(t("plugin", loc), *(literal(t(f"effect_{e}", loc)) for e in EFFECTS))
        for pid in sorted(rt.registry.plugins):
            modes = [term(m, loc) for m in self.plugin_modes(pid).values()]
            table.add_row(*map(literal, (rt.registry.plugin_name(pid), *modes)), key=pid)
        return table

    def plugin_modes(self, plugin: str) -> dict[Effect, Mode]:
        """The mode in force for each effect of `plugin`."""
        inst = self.harness.runtime.registry.plugins[plugin]
        return self.harness.runtime.grants.modes(plugin, inst.official, inst.plugin.manifest.defaultModes)

    def reach_table(self) -> Table:
        """What each plugin may reach: campus services (as the student), websites, app abilities."""
        rt, loc = self.harness.runtime, self.locale
        table = Table(empty=t("no_plugins_yet", loc), id="reach", cursor_type="row", fit=True)
        table.add_columns(t("plugin", loc), t("campus_short", loc), t("network", loc), t("app_abilities", loc))
        for pid, inst in sorted(rt.registry.plugins.items()):
            m = inst.plugin.manifest
            reach = (("campus", m.campus), ("network", m.network), ("abilities", m.abilities))
            cells = (rt.registry.plugin_name(pid), *(listed(reach_words(k, v, loc), loc) or "—" for k, v in reach))
            table.add_row(*map(literal, cells))
        return table

    def audit_table(self) -> Table:
        """The latest calls: when, which tool, who asked, what was decided and how it ended."""
        loc = self.locale
        table = Table(empty=t("no_calls_yet", loc), id="audit", cursor_type="row", zebra_stripes=True, fit=True)
        table.add_columns(t("time", loc), t("tool", loc), t("actor", loc), t("decision", loc), t("outcome", loc))
        self.fill_audit(table)
        return table

    def fill_audit(self, table: DataTable[Text]) -> None:
        """(Re)list the latest calls: the section is built once, the calls go on while the app runs."""
        table.clear()
        loc = self.locale
        for row in self.harness.runtime.audit.recent(50):
            # Beijing time, as every other time the app shows (the machine's own zone may be UTC).
            at = datetime.fromtimestamp(row.at_ms / 1000, BEIJING).strftime("%m-%d %H:%M:%S")
            outcome = term(row.outcome, loc)
            if row.dev:  # made while an author's dev origins were in force: maybe answered by their local server
                outcome = f"{outcome} · {t('audit_dev', loc)}"
            cells = (at, row.tool, term(row.actor, loc), term(row.decision, loc), outcome)
            table.add_row(*map(literal, cells))
        if isinstance(table, Table):
            table.fit_columns(rows_changed=True)

    def on_show(self) -> None:
        """Opening 设置 puts the focus on the section list (unless it is in a section already), so ↑/↓ work."""
        focused = self.screen.focused
        if focused is None or self not in focused.ancestors:
            for sections in self.query(SectionList):  # none while the page is being rebuilt
                sections.focus()

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < NARROW_BELOW, "-narrow")
        self.set_class(event.size.width < PHONE_BELOW, "-phone")

    @on(OptionList.OptionHighlighted, "#settings-sections")
    def show_section(self, event: OptionList.OptionHighlighted) -> None:
        """The content follows the list's highlight (a preview: focus stays in the list)."""
        switcher = self.query(ContentSwitcher)
        if not switcher:  # the page is being rebuilt (an update applied at start): the new page shows its own
            return
        switcher.first().current = f"section-{event.option.id}"
        if event.option.id == "audit":
            self.fill_audit(self.query_one("#audit", DataTable))

    @on(OptionList.OptionSelected, "#settings-sections")
    def enter_section(self) -> None:
        """Enter or → on a section: focus its first control."""
        current = self.query_one(ContentSwitcher).visible_content
        first = next((w for w in self.screen.focus_chain if current in w.ancestors), None)
        if first is not None:
            first.focus()

    def action_refresh_section(self) -> None:
        """r: the shown section read again — the audit log, the checks, the campus account."""
        current = self.query_one(ContentSwitcher).current
        if current == "section-audit":
            self.fill_audit(self.query_one("#audit", DataTable))
        for part in self.query_one(ContentSwitcher).query(
            f"#{current} ChecksPanel, #{current} CampusSettings, #{current} RemoteLogins"
        ):
            part.fill()  # type: ignore[attr-defined]

    def action_to_sections(self) -> None:
        """Esc inside a section: back to the section list."""
        self.query_one(SectionList).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        """Language and theme apply at once and are remembered."""
        if event.select.id == "theme" and isinstance(event.value, str):
            self.harness.runtime.settings.set("theme", event.value)
            self.app.theme = THEMES[event.value]
        elif event.select.id == "language" and event.value in ("zh", "en") and event.value != self.locale:
            # the app's worker, not this page's: the switch recomposes the shell, this page included, and a
            # handler awaiting its own removal would never return
            self.app.run_worker(self.set_language(str(event.value)), group="language", exclusive=True)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        """自动更新 and the three ways of 提醒 are kept the moment they change."""
        name = str(event.switch.id)
        if name == "auto-update-all":
            self.admin.installer.set_auto_update(None, event.value)
        elif name.startswith("attention-") and name.removeprefix("attention-") in SWITCHES:
            self.harness.attention.set_enabled(name.removeprefix("attention-"), event.value)

    @on(DataTable.RowSelected, "#installed")
    @on(DataTable.RowSelected, "#builtin-plugins")
    def manage_installed(self, event: DataTable.RowSelected) -> None:
        """Enter on an installed or built-in plugin: review an update, roll back, auto-update, uninstall."""
        self.app.run_worker(self.admin.manage(str(event.row_key.value)), group="manage", exclusive=True)

    @on(DataTable.CellSelected, "#permissions")
    def cycle_mode(self, event: DataTable.CellSelected) -> None:
        """Enter on a mode cycles it allow → ask → deny and stores it in the runtime's one store."""
        if event.coordinate.column == 0:
            return
        plugin = str(event.cell_key.row_key.value)
        effect = EFFECTS[event.coordinate.column - 1]
        # The cell shows the mode in the UI's language: the store, not the cell, says which mode is in force.
        mode = MODES[(MODES.index(self.plugin_modes(plugin)[effect]) + 1) % len(MODES)]
        table, at, runtime = event.data_table, event.coordinate, self.harness.runtime

        def apply(sure: bool | None = True) -> None:
            if not sure:
                return  # cancelled: the mode stays as it was
            runtime.grants.set(plugin, effect, mode)
            table.update_cell_at(at, literal(term(mode, self.locale)), update_width=True)  # 不能执行 was cut
            if isinstance(table, Table):
                table.fit_columns(rows_changed=True)  # the columns share the width anew around the longer word
            shown = f"{plugin} · {term(effect, self.locale)}: {term(mode, self.locale)}"
            self.notify(clean(shown), timeout=2, markup=False)

        if mode == "allow" and effect in ("money", "public"):
            # Paying or publishing without being asked is the one change here a slip of Enter must not make.
            name = runtime.registry.plugin_name(plugin)
            question = t(f"confirm_allow_{effect}", self.harness.locale).format(plugin=clean(name))
            self.app.push_screen(ConfirmDialog(question, self.harness.locale), apply)
        else:
            apply()
