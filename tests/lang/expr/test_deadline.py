"""The run's deadline inside long builtins (issue 15, item 18): not only between steps.

A Run may carry a monotonic deadline; the library looks at the clock where it already checks the budget
(every CLOCK_EVERY evaluations), so a loop stops mid-way once the time is up, with the language's own
limit error. A tool run hands its 60 s deadline to its Run.
"""

from __future__ import annotations

import time

import pytest

from tui.lang.expr import LimitError, Run, compile_expression
from tui.lang.expr.limits import CLOCK_EVERY
from tui.lang.steps.state import RunState

from .helpers import NOW

#: Loops whose every item calls a builtin (about 15 µs each): 100,000 items would take over a second.
LONG = {
    "map": "range(100000).map(i => range(100).map(j => j).length)",
    "sortBy": "sortBy(range(100000), i => range(100).map(j => j).length)",
    "replaceAll": "'a'.repeat(100000).replaceAll('a', m => str(range(100).map(j => j).length))",
}


@pytest.mark.parametrize("name", list(LONG))
def test_a_deadline_stops_a_long_builtin_mid_way(name: str) -> None:
    expr = compile_expression(LONG[name])
    # A budget high enough that only the clock can stop it: the whole loop costs about 20 million.
    run = Run(NOW, limit=10**9, deadline=time.monotonic() + 0.2)
    t0 = time.perf_counter()
    with pytest.raises(LimitError, match="time limit") as info:
        expr.evaluate({}, run)
    assert info.value.kind == "timeout"  # a limit error that a `catch` sees as kind timeout, as between steps
    assert time.perf_counter() - t0 < 1.5
    assert run.used < 10_000_000  # stopped part of the way through, not after the last item


@pytest.mark.parametrize("name", list(LONG))
def test_a_passed_deadline_stops_at_the_first_look_at_the_clock(name: str) -> None:
    run = Run(NOW, limit=10**9, deadline=time.monotonic() - 1)
    with pytest.raises(LimitError, match="time limit"):
        compile_expression(LONG[name]).evaluate({}, run)
    assert run.used < 200_000  # the first few charges: no item loop ran to its end


def test_without_a_deadline_nothing_looks_at_the_clock() -> None:
    run = Run(NOW)
    assert run.stop == run.limit
    assert compile_expression("range(5000).map(x => x * 2).length").evaluate({}, run) == 5000


def test_the_deadline_is_looked_at_every_clock_every_evaluations() -> None:
    run = Run(NOW, deadline=time.monotonic() + 3600)
    assert run.stop == CLOCK_EVERY
    run.charge(CLOCK_EVERY + 1)
    assert run.stop == 2 * CLOCK_EVERY + 1  # looked, time left: the next look is CLOCK_EVERY later
    with pytest.raises(LimitError, match="budget"):
        run.charge(run.limit)  # the budget is still the budget


def test_a_tool_run_hands_its_deadline_to_the_expressions() -> None:
    state = RunState.start(NOW, deadline_s=0.0)
    assert state.expr.deadline == state.deadline
    time.sleep(0.01)
    with pytest.raises(LimitError, match="time limit"):
        # 21,251 evaluations (one per call, one per 16 items of the range): past the first look at the clock.
        compile_expression("range(20000).map(x => x + 1)").evaluate({}, state.expr)


def test_a_catch_sees_a_deadline_inside_an_expression_as_a_timeout() -> None:
    """The interpreter turns the expression's deadline error into a ToolError of kind timeout (what `catch`
    sees as error.kind), the same kind as a deadline met between steps."""
    from tui.lang.steps.interpreter import _lang_error

    run = Run(NOW, limit=10**9, deadline=time.monotonic() - 1)
    with pytest.raises(LimitError) as info:
        compile_expression(LONG["map"]).evaluate({}, run)
    caught = _lang_error(info.value).catch_value()
    assert caught["kind"] == "timeout" and "time limit" in caught["message"]
