"""Expression engine benchmarks, as ratios against native Python doing the same work in the same run.

Run: `python tests/benchmarks/bench_expr.py` (or through pytest: `pytest tests/benchmarks -s --override-ini
addopts=`). Not part of CI: timings vary by machine; the ratios are what the issue asks for. Each ratio is the
median of rounds in which the native code and the engine run one after the other, so both see the same load.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from tui.lang.expr import LimitError, Run, compile_expression, compile_template, from_json, to_json
from tui.lang.expr.stdlib.jsondata import parse_json
from tui.lang.expr.values import num_to_str
from tui.lang.steps.interpreter import _result
from tui.lang.steps.scope import helpers_of, make_functions

NOW = "2026-11-30T09:00:00+08:00"
W1 = "rows.filter(r => r.cap > 100 && r.c1 == '').map(r => r.room)"


def make_rows(n: int = 2000, seed: int = 7) -> list[dict[str, Any]]:
    """Classroom-like rows: a room, a capacity and twelve period columns (plain JSON: ints stay ints)."""
    rnd = random.Random(seed)
    rows = []
    for i in range(n):
        row: dict[str, Any] = {"room": f"{100 + i}", "cap": rnd.randint(20, 300)}
        for p in range(1, 13):
            row[f"c{p}"] = rnd.choice(["", "", "占用"])
        rows.append(row)
    return rows


def paired(native: Callable[[], Any], ours: Callable[[], Any], rounds: int = 9, number: int = 5) -> dict[str, float]:
    """Per-call times of both (medians) and the median of the per-round ratios."""
    tn, to, ratios = [], [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(number):
            native()
        t1 = time.perf_counter()
        for _ in range(number):
            ours()
        t2 = time.perf_counter()
        tn.append((t1 - t0) / number)
        to.append((t2 - t1) / number)
        ratios.append((t2 - t1) / (t1 - t0))
    med = statistics.median
    return {"native_us": med(tn) * 1e6, "engine_us": med(to) * 1e6, "ratio": med(ratios)}


def bench_w1() -> dict[str, float]:
    """The classrooms filter-and-map against a list comprehension."""
    plain = make_rows()
    rows = from_json(plain)
    expr = compile_expression(W1)
    assert expr.evaluate({"rows": rows, "now": NOW}) == [r["room"] for r in plain if r["cap"] > 100 and r["c1"] == ""]
    return paired(
        lambda: [r["room"] for r in plain if r["cap"] > 100 and r["c1"] == ""],
        lambda: expr.evaluate({"rows": rows, "now": NOW}, Run(NOW)),
    )


def bench_template() -> dict[str, float]:
    """A text template (a number and a text in it) rendered once per row, against an f-string."""
    plain = make_rows()
    rows = from_json(plain)
    template = compile_template("${item.room} 教室：${item.cap} 座")
    want = [f"{r['room']} 教室：{r['cap']} 座" for r in plain]
    run = Run(NOW, limit=10**9)
    assert [template.evaluate({"item": r, "now": NOW}, run) for r in rows] == want
    return paired(
        lambda: [f"{r['room']} 教室：{r['cap']} 座" for r in plain],
        lambda: [template.evaluate({"item": r, "now": NOW}, run) for r in rows],
    )


def bench_functions() -> dict[str, float]:
    """A plugin `functions:` helper called in a filter, against the same code written inline (both as ratios to
    the list comprehension); the issue asks for the helper within 1.5x of inline. Two forms: the arrow only
    passes its item on (`r => free(r)`), and the helper is part of a bigger body. The helper form is compiled
    as a tool's steps are, told the plugin's functions (so its calls may run the body in place)."""
    plain = make_rows()
    rows = from_json(plain)
    run = Run(NOW, limit=10**9)
    sources = {"free(r)": "r.cap > 100 && r.c1 == ''"}
    fns = make_functions(sources, {"now": NOW}, run)
    ctx = {"rows": rows, "now": NOW, **fns}
    out = {}
    for name, helper_src, inline_src, native in [
        (
            "pass",
            "rows.filter(r => free(r))",
            "rows.filter(r => r.cap > 100 && r.c1 == '')",
            lambda: [r for r in plain if r["cap"] > 100 and r["c1"] == ""],
        ),
        (
            "body",
            "rows.filter(r => free(r) && r.c2 == '')",
            "rows.filter(r => r.cap > 100 && r.c1 == '' && r.c2 == '')",
            lambda: [r for r in plain if r["cap"] > 100 and r["c1"] == "" and r["c2"] == ""],
        ),
    ]:
        helper, inline = compile_expression(helper_src, helpers_of(sources)), compile_expression(inline_src)
        assert helper.evaluate(ctx, run) == inline.evaluate(ctx, run)
        a = paired(native, lambda h=helper: h.evaluate(ctx, run))  # type: ignore[misc]
        b = paired(native, lambda i=inline: i.evaluate(ctx, run))  # type: ignore[misc]
        out.update({f"{name}_helper": a["ratio"], f"{name}_inline": b["ratio"], name: a["ratio"] / b["ratio"]})
    return out


NUMBERS = [float(i) for i in range(500)] + [i / 8 for i in range(500)] + [0.1 + 0.2, 1e21, 1e-7, 123.456, -0.0]


def bench_numbers() -> dict[str, float]:
    """Number to text: whole numbers against str(int), fractions against repr(float)."""
    whole = [float(i * 37) for i in range(1000)]
    ints = [int(x) for x in whole]
    fractions = [i / 8 + 0.001 for i in range(1000)]
    a = paired(lambda: [str(x) for x in ints], lambda: [num_to_str(x) for x in whole], number=50)
    b = paired(lambda: [repr(x) for x in fractions], lambda: [num_to_str(x) for x in fractions], number=50)
    return {"whole": a["ratio"], "fraction": b["ratio"]}


def bench_format_date() -> dict[str, float]:
    """formatDate with a common format, against strftime on the same (parsed) times."""
    expr = compile_expression("ds.map(d => formatDate(d, 'YYYY-MM-DD HH:mm dddd'))")
    base = datetime(2026, 11, 30, 8, 0, tzinfo=timezone(timedelta(hours=8)))
    times = [base + timedelta(minutes=97 * i) for i in range(500)]
    ds = [t.isoformat() for t in times]
    zh = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")
    ctx = {"ds": ds, "now": NOW}
    run = Run(NOW, limit=10**9)
    assert expr.evaluate(ctx, run) == [t.strftime("%Y-%m-%d %H:%M ") + zh[t.weekday()] for t in times]

    def native() -> list[str]:
        return [f"{t:%Y-%m-%d %H:%M} {zh[t.weekday()]}" for t in map(datetime.fromisoformat, ds)]

    return paired(native, lambda: expr.evaluate(ctx, run))


def bench_json() -> dict[str, float]:
    """json() on a 300 KB response against json.loads."""
    text = json.dumps({"success": True, "rows": make_rows(2000)}, ensure_ascii=False)
    return paired(lambda: json.loads(text), lambda: parse_json(text))


def bench_result() -> dict[str, float]:
    """A run's result leaving the interpreter (made plain JSON, its size checked) against json.dumps."""
    value = from_json({"buildings": [{"building": "二教", "rooms": make_rows(2000)}]})
    plain = to_json(value)
    return paired(lambda: json.dumps(plain, ensure_ascii=False, separators=(",", ":")), lambda: _result(value))


