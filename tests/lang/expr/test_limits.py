"""Limits (language.md §7, threats.md §3.3): each one is a clear error naming it, and fires fast."""

from __future__ import annotations

import time

import pytest

from tui.lang.expr import LangError, LimitError, Run, compile_expression, evaluate
from tui.lang.expr.limits import MAX_EVALUATIONS

from .helpers import NOW, ev

RUNAWAY = [
    "range(100).map(i => range(100).map(j => range(100).map(k => i)))",
    "range(99999).map(x => x + x + x + x + x + x + x + x + x + x + x + x)",
    "range(50).reduce((s, i) => s + s, 'x')",
    "range(50).reduce((l, i) => l.concat(l), [1])",
    "range(1000).map(i => range(1000).filter(j => j == i).length)",
    "range(30000).map(i => 'abcdefghij'.repeat(10)).join('')",
    "range(60000).map(i => ({ i })).map(o => o.i).map(i => i + 1)",
    "range(9999).flatMap(i => range(20))",
    "range(5000).map(i => sortBy(range(100), x => -x).length)",
]


@pytest.mark.parametrize("src", RUNAWAY)
def test_runaway_expressions_exhaust_the_budget_quickly(src: str) -> None:
    t0 = time.process_time()  # CPU time: what the budget bounds, and not inflated by a busy machine
    with pytest.raises(LimitError, match="budget|limit|characters|items"):
        ev(src)
    assert time.process_time() - t0 < 1.0


def test_an_expression_costs_one_evaluation_per_sixteen_operations() -> None:
    # Issue 20 recounted the budget: one evaluation per expression evaluated (it used to be one per node,
    # so "1 + 2 * 3" cost 5), one more per 16 operations for big ones; names and literals are free.
    for src, want in [("1 + 2 * 3", 1), ("false && (1 + 2)", 1), ("1" + " + 1" * 17, 2), ("[" + "-1, " * 40 + "]", 3)]:
        run = Run(NOW)
        compile_expression(src).evaluate({}, run)
        assert run.used == want, src


def test_each_call_of_an_arrow_costs_one_and_a_big_body_more() -> None:
    small, big, heavy = Run(NOW), Run(NOW), Run(NOW)
    compile_expression("range(10).map(x => x)").evaluate({}, small)
    compile_expression("range(1000).map(x => x)").evaluate({}, big)
    compile_expression("range(1000).map(x => [" + "x + 1, " * 40 + "])").evaluate({}, heavy)
    # one per call of the arrow, one per 16 items the range makes (in C); the list map fills is that pass's
    assert big.used - small.used == 990 + 1000 // 16
    assert heavy.used - big.used == 2 * 1000  # 41 operations: three evaluations per call


@pytest.mark.parametrize(
    ("smaller", "bigger"),
    [
        ("'ab'.repeat(10)", "'ab'.repeat(10000)"),
        ("range(10).join(',')", "range(1000).join(',')"),
        ("sortBy(range(10), x => -x)", "sortBy(range(1000), x => -x)"),
        ("html('<p>x</p>'.repeat(10))", "html('<p>x</p>'.repeat(1000))"),
        ("test('a'.repeat(10), 'b')", "test('a'.repeat(10000), 'b')"),
        ("json(stringify(range(10)))", "json(stringify(range(1000)))"),
        ("uniq(range(10))", "uniq(range(1000))"),
        ("keys(fromEntries(range(10).map(i => [str(i), i])))", "keys(fromEntries(range(1000).map(i => [str(i), i])))"),
    ],
)
def test_cost_grows_with_the_input(smaller: str, bigger: str) -> None:
    a, b = Run(NOW), Run(NOW)
    compile_expression(smaller).evaluate({}, a)
    compile_expression(bigger).evaluate({}, b)
    assert b.used > a.used


def test_the_budget_is_shared_by_every_expression_of_a_run() -> None:
    run = Run(NOW, limit=1000)
    expr = compile_expression("range(600).map(x => x)")  # 638 evaluations
    expr.evaluate({}, run)
    with pytest.raises(LimitError, match="budget of 1,000"):
        expr.evaluate({}, run)


def test_exactly_the_limit_is_allowed() -> None:
    expr = compile_expression("range(32).map(x => x)")  # 35 evaluations: the expression, the range, 32 calls
    expr.evaluate({}, Run(NOW, limit=35))
    with pytest.raises(LimitError):
        expr.evaluate({}, Run(NOW, limit=34))
    assert MAX_EVALUATIONS == 100_000


