"""The operators' JavaScript semantics, as the slow paths that compiled code calls.

Compiled code inlines the common case (two floats, a dict lookup) and calls these for everything else, so
each function here decides the full rule: the JavaScript answer, or a clear EvalError.
"""

from __future__ import annotations

import contextlib
import math
from typing import Any

from tui.lang.expr.errors import EvalError
from tui.lang.expr.limits import cap_items
from tui.lang.expr.values import (
    Closure,
    Opaque,
    describe,
    int_to_float,
    is_num,
    num_to_str,
    stringify,
    to_str,
)

_inf = math.inf
_nan = math.nan


def _desc(v: Any) -> str:
    return describe(v)


def need_num(v: Any, op: str) -> float:
    """The number in `v`, or an error naming the operator (no '5' * 2: the language never coerces)."""
    c = v.__class__
    if c is float:
        return v
    if c is int:
        return int_to_float(v)
    raise EvalError(f"'{op}' needs numbers, got {_desc(v)}" + (f" ({v!r})" if c is str and len(v) < 40 else ""))


def add(a: Any, b: Any, run: Any) -> Any:
    """`a + b`: numbers add; if either side is a string, both become text (String() rules)."""
    ca, cb = a.__class__, b.__class__
    if ca is str or cb is str:
        if (
            ca in (list, dict)
            or cb in (list, dict)
            or isinstance(a, Opaque | Closure)
            or isinstance(b, Opaque | Closure)
        ):
            bad = a if ca is not str else b
            why = (bad.refusal() or bad.not_text) if isinstance(bad, Opaque) else None
            raise EvalError(why or f"'+' cannot join text and {_desc(bad)}; use join() or str()")
        sa, sb = to_str(a), to_str(b)
        run.charge_text(len(sa) + len(sb))
        return sa + sb
    if is_num(a) and is_num(b):
        return need_num(a, "+") + need_num(b, "+")
    raise EvalError(f"'+' needs two numbers or a string, got {_desc(a)} and {_desc(b)}")


def sub(a: Any, b: Any) -> float:
    return need_num(a, "-") - need_num(b, "-")


def mul(a: Any, b: Any) -> float:
    return need_num(a, "*") * need_num(b, "*")


def div(a: Any, b: Any) -> float:
    x, y = need_num(a, "/"), need_num(b, "/")
    if y == 0:
        if x == 0 or x != x:
            return _nan
        return math.copysign(_inf, x) * math.copysign(1.0, y)
    return x / y


def mod(a: Any, b: Any) -> float:
    x, y = need_num(a, "%"), need_num(b, "%")
    if y == 0 or x != x or y != y or math.isinf(x):
        return _nan
    if math.isinf(y):
        return x
    return math.fmod(x, y)  # truncated remainder: -7 % 3 is -1, as in JavaScript


def pow_(a: Any, b: Any) -> float:
    """`a ** b` with JavaScript's special cases; never a Python big int, complex or OverflowError."""
    x, y = need_num(a, "**"), need_num(b, "**")
    if y != y:
        return _nan
    if y == 0:
        return 1.0
    if (x == 1 or x == -1) and math.isinf(y):
        return _nan  # JavaScript differs from C here
    if 0 < y <= 1100 and y == int(y) and 0 < abs(x) < 2**53 and x == int(x) and y * math.log2(abs(x)) < 1025:
        # A whole power of a whole number: the exact integer, rounded once (ties to even). The C library's pow
        # is off by one unit on some exact ties (10 ** 23 gave 1.0000000000000001e+23; JavaScript gives 1e+23).
        with contextlib.suppress(OverflowError):
            return float(int(x) ** int(y))
    try:
        return math.pow(x, y)
    except OverflowError:
        # |x| > 1 with a huge y: ±Infinity, with the sign of x for odd integer powers.
        if x < 0 and y == int(y) and int(y) % 2 == 1:
            return -_inf
        return _inf
    except ValueError:
        if x == 0:
            # 0 ** negative: Infinity (with -0 and an odd integer power, -Infinity).
            if math.copysign(1.0, x) < 0 and y == int(y) and int(y) % 2 == 1:
                return -_inf
            return _inf
        return _nan  # negative base, fractional power


