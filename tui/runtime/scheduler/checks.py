"""Scheduled checks in the store: create, list, pause, remove; claiming a due one (a lease in the store, so two
processes never run it at once); finishing a run (next time, backoff, the run log with a retention limit).

An assistant task a plugin created (not the student: the app, the CLI, or the assistant's `scheduler.create`
the student approved) waits for the student's approval before its first run (issue 15 item 17): it is never
due until `approve`, which only the student's own surfaces call (`pku-harness scheduler approve`, 设置 → 定时检查).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tui.runtime.audit import now_ms
from tui.runtime.message import Message, restored, stored
from tui.runtime.scheduler.timing import Timing
from tui.runtime.store import Store

RUNS_KEPT = 200
"""Run-log rows kept per check (older ones are deleted as new ones arrive)."""
LEASE_MS = 5 * 60 * 1000
"""How long a claimed run may take before another process may take it over (a crashed runner)."""
MAX_BACKOFF_MS = 6 * 3600 * 1000
OUTCOMES = ("ok", "met", "refused", "error")
WAITING = "waiting for your approval"
"""The state of a plugin's assistant task before the student approved it."""


@dataclass
class Check:
    """A scheduled check (`kind` check: a read tool) or assistant task (`kind` prompt)."""

    id: str
    title: str
    timing: str
    kind: str
    tool: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    condition: str | None = None
    """An expression over `result` and `previous`; None means every run notifies."""
    message: str | None = None
    """A template for the notification (`${result.balanceYuan}`); None means a default text. A placeholder whose
    value is null (a field the result does not have) writes nothing."""
    prompt: str | None = None
    source: str = "user"
    enabled: bool = True
    next_ms: int = 0
    last_ms: int | None = None
    last_result: Any = None
    last_error: str | None = None
    failures: int = 0
    awaiting_approval: bool = False
    """A plugin created this assistant task: it does not run until the student approves it."""

    def to_json(self) -> dict[str, Any]:
        """What `scheduler.list` and the CLI show."""
        out: dict[str, Any] = {"id": self.id, "title": self.title, "schedule": self.timing, "kind": self.kind}
        for key in ("tool", "condition", "message", "prompt", "last_error"):
            if getattr(self, key):
                out[key if key != "last_error" else "lastError"] = getattr(self, key)
        if self.args:
            out["args"] = self.args
        out.update(enabled=self.enabled, nextMs=self.next_ms, lastMs=self.last_ms, source=self.source)
        if self.awaiting_approval:
            out["awaitingApproval"] = True
        return out


@dataclass(frozen=True)
class Run:
    """One line of the run log."""

    at_ms: int
    duration_ms: int
    outcome: str
    detail: str


_COLUMNS = (
    "id, title, cron, kind, spec, enabled, next_ms, last_ms, last_result, last_error, failures, awaiting_approval"
)


def _check(row: Any) -> Check:
    spec = json.loads(row[4])
    return Check(
        id=row[0],
        title=row[1],
        timing=row[2],
        kind=row[3],
        tool=spec.get("tool"),
        args=spec.get("args") or {},
        condition=spec.get("check"),
        message=spec.get("message"),
        prompt=spec.get("prompt"),
        source=spec.get("source", "user"),
        enabled=bool(row[5]),
        next_ms=int(row[6]),
        last_ms=row[7],
        last_result=json.loads(row[8]) if row[8] else None,
        last_error=restored(row[9]) if row[9] else None,
        failures=int(row[10]),
        awaiting_approval=bool(row[11]),
    )


def read_tool(find: Callable[[str], Any], name: str, args: Any = None) -> str:
    """The id of the tool `name` (an id or a model name), which a check may run only if it reads, and only with an
    input its declared fields accept (`args`; None is no input): a missing required field, a value out of range
    or an unknown key is refused now, when the student is there to fix it, not at every run with nobody watching.

    Raises:
        ValueError: there is no such tool, it does more than read, or `args` is not an input it accepts.
    """
    from tui.lang.steps.errors import ToolError
    from tui.lang.steps.inputs import check_input

    tool = find(name)
    if tool is None:
        raise ValueError(Message("no_such_tool", name=name))
    if tool.effect != "read":
        raise ValueError(Message("check_reads_only", tool=tool.id, effect=Message(f"effect_{tool.effect}")))
    try:
        check_input(tool.input, args)
    except ToolError as e:
        raise ValueError(Message("about", what=tool.id, detail=e.message)) from None
    return str(tool.id)


