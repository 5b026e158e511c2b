"""The names a tool's expressions see: input, constants, functions, settings, now and the `let` names."""

from __future__ import annotations

import re
from typing import Any

from tui.lang.expr import Closure, Run
from tui.lang.expr.engine import compile_function
from tui.lang.expr.inlining import Helpers
from tui.lang.expr.values import from_json

#: The key under which base_scope keeps the tool's Helpers: not a name, so no expression can read or bind it.
HELPERS = " helpers"

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
    and its parameters. Validation has rejected cycles, so calls cannot recurse.

    Each body is compiled as an arrow and made once per run, after the functions it calls, so the names it
    reads are bound when it is made and a call runs the body's code directly (language.md §8: a call costs
    one evaluation, as an arrow's). A body that reads a name nobody binds is made lazily instead, so that it
    fails when it is called, as it always did.
    """
    parsed = {}
    for sig, body in sources.items():
        name, params = parse_signature(sig)
        parsed[name] = (sig, body, params, compile_function(params, body))
    functions: dict[str, Closure] = {}
    shared = dict(names)
    pending = dict(parsed)
    while pending:
        ready = [n for n, (_, _, _, e) in pending.items() if not any(f in pending for f in e.free_names)]
        for name in ready or list(pending):  # a cycle (refused by validation) is made lazily below
            sig, body, params, expr = pending.pop(name)
            missing = [f for f in expr.free_names if f not in shared and f != "now"]
            if missing or not ready:
                functions[name] = _lazy(expr, params, shared, run, f"{sig}: {body}")
            else:
                closure = expr.evaluate(shared, run)
                closure.source = f"{sig}: {body}"
                # what a call site that inlined this body checks and reads (inlining.py)
                seen = shared if "now" in shared else {**shared, "now": run.now}
                closure.origin = (tuple(params), body)
                closure.bound = tuple(seen[f] for f in expr.free_names)
                functions[name] = closure
            shared[name] = functions[name]
    return functions


def _lazy(expr: Any, params: list[str], shared: dict[str, Any], run: Run, source: str) -> Closure:
    """A closure that makes the body's arrow when it is first called (its names are bound by then, or the
    call fails with the unknown name, as an expression does)."""
    made: list[Closure] = []

    def call(*args: Any) -> Any:
        if not made:
            made.append(expr.evaluate(shared, run))
        return made[0].fn(*args[: len(params)])

    return Closure(call, len(params), 1, source)


def helpers_of(sources: dict[str, str]) -> Helpers:
    """The functions of `sources` (signature → body) as the compiler may inline them (well-formed ones)."""
    found = []
    for sig, body in sources.items():
        try:
            name, params = parse_signature(sig)
        except ValueError:
            continue  # validation refuses it; make_functions says so
        found.append((name, params, body))
    return Helpers(found)


def base_scope(
    input_value: dict[str, Any],
    constants: dict[str, Any],
    function_sources: dict[str, str],
    settings: dict[str, Any],
    run: Run,
) -> dict[str, Any]:
    """The scope a tool's first step sees (and, under HELPERS, its functions for the compiler)."""
    consts = from_json(constants)
    names: dict[str, Any] = {**consts, "constants": consts, "settings": from_json(settings), "now": run.now}
    functions = make_functions(function_sources, names, run)
    scope = {**names, **functions, "functions": functions, "input": input_value}
    scope[HELPERS] = helpers_of(function_sources)
    return scope
