"""Helpers for expression tests: evaluate with a fixed clock and get plain JSON back."""

from __future__ import annotations

from typing import Any

from tui.lang.expr import Closure, Run, compile_expression, from_json, to_json
from tui.lang.expr.stdlib.html import HtmlNode
from tui.lang.expr.stdlib.regex import Regex

NOW = "2026-11-30T17:05:00+08:00"

#: Every type a value may have (threats.md E2): JSON, with numbers as floats, closures, nodes, regexes.
ALLOWED = (type(None), bool, float, str, list, dict, Closure, HtmlNode, Regex)


def ev(src: str, locale: str = "zh", **names: Any) -> Any:
    """Evaluate `src` with `names` bound (as outside JSON data) and `now` fixed; return plain JSON."""
    run = Run(NOW, locale=locale)
    return to_json(compile_expression(src).evaluate(from_json(names), run))


def raw(src: str, **names: Any) -> Any:
    """Evaluate and return the value as the interpreter holds it (floats, closures, nodes)."""
    return compile_expression(src).evaluate(from_json(names), Run(NOW))


def assert_plain(value: Any) -> None:
    """Only the value model, all the way down (iteratively) — nothing of Python leaks."""
    stack = [value]
    while stack:
        v = stack.pop()
        assert (isinstance(v, ALLOWED) and not isinstance(v, int)) or isinstance(v, bool), f"leaked {type(v)}"
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            assert all(isinstance(k, str) for k in v)
            stack.extend(v.values())
