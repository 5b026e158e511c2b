"""Data sources for the dashboard and scheduled checks: read tools behind a cache honouring ttl/ttlMs.

A fresh cached value is returned without running the tool; a stale one is refetched; when the refetch fails,
the last good value is returned marked stale (with the error), so a widget keeps showing something true.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tui.runtime.gate import Gate
from tui.runtime.permissions import Actor
from tui.runtime.store import Store

#: Freshness when a data source declares no ttl.
DEFAULT_TTL_MS = 5 * 60_000


@dataclass
class SourceInfo:
    """One data source, as `dashboard.sources` lists it."""

    id: str
    """`<plugin>.<source>`."""
    plugin: str
    name: str
    title: str
    tool: str
    args: dict[str, Any]
    ttl_ms: int


@dataclass
class SourceValue:
    """What a widget gets."""

    value: Any
    fetched_ms: int
    stale: bool = False
    """The value is the last good one; the refresh failed (see `error`)."""
    error: str = ""


class SourceError(RuntimeError):
    """A data source could not be read and nothing was ever cached: the message is the technical detail, `cause`
    (see `tui.lang.steps.errors.Cause`) and `service` say what would help."""

    def __init__(self, message: str, cause: str | None = None, service: str | None = None, summary: str = "") -> None:
        super().__init__(message)
        self.cause = cause or "internal"
        self.service = service
        self.summary = summary
        """The plugin author's own sentence for the student, if any (`CallOutcome.summary`)."""


class DataSources:
    """Reads data sources through the gate and the cache."""

    def __init__(self, gate: Gate, store: Store) -> None:
        self.gate = gate
        self.store = store

    def list(self, plugin_id: str | None = None) -> list[SourceInfo]:
        """Every data source of every installed plugin (of one plugin: `plugin_id`, so that reading a widget's
        source does not build every installed plugin's document)."""
        out = []
        plugins = self.gate.registry.plugins
        ids = sorted(plugins) if plugin_id is None else [plugin_id] if plugin_id in plugins else []
        for pid in ids:
            inst = plugins[pid]
            for name, ds in inst.plugin.manifest.dataSources.items():
                if ds.tool is None:
                    continue  # server functions are not open yet
                ttl = ds.ttl if ds.ttl is not None else ds.ttlMs if ds.ttlMs is not None else DEFAULT_TTL_MS
                title = (
                    ds.title or inst.plugin.tools[ds.tool].definition.title if ds.tool in inst.plugin.tools else name
                )
                out.append(SourceInfo(f"{pid}.{name}", pid, name, title, ds.tool, ds.args, ttl))
        return out

    def find(self, tool_id: str, args: dict[str, Any]) -> SourceInfo | None:
        """The data source that runs `tool_id` with exactly `args`, if any (a check can share its cache)."""
        mine = self.list(tool_id.partition(".")[0])
        return next((s for s in mine if f"{s.plugin}.{s.tool}" == tool_id and s.args == args), None)

    def _cached(self, plugin: str, name: str) -> tuple[Any, int] | None:
        with self.store.lock:
            row = self.store.db.execute(
                "SELECT value, fetched_ms FROM data_cache WHERE plugin = ? AND source = ?", (plugin, name)
            ).fetchone()
        return (json.loads(row[0]), int(row[1])) if row else None

    async def read(
        self,
        source_id: str,
        now_ms: int | None = None,
        force: bool = False,
        now: str | None = None,
        actor: Actor = "user",
    ) -> SourceValue:
        """The source's value: cached when fresh, else refetched, else the last good value marked stale.

        Raises:
            KeyError: no such data source.
            SourceError: the fetch failed and nothing was ever cached (the message says why, the cause what helps).
        """
        info = next((s for s in self.list(source_id.partition(".")[0]) if s.id == source_id), None)
        if info is None:
            raise KeyError(f"no data source {source_id!r}")
        at_ms = int(time.time() * 1000) if now_ms is None else now_ms
        cached = self._cached(info.plugin, info.name)
        if cached is not None and not force and at_ms - cached[1] < info.ttl_ms:
            return SourceValue(cached[0], cached[1])
        outcome = await self.gate.call(f"{info.plugin}.{info.tool}", info.args, actor=actor, now=now)
        if outcome.status == "ok" and not outcome.stale:
            with self.store.lock:
                self.store.db.execute(
                    "INSERT INTO data_cache (plugin, source, value, fetched_ms) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (plugin, source) DO UPDATE SET value = excluded.value, "
                    "fetched_ms = excluded.fetched_ms",
                    (info.plugin, info.name, json.dumps(outcome.result, ensure_ascii=False), at_ms),
                )
            return SourceValue(outcome.result, at_ms)
        if outcome.status == "ok":  # the tool's own cache answered after an error: its entry's age is the data's
            since = at_ms
            if outcome.stale_since_ms is not None:
                # the tool's clock is `now` when one is pinned (the demo's day): keep the age, on this clock
                clock = int(datetime.fromisoformat(now).timestamp() * 1000) if now else at_ms
                since = at_ms - max(0, clock - outcome.stale_since_ms)
            return SourceValue(outcome.result, since, stale=True, error="the plugin answered with stored data")
        if cached is not None:
            return SourceValue(cached[0], cached[1], stale=True, error=outcome.message)
        raise SourceError(outcome.message, outcome.cause, outcome.service, outcome.summary)
