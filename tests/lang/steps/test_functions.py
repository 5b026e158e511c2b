"""Plugin `functions:` (language.md §13): what a call gives, what it costs, where its errors point (issue 20).

A function's body is compiled as an arrow and made once per run, after the functions it calls, so a call
runs the body's code directly: one Python frame and one evaluation, as an inline arrow.
"""

from __future__ import annotations

import pytest

from tui.lang.expr import LangError, Run, compile_expression, from_json
from tui.lang.steps.scope import make_functions

from .helpers import NOW

SOURCES = {
    "label(span)": "span[0] == span[1] ? str(span[0]) : span[0] + '-' + span[1]",
    "spans(ps)": "ps.map(p => [p, p])",
    "both(ps)": "spans(ps).map(s => label(s))",
    "pair(a, b)": "[a, b]",
    "big(x)": "[" + "x + 1, " * 40 + "]",
    "late(x)": "x + notBound",
    "usesLet(x)": "x + rows.length",
}


def ev(src: str, run: Run | None = None, **names: object) -> object:
    run = run or Run(NOW)
    scope = {"now": NOW, **from_json(names), **make_functions(SOURCES, {"now": NOW, "K": 2.0}, run)}
    return compile_expression(src).evaluate(scope, run)


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("both([3, 5])", ["3", "5"]),
        ("[[1, 2], [4, 4]].map(s => label(s))", ["1-2", "4"]),  # an arrow that only passes its item on
        ("[[1, 2], [4, 4]].map(label)", ["1-2", "4"]),  # a function is a value: map takes it as it is
        ("[1, 2].map((x, i) => pair(x, i))", [[1.0, 0.0], [2.0, 1.0]]),  # the index when the arrow asks
        ("[1, 2].map(x => pair(x))", [[1.0, None], [2.0, None]]),  # a missing argument is null
        ("pair(1, 2, 3)", [1.0, 2.0]),  # extra arguments are ignored
        ("[7].reduce((a, b) => pair(a, b), 0)", [0.0, 7.0]),
    ],
)
def test_calls_give_what_the_body_gives(src: str, want: object) -> None:
    assert ev(src) == want


def test_a_call_costs_one_evaluation_and_a_big_body_more() -> None:
    small, wide, wrapped = Run(NOW), Run(NOW), Run(NOW)
    ev("range(1000).map(x => pair(x))", small)
    ev("range(1000).map(x => big(x))", wide)
    ev("range(1000).map(x => [big(x)])", wrapped)
    # each call of big(): one, and two more for its 41 operations (up to 16 operations cost one)
    assert wide.used - small.used == 2 * 1000
    assert wrapped.used - wide.used == 1000  # the arrow around the call is a call of its own


@pytest.mark.parametrize("src", ["[null].map(s => label(s))", "label(null)", "[1].map(x => [label(null)])"])
def test_a_body_error_points_into_the_body(src: str) -> None:
    with pytest.raises(LangError, match="cannot read '0' of null") as info:
        ev(src, ps=[None])
    assert info.value.source == SOURCES["label(span)"]
    assert info.value.pos == 5  # the 0 of span[0], the first read


def test_a_name_nobody_binds_fails_when_the_function_is_called_not_before() -> None:
    assert ev("pair(1, 2)") == [1.0, 2.0]  # late() and usesLet() exist but are never called
    with pytest.raises(LangError, match="unknown name 'notBound'"):
        ev("late(1)")
    with pytest.raises(LangError, match="unknown name 'rows'"):
        ev("usesLet(1)", rows=[1])  # a step's `let` names are not a function's
