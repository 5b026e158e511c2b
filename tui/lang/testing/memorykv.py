"""An in-memory KV store with the same quota rules as the app's SQLite store (for tests and `plugin test`)."""

from __future__ import annotations

from typing import Any

from tui.lang.host import KV_QUOTA_BYTES, KvQuotaError, entry_size


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

    def set(self, key: str, value: Any, ttl_ms: int | None, now_ms: float) -> None:
        old = self.values.get(key)
        new_total = self.used() - (entry_size(key, old[0]) if old else 0) + entry_size(key, value)
        if new_total > self.quota:
            limit = self.quota // 1024
            raise KvQuotaError(f"the plugin's store would hold {new_total:,} bytes; the limit is {limit} KB")
        self.values[key] = (value, None if ttl_ms is None else now_ms + ttl_ms)

    def delete(self, key: str) -> None:
        self.values.pop(key, None)

    def snapshot(self) -> dict[str, Any]:
        return {k: v for k, (v, _) in self.values.items()}
