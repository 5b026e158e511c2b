"""Helpers for expression tests: evaluate with a fixed clock and get plain JSON back."""

from __future__ import annotations

from typing import Any

from tui.lang.expr import Run, compile_expression, from_json, to_json

NOW = "2026-11-30T17:05:00+08:00"


def ev(src: str, locale: str = "zh", **names: Any) -> Any:
    """Evaluate `src` with `names` bound (as outside JSON data) and `now` fixed; return plain JSON."""
    run = Run(NOW, locale=locale)
    return to_json(compile_expression(src).evaluate(from_json(names), run))


def raw(src: str, **names: Any) -> Any:
    """Evaluate and return the value as the interpreter holds it (floats, closures, nodes)."""
    return compile_expression(src).evaluate(from_json(names), Run(NOW))
