"""JSON functions: json(text) parses with the language's number model and depth limit; stringify."""

from __future__ import annotations

import json as _json
from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import Run
from tui.lang.expr.stdlib.registry import builtin, want_int, want_str
from tui.lang.expr.values import MAX_DEPTH
from tui.lang.expr.values import stringify as _stringify


def _check_depth(v: Any) -> None:
    # Iterative, so a deep document cannot overflow Python's stack while being checked.
    stack = [(v, 0)]
    while stack:
        x, d = stack.pop()
        if d > MAX_DEPTH:
            raise LimitError(f"JSON nested deeper than {MAX_DEPTH} levels")
        if x.__class__ is list:
            stack.extend((y, d + 1) for y in x)
        elif x.__class__ is dict:
            stack.extend((y, d + 1) for y in x.values())


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
    _check_depth(v)
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
