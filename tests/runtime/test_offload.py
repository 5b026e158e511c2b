"""Plugin computation on worker threads (threats.md T2): a slow plugin never holds the loop that awaits its run.

A slow piece of computation is an expression whose evaluation takes long (`Interpreter.eval` held for a while),
which is what a heavy plugin does to the thread it runs on.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tui.lang.documents.source import MemorySource
from tui.lang.host import Host
from tui.lang.steps.interpreter import Interpreter
from tui.runtime.audit import Audit
from tui.runtime.gate import CallOutcome, Gate
from tui.runtime.offload import Offload
from tui.runtime.permissions import Grants
from tui.runtime.registry import InstalledPlugin, Registry
from tui.runtime.store import Store

from ..lang.steps.helpers import NOW, CountingHost, make_plugin, tool

HOLD_S = 0.6
"""How long a slow evaluation holds its thread: far above any gap a free loop shows."""

TOOLS = {
    "slow": tool("  - value: \"'slow'\"\n"),
    "quick": tool("  - value: \"'quick'\"\n"),
    "many": tool(
        "  - let: xs\n    value: '[1, 2, 3, 4, 5, 6, 7, 8]'\n  - each: xs\n    concurrency: 4\n    value: 'item * 2'\n"
    ),
    "broken": tool("  - value: \"1 / 'a'.b.c\"\n"),
}


@pytest.fixture
def offload() -> Iterator[Offload]:
    pool = Offload()
    yield pool
    pool.close()


@pytest.fixture
def slow_evaluations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Evaluations of `'slow'` take HOLD_S; returns the threads every evaluation ran on."""
    threads: list[int] = []
    real = Interpreter.eval

    def eval_(self: Interpreter, source: str, scope: Any, state: Any) -> Any:
        threads.append(threading.get_ident())
        if "slow" in source:
            time.sleep(HOLD_S)
        return real(self, source, scope, state)

    monkeypatch.setattr(Interpreter, "eval", eval_)
    return threads


def make_gate(tmp_path: Path, offload: Offload | None) -> Gate:
    registry = Registry()
    registry.add(InstalledPlugin(make_plugin(TOOLS), True, MemorySource({})))

    @asynccontextmanager
    async def hosts(_: InstalledPlugin) -> AsyncIterator[Host]:
        yield CountingHost()

    store = Store(tmp_path / "db.sqlite3")
    return Gate(registry, Grants(store), Audit(store), hosts, offload=offload)


async def longest_pause_during(call: Any) -> tuple[float, CallOutcome]:
    """The longest gap between 10 ms ticks of this loop while `call` runs, and its outcome."""
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.monotonic()
        while not done.is_set():
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0.02)
    outcome = await call
    done.set()
    await ticking
    return max(gaps), outcome


async def test_a_slow_evaluation_leaves_the_callers_loop_free(
    tmp_path: Path, offload: Offload, slow_evaluations: list[int]
) -> None:
    pause, outcome = await longest_pause_during(make_gate(tmp_path, offload).call("t.slow", {}, now=NOW))
    assert outcome.status == "ok" and outcome.result == "slow"
    assert pause < 0.1
    assert threading.get_ident() not in slow_evaluations  # every piece ran on a worker


async def test_without_an_offload_the_same_run_holds_the_loop(tmp_path: Path, slow_evaluations: list[int]) -> None:
    """The control: the measurement above can fail (evaluating on the caller's loop stops its ticks)."""
    pause, outcome = await longest_pause_during(make_gate(tmp_path, None).call("t.slow", {}, now=NOW))
    assert outcome.status == "ok" and pause >= HOLD_S * 0.9


async def test_a_slow_run_does_not_hold_another_run(
    tmp_path: Path, offload: Offload, slow_evaluations: list[int]
) -> None:
    gate = make_gate(tmp_path, offload)
    slow = asyncio.create_task(gate.call("t.slow", {}, now=NOW))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    quick = await gate.call("t.quick", {}, now=NOW)
    assert quick.result == "quick" and time.monotonic() - started < HOLD_S / 2
    assert not slow.done()
    assert (await slow).result == "slow"


async def test_the_pieces_of_one_run_never_overlap(tmp_path: Path, offload: Offload, monkeypatch: Any) -> None:
    """`each` branches share the run's budget: they take turns, even with concurrency 4 on a pool of 8."""
    busy, most = [0], [0]
    lock = threading.Lock()
    real = Interpreter.eval

    def eval_(self: Interpreter, source: str, scope: Any, state: Any) -> Any:
        with lock:
            busy[0] += 1
            most[0] = max(most[0], busy[0])
        time.sleep(0.01)
        try:
            return real(self, source, scope, state)
        finally:
            with lock:
                busy[0] -= 1

    monkeypatch.setattr(Interpreter, "eval", eval_)
    outcome = await make_gate(tmp_path, offload).call("t.many", {}, now=NOW)
    assert outcome.result == [2, 4, 6, 8, 10, 12, 14, 16]
    assert most[0] == 1


async def test_an_error_on_a_worker_names_its_place_as_on_the_loop(tmp_path: Path, offload: Offload) -> None:
    here = await make_gate(tmp_path, None).call("t.broken", {}, now=NOW)
    there = await make_gate(tmp_path / "other", offload).call("t.broken", {}, now=NOW)
    assert there.status == here.status == "error"
    assert there.message == here.message and "tools/broken.yaml:" in there.message