@pytest.mark.parametrize(
    "src",
    [
        "'x'.repeat(10000000)",
        "'x'.padStart(2000000)",
        "'ab'.repeat(400000) + 'ab'.repeat(400000)",
        "`${'ab'.repeat(400000)}${'ab'.repeat(400000)}`",
        "range(200000)",
        "range(1000000000)",
        "range(0, 1e300)",
        "zip(range(60000), range(60000))",
    ],
)
def test_strings_and_lists_are_capped_before_they_are_built(src: str) -> None:
    t0 = time.process_time()
    with pytest.raises(LimitError, match="limit|budget"):
        ev(src)
    assert time.process_time() - t0 < 0.5


@pytest.mark.parametrize(
    "src",
    [
        "(" * 65 + "1" + ")" * 65,
        "[" * 65 + "]" * 65,
        "1" + " + 1" * 70,
        "a" + ".b" * 70,
        "!" * 70 + "a",
        "x ? " * 70 + "1" + " : 2" * 70,
        "f(" * 70 + ")" * 70,
    ],
)
def test_nesting_deeper_than_64_is_a_limit_error(src: str) -> None:
    with pytest.raises(LimitError, match="nested deeper than 64"):
        compile_expression(src)


def test_nesting_of_64_is_fine() -> None:
    assert evaluate("(" * 60 + "1" + ")" * 60) == 1
    assert evaluate("1" + " + 1" * 60) == 61


def test_huge_sources_are_refused_without_recursion() -> None:
    with pytest.raises(LimitError, match="longer than"):
        compile_expression("1" + "+1" * 100_000)
    with pytest.raises(LimitError):
        compile_expression("(" * 10_000 + "1" + ")" * 10_000)


def test_deep_values_are_refused_not_a_recursion_error() -> None:
    with pytest.raises(LimitError, match="nesting depth|nested deeper"):
        ev("json('[' .repeat(100000) + ']'.repeat(100000))")
    with pytest.raises(LimitError, match="nesting depth"):
        ev("stringify(range(100).reduce((acc, i) => [acc], []))")
    with pytest.raises(LimitError, match="nesting depth"):
        ev("range(100).reduce((acc, i) => [acc], [])")  # leaving the interpreter walks it too


@pytest.mark.parametrize(
    "src",
    [
        "str(range(2000).map(i => s))",  # 2,000 references to one 1 MB string: 2 GB if built first
        "stringify(range(2000).map(i => s))",
        "equals(range(2000).map(i => l), range(2000).map(i => l))",
        "s.split('')",
        "s.replaceAll('', 'x')",
        "s.split('x')",
    ],
)
def test_work_on_big_shared_values_is_charged_before_it_is_done(src: str) -> None:
    t0 = time.process_time()
    with pytest.raises(LimitError):
        ev(src, s="x" * 1_000_000, l=list(range(1000)))
    assert time.process_time() - t0 < 0.5


def test_uniq_of_many_references_to_one_big_value_does_no_work_per_character() -> None:
    # uniq compares by a structural key (a 1 MB string is hashed once; Python keeps its hash), not by building
    # JSON text of every item (2 GB here), so nothing in it grows with the text: it answers at once
    t0 = time.process_time()
    assert ev("len(uniq(range(2000).map(i => [s])))", s="x" * 1_000_000) == 1
    assert time.process_time() - t0 < 0.5


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("''.repeat(1e300)", ""),  # was an OverflowError from Python's str * int
        ("'abc'.repeat(0 / 0)", ""),  # NaN counts as 0, as in JavaScript; was a ValueError
        ("(0.1).toFixed(20)", "0.10000000000000000555"),  # needs more than Decimal's default 28 digits
        ("(1e20).toFixed(2)", "100000000000000000000.00"),
        ("n + 1", None),  # an int too big for a double is Infinity (null on the way out), not an OverflowError
        ("str(n)", "Infinity"),
    ],
)
def test_extreme_arguments_follow_javascript_instead_of_crashing(src: str, want: object) -> None:
    from tui.lang.expr import Run, compile_expression, to_json

    assert to_json(compile_expression(src).evaluate({"n": 10**400}, Run(NOW))) == want


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("range(-1e308, 1e308)", "range\\(\\) of more than"),
        ("date(8e15)", "8000000000000000 is not a valid time"),
        ("date(1 / 0)", "Infinity is not a valid time"),
        ("date(0 / 0)", "NaN is not a valid time"),
    ],
)
def test_infinite_and_out_of_range_numbers_fail_cleanly(src: str, message: str) -> None:
    with pytest.raises(LangError, match=message):
        ev(src)


def test_infinite_index_reads_null() -> None:
    # Found by deep fuzzing: int(inf) inside the index lookup raised OverflowError.
    assert ev("'abc'[1 / 0]") is None
    assert ev("[1][0 / 0]") is None
    assert ev("date(-6e13)") == "0068-09-03T21:20:00+08:00"  # years below 1000 keep four digits
