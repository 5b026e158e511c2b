"""The names a tool's expressions see: input, constants, functions, settings, now and the `let` names."""

from __future__ import annotations

import re
from typing import Any

from tui.lang.expr import Closure, Run, compile_expression
from tui.lang.expr.values import from_json

_SIGNATURE = re.compile(r"\s*([A-Za-z_$][\w$]*)\s*\(\s*([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)?\s*\)\s*")


def parse_signature(sig: str) -> tuple[str, list[str]]:
    """`busy(row, p)` → ('busy', ['row', 'p']); raises ValueError for anything else."""
    m = _SIGNATURE.fullmatch(sig)
    if not m:
        raise ValueError(f"{sig!r} is not a function signature like name(a, b)")
    params = [p.strip() for p in m.group(2).split(",")] if m.group(2) else []
    if len(set(params)) != len(params):
        raise ValueError(f"{sig!r} names a parameter twice")
    return m.group(1), params


def make_functions(sources: dict[str, str], names: dict[str, Any], run: Run) -> dict[str, Closure]:
    """Plugin functions as closures. Each body sees `names` (constants, settings, now), the other functions
    and its parameters. Validation has rejected cycles, so calls cannot recurse."""
    functions: dict[str, Closure] = {}
    shared = dict(names)
    for sig, body in sources.items():
        name, params = parse_signature(sig)
        expr = compile_expression(body)

        def call(*args: Any, _expr: Any = expr, _params: list[str] = params) -> Any:
            local = dict(shared)
            for i, p in enumerate(_params):
                local[p] = args[i] if i < len(args) else None
            return _expr.evaluate(local, run)

        functions[name] = Closure(call, len(params), expr.cost + 1, f"{sig}: {body}")
    shared.update(functions)
    return functions


def base_scope(
    input_value: dict[str, Any],
    constants: dict[str, Any],
    function_sources: dict[str, str],
    settings: dict[str, Any],
    run: Run,
) -> dict[str, Any]:
    """The scope a tool's first step sees."""
    consts = from_json(constants)
    names: dict[str, Any] = {**consts, "constants": consts, "settings": from_json(settings), "now": run.now}
    functions = make_functions(function_sources, names, run)
    return {**names, **functions, "functions": functions, "input": input_value}
