"""The audit log: one row per call — time, tool, actor, effect, mode, decision, duration, outcome; and the dev
origins in force, when an author mapped hosts to a local server."""

from __future__ import annotations

import time
from dataclasses import dataclass

from tui.runtime.store import Store


@dataclass(frozen=True, slots=True)
class AuditRow:
    """One logged call."""

    at_ms: int
    tool: str
    actor: str
    effect: str
    mode: str
    decision: str
    """run, ask-approved, ask-declined or refuse."""
    duration_ms: int
    outcome: str
    """ok, error or refused."""
    detail: str
    """The error or refusal reason (scrubbed of secrets), or ''."""
    dev: str = ""
    """The dev origins in force when the call was made (`host=origin, …`), or '': a call a developer's mapping
    may have answered from a server on their machine, never mistaken later for a real one."""


class Audit:
    """Writes and reads the audit table."""

    def __init__(self, store: Store, dev: str = "") -> None:
        self.store = store
        self.dev = dev
        """Marks every row this log writes: the dev origins of the run (dev_origins.py), or ''."""

    def record(self, row: AuditRow) -> None:
        with self.store.lock:
            self.store.db.execute(
                "INSERT INTO audit (at_ms, tool, actor, effect, mode, decision, duration_ms, outcome, detail, dev) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.at_ms,
                    row.tool,
                    row.actor,
                    row.effect,
                    row.mode,
                    row.decision,
                    row.duration_ms,
                    row.outcome,
                    row.detail[:2000],
                    row.dev or self.dev,
                ),
            )

    def recent(self, limit: int = 50) -> list[AuditRow]:
        """The newest rows first."""
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT at_ms, tool, actor, effect, mode, decision, duration_ms, outcome, detail, dev FROM audit "
                "ORDER BY id DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [AuditRow(*r) for r in rows]


def now_ms() -> int:
    """Wall-clock milliseconds."""
    return int(time.time() * 1000)
