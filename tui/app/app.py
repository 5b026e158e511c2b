"""The PKU harness app: a phone-like shell of four tabs over the headless runtime."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Input, Select, TabbedContent, TabPane, TextArea

from tui.app.dialogs.login import LoginScreen
from tui.app.dialogs.notifications import NotificationCentre
from tui.app.harness import HarnessApp
from tui.app.i18n import t
from tui.app.lazy_pane import SteadyLazy, WhenIdle
from tui.app.navigation import REBUILD_FRAMES, ShellTabs, show_tab, switch_to, tab_bar
from tui.app.person import AppPerson
from tui.app.screens.plugin_screen import PluginScreen
from tui.app.screens.screen_spec import pick_text
from tui.app.screens.tool_form import ToolFormScreen
from tui.app.themes import THEMES, register_themes
from tui.app.widgets.chat_input import ChatInput
from tui.app.widgets.chat_pane import ChatPane
from tui.app.widgets.checks_panel import ChecksPanel
from tui.app.widgets.dashboard import Dashboard
from tui.app.widgets.draft_actions import DraftActions
from tui.app.widgets.footer import FittingFooter
from tui.app.widgets.header import SteadyHeader
from tui.app.widgets.plugin_admin import PluginAdmin
from tui.app.widgets.plugins_page import plugins_page
from tui.app.widgets.quick_command_ui import carry_out
from tui.app.widgets.settings_page import SettingsPage
from tui.app.words import colon
from tui.runtime.campus.services import SERVICES
from tui.runtime.commands import QuickCommand, quick_commands
from tui.runtime.message import say
from tui.runtime.runtime import DEMO_NOW, Runtime
from tui.runtime.scheduler.notices import Notice
from widgets_render.safe_text import clean, one_line
from widgets_render.screen_params import opens_alone
from widgets_render.simple_widgets import as_markup

#: With more plugins than this, the plugins and settings tabs mount after the dashboard's first widgets (a row
#: per plugin: 200 took ~7 s before them); with fewer, after the first paint (their rows cost little then).
MANY_PLUGINS = 24
#: Opening the plugins page checks for updates, but not more often than this (tab switching is not a reason).
OPEN_CHECK_EVERY_S = 300.0
LOGIN_QUIET_S = 600.0  # after the student closes an automatic login screen, ten minutes of notices only
#: Due checks run this often while the app is open; the first round waits until the dashboard is up.
CHECKS_EVERY_S, CHECKS_FIRST_S = 30.0, 5.0


class PkuHarnessApp(HarnessApp):
    """首页 (dashboard), 助手 (assistant), 插件 (plugins), 设置 (settings)."""

    TITLE = "PKU harness"
    CSS_PATH = Path(__file__).with_name("app.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "refresh"),
        Binding("n", "notifications", "notifications", show=False),
        Binding("q", "quit", "quit"),
        Binding("f1,question_mark", "help", "key_help"),
        Binding("escape", "close_help", "close", show=False),
        Binding("1", "tab('home')", "home", show=False),
        Binding("2", "tab('assistant')", "assistant", show=False),
        Binding("3", "tab('plugins')", "plugins", show=False),
        Binding("4", "tab('settings')", "settings", show=False),
    ]

    def __init__(self, runtime: Runtime, locale: str = "zh", demo: bool = False, now: str | None = None) -> None:
        super().__init__()
        self.runtime = runtime
        self.locale = locale
        self.start_tab = "home"
        """The tab shown after (re)composing; a language switch stays on the tab it was made from."""
        self.demo = demo
        self.now = now
        self.admin = PluginAdmin(self)
        self.draft_actions = DraftActions(self, self.admin.install, self.admin.update_now)
        self.checked_open_ms = 0.0
        """When the plugins page last triggered an update check (at most every few minutes)."""
        runtime.ui = runtime.abilities.ui = AppPerson(self)
        runtime.campus.on_login_required.append(self.login_needed)
        runtime.notices.listeners.append(self.notice_arrived)
        self.login_declined_at = 0.0
        """When the student last closed a login screen that opened by itself (it then stays closed a while)."""
        self._checks_running = False
        self.shell_lock = asyncio.Lock()
        """Held while the shell is composed again: rebuilds take turns."""
        self.composed = False
        """The shell was composed once (a shell composed again mounts its hidden tabs at once)."""

    def compose(self) -> ComposeResult:
        starting, self.composed = not self.composed, True
        yield SteadyHeader(show_clock=False)
        # Not `initial=`: Textual's tab bar checks its initial tab in its own Mount, and under load that check
        # met a bar whose tabs were not there (`ValueError: No Tab with id '--content-tab-settings'`, the app
        # ended, three suite runs on a busy 2-core machine). The start tab opens once the bar is there.
        with ShellTabs():
            with TabPane(t("home", self.locale), id="home"):
                yield Dashboard(self.runtime, self.locale, self.now, id="dashboard")
            # The hidden tabs mount after the first paint (Lazy), so the dashboard fills sooner (start-up target);
            # at start, those with a line per installed plugin after the dashboard's first widgets (or when opened).
            with TabPane(t("assistant", self.locale), id="assistant"):
                yield SteadyLazy(ChatPane(self))
            with TabPane(t("plugins", self.locale), id="plugins"):
                page = partial(plugins_page, self.runtime, self.locale, self.admin.install, self)
                yield self.later(page, starting)
            with TabPane(t("settings", self.locale), id="settings"):
                yield self.later(self.settings_body, starting)
        yield FittingFooter()

    def later(self, make: Callable[[], Widget], starting: bool) -> SteadyLazy:
        """A hidden tab's body: after the first paint, as the other tabs; at start with many plugins installed,
        after the dashboard's first widgets (`WhenIdle`: composing their rows is what would hold them)."""
        if starting and len(self.runtime.registry.plugins) > MANY_PLUGINS:
            return WhenIdle(make, self.dashboard_loading)
        return SteadyLazy(make())

    def dashboard_loading(self) -> bool:
        """The dashboard still shows a widget's first 加载中 (or is not there yet)."""
        boards = list(self.query(Dashboard))
        return not boards or any(not d.is_mounted or not d.query("#widgets") or d.query(".loading") for d in boards)

    def settings_body(self) -> SettingsPage:
        """设置: a section list (language and theme, model, campus, checks, permissions, reach, updates, audit)."""
        return SettingsPage(self, self.admin, self.data_dir(), self.set_language)

    def open_start_tab(self, waited: int = 0) -> None:
        """After (re)composing: the tab the shell was made for, once its tab bar is there; pages and dialogs
        above the shell stay (a rebuild under a dialog must not close it)."""
        tab, shell = self.start_tab, self.screen_stack[0]
        tabs = tab_bar(shell, tab)
        if tabs is None:
            if waited < REBUILD_FRAMES:
                shell.call_after_refresh(self.open_start_tab, waited + 1)
        elif tabs.active != tab:
            switch_to(shell, tabs, tab)

    async def recompose(self) -> None:
        await super().recompose()
        self.call_after_refresh(self.open_start_tab)

    def on_mount(self) -> None:
        self.call_after_refresh(self.open_start_tab)
        register_themes(self)
        self.theme = THEMES[self.runtime.settings.get("theme")]
        self.show_unread()
        # Due checks run in the background while the app is open; the first round waits until the dashboard is up.
        self.set_interval(CHECKS_EVERY_S, self.run_checks)
        self.set_timer(CHECKS_FIRST_S, self.run_checks)
        if not self.demo:  # the demo never fetches
            self.run_worker(self.admin.check_due(), group="updates")  # at start, at most once a day: built-in too
        for error in self.runtime.load_errors:
            self.notify(clean(error)[:500], severity="error", timeout=10, markup=False)

    def run_checks(self) -> None:
        """Run the due scheduled checks in a worker (one round at a time)."""
        self.run_worker(self._run_checks(), group="checks", exclusive=False, exit_on_error=False)

    async def _run_checks(self) -> None:
        from tui.runtime.audit import now_ms
        from tui.runtime.scheduler.checks import Checks
        from tui.runtime.scheduler.runner import Scheduler
        from tui.runtime.scheduler.tasks import task_runner

        if self._checks_running or not Checks(self.runtime.store).due(now_ms()):
            return  # most rounds: nothing due, and no model or keyring is touched
        self._checks_running = True
        try:
            await Scheduler(self.runtime, self.runtime.notices, task_runner(self.runtime)).run_due()
        finally:
            self._checks_running = False
        for panel in self.query(ChecksPanel):
            panel.fill()

    def notice_arrived(self, notice: Notice) -> None:
        """A check notified: a toast now, and the unread count in the header."""
        self.notify(
            clean(say(notice.message, self.locale))[:300], title=one_line(notice.title), timeout=8, markup=False
        )
        self.show_unread()

    def show_unread(self) -> None:
        unread = self.runtime.notices.unread()
        base = t("demo", self.locale) if self.demo else ""
        if self.demo and self.now:
            base = t("demo_at", self.locale).format(at=self.now[5:16].replace("T", " "))  # "11-30 12:00"
        count = t("unread", self.locale).format(n=unread) if unread else ""
        self.sub_title = clean(" · ".join(x for x in (dev_mode(self.runtime, self.locale), base, count) if x))

    def action_notifications(self) -> None:
        """The notification centre (n)."""
        centre = NotificationCentre(self.runtime.notices, self.locale, self.check_result_titles)
        self.push_screen(centre, lambda _: self.show_unread())

    def check_result_titles(self, check_id: str) -> dict[str, str]:
        """The result titles of the tool a check runs (none for an assistant task or a tool that is gone)."""
        from tui.runtime.scheduler.checks import Checks

        check = Checks(self.runtime.store).get(check_id)
        tool = self.runtime.registry.find(check.tool) if check is not None and check.tool else None
        return tool.result_titles if tool is not None else {}

    async def open_conversation(self, cid: str) -> None:
        """Show an assistant task's conversation in 助手."""
        self.action_tab("assistant")
        for pane in self.query(ChatPane):
            await pane.resume(cid)

    def data_dir(self) -> Path:
        """Where the app keeps its data (the default place for an encrypted campus vault file)."""
        db = self.runtime.store.path
        return Path(db).parent if db != ":memory:" else Path.home()

    def login_needed(self, service: str, message: str) -> None:
        """A campus request needs a login only the student can give: open the login screen (once at a time;
        after a cancel, only a notice for a while, so a dashboard full of campus widgets does not nag)."""
        if any(isinstance(s, LoginScreen) for s in self.screen_stack):
            return
        if time.monotonic() - self.login_declined_at < LOGIN_QUIET_S and self.login_declined_at:
            self.notify(clean(say(message, self.locale)), severity="warning", markup=False)
            return

        def done(logged_in: bool | None) -> None:
            if logged_in:
                self.notify(t("campus_saved", self.locale), markup=False)
                self.action_refresh()
            else:
                self.login_declined_at = time.monotonic()

        known = SERVICES.get(service)
        title = known.title_for(self.locale) if known else service
        otp = "mobile-token" in message
        reason = t("otp_needed" if otp else "login_needed", self.locale).format(service=title)
        screen = LoginScreen(self.runtime.campus, self.runtime.campus_services(), self.locale, reason, otp)
        self.push_screen(screen, done)

    async def rebuild(self, tab: str | None) -> None:
        """Compose the shell again after plugins changed, on `tab` (or the tab in view)."""
        async with self.shell_lock:
            tabs = self.query(TabbedContent)
            self.start_tab = tab or (tabs.first().active if tabs else "") or "home"
            await self.recompose()
        self.redraw_keys()

    def redraw_keys(self) -> None:
        """After a recompose: the new footer draws only when told the bindings changed, and it listens only once
        its Mount is handled — so the news is queued behind that Mount, in the footer's own queue."""
        for footer in self.query(FittingFooter):
            footer.call_later(self.screen.refresh_bindings)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """A tab whose body waits for the dashboard (`WhenIdle`) gets it now. Opening the plugins page checks
        installed and built-in plugins for updates (the seeds), at most every 5 minutes (never in the demo)."""
        for waiting in event.pane.query_children(WhenIdle):
            waiting.call_later(waiting.open)  # in its own queue: mounted from the app's handler, a body's
            # children met each other's messages before they were all there
        if event.pane.id != "plugins" or self.demo:
            return
        if time.monotonic() - self.checked_open_ms < OPEN_CHECK_EVERY_S and self.checked_open_ms:
            return
        self.checked_open_ms = time.monotonic()
        self.run_worker(self.admin.check(), group="updates", exclusive=True)

    async def set_language(self, locale: str) -> None:
        """Rebuild the shell in the other language (plugin texts from i18n.en), staying on the tab it was made from
        (设置's select or the palette from any tab: it used to land on 设置 from anywhere)."""
        async with self.shell_lock:
            tabs = self.screen_stack[0].query(TabbedContent)
            self.start_tab = str(tabs.first().active) if tabs and tabs.first().active else "settings"
            self.runtime.settings.set("language", locale)
            self.runtime.registry.set_locale(locale)
            self.locale = locale
            await self.recompose()
        self.redraw_keys()
        self.show_unread()  # the header's "demo mode" line is the app's words too

    def set_theme(self, mode: str) -> None:
        """The dark or the light theme, kept (as 设置 → 外观 keeps it), its select there showing it."""
        self.runtime.settings.set("theme", mode)
        self.theme = THEMES[mode]
        for select in self.screen_stack[0].query("#theme"):
            if isinstance(select, Select) and select.value != mode:
                select.value = mode

    def action_help(self) -> None:
        """Every key of the focused screen, in Textual's key panel."""
        if self.screen.query("KeyPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette (Ctrl+P): the app's own commands and each plugin's screens."""
        # Textual's theme picker listed its twenty themes (ansi-dark, catppuccin…) for this session only; the app
        # has two, the ones 设置 offers, and a choice here is kept as one made there.
        # (Textual's entry runs `action_change_theme`, which opens that picker: filtering on `search_themes` alone
        # let it through, and the key masher set tokyo-night, under which the app's styles recursed.)
        pickers = (self.search_themes, self.action_change_theme)
        yield from (c for c in super().get_system_commands(screen) if c.callback not in pickers)
        for mode in ("dark", "light"):
            title = f"{t('theme_command', self.locale)}{colon(self.locale)}{t(mode, self.locale)}"
            explain = t("theme_command_help", self.locale)
            yield SystemCommand(as_markup(title), explain, lambda m=mode: self.set_theme(m))
        for tab in ("home", "assistant", "plugins", "settings"):
            yield SystemCommand(
                as_markup(t(tab, self.locale)), t("go_to", self.locale), lambda tab=tab: self.action_tab(tab)
            )
        other = "en" if self.locale == "zh" else "zh"
        # named by the language it switches to, in that language: someone looking for English types "English"
        target = "English" if other == "en" else "中文"
        yield SystemCommand(
            as_markup(f"{t('switch_language', self.locale)}{colon(self.locale)}{target}"),
            "中文 / English",
            lambda: self.run_worker(self.set_language(other)),
        )
        yield SystemCommand(t("refresh_all", self.locale), t("refresh_all_help", self.locale), self.action_refresh)
        for command in quick_commands(self.runtime.registry):
            yield SystemCommand(
                as_markup(command.label),
                as_markup(t(f"command_{command.kind}_help", self.locale)),
                lambda command=command: self.run_command(command),
            )
        for pid, inst in sorted(self.runtime.registry.plugins.items()):
            for name, spec in inst.plugin.screens.items():
                if not opens_alone(spec):  # opened without its params it could only say 输入有误
                    continue
                plugin = self.runtime.registry.plugin_name(pid)
                title = pick_text(spec.get("title") if isinstance(spec, dict) else None, self.locale)
                shown = plugin if title in ("", plugin) else f"{plugin} · {title}"  # the screen's title, not its id
                yield SystemCommand(
                    # The palette reads a title as markup: a plugin name is escaped, never run as `[@click]`.
                    as_markup(shown),
                    t("open_screen", self.locale),
                    lambda pid=pid, name=name: self.push_screen(
                        PluginScreen(self.runtime, pid, name, {}, self.locale, self.now)
                    ),
                )

    def open_screen(self, plugin_id: str, name: str) -> None:
        """Open one of a plugin's screens with its default params."""
        self.push_screen(PluginScreen(self.runtime, plugin_id, name, {}, self.locale, self.now))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a screen opens it; on a plugin tool opens its form (the app's own tools are the assistant's)."""
        if event.data_table.id == "screens":
            plugin_id, name = str(event.row_key.value).split("/", 1)
            self.open_screen(plugin_id, name)
            return
        if event.data_table.id != "tools":
            return
        tool = self.runtime.registry.find(str(event.row_key.value))
        if tool is None or tool.plugin_id not in self.runtime.registry.plugins:
            self.notify(t("host_tool", self.locale), timeout=3)
            return
        self.push_screen(ToolFormScreen(self.runtime, tool, self.locale, self.now))

    def run_command(self, command: QuickCommand) -> None:
        """A quick command, from the palette or 助手's `/` list (quick_command_ui.py)."""
        carry_out(self, command, lambda prompt: self.ask_assistant(prompt, send=True))

    def ask_assistant(self, prompt: str, tries: int = 40, send: bool = False) -> None:
        """A widget's `ask` action: 助手 opens with the prompt in its input, the cursor after it; nothing is sent
        by itself (Enter sends it) unless `send` (a quick command). It was put into the input of a tab out of
        sight, the cursor before it."""
        if tries == 40:
            self.action_tab("assistant")
        boxes = self.screen_stack[0].query("#chat-input")
        if not boxes or not self.screen_stack[0].is_current:  # the chat mounts lazily; the page above closes
            if tries:
                self.set_timer(0.05, lambda: self.ask_assistant(prompt, tries - 1, send))
            return
        box = boxes.first(ChatInput)
        box.load_text(clean(prompt))
        box.move_cursor(box.document.end)
        box.focus()
        if send:
            box.action_send()

    def open_draft(self, draft_id: str) -> None:
        """插件 → 草稿, Enter: the draft in 助手's panel, the input focused with a line naming the draft."""
        self.chat_draft = draft_id
        for pane in self.screen_stack[0].query(ChatPane):  # none before 助手 has mounted: it reads chat_draft then
            pane.show_draft(draft_id)
        self.ask_assistant(t("draft_continue_prompt", self.locale).format(id=draft_id))

    def install_draft(self, draft_id: str, tab: str | None) -> None:
        self.run_worker(self.draft_actions.install(draft_id, tab), group="install", exclusive=True)

    def discard_draft(self, draft_id: str) -> None:
        self.run_worker(self.draft_actions.discard(draft_id), group="draft-discard", exclusive=True)

    def drafts_changed(self) -> None:
        self.draft_actions.changed()

    def action_refresh(self) -> None:
        self.query_one(Dashboard).refresh_all(force=True)

    def refill_plugin(self, plugin_id: str) -> None:
        for dashboard in self.screen_stack[0].query(Dashboard):  # none while the shell is being rebuilt
            dashboard.refill_plugin(plugin_id)

    def action_tab(self, tab: str) -> None:
        """1–4 and the palette: the tab, from any widget and any page (see navigation.py); also the tab a shell
        being composed again opens on (the student's last choice wins over the one it was made for)."""
        self.start_tab = tab
        show_tab(self, tab)

    def action_close_help(self) -> None:
        """Esc closes the key panel when it is open (a dialog's or a page's own Esc comes first); in a text box of
        a tab (the 插件 link box, a settings field) it leaves the box for the tab bar, so that 1–4 switch tabs
        again — as in 助手's box (README)."""
        if self.screen.query("KeyPanel"):
            self.action_hide_help_panel()
        elif isinstance(self.focused, Input | TextArea) and self.screen is self.screen_stack[0]:
            tabs = self.screen.query("ContentTabs")
            if tabs:
                self.screen.set_focus(tabs.first())


def dev_mode(runtime: Runtime, locale: str) -> str:
    """The header's loud line while an author's dev origins are in force (first: it changes what data means)."""
    mappings = ", ".join(f"{m.host} → {m.origin}" for m in runtime.dev_origins)
    return t("dev_mode", locale).format(mappings=mappings) if mappings else ""


def make_app(
    demo: bool = False,
    locale: str | None = None,
    data_dir: Path | None = None,
    now: str | None = None,
    throwaway: bool = False,
    **kwargs: Any,
) -> PkuHarnessApp:
    """The one factory the CLI, the tests and the screenshot script use.

    Demo mode keeps its data in a throw-away directory (made here when `data_dir` is None; `throwaway` says the
    one given is such, as `pku-harness --demo` makes it) and answers from the plugins' recordings; a model the
    student set up in their own data is copied in, so it answers in the demo too.

    Raises:
        StoreError: the database cannot be used, or only read (the caller prints the sentence).
    """
    own_model = None
    if demo and data_dir is None:
        data_dir = Path(tempfile.mkdtemp(prefix="pku-harness-demo-"))
        throwaway = True
    if demo and throwaway:
        from tui.runtime.chat.providers import configured_in
        from tui.runtime.store import default_path

        own_model = configured_in(default_path())  # a model the student set up answers in the demo too
    db = data_dir / "pku-harness.sqlite3" if data_dir is not None else None
    kwargs.setdefault("offload", True)  # plugin computation on worker threads: the screen never waits for it
    runtime = Runtime.open(db, demo=demo, locale=locale or "zh", **kwargs)
    if own_model is not None:
        from tui.runtime.settings import write_setting

        write_setting(runtime.store, "model", own_model)
    if runtime.store.read_only:
        # The app keeps its settings, layout, audit log and chats there: it starts only on a store it can write.
        runtime.close()
        runtime.store.check_writable("the app needs to write to it (only commands that read work on it)")
    chosen = locale or runtime.settings.get("language")  # --lang wins over the saved setting
    if demo and now is None:
        now = DEMO_NOW  # the recordings' own day, so "today" and "next bus" match their data
    runtime.registry.set_locale(chosen)
    app = PkuHarnessApp(runtime, locale=chosen, demo=demo, now=now)
    app.throwaway = throwaway
    return app