RUNAWAY = [
    "range(100).map(i => range(100).map(j => range(100).map(k => i)))",
    "range(99999).map(x => x + x + x + x + x + x + x + x + x + x)",
    "range(50).reduce((s, i) => s + s, 'xxxxxxxxxxxxxxxx')",
    "range(1000).map(i => range(1000).filter(j => j % 7 == i % 7).length)",
    "range(20000).map(i => 'abcdefghij'.repeat(10)).join('').length",
    "matchAll('a'.repeat(99999), 'a').length",
]


def bench_budget() -> dict[str, float]:
    """CPU time until the 100,000-evaluation budget stops runaway expressions (p50 and max over cases)."""
    times = []
    for src in RUNAWAY:
        expr = compile_expression(src)
        t0 = time.process_time()
        try:
            expr.evaluate({}, Run(NOW))
            raise AssertionError(f"budget did not stop {src}")
        except LimitError:
            pass
        times.append(time.process_time() - t0)
    return {"p50_ms": statistics.median(times) * 1e3, "max_ms": max(times) * 1e3}


def test_report() -> None:
    """Print the figures (pytest entry point)."""
    main()


def main() -> None:
    print(f"python {sys.version.split()[0]}")
    w1 = bench_w1()
    print(
        f"W1 over 2,000 rows: native {w1['native_us']:.0f} µs, engine {w1['engine_us']:.0f} µs, "
        f"ratio {w1['ratio']:.1f}x (target ≤ 2.5x)"
    )
    t = bench_template()
    print(f"template per row vs f-string: ratio {t['ratio']:.1f}x (target ≤ 5x)")
    f = bench_functions()
    for form, what in (("pass", "r => free(r)"), ("body", "r => free(r) && r.c2 == ''")):
        print(
            f"functions: {what}: helper {f[form + '_helper']:.1f}x native, inline {f[form + '_inline']:.1f}x "
            f"native, helper/inline {f[form]:.2f} (target ≤ 1.5)"
        )
    n = bench_numbers()
    print(f"number to text: whole {n['whole']:.1f}x str(int), fractions {n['fraction']:.1f}x repr(float)")
    print(f"formatDate vs strftime: ratio {bench_format_date()['ratio']:.1f}x")
    print(f"json() vs json.loads: ratio {bench_json()['ratio']:.2f}x")
    print(f"result (to_json + 1 MB check) vs json.dumps: ratio {bench_result()['ratio']:.1f}x")
    budget = bench_budget()
    print(f"budget exhaustion (CPU): p50 {budget['p50_ms']:.0f} ms, max {budget['max_ms']:.0f} ms (target < 50 ms)")


if __name__ == "__main__":
    main()
