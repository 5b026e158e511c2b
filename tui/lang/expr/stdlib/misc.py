"""Small helpers: type, coalesce, error, pct."""

from __future__ import annotations

from typing import Any

from tui.lang.expr.errors import UserError
from tui.lang.expr.limits import Run
from tui.lang.expr.stdlib.registry import builtin, want_num
from tui.lang.expr.values import to_text, type_of


@builtin(
    "misc",
    "The type name: null, boolean, number, string, array, object, function, node, regex or secret.",
    ("type([])", "array"),
    ("type(null)", "null"),
)
def type_(run: Run, x: Any) -> str:
    return type_of(x)


@builtin("misc", "The first argument that is not null.", ("coalesce(null, null, 3)", 3), min_args=0, max_args=None)
def coalesce(run: Run, *args: Any) -> Any:
    for a in args:
        if a is not None:
            return a
    return None


@builtin("misc", "Fails the run with this message.", ("error('boom')", None))
def error(run: Run, message: Any) -> Any:
    text = message if message.__class__ is str else to_text(message)
    # An empty message would show the user nothing at all.
    raise UserError(text.strip() or "the plugin stopped with error() and no message")


@builtin("ui", "part / whole between 0 and 1 (0 when whole is 0).", ("pct(1, 4)", 0.25), ("pct(3, 0)", 0))
def pct(run: Run, part: Any, whole: Any) -> float:
    p, w = want_num(part, "pct"), want_num(whole, "pct")
    if w == 0:
        return 0.0
    r = p / w
    return r if r != r else min(1.0, max(0.0, r))  # NaN stays NaN, as Math.min(Math.max(…)) keeps it
