"""Expression engine benchmarks, as ratios against native Python doing the same work in the same run.

Run: `python tests/benchmarks/bench_expr.py` (or through pytest: `pytest tests/benchmarks -s --override-ini
addopts=`). Not part of CI: timings vary by machine; the ratios are what the issue asks for.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from tui.lang.expr import LimitError, Run, compile_expression, from_json

W1 = "rows.filter(r => r.cap > 100 && r.c1 == '').map(r => r.room)"


def make_rows(n: int = 2000, seed: int = 7) -> list[dict[str, Any]]:
    """Classroom-like rows: a room, a capacity and twelve period columns."""
    rnd = random.Random(seed)
    rows = []
    for i in range(n):
        row: dict[str, Any] = {"room": f"{100 + i}", "cap": rnd.randint(20, 300)}
        for p in range(1, 13):
            row[f"c{p}"] = rnd.choice(["", "", "占用"])
        rows.append(row)
    return from_json(rows)  # type: ignore[no-any-return]


def best_of(fn: Callable[[], Any], repeat: int = 7, number: int = 20) -> float:
    """Median over `repeat` rounds of the mean time of `number` calls (seconds per call)."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times)


def bench_w1() -> dict[str, float]:
    rows = make_rows()
    expr = compile_expression(W1)
    native = best_of(lambda: [r["room"] for r in rows if r["cap"] > 100 and r["c1"] == ""])
    ours = best_of(lambda: expr.evaluate({"rows": rows, "now": "2026-11-30T09:00:00+08:00"}))
    assert expr.evaluate({"rows": rows, "now": ""}) == [r["room"] for r in rows if r["cap"] > 100 and r["c1"] == ""]
    return {"native_us": native * 1e6, "engine_us": ours * 1e6, "ratio": ours / native}


def bench_budget() -> dict[str, float]:
    """Time until the 100,000-evaluation budget stops runaway expressions (p50 and max over cases)."""
    cases = [
        "range(100).map(i => range(100).map(j => range(100).map(k => i)))",
        "range(99999).map(x => x + x + x + x + x + x + x + x + x + x)",
        "range(50).reduce((s, i) => s + s, 'xxxxxxxxxxxxxxxx')",
        "range(1000).map(i => range(1000).filter(j => j % 7 == i % 7).length)",
        "range(20000).map(i => 'abcdefghij'.repeat(10)).join('').length",
    ]
    times = []
    for src in cases:
        expr = compile_expression(src)
        t0 = time.perf_counter()
        try:
            expr.evaluate({}, Run("2026-11-30T09:00:00+08:00"))
            raise AssertionError(f"budget did not stop {src}")
        except LimitError:
            pass
        times.append(time.perf_counter() - t0)
    return {"p50_ms": statistics.median(times) * 1e3, "max_ms": max(times) * 1e3}


def test_report() -> None:
    """Print the figures (pytest entry point)."""
    main()


def main() -> None:
    w1 = bench_w1()
    budget = bench_budget()
    print(f"python {sys.version.split()[0]}")
    print(
        f"W1 over 2,000 rows: native {w1['native_us']:.0f} µs, engine {w1['engine_us']:.0f} µs, "
        f"ratio {w1['ratio']:.1f}x (target ≤ 20x, aim 10x)"
    )
    print(f"budget exhaustion: p50 {budget['p50_ms']:.0f} ms, max {budget['max_ms']:.0f} ms (target < 1 s)")


if __name__ == "__main__":
    main()