def neg(a: Any) -> float:
    return -need_num(a, "-")


def pos(a: Any) -> float:
    return need_num(a, "+")


def _compare(a: Any, b: Any, op: str) -> tuple[Any, Any]:
    ca, cb = a.__class__, b.__class__
    if ca is str and cb is str:
        return a, b
    if is_num(a) and is_num(b):
        return a, b
    raise EvalError(f"'{op}' compares two numbers or two strings, got {_desc(a)} and {_desc(b)}")


def lt(a: Any, b: Any) -> bool:
    x, y = _compare(a, b, "<")
    return bool(x < y)


def gt(a: Any, b: Any) -> bool:
    x, y = _compare(a, b, ">")
    return bool(x > y)


def le(a: Any, b: Any) -> bool:
    x, y = _compare(a, b, "<=")
    return bool(x <= y)


def ge(a: Any, b: Any) -> bool:
    x, y = _compare(a, b, ">=")
    return bool(x >= y)


def eq(a: Any, b: Any) -> bool:
    """`===`: same type and value; NaN is not equal to itself; two arrays/objects are an error."""
    if a is None or b is None:
        return a is b
    ca, cb = a.__class__, b.__class__
    if ca is str and cb is str:
        return a == b
    if (ca is float or ca is int) and (cb is float or cb is int):
        return a == b
    if ca is bool and cb is bool:
        return a is b
    a_obj = not (ca is str or ca is bool or ca is float or ca is int)
    b_obj = not (cb is str or cb is bool or cb is float or cb is int)
    if a_obj and b_obj:
        raise EvalError(f"'==' cannot compare {_desc(a)} with {_desc(b)}; use equals(a, b) for deep equality")
    return False


def ne(a: Any, b: Any) -> bool:
    return not eq(a, b)


def prop_key(k: Any) -> str:
    """A computed key as JavaScript turns it into a property name."""
    c = k.__class__
    if c is str:
        return k
    if c is float or c is int or c is bool or k is None:
        return to_str(k)
    raise EvalError(f"{_desc(k)} cannot be used as a key")


def index_of_key(k: Any) -> int | None:
    """The array index a key names (a whole number ≥ 0, or its canonical text), else None."""
    c = k.__class__
    if c is float or c is int:
        if 0 <= k < 2**53 and k == int(k):  # NaN and Infinity fail the range test before int()
            return int(k)
        return None
    if c is str and k.isdigit() and k.isascii() and (k == "0" or k[0] != "0"):
        return int(k)
    return None


def iterable(v: Any, desc: str) -> Any:
    """`v` for an array pattern `([a, b]) => …`: a list or a text (JavaScript iterates a string's characters);
    anything else is the error JavaScript throws ("is not iterable"), not a list of nulls."""
    if v.__class__ is list or v.__class__ is str:
        return v
    raise EvalError(f"cannot take {desc} apart: {describe(v)} is not a list")


def member(obj: Any, key: Any, desc: str) -> Any:
    """`obj.key` / `obj[key]` for everything but the dict fast path: own data only, never a host attribute."""
    c = obj.__class__
    if c is dict:
        return obj.get(prop_key(key))
    if obj is None:
        name = key if key.__class__ is str else to_str(key) if key.__class__ in (float, int, bool) else "?"
        raise EvalError(f"cannot read '{name}' of null ({desc})")
    if c is list or c is str:
        if key == "length":
            return float(len(obj))
        i = index_of_key(key)
        if i is not None:
            return obj[i] if i < len(obj) else None
        _no_method_values(key, obj, desc)
        if key.__class__ in (list, dict):
            raise EvalError(f"{_desc(key)} cannot be used as an index ({desc})")
        return None
    if c is float or c is int or c is bool:
        _no_method_values(key, obj, desc)
        if key.__class__ in (list, dict):
            raise EvalError(f"{_desc(key)} cannot be used as a key ({desc})")
        return None
    raise EvalError(f"cannot read properties of {_desc(obj)} ({desc})")


