"""Installed plugins on disk and in the store: one folder per version, switched atomically.

A version's files are written into a staging folder, flushed, and renamed to `<root>/<id>/<hash>` — a rename
is atomic, so a folder with a final name is always complete. The store row (one transaction) then names the
folder in use; the row is the truth, so a crash between the rename and the row leaves only an unreferenced
folder, which `sweep()` removes at the next start. Each row keeps the version in use, the previous one (with the
modes in force before the update, for rollback), a paused update awaiting approval, and a declined hash.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tui.lang.documents.source import check_path
from tui.runtime.audit import now_ms
from tui.runtime.store import Store


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
    installed_ms: int = 0
    checked_ms: int | None = None


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
        """Write a version's files; returns its final folder (reused when that hash is already on disk)."""
        final = self.root / plugin_id / digest.replace(":", "-")[:23]
        if final.is_dir():
            return final
        final.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=final.parent))
        try:
            for rel, text in files.items():
                target = staging / check_path(rel)  # paths were checked at load; checked again before writing
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
                    f.flush()
                    os.fsync(f.fileno())
            os.rename(staging, final)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return final

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

    def set_declined(self, plugin_id: str, digest: str | None) -> None:
        with self.store.lock:
            self.store.db.execute("UPDATE installed_plugins SET declined_hash = ? WHERE id = ?", (digest, plugin_id))

    def set_auto_update(self, plugin_id: str, on: bool) -> None:
        with self.store.lock:
            self.store.db.execute("UPDATE installed_plugins SET auto_update = ? WHERE id = ?", (int(on), plugin_id))

    def set_checked(self, plugin_id: str, at_ms: int) -> None:
        with self.store.lock:
            self.store.db.execute("UPDATE installed_plugins SET checked_ms = ? WHERE id = ?", (at_ms, plugin_id))

    def delete(self, plugin_id: str) -> None:
        """Forget the plugin and remove its folders."""
        with self.store.lock:
            self.store.db.execute("DELETE FROM installed_plugins WHERE id = ?", (plugin_id,))
        shutil.rmtree(self.root / plugin_id, ignore_errors=True)

    def sweep(self) -> list[Path]:
        """Remove version folders no row names (a crash mid-install, a replaced update); returns them."""
        keep: set[Path] = set()
        for r in self.all():
            keep |= {Path(v.dir).resolve() for v in (r.current, r.previous, r.pending) if v is not None}
        removed: list[Path] = []
        if not self.root.is_dir():
            return removed
        for plugin_dir in self.root.iterdir():
            if not plugin_dir.is_dir():
                continue
            for version_dir in plugin_dir.iterdir():
                if version_dir.resolve() not in keep:
                    shutil.rmtree(version_dir, ignore_errors=True)
                    removed.append(version_dir)
            if not any(plugin_dir.iterdir()):
                plugin_dir.rmdir()
        return removed
