"""Installing from a link, update checks and managing installed plugins, in the app, over the headless installer.

Network work runs in a thread (the installer is synchronous) so the app stays responsive; every decision is a
typed dialog (install review, update approval, confirm). After anything that changes the set of plugins the
shell is rebuilt, so the dashboard, the tables and the command palette all show the new state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Input

from tui.app.dialogs.prompts import ChooseDialog, ConfirmDialog
from tui.app.i18n import t
from tui.app.widgets.tables import Table
from tui.runtime.message import say, say_error
from tui.runtime.plugins import Installer, InstallError, InstallRecord, UpdateOutcome, Version
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal

if TYPE_CHECKING:
    from tui.app.harness import HarnessApp


class InstallBar(Horizontal):
    """Paste a link (any form the seeds accept) and press Enter or 安装."""

    DEFAULT_CSS = """
    InstallBar { height: auto; padding: 0 1; }
    InstallBar Input { width: 1fr; }
    InstallBar Button { margin-left: 1; }
    """

    def __init__(self, locale: str, install: Callable[[str], Awaitable[bool]]) -> None:
        super().__init__(id="install-bar")
        self.locale = locale
        self._install = install

    def compose(self) -> ComposeResult:
        yield Input(placeholder=t("paste_link", self.locale), id="install-link")
        yield Button(t("install", self.locale), id="install-go", variant="primary")

    @on(Input.Submitted, "#install-link")
    @on(Button.Pressed, "#install-go")
    def go(self) -> None:
        box = self.query_one("#install-link", Input)
        link = box.value.strip()
        if link:
            self.app.run_worker(self._install(link), group="install", exclusive=True)
        else:  # 安装 with nothing pasted did nothing at all
            self.notify(t("paste_link_first", self.locale), severity="warning", timeout=4, markup=False)
            box.focus()


def installed_table(app: HarnessApp) -> Table:
    """Installed plugins: version, official or community, auto-update, a waiting update, what rollback gives."""
    loc = app.locale
    table = Table(empty=t("no_installed", loc), id="installed", cursor_type="row")
    table.add_columns(
        t("plugin", loc), t("version", loc), t("kind", loc), t("auto_update", loc), t("update_state", loc)
    )
    builtin = app.runtime.builtin_versions
    for r in (r for r in app.runtime.installs.all() if r.id not in builtin):
        kind = t("official" if r.official else "community", loc)
        table.add_row(*map(literal, _cells(app, r, r.current.version, kind, r.previous)), key=r.id)
    return table


def builtin_table(app: HarnessApp, installer: Installer) -> Table:
    """Built-in plugins: the version running, from where (the copy shipped with the app, or a newer one fetched
    from its official link), auto-update, a waiting update, what rollback gives."""
    loc = app.locale
    table = Table(empty="—", id="builtin-plugins", cursor_type="row")
    table.add_columns(
        t("plugin", loc), t("version", loc), t("runs_from", loc), t("auto_update", loc), t("update_state", loc)
    )
    for r in (r for r in installer.records() if r.id in app.runtime.builtin_versions):
        used = installer.in_use(r)
        where = t("builtin_copy", loc) if used.builtin else t("fetched_copy", loc)
        table.add_row(*map(literal, _cells(app, r, used.version, where, installer.rollback_target(r))), key=r.id)
    return table


def _cells(app: HarnessApp, r: InstallRecord, version: str, kind: str, back: Version | None) -> tuple[str, ...]:
    loc = app.locale
    state = "—"
    if r.pending is not None:
        state = t("pending", loc).format(version=r.pending.version)
    elif back is not None:
        state = t("can_roll_back", loc).format(version=_version_words(back, loc))
    on = t("on" if r.auto_update else "off", loc)
    return (app.runtime.registry.plugin_name(r.id), version, kind, on, state)


def _version_words(version: Version, locale: str) -> str:
    """A version as the student reads it: its number, or 内置副本 for a built-in plugin's shipped copy."""
    return t("builtin_copy_version", locale).format(version=version.version) if version.builtin else version.version