#: The names a check's condition and message may use: the tool's result, the last run's, and the time.
CHECK_NAMES = ("result", "previous", "now")


def _check_names(what: Message, text: str, template: bool) -> None:
    """Refuse a condition or message that does not compile or reads a name a check never binds (`reslt.x` would
    fail at every run, and the student would only see it in the run log)."""
    from tui.lang.expr import LangError, compile_expression, compile_text_template

    try:
        expr = compile_text_template(text) if template else compile_expression(text)
    except LangError as e:
        raise ValueError(Message("check_not_compiling", what=what, error=str(e))) from None
    unknown = [n for n in expr.free_names if n not in CHECK_NAMES]
    if unknown:
        raise ValueError(Message("check_unknown_name", what=what, name=unknown[0]))


class Checks:
    """The schedules table and its run log."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(
        self,
        title: str,
        timing: str,
        *,
        tool: str | None = None,
        args: dict[str, Any] | None = None,
        condition: str | None = None,
        message: str | None = None,
        prompt: str | None = None,
        source: str = "user",
        needs_approval: bool = False,
        now: int | None = None,
    ) -> Check:
        """Store a new check; its first run is the schedule's next time (after the student's approval, for an
        assistant task with `needs_approval`: one a plugin created).

        Raises:
            ValueError: a bad schedule, neither or both of tool and prompt, a condition or message that does not
                compile or uses a name other than result, previous and now.
        """
        parsed = Timing.parse(timing)
        if bool(tool) == bool(prompt):
            raise ValueError(Message("check_tool_or_prompt"))
        if condition:
            _check_names(Message("check_what_condition"), condition, template=False)
        if message:
            _check_names(Message("check_what_message"), message, template=True)
        title = " ".join(title.split())[:60]
        if not title:
            raise ValueError(Message("check_needs_title"))
        spec = {"tool": tool, "args": args or {}, "check": condition or None, "message": message or None,
                "prompt": prompt, "source": source}  # fmt: skip
        spec = {k: v for k, v in spec.items() if v not in (None, {})}
        at = now_ms() if now is None else now
        check_id = "s-" + uuid.uuid4().hex[:10]
        with self.store.lock:
            self.store.db.execute(
                "INSERT INTO schedules (id, title, cron, kind, spec, enabled, created_ms, updated_ms, next_ms, "
                "awaiting_approval) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)",
                (check_id, title, parsed.text, "prompt" if prompt else "check", json.dumps(spec, ensure_ascii=False),
                 at, at, parsed.next_after(at), int(bool(prompt) and needs_approval)),
            )  # fmt: skip
        found = self.get(check_id)
        assert found is not None
        return found

    def get(self, check_id: str) -> Check | None:
        with self.store.lock:
            row = self.store.db.execute(f"SELECT {_COLUMNS} FROM schedules WHERE id = ?", (check_id,)).fetchone()
        return _check(row) if row else None

    def all(self) -> list[Check]:
        with self.store.lock:
            rows = self.store.db.execute(f"SELECT {_COLUMNS} FROM schedules ORDER BY created_ms").fetchall()
        return [_check(r) for r in rows]

    def remove(self, check_id: str) -> bool:
        with self.store.lock:
            gone = self.store.db.execute("DELETE FROM schedules WHERE id = ?", (check_id,)).rowcount
            self.store.db.execute("DELETE FROM schedule_runs WHERE schedule = ?", (check_id,))
        return bool(gone)

    def set_enabled(self, check_id: str, enabled: bool, now: int | None = None) -> bool:
        """Pause or resume; a resumed check runs at its next time from now (not for every time it missed)."""
        at = now_ms() if now is None else now
        check = self.get(check_id)
        if check is None:
            return False
        nxt = Timing.parse(check.timing).next_after(at)
        with self.store.lock:
            self.store.db.execute(
                "UPDATE schedules SET enabled = ?, next_ms = CASE WHEN ? THEN ? ELSE next_ms END, failures = 0, "
                "updated_ms = ? WHERE id = ?",
                (int(enabled), int(enabled), nxt, at, check_id),
            )
        return True

    def approve(self, check_id: str, now: int | None = None) -> bool:
        """The student lets a plugin's assistant task run (from its next time on); False when there is no such
        check. Only the student's own surfaces call this — no ability or host tool does."""
        at = now_ms() if now is None else now
        with self.store.lock:
            return bool(
                self.store.db.execute(
                    "UPDATE schedules SET awaiting_approval = 0, updated_ms = ? WHERE id = ?", (at, check_id)
                ).rowcount
            )

    def due(self, now: int) -> list[Check]:
        """Enabled, approved checks whose time has come and that no runner holds."""
        with self.store.lock:
            rows = self.store.db.execute(
                f"SELECT {_COLUMNS} FROM schedules WHERE enabled = 1 AND awaiting_approval = 0 AND next_ms <= ? "
                "AND lease_until_ms <= ? ORDER BY next_ms",
                (now, now),
            ).fetchall()
        return [_check(r) for r in rows]

    def claim(self, check_id: str, now: int) -> bool:
        """Take the run: one statement, so of two runners (threads or processes) exactly one wins."""
        with self.store.lock:
            return (
                self.store.db.execute(
                    "UPDATE schedules SET lease_until_ms = ? WHERE id = ? AND enabled = 1 AND awaiting_approval = 0 "
                    "AND next_ms <= ? AND lease_until_ms <= ?",
                    (now + LEASE_MS, check_id, now, now),
                ).rowcount
                == 1
            )

    def claim_now(self, check_id: str, now: int) -> bool:
        """Take the run of a check the student runs by hand, due or not, paused or not — unless a runner holds it
        right now (it would run twice) or it waits for approval."""
        with self.store.lock:
            return (
                self.store.db.execute(
                    "UPDATE schedules SET lease_until_ms = ? WHERE id = ? AND awaiting_approval = 0 "
                    "AND lease_until_ms <= ?",
                    (now + LEASE_MS, check_id, now),
                ).rowcount
                == 1
            )

    def finish(self, check: Check, now: int, duration_ms: int, outcome: str, detail: str, result: Any = None) -> None:
        """Record a run: the log line, the next time (after now: missed times are not made up), the last result
        (for `previous`), and on an error a backoff that doubles up to six hours."""
        timing = Timing.parse(check.timing)
        failures = check.failures + 1 if outcome == "error" else 0
        nxt = timing.next_after(now)
        if failures:
            nxt = max(nxt, now + min(60_000 * 2 ** (failures - 1), MAX_BACKOFF_MS))
        keep_result = outcome in ("ok", "met")
        with self.store.lock:
            self.store.db.execute(
                "UPDATE schedules SET next_ms = ?, last_ms = ?, lease_until_ms = 0, failures = ?, last_error = ?, "
                "last_result = CASE WHEN ? THEN ? ELSE last_result END, updated_ms = ? WHERE id = ?",
                (nxt, now, failures, stored(detail) if outcome in ("error", "refused") else None, int(keep_result),
                 json.dumps(result, ensure_ascii=False) if keep_result else None, now, check.id),
            )  # fmt: skip
            self.store.db.execute(
                "INSERT INTO schedule_runs (schedule, at_ms, duration_ms, outcome, detail) VALUES (?, ?, ?, ?, ?)",
                (check.id, now, duration_ms, outcome, stored(detail, limit=2000)),
            )
            self.store.db.execute(
                "DELETE FROM schedule_runs WHERE schedule = ? AND id NOT IN "
                "(SELECT id FROM schedule_runs WHERE schedule = ? ORDER BY id DESC LIMIT ?)",
                (check.id, check.id, RUNS_KEPT),
            )

    def runs(self, check_id: str, limit: int = 50) -> list[Run]:
        """The newest runs first."""
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT at_ms, duration_ms, outcome, detail FROM schedule_runs WHERE schedule = ? "
                "ORDER BY id DESC LIMIT ?",
                (check_id, limit),
            ).fetchall()
        return [Run(at, ms, outcome, restored(detail)) for at, ms, outcome, detail in rows]
