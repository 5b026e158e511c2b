"""Plugin `functions:` inlined at their call sites (tui/lang/expr/inlining.py, issue 20).

Every expression here is evaluated twice, each time with freshly made functions and a fresh run: compiled
with the plugin's helpers (calls may run the body in place) and without (every call is a call). The value,
or the error (message, position, source), and the evaluations charged must be the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from tui.lang.expr import Closure, LangError, Run, compile_expression, compile_template, engine, from_json
from tui.lang.steps.interpreter import Interpreter
from tui.lang.steps.scope import helpers_of, make_functions

from .helpers import NOW, CountingHost, make_plugin, tool

SOURCES = {
    "free(r)": "r.cap > 100 && r.c1 == ''",
    "label(span)": "span[0] == span[1] ? str(span[0]) : span[0] + '-' + span[1]",
    "spans(ps)": "ps.map(p => [p, p])",
    "both(ps)": "spans(ps).map(s => label(s))",
    "pair(a, b)": "[a, b]",
    "big(x)": "[" + "x + 1, " * 40 + "]",
    "limit(x)": "x > K ? K : x",
    "unit(x)": "x + settings.unit",
    "deep(o)": "o?.a?.b ?? 'none'",
    "fail(x)": "x.y.z",
    "stamp()": "now",
    "shadow(K)": "K + 1",
    "adder(x)": "pair(y => x + y + K, 0)",  # an arrow that outlives the call
    "reader(x)": "pair(y => y.z + x, 0)",
    "temps(t0, a0)": "[t0, a0].map(v0 => v0 + t0 + K)",
    "refuse(x)": "error('bad ' + x)",
    "loopy(xs)": "xs.filter(x => x > K).map(x => x * 2)",
    "late(x)": "x + notBound",
    "twice(x)": "limit(x) + limit(x + 1)",
}
NAMES = {"K": 2.0, "settings": {"unit": "座"}}
ROWS = [{"room": str(100 + i), "cap": float(80 + 7 * i), "c1": "" if i % 3 else "占用", "c2": ""} for i in range(30)]


def evaluate(src: str, inline: bool, limit: int = 100_000, template: bool = False, **names: Any) -> tuple[Any, int]:
    """(value or error facts, evaluations charged) of `src` with freshly made functions; `limit` evaluations
    are left for it after the functions are made."""
    run = Run(NOW)
    scope = {"now": NOW, **make_functions(SOURCES, {**from_json(NAMES), "now": NOW}, run), **from_json(names)}
    run.limit = run.stop = run.used + limit
    helpers = helpers_of(SOURCES) if inline else None
    expr = compile_template(src, helpers) if template else compile_expression(src, helpers)
    try:
        value: Any = expr.evaluate(scope, run)
    except LangError as e:
        value = (type(e).__name__, e.msg, e.pos, e.source, str(e))
    return value, run.used


def same_both_ways(src: str, **kw: Any) -> Any:
    inlined, called = evaluate(src, True, **kw), evaluate(src, False, **kw)
    assert inlined == called
    return inlined[0]


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("rows.filter(r => free(r) && r.c2 == '').map(r => r.room)", None),
        ("rows.filter(r => free(r)).length", None),
        ("both([3, 5])", ["3", "5"]),
        ("[[1, 2], [4, 4]].map(s => [label(s)])", [["1-2"], ["4"]]),
        ("range(100).map(x => [big(x)]).length", 100.0),
        ("[1, 5].map(x => [limit(x)])", [[1.0], [2.0]]),
        ("limit(1) + limit(9) + twice(0)", 4.0),
        ("unit(3)", "3座"),
        ("[deep({a: {b: 1}}), deep(null), deep({a: null}), deep({a: {b: null}})]", [1.0, "none", "none", "none"]),
        ("stamp()", NOW),
        ("shadow(5)", 6.0),
        ("adder(1)[0](10)", 13.0),
        ("[1, 2].map(x => [adder(x)]).map(fs => fs[0][0](10))", [13.0, 14.0]),  # made in a loop: each its own x
        ("temps(1, 3)", [4.0, 6.0]),
        ("loopy([1, 5, 9])", [10.0, 18.0]),
        ("[1, 2].map(x => pair(x))", [[1.0, None], [2.0, None]]),  # fewer arguments: a call
        ("pair(1, 2, 3)", [1.0, 2.0]),  # more arguments: a call
        ("label?.([3, 3])", "3"),  # `?.()`: a call
        ("pair(...[1, 2])", [1.0, 2.0]),  # a spread: a call
    ],
)
def test_an_inlined_call_gives_and_costs_what_the_call_does(src: str, want: Any) -> None:
    value = same_both_ways(src, rows=ROWS)
    if want is not None:
        assert value == want


def test_a_template_inlines_as_an_expression_does() -> None:
    assert same_both_ways("${label([1, 2])} 与 ${limit(7)}", template=True) == "1-2 与 2"


@pytest.mark.parametrize(
    "src",
    [
        "fail({y: null})",
        "[{y: {z: 1}}, {y: null}].map(o => [fail(o)])",
        "reader(1)[0](null)",  # the arrow the helper made fails after the helper returned
        "refuse('x')",
        "late(1)",  # made lazily (its name is unbound): never inlined, fails when called
        "label(null)",
        "rows.filter(r => free(r) && r.c2 == '')",  # rows bound to a number: free(r) is not reached
    ],
)
def test_an_error_inside_an_inlined_helper_reads_as_the_calls_did(src: str) -> None:
    value = same_both_ways(src, rows=5)
    assert value[0] in ("EvalError", "UserError", "UnboundNameError")
    if src.startswith(("fail", "[{y")):
        assert value[3] == SOURCES["fail(x)"] and value[2] == 4  # the z of x.y.z of x.y.z, in the body's text


@pytest.mark.parametrize("limit", [10, 25, 40, 57, 90, 200, 333])
@pytest.mark.parametrize(
    "src",
    ["rows.filter(r => free(r) && r.c2 == '')", "range(30).map(x => [big(x), limit(x)])", "both(range(20))"],
)
def test_the_budget_runs_out_at_the_same_count(src: str, limit: int) -> None:
    same_both_ways(src, limit=limit, rows=ROWS)


def test_a_name_bound_like_the_helper_shadows_it() -> None:
    other = make_functions({"free(r)": "true", "limit(x)": "x"}, {"now": NOW}, Run(NOW))
    src = "rows.filter(r => free(r) && r.c2 == '').length"
    mine = sum(r["cap"] > 100 and r["c1"] == "" for r in ROWS)
    assert same_both_ways(src, rows=ROWS) == mine < len(ROWS)
    for value, want in [(other["free"], len(ROWS)), (other["limit"], len(ROWS))]:
        run = Run(NOW)
        scope = {**make_functions(SOURCES, {**from_json(NAMES), "now": NOW}, run), "rows": from_json(ROWS)}
        scope["free"] = value  # a step's `let free` (here another plugin's function, or one of another name)
        assert compile_expression(src, helpers_of(SOURCES)).evaluate(scope, run) == want
    # two helpers in a loop, one of them shadowed: the loop without inlined bodies, the other still called
    run = Run(NOW)
    scope = {**make_functions(SOURCES, {**from_json(NAMES), "now": NOW}, run), "rows": from_json(ROWS)}
    src = "rows.filter(r => free(r) && limit(r.cap) > 2).length"
    assert compile_expression(src, helpers_of(SOURCES)).evaluate({**scope, "limit": other["limit"]}, run) == mine
    assert same_both_ways(src, rows=ROWS) == 0.0
    with pytest.raises(LangError, match="not a function"):
        run = Run(NOW)
        scope = {**make_functions(SOURCES, {**from_json(NAMES), "now": NOW}, run), "rows": from_json(ROWS)}
        compile_expression(src, helpers_of(SOURCES)).evaluate({**scope, "free": 1.0}, run)


def test_the_callers_names_do_not_reach_the_body() -> None:
    # limit(5) reads the constant K (2): an arrow parameter or a step variable K of the caller is not it
    assert same_both_ways("[10].map(K => [limit(5)])") == [[2.0]]
    assert same_both_ways("limit(5)", K=10) == 2.0
    assert same_both_ways("[7].map(t0 => [temps(t0, 1)])") == [[[16.0, 10.0]]]


class _Counted:
    """Counts the calls of a plugin function's compiled body."""

    def __init__(self, closure: Closure) -> None:
        self.fn, self.calls = closure.fn, 0
        closure.fn = self

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.fn(*args)


