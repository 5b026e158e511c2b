"""The plugins' KV store in SQLite: a run's changes in one transaction, the 256 KB quota checked inside it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tui.lang.host import KV_QUOTA_BYTES, KvBatch, KvWrite, check_batch
from tui.runtime.store import Store
from tui.runtime.store_faults import GuardedCursor

#: Keys asked about in one statement (well under SQLite's limit of bound parameters).
_CHUNK = 500


class SqliteKv:
    """The plugin_kv table of the store; each call is scoped to a plugin id."""

    def __init__(self, store: Store, quota: int = KV_QUOTA_BYTES) -> None:
        self.store = store
        self.quota = quota
        self._lock = store.lock
        self._db = store.db

    @classmethod
    def open(cls, path: str | Path, quota: int = KV_QUOTA_BYTES) -> SqliteKv:
        """A KV store on its own database file (for the command line and tests)."""
        return cls(Store(path), quota)

    def close(self) -> None:
        self.store.close()

    @staticmethod
    def _now_ms() -> int:
        return int(time.time() * 1000)

    def get(self, plugin: str, key: str, now_ms: int | None = None) -> Any:
        now = self._now_ms() if now_ms is None else now_ms
        with self._lock:
            row = self._db.execute(
                "SELECT value, expires_ms FROM plugin_kv WHERE plugin = ? AND key = ?", (plugin, key)
            ).fetchone()
        if row is None or (row[1] is not None and row[1] <= now):
            return None
        return json.loads(row[0])

    def _judge(self, cur: GuardedCursor, plugin: str, batch: KvBatch, now: int) -> None:
        """Check `batch` against what the plugin keeps now (entries past their time do not count)."""
        live = "plugin = ? AND (expires_ms IS NULL OR expires_ms > ?)"
        (used,) = cur.execute(f"SELECT COALESCE(SUM(size), 0) FROM plugin_kv WHERE {live}", (plugin, now)).fetchone()
        keys = list(batch)
        replaced = 0
        for i in range(0, len(keys), _CHUNK):
            part = keys[i : i + _CHUNK]
            (n,) = cur.execute(
                f"SELECT COALESCE(SUM(size), 0) FROM plugin_kv WHERE {live} AND key IN ({','.join('?' * len(part))})",
                (plugin, now, *part),
            ).fetchone()
            replaced += n
        check_batch(int(used), int(replaced), batch, self.quota)

    def check(self, plugin: str, batch: KvBatch, now_ms: int | None = None) -> None:
        """Judge a run's pending changes against the quota as the store is now; nothing changes.

        Raises:
            KvQuotaError: writing `batch` now would pass the quota.
        """
        now = self._now_ms() if now_ms is None else now_ms
        with self._lock:
            self._judge(self._db.cursor(), plugin, batch, now)

    def commit(self, plugin: str, batch: KvBatch, now_ms: int | None = None) -> None:
        """Write a run's changes in one transaction; the quota is checked inside it, so two runs racing for the
        last bytes never take the store past it together.

        Raises:
            KvQuotaError: the plugin's entries would pass the quota; nothing changes.
            StoreError: the disk is full or the store is read-only; nothing changes.
        """
        if not batch:
            return
        now = self._now_ms() if now_ms is None else now_ms
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                cur.execute(
                    "DELETE FROM plugin_kv WHERE plugin = ? AND expires_ms IS NOT NULL AND expires_ms <= ?",
                    (plugin, now),
                )
                self._judge(cur, plugin, batch, now)
                for key, write in batch.items():
                    if write.deleted:
                        cur.execute("DELETE FROM plugin_kv WHERE plugin = ? AND key = ?", (plugin, key))
                        continue
                    text = json.dumps(write.value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
                    size = len(key.encode()) + len(text.encode())
                    expires = None if write.ttl_ms is None else now + write.ttl_ms
                    cur.execute(
                        "INSERT INTO plugin_kv (plugin, key, value, size, expires_ms) VALUES (?, ?, ?, ?, ?) "
                        "ON CONFLICT (plugin, key) DO UPDATE SET value = excluded.value, size = excluded.size, "
                        "expires_ms = excluded.expires_ms",
                        (plugin, key, text, size, expires),
                    )
                cur.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite may have rolled back itself (a full disk)
                    cur.execute("ROLLBACK")
                raise

    def set(self, plugin: str, key: str, value: Any, ttl_ms: int | None = None, now_ms: int | None = None) -> None:
        """Store one JSON value at once (a batch of one).

        Raises:
            KvQuotaError: the plugin's entries would pass the quota; nothing changes.
        """
        self.commit(plugin, {key: KvWrite(value, ttl_ms)}, now_ms)

    def delete(self, plugin: str, key: str) -> None:
        self.commit(plugin, {key: KvWrite(deleted=True)})

    def used(self, plugin: str) -> int:
        with self._lock:
            (n,) = self._db.execute(
                "SELECT COALESCE(SUM(size), 0) FROM plugin_kv WHERE plugin = ?", (plugin,)
            ).fetchone()
        return int(n)
