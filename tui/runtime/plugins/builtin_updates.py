"""Built-in plugins update from their links, as any plugin does (seed 003: "App 内置了这些插件文档，并像其他插件一样
从各自的 GitHub 链接更新。所以修复其中某个解析器，不需要 App 发版。").

Each official plugin's link is `https://github.com/pkuinfo/pku-harness-plugins/tree/main/plugins/<id>`. The copy
in `plugins_builtin/` is the floor: a fetched version runs only while its version is newer than the copy the app
shipped, so a newer app whose own copy is newer than the fetched one uses its own (the fetched row stays, and the
next check can move past it). A built-in plugin needs no row in `installed_plugins` until something is to be kept
for it (a fetched version, a paused update, auto-update off, a declined hash); until then the installer reads it as
`floor_record`, running its built-in copy (`BUILTIN_DIR`). Versions compare by semantic-versioning precedence.

All built-in plugins live on one branch of one repository, so an automatic check first asks where that branch
points (one API call, `Round`): when neither it nor the built-in plugins checked (and their shipped versions)
changed since a round whose every check went through, they are not fetched again. GitHub allows 60 API calls an
hour without a token, and checking seven plugins costs two each.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from tui.runtime.plugins.installs import BUILTIN_DIR, InstallRecord, Version
from tui.runtime.plugins.links import OFFICIAL_FOLDER, OFFICIAL_OWNER, OFFICIAL_REPO
from tui.runtime.settings import read_setting, write_setting
from tui.runtime.store import Store

if TYPE_CHECKING:  # the runtime reads `fetched_in_use` at every start; the HTTP client is imported when used
    from tui.runtime.plugins.fetch import PluginFetcher


class UpdateOutcomeLike(Protocol):
    """What a round reads of an update check's outcome (`installer.UpdateOutcome`, which imports this module)."""

    @property
    def plugin_id(self) -> str: ...
    @property
    def status(self) -> str: ...


#: The branch of the official repository built-in plugins update from.
BRANCH = "main"

_SEMVER = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")


def builtin_link(plugin_id: str) -> str:
    """The link a built-in plugin updates from."""
    return f"https://github.com/{OFFICIAL_OWNER}/{OFFICIAL_REPO}/tree/{BRANCH}/{OFFICIAL_FOLDER}/{plugin_id}"


def version_key(text: str) -> tuple[int, int, int, int, tuple[tuple[int, int | str], ...]]:
    """A sort key with semantic-versioning precedence: 1.2.0-rc.1 < 1.2.0 < 1.10.0; build metadata is ignored.
    A version that is not semantic (the validator refuses those) sorts below every one that is."""
    m = _SEMVER.match(text.strip())
    if m is None:
        return (-1, -1, -1, -1, ())
    major, minor, patch, pre = m.groups()
    if pre is None:
        return (int(major), int(minor), int(patch), 1, ())  # a release ranks above its pre-releases
    parts = tuple((0, int(p)) if p.isdigit() else (1, p) for p in pre.split("."))  # numbers rank below words
    return (int(major), int(minor), int(patch), 0, parts)


def newer(version: str, than: str) -> bool:
    """`version` is newer than `than`."""
    return version_key(version) > version_key(than)


def floor_version(floor: str) -> Version:
    """The built-in copy as a version of a row: no folder, no hash (no fetched content equals it)."""
    return Version(floor, BUILTIN_DIR, "")


def floor_record(plugin_id: str, floor: str) -> InstallRecord:
    """A built-in plugin without a row: its built-in copy runs, auto-update on, nothing declined or waiting."""
    return InstallRecord(plugin_id, builtin_link(plugin_id), True, floor_version(floor))


def fetched_in_use(record: InstallRecord, floor: str) -> bool:
    """The row's fetched version runs (it is newer than the built-in copy `floor`); else the built-in copy does."""
    return not record.current.builtin and newer(record.current.version, floor)


def in_use(record: InstallRecord, floor: str) -> Version:
    """The version that runs: the row's fetched one, or the built-in copy when that is as new or newer."""
    return record.current if fetched_in_use(record, floor) else floor_version(floor)


def rollback_target(record: InstallRecord, floor: str) -> Version:
    """Where a rollback goes: the previous fetched version while it is newer than the built-in copy, else the
    built-in copy itself (with the modes kept when the fetched version replaced it)."""
    prev = record.previous
    if prev is not None and not prev.builtin and newer(prev.version, floor):
        return prev
    return Version(floor, BUILTIN_DIR, "", None, dict(prev.modes) if prev is not None else {})


#: The setting that keeps the last round of built-in checks that went through (`Round`).
CHECKED_SETTING = "builtin_updates_checked"


class Round:
    """An automatic round of checks of the built-in plugins `shipped` (id → shipped version; {} for none)."""

    def __init__(self, fetcher: PluginFetcher, store: Store, shipped: dict[str, str]) -> None:
        self.store = store
        self.shipped = shipped
        self.key: str | None = None
        """What the round depends on: the official branch's commit now and these plugins with their versions;
        None when there are none, or the branch cannot be read (then every one is checked and says why)."""
        if shipped:
            head = fetcher.head(OFFICIAL_OWNER, OFFICIAL_REPO, BRANCH)
            self.key = None if head is None else json.dumps([head, sorted(shipped.items())])
        self.unmoved = self.key is not None and read_setting(store, CHECKED_SETTING) == self.key
        """Nothing they depend on changed since a round that went through: they need not be fetched."""

    def done(self, outcomes: Sequence[UpdateOutcomeLike]) -> None:
        """Remember the round when every check of a built-in plugin in it went through."""
        if self.key is None or self.unmoved:
            return
        if not any(o.status == "error" for o in outcomes if o.plugin_id in self.shipped):
            write_setting(self.store, CHECKED_SETTING, self.key)
