"""JSON functions: json(text) parses with the language's number model and depth limit; stringify."""

from __future__ import annotations

import gc
import json as _json
from itertools import compress
from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import Run
from tui.lang.expr.stdlib.registry import builtin, want_int, want_str
from tui.lang.expr.values import MAX_DEPTH
from tui.lang.expr.values import stringify as _stringify


def _check_depth(text: str, v: Any) -> None:
    """Refuse a value with anything deeper than MAX_DEPTH containers (the root is at depth 0).

    Level by level in C: gc.get_referents gives every item of a whole level of lists and objects in one
    call, and the containers among them are picked by map/compress, so no Python code runs per value (2.5x
    faster than walking the value in Python; a document with 64 brackets or fewer is not looked at at all).
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    level = [v] if v.__class__ is list or v.__class__ is dict else []
    for _ in range(MAX_DEPTH):
        if not level:
            return
        items = gc.get_referents(*level)  # a list's items, an object's values (its keys are only text)
        level = list(compress(items, map(_CONTAINER, map(type, items))))
    if any(level):  # a non-empty container at depth 64 holds something at depth 65
        raise LimitError(f"JSON nested deeper than {MAX_DEPTH} levels")


_CONTAINER = {list, dict}.__contains__


def _bad_constant(name: str) -> Any:
    raise EvalError(f"{name} is not valid JSON")


def parse_json(text: str) -> Any:
    """Parse JSON text into values: numbers as floats (never a big int), depth ≤ 64, clear errors."""
    try:
        v = _json.loads(text, parse_int=float, parse_constant=_bad_constant)
    except _json.JSONDecodeError as e:
        raise EvalError(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno} (offset {e.pos})") from None
    except RecursionError:
        raise LimitError(f"JSON nested deeper than {MAX_DEPTH} levels") from None
    _check_depth(text, v)
    return v


@builtin("json", "Parses JSON text; a bad text is an error naming the offset.", ("json('{\"a\":[1,2]}').a[1]", 2))
def json(run: Run, text: Any) -> Any:
    t = want_str(text, "json")
    run.charge(1 + len(t) // 64)
    return parse_json(t)


@builtin(
    "json",
    "JSON text of a value (compact, or indented by `indent` spaces).",
    ("stringify({ a: [1, 'x'] })", '{"a":[1,"x"]}'),
)
def stringify(run: Run, v: Any, indent: Any = None) -> str:
    ind = None if indent is None else min(10, max(0, want_int(indent, "stringify")))
    out = _stringify(v, ind or None, run=run)
    run.charge_text(len(out))
    return out


__all__ = ["parse_json", "want_str"]