class PluginAdmin:
    """The app's side of installing and updating; one per app."""

    def __init__(self, app: HarnessApp) -> None:
        self.app = app
        self._installer: Installer | None = None
        self._checking = False

    @property
    def installer(self) -> Installer:
        if self._installer is None:
            self._installer = Installer(self.app.runtime)
        return self._installer

    def _say(self, text: str, severity: str = "information") -> None:
        self.app.notify(clean(text), severity=severity, timeout=6, markup=False)  # type: ignore[arg-type]

    async def install(self, link: str, tab: str | None = "plugins") -> bool:
        """Fetch and validate (in a thread), show the review, install only on 安装; the shell is rebuilt on `tab`
        (None: the tab in view). True when installed."""
        from tui.app.dialogs.review import InstallReviewDialog  # Markdown costs ~35 ms: not on the start path

        loc = self.app.locale
        if self.app.demo and "://" in link:  # the header says 不联网: a link would be fetched from the network
            self._say(t("demo_no_install", loc), "warning")
            return False
        self._say(t("fetching", loc))
        try:
            prepared = await asyncio.to_thread(self.installer.prepare, link)
        except InstallError as e:
            self._say(t("install_failed", loc).format(error=say_error(e, loc)), "error")
            return False
        dialog = InstallReviewDialog(prepared.review, loc)
        if not await self.app.push_screen_wait(dialog):
            self._say(t("not_installed", loc))
            return False
        try:
            record = self.installer.install(prepared, dialog.effects)
        except InstallError as e:
            self._say(t("install_failed", loc).format(error=say_error(e, loc)), "error")
            return False
        self._say(t("installed", loc).format(name=prepared.review.name, version=record.current.version))
        await self.app.rebuild(tab)
        return True

    async def check(self, manual: bool = False) -> list[UpdateOutcome]:
        """Check installed and built-in plugins for updates (the seeds: when the plugins page opens); never two
        at once."""
        if self._checking:
            return []
        self._checking = True
        try:
            check = partial(self.installer.check_all, auto_only=False) if manual else self.installer.check_open
            outcomes = await asyncio.to_thread(check)
        finally:
            self._checking = False
        await self.report(outcomes, manual)
        return outcomes

    async def check_due(self) -> list[UpdateOutcome]:
        """The start-up check, at most once a day (not while another check runs: both could apply one update)."""
        if self._checking:
            return []
        self._checking = True
        try:
            outcomes = await asyncio.to_thread(self.installer.check_due)
        finally:
            self._checking = False
        await self.report(outcomes, manual=False)
        return outcomes

    async def report(self, outcomes: list[UpdateOutcome], manual: bool) -> None:
        """Tell the student what the check did: 已更新到 1.3.0, an update waiting, a failure (when asked for)."""
        loc = self.app.locale
        changed = False
        for o in outcomes:
            name = self._name(o.plugin_id)
            if o.status == "applied":
                changed = True
                self._say(t("updated_to", loc).format(name=name, version=o.version))
            elif o.status == "paused":
                changed = True
                self._say(t("update_waits", loc).format(name=name, version=o.version), "warning")
            elif o.status == "error" and manual:
                self._say(say(o.message, loc), "error")
            elif manual:
                self._say(t("up_to_date", loc).format(name=name))
        if changed:
            await self.app.rebuild(None)

    def _name(self, plugin_id: str) -> str:
        return self.app.runtime.registry.plugin_name(plugin_id)

    async def manage(self, plugin_id: str) -> None:
        """The actions for one installed plugin, in a small menu."""
        loc = self.app.locale
        try:
            record = self.installer.record(plugin_id)
        except InstallError:
            return
        actions: dict[str, str] = {}
        if record.pending is not None:
            actions[t("review_update", loc).format(version=record.pending.version)] = "review"
        actions[t("check_update", loc)] = "check"
        back = self.installer.rollback_target(record)
        if back is not None:
            actions[t("roll_back_to", loc).format(version=_version_words(back, loc))] = "rollback"
        actions[t("auto_update_off" if record.auto_update else "auto_update_on", loc)] = "toggle"
        if plugin_id not in self.app.runtime.builtin_versions:  # a built-in plugin rolls back, never goes
            actions[t("uninstall", loc)] = "remove"
        choice = await self.app.push_screen_wait(ChooseDialog(f"{self._name(plugin_id)} ({plugin_id})", list(actions)))
        if choice is None:
            return
        await getattr(self, f"_{actions[choice]}")(plugin_id)

    async def _review(self, plugin_id: str) -> None:
        from tui.app.dialogs.review import UpdateApprovalDialog

        review = self.installer.pending_review(plugin_id)
        if review is None:
            return
        if await self.app.push_screen_wait(UpdateApprovalDialog(review, self.app.locale)):
            outcome = self.installer.accept(plugin_id)
            self._say(t("updated_to", self.app.locale).format(name=self._name(plugin_id), version=outcome.version))
        else:
            self.installer.decline(plugin_id)
            self._say(t("kept_old", self.app.locale))
        await self.app.rebuild(None)

    async def update_now(self, plugin_id: str) -> None:
        """Fetch an installed plugin's source again and take what changed: applied at once, or — more permissions
        — through the update approval (a draft installed before, installed again after an edit)."""
        outcome = await asyncio.to_thread(self.installer.check, plugin_id)
        if outcome.status == "paused":
            await self._review(plugin_id)
        else:
            await self.report([outcome], manual=True)

    async def _check(self, plugin_id: str) -> None:
        outcome = await asyncio.to_thread(self.installer.check, plugin_id)
        await self.report([outcome], manual=True)

    async def _rollback(self, plugin_id: str) -> None:
        record = self.installer.rollback(plugin_id)
        back = _version_words(record.current, self.app.locale)
        self._say(t("rolled_back", self.app.locale).format(name=self._name(plugin_id), version=back))
        await self.app.rebuild(None)

    async def _toggle(self, plugin_id: str) -> None:
        record = self.installer.record(plugin_id)
        self.installer.set_auto_update(plugin_id, not record.auto_update)
        await self.app.rebuild(None)

    async def _remove(self, plugin_id: str) -> None:
        question = t("remove_question", self.app.locale).format(name=self._name(plugin_id))
        if await self.app.push_screen_wait(ConfirmDialog(question, self.app.locale)):
            self.installer.remove(plugin_id)
            self._say(t("removed_plugin", self.app.locale).format(name=plugin_id))
            await self.app.rebuild(None)
