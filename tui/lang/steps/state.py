"""The state one tool run shares with every step and called tool (its limits: tui.lang.steps.limits)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from tui.lang.expr import Run
from tui.lang.host import KvWrite
from tui.lang.steps.errors import ToolError
from tui.lang.steps.limits import (  # re-exported: the run's limits are read from here too
    DEADLINE_SECONDS,
    MAX_CALL_DEPTH,
    MAX_CONCURRENT_REQUESTS,
    MAX_EACH_ITEMS,
    MAX_KV_KEY,
    MAX_PAGES,
    MAX_REQUESTS,
    MAX_RESPONSE_BYTES,
    MAX_RESULT_BYTES,
    MAX_STALE_MS,
    MAX_STEPS,
)

__all__ = [
    "DEADLINE_SECONDS",
    "MAX_CALL_DEPTH",
    "MAX_CONCURRENT_REQUESTS",
    "MAX_EACH_ITEMS",
    "MAX_KV_KEY",
    "MAX_PAGES",
    "MAX_REQUESTS",
    "MAX_RESPONSE_BYTES",
    "MAX_RESULT_BYTES",
    "MAX_STALE_MS",
    "MAX_STEPS",
    "RunState",
]


@dataclass
class RunState:
    """Budgets and flags of one run; nested steps and called tools share it."""

    expr: Run
    """The expression budget, `now` and the locale."""
    deadline: float
    """time.monotonic() value after which the run fails."""
    steps: int = 0
    requests: int = 0
    semaphore: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(MAX_CONCURRENT_REQUESTS))
    in_flight: int = 0
    peak_in_flight: int = 0
    """Most requests in flight at once (tests assert it never passes 4)."""
    stale: bool = False
    """A cache step answered with a stored value after an error (the host may say so)."""
    stale_since_ms: int | None = None
    """When stale: the time the oldest stored value that answered was fetched (epoch ms)."""
    truncated: bool = False
    """Paging stopped at its page limit."""
    call_stack: list[str] = field(default_factory=list)
    effect: str = "read"
    """The effect of the tool the run started with (requests carry it to the host)."""
    kv: dict[str, KvWrite] = field(default_factory=dict)
    """The run's KV changes (its called tools' and cache entries' too), written together when the run succeeds;
    the run's own reads see them first."""
    kv_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Makes "check the changes against the quota, then keep the new one" one step for concurrent `each` items."""
    computing: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One piece of the run's computation at a time when it is offloaded to threads (its budgets are not shared
    between threads at once)."""

    @classmethod
    def start(cls, now: str, locale: str = "zh", deadline_s: float = DEADLINE_SECONDS) -> RunState:
        """A fresh run beginning now."""
        deadline = time.monotonic() + deadline_s
        return cls(Run(now, locale=locale, deadline=deadline), deadline)  # builtins check it in their loops

    def step(self) -> None:
        """Count one step; fail past the limit or the deadline."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise ToolError(
                "limit", f"step limit {MAX_STEPS} reached (steps inside each, if, try and called tools count)"
            )
        self.check_deadline()

    def check_deadline(self) -> None:
        """Fail once the run's time is up."""
        if time.monotonic() > self.deadline:
            raise ToolError("timeout", f"the run took longer than {DEADLINE_SECONDS:.0f} s")

    def remaining(self) -> float:
        """Seconds left before the deadline."""
        return max(0.0, self.deadline - time.monotonic())

    def count_request(self) -> None:
        """Count one request before it is sent; the 61st fails without being sent."""
        self.requests += 1
        if self.requests > MAX_REQUESTS:
            raise ToolError("limit", f"request limit {MAX_REQUESTS} reached")
