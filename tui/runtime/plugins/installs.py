"""Installed plugins on disk and in the store: one folder per version, switched atomically.

A version's files are written into a marked staging folder, flushed, and renamed to `<root>/<id>/<hash>`
(`version_folders`) — a rename is atomic, so a folder with a final name is always complete. The store row (one
transaction) then names the folder in use; the row is the truth, so a crash between the rename and the row leaves
only an unreferenced folder, which `sweep()` moves to the trash at the next start. Only folders the app marked
for this database are ever moved or removed. Each row keeps the version in use, the previous one (with the modes
in force before the update, for rollback), a paused update awaiting approval, and the declined hashes. A built-in
plugin has a row once it was updated from its link (or its auto-update switched, or an update paused); a version
of it that is the copy shipped with the app names no folder (`BUILTIN_DIR`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import tui.runtime.plugins.version_folders as vf
from tui.runtime.audit import now_ms
from tui.runtime.store import Store

log = logging.getLogger(__name__)

#: The `dir` of a built-in plugin's row while the copy shipped with the app runs (after a rollback to it, or
#: before any fetched version): no folder of the app's, so nothing ever marks, moves or removes it.
BUILTIN_DIR = "<built-in>"
#: How many declined hashes a row remembers (a rollback declines the version it leaves, a "keep" the offered one).
DECLINED_KEPT = 8


@dataclass(frozen=True)
class Version:
    """One version of a plugin's files on disk."""

    version: str
    dir: str
    hash: str
    commit: str | None = None
    modes: dict[str, str] = field(default_factory=dict)
    """For a previous version: the modes in force while it ran (rollback never gives more)."""

    @classmethod
    def from_json(cls, text: str | None) -> Version | None:
        if not text:
            return None
        try:
            raw = json.loads(text)
            return cls(raw["version"], raw["dir"], raw["hash"], raw.get("commit"), dict(raw.get("modes") or {}))
        except (ValueError, KeyError, TypeError):
            return None  # a damaged column loses only the rollback or the pending update, never the plugin

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @property
    def builtin(self) -> bool:
        """The copy of a built-in plugin shipped with the app (not a folder the app wrote)."""
        return self.dir == BUILTIN_DIR


@dataclass(frozen=True)
class InstallRecord:
    """A row of `installed_plugins`."""

    id: str
    source: str
    """The link it was installed from (a local folder's path for authors)."""
    official: bool
    current: Version
    auto_update: bool = True
    previous: Version | None = None
    pending: Version | None = None
    """An update whose scope is wider, fetched and waiting for the student's approval."""
    declined_hash: str | None = None
    """The content hashes the student said no to (space-separated, newest last): not offered again."""
    installed_ms: int = 0
    checked_ms: int | None = None

    @property
    def declined(self) -> list[str]:
        """The declined content hashes."""
        return (self.declined_hash or "").split()


_COLUMNS = (
    "id, source, official, version, dir, content_hash, commit_sha, auto_update, previous, pending, declined_hash, "
    "installed_ms, checked_ms"
)


def _record(row: tuple[Any, ...]) -> InstallRecord:
    pid, source, official, version, folder, digest, commit, auto, previous, pending, declined, at, checked = row
    return InstallRecord(
        pid,
        source,
        bool(official),
        Version(version, folder, digest, commit),
        bool(auto),
        Version.from_json(previous),
        Version.from_json(pending),
        declined,
        at,
        checked,
    )


