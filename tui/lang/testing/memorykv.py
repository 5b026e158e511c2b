"""An in-memory KV store with the same quota rules as the app's SQLite store (for tests and `plugin test`)."""

from __future__ import annotations

from typing import Any

from tui.lang.host import KV_QUOTA_BYTES, KvBatch, KvWrite, check_batch, entry_size


class MemoryKv:
    """Keys to JSON values with optional expiry, `now_ms` supplied by the caller (recorded time)."""

    def __init__(self, initial: dict[str, Any] | None = None, quota: int = KV_QUOTA_BYTES) -> None:
        self.values: dict[str, tuple[Any, float | None]] = {k: (v, None) for k, v in (initial or {}).items()}
        self.quota = quota

    def used(self) -> int:
        return sum(entry_size(k, v) for k, (v, _) in self.values.items())

    def get(self, key: str, now_ms: float) -> Any:
        item = self.values.get(key)
        if item is None:
            return None
        value, expires = item
        if expires is not None and now_ms >= expires:
            del self.values[key]
            return None
        return value

    def _expire(self, now_ms: float) -> None:
        for key in [k for k, (_, e) in self.values.items() if e is not None and now_ms >= e]:
            del self.values[key]

    def check(self, batch: KvBatch, now_ms: float) -> None:
        """Judge a batch against the quota (nothing changes but expired entries going).

        Raises:
            KvQuotaError: the batch would take the store past its quota.
        """
        self._expire(now_ms)
        replaced = sum(entry_size(k, self.values[k][0]) for k in batch if k in self.values)
        check_batch(self.used(), replaced, batch, self.quota)

    def commit(self, batch: KvBatch, now_ms: float) -> None:
        """Apply a batch, all or nothing.

        Raises:
            KvQuotaError: the batch would take the store past its quota; nothing changes.
        """
        self.check(batch, now_ms)
        for key, write in batch.items():
            if write.deleted:
                self.values.pop(key, None)
            else:
                self.values[key] = (write.value, None if write.ttl_ms is None else now_ms + write.ttl_ms)

    def set(self, key: str, value: Any, ttl_ms: int | None, now_ms: float) -> None:
        """Store one value at once (a batch of one)."""
        self.commit({key: KvWrite(value, ttl_ms)}, now_ms)

    def delete(self, key: str) -> None:
        self.values.pop(key, None)

    def snapshot(self) -> dict[str, Any]:
        return {k: v for k, (v, _) in self.values.items()}
