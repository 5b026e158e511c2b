"""The plugins' KV store in SQLite: atomic per write, the 256 KB quota checked inside the transaction."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tui.lang.host import KV_QUOTA_BYTES, KvQuotaError, entry_size
from tui.runtime.store import Store


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

    def set(self, plugin: str, key: str, value: Any, ttl_ms: int | None = None, now_ms: int | None = None) -> None:
        """Store a JSON value. The quota is checked in the same transaction as the write.

        Raises:
            KvQuotaError: the plugin's entries would pass the quota; nothing changes.
        """
        now = self._now_ms() if now_ms is None else now_ms
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        size = entry_size(key, value)
        expires = None if ttl_ms is None else now + ttl_ms
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                cur.execute(
                    "DELETE FROM plugin_kv WHERE plugin = ? AND expires_ms IS NOT NULL AND expires_ms <= ?",
                    (plugin, now),
                )
                (used,) = cur.execute(
                    "SELECT COALESCE(SUM(size), 0) FROM plugin_kv WHERE plugin = ? AND key != ?", (plugin, key)
                ).fetchone()
                if used + size > self.quota:
                    raise KvQuotaError(
                        f"the plugin's store would hold {used + size:,} bytes; the limit is {self.quota // 1024} KB"
                    )
                cur.execute(
                    "INSERT INTO plugin_kv (plugin, key, value, size, expires_ms) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (plugin, key) DO UPDATE SET value = excluded.value, size = excluded.size, "
                    "expires_ms = excluded.expires_ms",
                    (plugin, key, text, size, expires),
                )
                cur.execute("COMMIT")
            except BaseException:
                cur.execute("ROLLBACK")
                raise

    def delete(self, plugin: str, key: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM plugin_kv WHERE plugin = ? AND key = ?", (plugin, key))

    def used(self, plugin: str) -> int:
        with self._lock:
            (n,) = self._db.execute(
                "SELECT COALESCE(SUM(size), 0) FROM plugin_kv WHERE plugin = ?", (plugin,)
            ).fetchone()
        return int(n)
