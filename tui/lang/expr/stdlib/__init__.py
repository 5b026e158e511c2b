"""The standard library: one registry, callable as `f(x, …)` or as a method `x.f(…)` (language.md §4)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tui.lang.expr.errors import EvalError
from tui.lang.expr.stdlib.registry import FUNCTIONS, Builtin
from tui.lang.expr.values import Closure, describe, refusal_of

# Importing the modules registers their functions.
from tui.lang.expr.stdlib import (  # noqa: F401  isort: skip
    lists,
    grouping,
    aggregates,
    objects,
    strings,
    numbers,
    regex,
    dates,
    urls,
    jsondata,
    html,
    misc,
)

#: Evaluations every call of these costs besides what it charges for its work (Builtin.cost): their fixed
#: cost is far above an operator's (parsing a document, a table, a date or a URL; a CSS selector; Python's
#: decimal rounding), so each counts about one evaluation per two microseconds of it (measured per call
#: on small inputs: html() 46 µs, tableRows() 25, formatDate() 9, relTime() 7, date() 6, url() 5, first() 4).
FIXED_COSTS = {
    "html": 24, "tableRows": 12, "htmlText": 2, "first": 1, "select": 1,
    "formatDate": 4, "today": 3, "relTime": 3, "diffDays": 3, "diffMinutes": 3, "date": 2, "addDays": 2,
    "addHours": 2, "addMinutes": 2, "startOfDay": 2, "weekday": 1,
    "url": 2, "parseUrl": 2, "query": 1, "encodeURIComponent": 1, "decodeURIComponent": 1,
    "match": 1, "test": 1, "json": 1, "round": 1, "toFixed": 1,
}  # fmt: skip
for _name, _cost in FIXED_COSTS.items():
    FUNCTIONS[_name] = replace(FUNCTIONS[_name], cost=_cost)

NOT_PROVIDED = {
    "sort": "sort() is not provided (JavaScript sorts numbers as text): use sortBy(list, x => x)",
    "push": "lists cannot be changed: use concat() or [...list, item]",
    "pop": "lists cannot be changed: use slice(0, -1) or last()",
    "shift": "lists cannot be changed: use slice(1) or first()",
    "unshift": "lists cannot be changed: use [item, ...list]",
    "splice": "lists cannot be changed: use slice() and concat()",
    "fill": "lists cannot be changed: use map()",
    "forEach": "forEach() has no effect here: use map()",
    "toString": "use str(x) to turn a value into text",
    "valueOf": "valueOf() is not part of the plugin language",
    "hasOwnProperty": "use has(obj, key)",
    "call": "functions cannot be called this way: pass them to map(), filter() …",
    "apply": "functions cannot be called this way: pass them to map(), filter() …",
    "bind": "functions cannot be called this way: pass them to map(), filter() …",
}


def call_method(run: Any, recv: Any, name: str, args: list[Any], desc: str, optional: bool) -> Any:
    """`recv.name(args)`: an object's own function-valued key first, then the library with recv first."""
    if recv.__class__ is dict and name in recv:
        f = recv[name]
        if f.__class__ is not Closure:
            if f is None and optional:
                return None
            raise EvalError(f"{desc} is {describe(f)}, not a function")
        run.charge(1)
        return f.fn(*args)
    if recv is None:
        raise EvalError(f"cannot call '{name}' of null ({desc})")
    b = FUNCTIONS.get(name)
    if b is None:
        if optional:
            return None
        if name in NOT_PROVIDED:
            raise EvalError(refusal_of(recv) or NOT_PROVIDED[name])
        raise EvalError(f"{describe(recv)} has no method '{name}' ({desc})")
    b.check_arity(len(args) + 1, method=True)
    return b.impl(run, recv, *args)


def has_method(recv: Any, name: str) -> bool:
    """False when `recv.name?.(…)` short-circuits: the object's key holds null, or there is no such method
    (JavaScript skips the rest of the chain, arguments included). A null receiver is called, and fails."""
    if recv.__class__ is dict and name in recv:
        return recv[name] is not None
    return recv is None or name in FUNCTIONS


def apply(run: Any, name: str, args: list[Any]) -> Any:
    """Call a library function with arguments built at run time (a call with `...spread`)."""
    b = FUNCTIONS[name]
    b.check_arity(len(args))
    return b.impl(run, *args)


__all__ = ["FUNCTIONS", "NOT_PROVIDED", "Builtin", "apply", "call_method", "has_method"]