#: Methods of JavaScript's texts, lists and numbers that the library does not have (Object's own, such as
#: toString and constructor, read as null like any missing key). Read as null, `'é'.normalize` was a third
#: answer, neither JavaScript's nor an error (an outsider plugin author).
_JS_ONLY_METHODS = frozenset(
    "charAt charCodeAt codePointAt isWellFormed localeCompare normalize search substr toLocaleLowerCase "
    "toLocaleUpperCase toWellFormed trimLeft trimRight copyWithin findLast findLastIndex reduceRight toReversed "
    "toSorted toSpliced with toExponential toPrecision toLocaleString sort push pop shift unshift splice fill "
    "forEach".split()
)


def _no_method_values(key: Any, obj: Any, desc: str) -> None:
    from tui.lang.expr.stdlib import FUNCTIONS, NOT_PROVIDED

    if key.__class__ is not str:
        return
    if key in FUNCTIONS:
        raise EvalError(f"'{key}' is a function: call it, like {desc}(…)")
    if key in _JS_ONLY_METHODS:
        said = NOT_PROVIDED.get(key) or f"'{key}' is a JavaScript method the plugin language does not have"
        raise EvalError(f"{said} ({desc}; the library is in the docs, §5)")


def spread_into(out: list[Any], v: Any, desc: str) -> None:
    """Add the items of `...v` (a list, or a string's characters) to an array or a call's arguments.

    The list limit is checked before anything is copied (the array or argument list is charged per item
    once it is complete), so `[...s, ...s, …]` of a long text stops at the limit, not after copying.
    """
    c = v.__class__
    if c is list or c is str:
        cap_items(len(out) + len(v))
        out.extend(v)
        return
    raise EvalError(f"cannot spread {_desc(v)} into a list ({desc})")


def spread_props(out: dict[str, Any], v: Any, desc: str, run: Any) -> None:
    """Add the properties of `...v` to an object (null adds none, as in JavaScript), charged before copying:
    an object's keys are copied in bulk (one C dict.update, as merge() does), so one evaluation per 16; the
    items of a list or the characters of a text each become a key made in Python, so one per item (a text of a
    million characters would be a million keys)."""
    c = v.__class__
    if c is dict:
        run.charge_copy(len(v))
        out.update(v)
    elif c is list or c is str:
        run.charge(len(v))
        out.update({num_to_str(float(i)): x for i, x in enumerate(v)})
    elif not (v is None or c is float or c is int or c is bool):
        raise EvalError(f"cannot spread {_desc(v)} into an object ({desc})")


def text_part(v: Any, run: Any) -> str:
    """A `${…}` value in a template as text; an array or object's JSON is charged as it is made, so many
    parts that each stringify a big list stop at the budget instead of all being built first."""
    c = v.__class__
    if c is list or c is dict:
        out = stringify(v, run=run)
        run.charge_text(len(out))
        return out
    return to_str(v)


def call_value(run: Any, f: Any, args: list[Any], desc: str) -> Any:
    """Call a function value (an arrow obtained through a builtin)."""
    if f.__class__ is not Closure:
        raise EvalError(f"{desc} is {_desc(f)}, not a function")
    run.charge(1)
    return f.fn(*args)


def call_through(target: Any, fn: Any, nparams: int, cost: int, source: str) -> Closure:
    """The arrow `x => f(x)` (compiled as `fn`): `f`'s own function when `f` is one, so that calling the
    arrow is calling `f` (same arguments, same value, same errors), else the arrow itself."""
    if target.__class__ is Closure:
        return Closure(target.fn, nparams, target.cost, source)
    return Closure(fn, nparams, cost, source)