class Installs:
    """The rows of installed plugins and their version folders under `root`."""

    def __init__(self, store: Store, root: Path) -> None:
        self.store = store
        self.root = root

    def all(self) -> list[InstallRecord]:
        """Every installed plugin, by id."""
        with self.store.lock:
            rows = self.store.db.execute(f"SELECT {_COLUMNS} FROM installed_plugins ORDER BY id").fetchall()
        return [_record(r) for r in rows]

    def get(self, plugin_id: str) -> InstallRecord | None:
        with self.store.lock:
            row = self.store.db.execute(
                f"SELECT {_COLUMNS} FROM installed_plugins WHERE id = ?", (plugin_id,)
            ).fetchone()
        return _record(row) if row else None

    def write_version(self, plugin_id: str, files: dict[str, str], digest: str) -> Path:
        """Write a version's files into a marked folder; returns it (reused when this database already wrote
        the same files there)."""
        return vf.write_version(self.root, plugin_id, files, digest, self.store.identity)

    def insert(self, record: InstallRecord) -> None:
        """Record a new install."""
        c = record.current
        with self.store.lock:
            self.store.db.execute(
                f"INSERT INTO installed_plugins ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, ?, ?)",
                (record.id, record.source, int(record.official), c.version, c.dir, c.hash, c.commit,
                 int(record.auto_update), record.installed_ms or now_ms(), record.checked_ms),
            )  # fmt: skip

    def switch(self, plugin_id: str, new: Version, previous: Version | None) -> None:
        """Make `new` the version in use (one statement: all or nothing); the paused update is cleared."""
        with self.store.lock:
            self.store.db.execute(
                "UPDATE installed_plugins SET version = ?, dir = ?, content_hash = ?, commit_sha = ?, previous = ?, "
                "pending = NULL, installed_ms = ? WHERE id = ?",
                (
                    new.version,
                    new.dir,
                    new.hash,
                    new.commit,
                    previous.to_json() if previous else None,
                    now_ms(),
                    plugin_id,
                ),
            )

    def set_pending(self, plugin_id: str, pending: Version | None) -> None:
        with self.store.lock:
            self.store.db.execute(
                "UPDATE installed_plugins SET pending = ? WHERE id = ?",
                (pending.to_json() if pending else None, plugin_id),
            )

    def add_declined(self, plugin_id: str, digest: str) -> None:
        """Remember one more declined hash (the last DECLINED_KEPT are kept): a rollback over two versions declines
        both, so neither comes back at the next check."""
        record = self.get(plugin_id)
        kept = [d for d in (record.declined if record else []) if d != digest] + [digest]
        with self.store.lock:
            self.store.db.execute(
                "UPDATE installed_plugins SET declined_hash = ? WHERE id = ?",
                (" ".join(kept[-DECLINED_KEPT:]), plugin_id),
            )

    def set_auto_update(self, plugin_id: str, on: bool) -> None:
        with self.store.lock:
            self.store.db.execute("UPDATE installed_plugins SET auto_update = ? WHERE id = ?", (int(on), plugin_id))

    def set_checked(self, plugin_id: str, at_ms: int) -> None:
        with self.store.lock:
            self.store.db.execute("UPDATE installed_plugins SET checked_ms = ? WHERE id = ?", (at_ms, plugin_id))

    def delete(self, plugin_id: str) -> None:
        """Forget the plugin and remove the version folders its row names that the app marked (never another
        folder in its plugin folder), then the plugin folder once it is empty."""
        record = self.get(plugin_id)
        with self.store.lock:
            self.store.db.execute("DELETE FROM installed_plugins WHERE id = ?", (plugin_id,))
        if record is None:
            return
        self._adopt([record])
        store = self.store.identity
        for v in (record.current, record.previous, record.pending):
            if v is not None and not v.builtin and vf.ours(Path(v.dir), self.root, store):
                shutil.rmtree(v.dir, ignore_errors=True)
        with contextlib.suppress(OSError):
            (self.root / plugin_id).rmdir()  # kept unless empty

    def sweep(self) -> list[Path]:
        """Move the version folders this database wrote and no row names (a crash mid-install, a replaced
        update) into the trash; returns where they were. Unmarked folders are never touched, and nothing is moved
        while no plugin is installed (a new or re-created database: a warning says so)."""
        if self.store.read_only or not self.root.is_dir():
            return []
        records = self.all()
        self._adopt(records)
        named = {
            Path(v.dir).resolve() for r in records for v in (r.current, r.previous, r.pending) if v and not v.builtin
        }
        store = self.store.identity
        if not records:
            # A new or re-created database: whatever is there is not its to judge.
            marked = vf.candidates(self.root, None)
            if marked:
                log.warning(
                    "%s holds %d version folder(s) the app wrote, but no plugin is installed (a new database?): the "
                    "app leaves them as they are; install the plugins you want again, and delete the folders "
                    "yourself once you no longer need them", self.root, len(marked),
                )  # fmt: skip
            return []
        at = now_ms()
        moved = []
        for folder in (d for d in vf.candidates(self.root, store) if d.resolve() not in named):
            try:
                vf.to_trash(folder, self.root, at)
            except OSError as e:  # tidying never stops the app from starting
                log.warning("%s could not be moved to the trash: %s", folder, e)
                continue
            moved.append(folder)
        vf.tidy(self.root, store, at, {d.parent for d in moved})
        return moved

    def _adopt(self, records: list[InstallRecord]) -> None:
        """Mark the folders an older app wrote before marks existed: a row names them, and they lie exactly where
        that app put them (`<root>/<id>/<hash name>`). Nothing else is ever marked after the fact."""
        store = self.store.identity
        if store is None or self.store.read_only:
            return
        for r in records:
            for v in (r.current, r.previous, r.pending):
                if v is None or v.builtin:
                    continue
                folder = Path(v.dir)
                where_written = (self.root / r.id / vf.folder_name(v.hash)).resolve()
                if folder.is_symlink() or not folder.is_dir() or folder.resolve() != where_written:
                    continue
                if not os.path.lexists(folder / vf.MARKER):
                    with contextlib.suppress(OSError):
                        vf.write_mark(folder, vf.Mark(r.id, folder.name, store))
