"""Installing, updating, rolling back and removing plugins (seeds: 安装链接, 更新), headless.

`prepare` fetches and validates a link and builds the review; nothing is written until `install` is called
with it (the student pressed 安装, or `--yes`). Updates re-fetch each plugin's link: the same content hash does
nothing; a change with the same scope is applied at once (with a notice, and the changed texts listed); a wider
scope is staged and paused until `accept` — the old version keeps running, `decline` remembers the hash so the
same update is not asked about again. `rollback` returns to the previous version with the modes it had (never
looser than the modes now). Every switch is one store statement after the files are complete on disk.

Built-in plugins are checked the same way, from their official links (`builtin_updates`): the fetched copy must
carry the official mark and be newer than the copy shipped with the app, which stays the floor — rollback ends
there, and a built-in plugin is never removed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, Protocol

import tui.runtime.plugins.builtin_updates as floor
from tui.lang.documents.common import Effect
from tui.lang.documents.loader import Plugin
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.runtime.audit import now_ms
from tui.runtime.message import Message, message_of
from tui.runtime.permissions import EFFECTS, Grants, Mode
from tui.runtime.plugins.fetch import Endpoints, Fetched, FetchError, PluginFetcher
from tui.runtime.plugins.installs import InstallRecord, Installs, Version
from tui.runtime.plugins.links import LinkError, parse_link
from tui.runtime.plugins.official_mark import imitations
from tui.runtime.plugins.remote_servers import RemoteServers
from tui.runtime.plugins.review import (
    MODE_ORDER,
    OFFICIAL_REPO,
    InstallReview,
    UpdateReview,
    install_review,
    update_review,
)
from tui.runtime.registry import Registry
from tui.runtime.settings import read_setting, write_setting
from tui.runtime.store import Store

#: Automatic update checks run at most this often (the seeds: at start, at most once a day).
CHECK_EVERY_MS = 24 * 3600 * 1000
RESERVED_IDS = frozenset({"memory", "scheduler", "dashboard", "plugins"})


class InstallError(Exception):
    """An install or update that cannot go ahead; the message says why, `problems` lists validation errors."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


@dataclass(frozen=True)
class Prepared:
    """A plugin fetched and validated, with the review the student decides on."""

    fetched: Fetched
    review: InstallReview


Status = Literal["same", "applied", "paused", "waiting", "declined", "error", "available"]


@dataclass(frozen=True)
class UpdateOutcome:
    """What one update check did."""

    plugin_id: str
    status: Status
    """same: nothing changed · applied: switched to the new version · paused: newly waiting for approval ·
    waiting: still waiting (found before) · declined: the student already said no to this version · error: could
    not check · available: `--check` only."""
    message: str
    review: UpdateReview | None = None
    version: str | None = None


class Runtime(Protocol):
    """What the installer needs of the runtime (`tui.runtime.runtime.Runtime` is one): described here rather than
    imported, so that this package never imports the runtime that uses it (no import circle)."""

    @property
    def store(self) -> Store: ...
    @property
    def registry(self) -> Registry: ...
    @property
    def grants(self) -> Grants: ...
    @property
    def installs(self) -> Installs: ...
    @property
    def builtin_ids(self) -> set[str]: ...
    @property
    def builtin_versions(self) -> dict[str, str]: ...
    @property
    def plugin_fetcher(self) -> PluginFetcher | None: ...
    @property
    def remote(self) -> RemoteServers: ...
    def load_installed(self, plugin_id: str, folder: Path, official: bool) -> None: ...
    def forget_plugin(self, plugin_id: str) -> None: ...
    def load_builtin(self, plugin_id: str) -> None: ...


