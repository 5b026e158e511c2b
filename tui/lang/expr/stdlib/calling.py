"""Calling arrow functions from the library: per-item budget checks only when a loop could overspend."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from typing import Any

from tui.lang.expr.errors import EvalError
from tui.lang.expr.limits import Run
from tui.lang.expr.ops import member
from tui.lang.expr.stdlib.registry import bad
from tui.lang.expr.values import Closure, truthy


def results(run: Run, fn: Closure, items: list[Any]) -> list[Any]:
    """`fn(item, index)` for every item, in order.

    Charges one evaluation per call up front (the list the calls fill is part of that pass, not charged
    again). A body bigger than one evaluation charges the rest itself as it starts, without looking; so the
    items run in stretches during which even that cannot pass `run.stop` (the budget, or the next look at the
    clock), with a check after each: a loop that fits runs without per-item checks, and a run with a deadline
    still looks at the clock every CLOCK_EVERY evaluations.
    """
    n = len(items)
    run.charge(n)
    f = with_list(fn, items)
    two = fn.nparams >= 2
    out: list[Any] = []
    for i, end in stretches(run, n, fn.cost - 1):
        if two:
            out.extend([f(items[j], float(j)) for j in range(i, end)])
        else:
            out.extend([f(x) for x in (items[i:end] if i or end < n else items)])
        run.check()  # nested builtins may have spent more than the bodies' own cost
    return out


def with_list(fn: Closure, items: list[Any]) -> Callable[..., Any]:
    """The function to call with (item, index): an arrow that declares a third parameter gets the list there,
    as JavaScript's map, filter, find, some and every pass it (`(x, i, all) => …`)."""
    if fn.nparams < 3:
        return fn.fn
    f = fn.fn
    return lambda x, i: f(x, i, items)


def stretches(run: Run, n: int, extra: int) -> Iterator[tuple[int, int]]:
    """[i, end) ranges of n calls, each short enough that `extra` evaluations per call cannot pass run.stop
    (one range when nothing is charged per call, or when all of them fit)."""
    if extra <= 0 or run.fits(n * extra):
        yield 0, n
        return
    i = 0
    while i < n:
        end = min(n, i + max(1, (run.stop - run.used) // extra))
        yield i, end
        i = end


def first_true(run: Run, fn: Closure, items: list[Any]) -> int:
    """Index of the first item for which `fn` is truthy, or -1; stops at the first hit (find, some)."""
    f = with_list(fn, items)
    two = fn.nparams >= 2
    for i, x in enumerate(items):
        run.used += 1
        if truthy(f(x, float(i)) if two else f(x)):
            run.check()
            return i
        if run.used > run.stop:
            run.over()
    return -1


def key_fn(run: Run, key: Any, fname: str) -> Callable[[Any, int], Any]:
    """A key given as an arrow (`r => r.cap`) or a field name (`'cap'`), as a Python callable(item, i)."""
    if key.__class__ is Closure:
        f = key.fn
        if key.nparams >= 2:
            return lambda x, i: f(x, float(i))
        return lambda x, i: f(x)
    if key.__class__ is str:
        desc = f"{fname} key '{key}'"
        return lambda x, i: x.get(key) if x.__class__ is dict else (None if x is None else member(x, key, desc))
    raise bad(fname, "a function or a field name as its key", key)


def keys_of(run: Run, key: Any, items: list[Any], fname: str) -> list[Any]:
    """The key of every item, charging one evaluation per item (a call, or a field read in Python)."""
    if key.__class__ is Closure:
        return results(run, key, items)
    run.charge(len(items))
    f = key_fn(run, key, fname)
    return [f(x, i) for i, x in enumerate(items)]


def check_field_exists(run: Run, key: Any, items: list[Any], fname: str) -> None:
    """Fail when `key` is a field name that no item has (a typo reads null from every item), naming the field
    and the nearest one the items do have. Called where a null key is already an error (sum, avg, min, max), so
    only the message changes; for sortBy and groupBy a missing field is null, as lodash reads it."""
    if key.__class__ is not str:
        return
    seen: dict[str, None] = {}
    for x in items[:100]:
        if x.__class__ is dict:
            if key in x:
                return
            seen.update(dict.fromkeys(x))
    if any(x.__class__ is dict and key in x for x in items[100:]):
        return
    run.charge(len(seen))
    near = difflib.get_close_matches(key, list(seen), n=1)
    hint = f"; did you mean '{near[0]}'?" if near else (f" (they have {', '.join(list(seen)[:8])})" if seen else "")
    raise EvalError(f"{fname}(): no item has the field '{key}'{hint}")


def require(cond: bool, msg: str) -> None:
    """Raise an EvalError with `msg` unless `cond`."""
    if not cond:
        raise EvalError(msg)