@pytest.mark.parametrize("src", ["rows.filter(r => free(r) && r.c2 == '')", "rows.map(r => [free(r), limit(r.cap)])"])
def test_the_call_really_is_inlined(src: str) -> None:
    """The benchmark's helper form runs the body in place: its compiled function is never called."""
    for helpers, want_calls in [(helpers_of(SOURCES), 0), (None, len(ROWS))]:
        run = Run(NOW)
        fns = make_functions(SOURCES, {**from_json(NAMES), "now": NOW}, run)
        counted = _Counted(fns["free"])
        expr = compile_expression(src, helpers)
        expr.evaluate({**fns, "rows": from_json(ROWS)}, run)
        assert counted.calls == want_calls
    assert "['cap']" in compile_expression(src, helpers_of(SOURCES)).python_source


def test_the_cache_keeps_code_apart_for_different_helpers() -> None:
    src = "free({cap: 200, c1: ''})"
    mine, theirs = helpers_of(SOURCES), helpers_of({"free(r)": "false"})
    assert compile_expression(src, mine) is compile_expression(src, helpers_of(dict(SOURCES)))
    assert compile_expression(src, mine) is not compile_expression(src, theirs)
    run = Run(NOW)
    fns = make_functions({"free(r)": "false"}, {"now": NOW}, run)
    assert compile_expression(src, mine).evaluate(fns, run) is False  # their function, whatever the code knew


async def test_a_tool_run_compiles_its_steps_with_its_functions() -> None:
    functions = {"free(r)": "r.cap > K && r.c1 == ''"}
    yaml = tool(
        "  - value: \"rows.filter(r => free(r) && r.c2 == '').map(r => r.room)\"\n    let: found\n",
        ret="found",
    ).replace("steps:", "constants:\n  K: 100\nfunctions:\n  free(r): \"r.cap > K && r.c1 == ''\"\nsteps:")
    yaml = yaml.replace("rows.filter", f"{_rows_literal()}.filter")
    plugin = make_plugin({"find": yaml})
    result = await Interpreter(plugin, CountingHost()).run("find", {}, now=NOW)
    want = [r["room"] for r in ROWS if r["cap"] > 100 and r["c1"] == "" and r["c2"] == ""]
    assert result.value == want
    src = f"{_rows_literal()}.filter(r => free(r) && r.c2 == '').map(r => r.room)"
    assert ("e", src, helpers_of(functions)) in engine._CACHE


def _rows_literal() -> str:
    return "[" + ", ".join(f"{{room: '{r['room']}', cap: {r['cap']:g}, c1: '{r['c1']}', c2: ''}}" for r in ROWS) + "]"