class Installer:
    """Installs and updates plugins for one runtime."""

    def __init__(self, runtime: Runtime, fetcher: PluginFetcher | None = None) -> None:
        self.runtime = runtime
        self.installs: Installs = runtime.installs
        self.fetcher = fetcher or runtime.plugin_fetcher or PluginFetcher(endpoints(runtime))

    # ---- installing ---------------------------------------------------------------------------------------

    def prepare(self, link_text: str, cwd: Path | None = None) -> Prepared:
        """Fetch and validate the plugin a link names and build its review; nothing is stored.

        Raises:
            InstallError: a bad link, a fetch or validation failure, or an id already taken.
        """
        try:
            link = parse_link(link_text, cwd)
            fetched = self.fetcher.fetch(link)
        except (LinkError, FetchError) as e:
            raise InstallError(message_of(e), getattr(e, "problems", None)) from None
        pid = fetched.plugin.manifest.id
        if pid in RESERVED_IDS or pid in self.runtime.builtin_ids:
            raise InstallError(Message("install_builtin_id", id=pid))
        existing = self.installs.get(pid)
        if existing is not None:
            raise InstallError(Message("install_already", id=pid, source=existing.source))
        if pid in self.runtime.registry.plugins:
            raise InstallError(Message("install_loaded", id=pid))
        if not fetched.official:
            refuse_imitation(fetched)
        review = install_review(
            fetched.plugin, fetched.link.text, fetched.official, self.runtime.registry.locale, fetched.ref
        )
        remote = fetched.plugin.manifest.remote
        if remote is not None:  # the review lists the server's tools: connect now (this runs off the event loop)
            review = replace(review, remote=self.runtime.remote.preview_blocking(pid, remote))
        return Prepared(fetched, review)

    def install(self, prepared: Prepared, effects: Mapping[str, Effect] | None = None) -> InstallRecord:
        """Write the files, record the install and load the plugin (after the student said yes). A remote
        plugin's tools, as the review listed them, are approved with `effects` (name → the student's choice;
        a tool not named: the effect the review preselected); a server the review could not reach has none yet
        (they wait for a review on the plugin's page)."""
        f = prepared.fetched
        pid = f.plugin.manifest.id
        if self.installs.get(pid) is not None:
            raise InstallError(Message("install_meanwhile", id=pid))
        digest = f.content_hash
        folder = self.installs.write_version(pid, f.files, digest)
        record = InstallRecord(
            pid, f.link.text, f.official, Version(f.plugin.manifest.version, str(folder), digest, f.commit)
        )
        self.installs.insert(record)
        self.runtime.load_installed(pid, folder, record.official)
        listed = prepared.review.remote
        if listed is not None and listed.listed:
            self.runtime.remote.approve(listed, effects)
        return record

    # ---- updating -----------------------------------------------------------------------------------------

    def check_due(self, at_ms: int | None = None) -> list[UpdateOutcome]:
        """The automatic check: at most once a day, when auto-update is on, for plugins that have it on."""
        now = at_ms if at_ms is not None else now_ms()
        if not self.auto_update_enabled():
            return []
        last = read_setting(self.runtime.store, "updates_checked_ms")
        if isinstance(last, int) and now - last < CHECK_EVERY_MS:
            return []
        write_setting(self.runtime.store, "updates_checked_ms", now)
        return self.check_all()

    def check_open(self) -> list[UpdateOutcome]:
        """The check when the student opens the plugins page (plugins with auto-update on)."""
        if not self.auto_update_enabled():
            return []
        return self.check_all()

    def check_all(self, auto_only: bool = True) -> list[UpdateOutcome]:
        """Check installed and built-in plugins: those with auto-update on, or every one when the student asked.
        An automatic round skips the built-in plugins while their branch has not moved (`builtin_updates`)."""
        due = [r for r in self.records() if r.auto_update or not auto_only]
        shipped = {r.id: self.runtime.builtin_versions[r.id] for r in due if r.id in self.runtime.builtin_versions}
        round_ = floor.Round(self.fetcher, self.runtime.store, shipped if auto_only else {})
        outcomes = [self.check(r.id) for r in due if not (round_.unmoved and r.id in shipped)]
        round_.done(outcomes)
        return outcomes

    def records(self) -> list[InstallRecord]:
        """Every plugin that updates from a link, by id: the installed ones and the built-in ones (a built-in
        plugin without a row as `floor_record`)."""
        rows = {r.id: r for r in self.installs.all()}
        for pid, version in self.runtime.builtin_versions.items():
            rows.setdefault(pid, floor.floor_record(pid, version))
        return [rows[pid] for pid in sorted(rows)]

    def in_use(self, record: InstallRecord) -> Version:
        """The version that runs: for a built-in plugin, its built-in copy unless a newer fetched one runs."""
        version = self.runtime.builtin_versions.get(record.id)
        return record.current if version is None else floor.in_use(record, version)

    def auto_update_enabled(self) -> bool:
        return read_setting(self.runtime.store, "auto_update") is not False

    def set_auto_update(self, plugin_id: str | None, on: bool) -> None:
        """Turn automatic updates on or off for one plugin, or for all (`plugin_id` None)."""
        if plugin_id is None:
            write_setting(self.runtime.store, "auto_update", on)
            return
        self._keep(self.record(plugin_id))
        self.installs.set_auto_update(plugin_id, on)

    def check(self, plugin_id: str, apply: bool = True) -> UpdateOutcome:
        """Re-fetch one plugin's link and act on what changed (see the module docstring)."""
        record = self.record(plugin_id)
        self.installs.set_checked(plugin_id, now_ms())
        try:
            fetched = self.fetcher.fetch(parse_link(record.source))
        except (LinkError, FetchError) as e:
            return UpdateOutcome(plugin_id, "error", Message("update_check_failed", id=plugin_id, error=message_of(e)))
        if fetched.plugin.manifest.id != plugin_id:
            return UpdateOutcome(
                plugin_id,
                "error",
                Message("update_other_plugin", source=record.source, other=fetched.plugin.manifest.id),
            )
        if record.official and not fetched.official:
            return UpdateOutcome(
                plugin_id,
                "error",
                Message("update_not_official", id=plugin_id, source=record.source),
            )
        if not record.official:
            try:
                refuse_imitation(fetched)
            except InstallError as e:
                return UpdateOutcome(plugin_id, "error", Message("update_refused", id=plugin_id, error=message_of(e)))
        digest, version, running = fetched.content_hash, fetched.plugin.manifest.version, self.in_use(record)
        shipped = self.runtime.builtin_versions.get(plugin_id)
        if digest == running.hash or (shipped is not None and not floor.newer(version, shipped)):
            # a built-in plugin's link serves nothing newer than the copy the app shipped: that copy stays
            return UpdateOutcome(plugin_id, "same", Message("update_same", id=plugin_id, version=running.version))
        review = update_review(self.current_plugin(plugin_id), fetched.plugin, record.official)
        if digest in record.declined:
            return UpdateOutcome(
                plugin_id, "declined", Message("update_declined", id=plugin_id, version=version), review
            )
        if record.pending is not None and digest == record.pending.hash:
            return UpdateOutcome(
                plugin_id, "waiting", Message("update_waiting", id=plugin_id, version=version), review, version
            )
        if not apply:
            return UpdateOutcome(
                plugin_id, "available", Message("update_available", id=plugin_id, version=version), review, version
            )
        folder = self.installs.write_version(plugin_id, fetched.files, digest)
        new = Version(version, str(folder), digest, fetched.commit)
        if review.needs_approval:
            self._keep(record)
            if record.pending is not None and record.pending.dir != new.dir:
                self.installs.set_pending(plugin_id, None)
            self.installs.set_pending(plugin_id, new)
            self.installs.sweep()
            return UpdateOutcome(
                plugin_id, "paused", Message("update_paused", id=plugin_id, version=version), review, version
            )
        self._switch(record, new)
        return UpdateOutcome(
            plugin_id, "applied", Message("update_applied", id=plugin_id, version=version), review, version
        )

    def pending_review(self, plugin_id: str) -> UpdateReview | None:
        """The review of a paused update, rebuilt from the staged files."""
        record = self.record(plugin_id)
        if record.pending is None:
            return None
        new = _load(Path(record.pending.dir))
        return update_review(self.current_plugin(plugin_id), new, record.official)

    def accept(self, plugin_id: str) -> UpdateOutcome:
        """Apply the paused update (the student agreed in the update-approval dialog)."""
        record = self.record(plugin_id)
        if record.pending is None:
            raise InstallError(Message("update_none_waiting", id=plugin_id))
        shipped = self.runtime.builtin_versions.get(plugin_id)
        if shipped is not None and not floor.newer(record.pending.version, shipped):
            self.installs.set_pending(plugin_id, None)  # the app's own copy became as new meanwhile: it stays
            self.installs.sweep()
            return UpdateOutcome(plugin_id, "same", Message("update_same", id=plugin_id, version=shipped))
        self._switch(record, record.pending)
        return UpdateOutcome(
            plugin_id,
            "applied",
            Message("update_applied", id=plugin_id, version=record.pending.version),
            version=record.pending.version,
        )

    def decline(self, plugin_id: str) -> None:
        """Keep the old version and remember the declined one."""
        record = self.record(plugin_id)
        if record.pending is None:
            raise InstallError(Message("update_none_waiting", id=plugin_id))
        self.installs.add_declined(plugin_id, record.pending.hash)
        self.installs.set_pending(plugin_id, None)
        self.installs.sweep()

    def rollback(self, plugin_id: str) -> InstallRecord:
        """Return to the previous version, with its modes (each no looser than the mode now in force). A built-in
        plugin goes back to its previous fetched version and, from there, to the copy shipped with the app."""
        record = self.record(plugin_id)
        running, prev, shipped = self.in_use(record), self.rollback_target(record), self.runtime.builtin_versions
        if prev is None:
            raise InstallError(
                Message("rollback_builtin_copy", id=plugin_id, version=shipped[plugin_id])
                if plugin_id in shipped
                else Message("rollback_none", id=plugin_id)
            )
        now = self._modes(plugin_id)
        if prev.builtin:
            self.runtime.load_builtin(plugin_id)
        else:
            self.runtime.load_installed(plugin_id, Path(prev.dir), record.official)  # validates before the switch
        self.installs.switch(plugin_id, Version(prev.version, prev.dir, prev.hash, prev.commit), None)
        self.installs.add_declined(plugin_id, running.hash)  # or the next check would re-apply it
        for effect in EFFECTS:
            then = prev.modes.get(effect)
            chosen = max((m for m in (then, now[effect]) if m in MODE_ORDER), key=lambda m: MODE_ORDER[m])
            self.runtime.grants.set(plugin_id, effect, chosen)  # type: ignore[arg-type]
        self.installs.sweep()
        return self.record(plugin_id)

    def rollback_target(self, record: InstallRecord) -> Version | None:
        """Where `rollback` goes: the previous version, for a built-in plugin its copy shipped with the app at the
        end (a version with `builtin` set), or None: nothing to go back to."""
        shipped = self.runtime.builtin_versions.get(record.id)
        if shipped is None:
            return record.previous
        return None if self.in_use(record).builtin else floor.rollback_target(record, shipped)

    def remove(self, plugin_id: str) -> None:
        """Uninstall: files, row, grants, KV and cached data go; the caller asked the student first."""
        self.record(plugin_id)
        if plugin_id in self.runtime.builtin_versions:
            raise InstallError(Message("remove_builtin", id=plugin_id))
        self.runtime.forget_plugin(plugin_id)
        self.installs.delete(plugin_id)

    # ---- helpers ------------------------------------------------------------------------------------------

    def current_plugin(self, plugin_id: str) -> Plugin:
        installed = self.runtime.registry.plugins.get(plugin_id)
        if installed is not None:
            return installed.plugin
        return _load(Path(self.record(plugin_id).current.dir))

    def _switch(self, record: InstallRecord, new: Version) -> None:
        old = self.in_use(record)
        previous = Version(
            old.version, old.dir, old.hash, old.commit, {e: str(m) for e, m in self._modes(record.id).items()}
        )
        self.runtime.load_installed(record.id, Path(new.dir), record.official)  # validates before the switch
        self._keep(record)
        self.installs.switch(record.id, new, previous)
        self.installs.sweep()

    def _modes(self, plugin_id: str) -> dict[Effect, Mode]:
        installed = self.runtime.registry.plugins.get(plugin_id)
        declared = installed.plugin.manifest.defaultModes if installed else None
        official = installed.official if installed else False
        return self.runtime.grants.modes(plugin_id, official, declared)

    def record(self, plugin_id: str) -> InstallRecord:
        """An installed or built-in plugin's record (see `records`).

        Raises:
            InstallError: neither.
        """
        record = self.installs.get(plugin_id)
        if record is None:
            shipped = self.runtime.builtin_versions.get(plugin_id)
            if shipped is None:
                raise InstallError(Message("install_not_installed", id=plugin_id))
            return floor.floor_record(plugin_id, shipped)
        return record

    def _keep(self, record: InstallRecord) -> None:
        """Give a built-in plugin its row before something is kept in it (no-op for a plugin that has one)."""
        if record.current.builtin and self.installs.get(record.id) is None:
            self.installs.insert(record)


def endpoints(runtime: Runtime) -> Endpoints:
    """The GitHub endpoints from the settings (and the environment, which wins)."""
    api = read_setting(runtime.store, "github_api")
    raw = read_setting(runtime.store, "github_raw")
    return Endpoints.from_env(api if isinstance(api, str) else None, raw if isinstance(raw, str) else None)


def refuse_imitation(fetched: Fetched) -> None:
    """Refuse a plugin without the official mark whose id, name or author claims it (issue 15 item 14).

    Raises:
        InstallError: naming each field and what in it imitates the mark.
    """
    found = imitations(fetched.plugin.manifest)
    if found:
        said = found[-1]
        for claim in reversed(found[:-1]):
            said = Message("list_then", first=claim, rest=said)
        raise InstallError(Message("install_imitation", link=fetched.link.text, found=said, repo=OFFICIAL_REPO))


def _load(folder: Path) -> Plugin:
    plugin, problems = validate(DirectorySource(folder))
    if plugin is None:
        raise InstallError(Message("install_no_longer_valid", folder=str(folder)), problems)
    return plugin
