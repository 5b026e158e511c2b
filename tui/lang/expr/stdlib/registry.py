"""The standard-library registry: every function declares its arity, group, doc line and a tested example."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tui.lang.expr.errors import EvalError
from tui.lang.expr.values import Closure, describe, int_to_float, is_num

Impl = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Builtin:
    """One standard-library function. `impl(run, *args)`; a method call passes the receiver as args[0]."""

    name: str
    impl: Impl
    min_args: int
    max_args: int | None
    group: str
    doc: str
    """One line for docs/PLUGIN-LANGUAGE.md."""
    examples: tuple[tuple[str, Any], ...]
    """(expression, expected JSON value) pairs: shown in the docs and run by the test suite."""
    cost: int = 0
    """Evaluations every call costs besides what the function charges for its work, for functions with a big
    fixed cost (parsing a date, a URL or a document): counted in the calling body's size at compile time."""

    def check_arity(self, n: int, method: bool = False) -> None:
        """Raise a clear error when `n` arguments do not fit; `method`: called as `x.name(…)`, where `x` is the
        first argument and the message counts only the ones in the parentheses (as the author wrote them)."""
        if n < self.min_args or (self.max_args is not None and n > self.max_args):
            skip = 1 if method else 0
            low, high, got = max(0, self.min_args - skip), self.max_args, n - skip
            if high is None:
                want = f"at least {low}"
            elif low == high - skip:
                want = str(low)
            else:
                want = f"{low} to {high - skip}"
            one = want.endswith(" 1") or want == "1"
            name = f".{self.name}()" if method else f"{self.name}()"
            raise EvalError(f"{name} takes {want} argument{'' if one else 's'}, got {got}")


class _Absent:
    """The default of an optional parameter of a JavaScript method, told apart from an explicit null: JavaScript
    reads `join()` as ',' but `join(null)` as 'null', `slice(0)` to the end but `slice(0, null)` as nothing."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<absent>"


ABSENT: Any = _Absent()
"""The one value of a left-out argument (see _Absent)."""


FUNCTIONS: dict[str, Builtin] = {}
"""Every function of the standard library, by name."""


def builtin(
    group: str,
    doc: str,
    *examples: tuple[str, Any],
    name: str | None = None,
    min_args: int | None = None,
    max_args: int | None = -1,
    cost: int = 0,
) -> Callable[[Impl], Impl]:
    """Register `impl` under `name` (default: the function's name without a trailing underscore).

    The arity defaults to the Python signature (minus `run`); `max_args=None` means variadic. `cost` is the
    fixed evaluations of a call (Builtin.cost).
    """

    def deco(impl: Impl) -> Impl:
        import inspect

        fname = name or impl.__name__.rstrip("_")
        params = list(inspect.signature(impl).parameters.values())[1:]
        lo = sum(1 for p in params if p.default is inspect.Parameter.empty and p.kind is p.POSITIONAL_OR_KEYWORD)
        variadic = any(p.kind is p.VAR_POSITIONAL for p in params)
        hi = None if variadic else len(params)
        FUNCTIONS[fname] = Builtin(
            fname,
            impl,
            lo if min_args is None else min_args,
            hi if max_args == -1 else max_args,
            group,
            doc,
            tuple(examples),
            cost,
        )
        return impl

    return deco


def alias(new: str, old: str, doc: str, *examples: tuple[str, Any]) -> None:
    """Register `new` as another name of `old` (toLowerCase for lower)."""
    b = FUNCTIONS[old]
    FUNCTIONS[new] = Builtin(new, b.impl, b.min_args, b.max_args, b.group, doc, tuple(examples), b.cost)


# -- argument checks shared by the library -----------------------------------------------------------------
def bad(fname: str, what: str, v: Any) -> EvalError:
    """The error for an argument of the wrong type."""
    return EvalError(f"{fname}() expects {what}, got {describe(v)}")


def want_list(v: Any, fname: str) -> list[Any]:
    if v.__class__ is not list:
        raise bad(fname, "a list", v)
    return v


def want_str(v: Any, fname: str) -> str:
    if v.__class__ is not str:
        raise bad(fname, "text", v)
    return v


def want_dict(v: Any, fname: str) -> dict[str, Any]:
    if v.__class__ is not dict:
        raise bad(fname, "an object", v)
    return v


def want_num(v: Any, fname: str) -> float:
    if not is_num(v):
        raise bad(fname, "a number", v)
    return v if v.__class__ is float else int_to_float(v)


def want_int(v: Any, fname: str, default: int | None = None) -> int:
    """A whole number argument (JavaScript's ToIntegerOrInfinity, clamped to a safe range)."""
    if v is None and default is not None:
        return default
    x = want_num(v, fname)
    if x != x:
        return 0
    if x > 2**53:
        return 2**53
    if x < -(2**53):
        return -(2**53)
    return int(x)


def want_fn(v: Any, fname: str) -> Closure:
    if v.__class__ is not Closure:
        raise bad(fname, "a function (x => …)", v)
    return v
