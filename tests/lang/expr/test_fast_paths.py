"""The generated code's inline fast paths give what the `ops` rules give (issue 20).

The compiler writes `a % b`, `a == b`, `a < b`, `obj.field` and `m[0]` as Python operators when the operand
types allow and calls `ops` otherwise. Whatever the types, the answer or the error must be the one `ops`
gives: a change to a rule in ops.py that the inline path does not follow fails here.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from tui.lang.expr import LangError, Run, compile_expression, ops

from .helpers import NOW

VALUES: list[Any] = [0.0, -0.0, 1.0, -7.5, 3.0, math.nan, math.inf, -math.inf, 5, 2**60, True, False, None]
VALUES += ["", "a", "b", "二", "1", [1.0], {"a": 1.0}]
RULES = {
    "%": ops.mod,
    "==": ops.eq,
    "!=": ops.ne,
    "<": ops.lt,
    "<=": ops.le,
    ">": ops.gt,
    ">=": ops.ge,
}


def outcome(f: Any) -> tuple[str, Any]:
    try:
        v = f()
    except LangError as e:
        return "error", e.msg
    if isinstance(v, float):
        return "number", "NaN" if v != v else (v, math.copysign(1.0, v))  # -0 and 0 apart
    return "value", v


@pytest.mark.parametrize("op", list(RULES))
def test_operators_agree_with_ops(op: str) -> None:
    expr = compile_expression(f"a {op} b")
    for a, b in itertools.product(VALUES, VALUES):
        got = outcome(lambda a=a, b=b: expr.evaluate({"a": a, "b": b}, Run(NOW)))
        want = outcome(lambda a=a, b=b: RULES[op](a, b))
        assert got == want, (a, op, b)


@pytest.mark.parametrize(
    ("src", "key"),
    [("v[0]", 0.0), ("v[1]", 1.0), ("v[3]", 3.0), ("v['x']", "x"), ("v.x", "x"), ("v.length", "length"),
     ("v['0']", "0"), ("v.__class__", "__class__"), ("v.constructor", "constructor")],
)  # fmt: skip
def test_member_reads_agree_with_ops(src: str, key: Any) -> None:
    expr = compile_expression(src)
    for v in [[], [1.0], [1.0, "x", None], "abc", {"0": "d", "x": 2.0, "length": 3.0}, {}, None, 5.0, True]:
        got = outcome(lambda v=v: expr.evaluate({"v": v}, Run(NOW)))
        want = outcome(lambda v=v: ops.member(v, key, src))
        assert got == want, (v, src)
