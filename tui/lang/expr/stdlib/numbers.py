"""Number functions: num and int parse untrusted text safely; round and toFixed follow JavaScript."""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

from tui.lang.expr.errors import EvalError
from tui.lang.expr.limits import Run
from tui.lang.expr.stdlib.registry import bad, builtin, want_int, want_num
from tui.lang.expr.values import int_to_float, is_num, num_to_str, refusal_of

G = "numbers"
# Enough digits for any double below 1e21 with 100 decimals (the default 28 would raise InvalidOperation).
_EXACT = Context(prec=200)

# A decimal number, after thousands separators are removed: '1,234.5' → 1234.5, '价格12元' → 12.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))", re.ASCII)


def parse_number(x: Any, fname: str = "num") -> float | None:
    """The number in `x` or None: numbers as they are, text parsed leniently, never a big int (E9)."""
    if is_num(x):
        return int_to_float(x) if x.__class__ is int else x  # as it is: NaN stays NaN
    if x.__class__ is bool:
        return 1.0 if x else 0.0
    if x is None:
        return None
    if x.__class__ is not str:
        why = refusal_of(x)
        if why:
            raise EvalError(why)  # "no number in it" would still be an answer about a secret
        raise bad(fname, "text or a number", x)
    t = _THOUSANDS.sub("", x)  # both patterns are linear: a long text costs its length (charged by num/int)
    m = _NUMBER.search(t)  # the first number in the text: '价格12元' is 12
    if not m:
        return None
    return float(m.group(0))  # float() never builds a big int: '9' * 5000 is Infinity


@builtin(
    G,
    "The first number in a text ('1,234.5', ' 42 ', '价格12元' → 12); `default` (or null) when there is none.",
    ("num('1,234.5')", 1234.5),
    ("num('价格12元')", 12),
    ("num('abc', 0)", 0),
)
def num(run: Run, x: Any, default: Any = None) -> Any:
    if x.__class__ is str:
        run.charge_scan(len(x))  # trimming reads (and may copy) the whole text
    v = parse_number(x)
    return default if v is None else v


@builtin(G, "num(), truncated toward zero.", ("int('7.9')", 7), ("int('-7.9')", -7), ("int('x', 0)", 0))
def int_(run: Run, x: Any, default: Any = None) -> Any:
    if x.__class__ is str:
        run.charge_scan(len(x))
    v = parse_number(x, "int")
    if v is None:
        return default
    if not math.isfinite(v):
        return v  # Math.trunc of NaN and ±Infinity
    return _signed(float(math.trunc(v)), v)


@builtin(
    G,
    "Rounded half up, as Math.round (2.5 → 3, -2.5 → -2), optionally to `digits` decimals.",
    ("round(2.5)", 3),
    ("round(-2.5)", -2),
    ("round(3.14159, 2)", 3.14),
)
def round_(run: Run, x: Any, digits: Any = None) -> float:
    v = want_num(x, "round")
    d = 0 if digits is None else want_int(digits, "round")
    if not math.isfinite(v):
        return v
    if d == 0:
        return _js_round(v)
    if not -20 <= d <= 20:
        raise EvalError("round() digits must be between -20 and 20")
    # Shift the decimal exponent in the number's text (as lodash's round does) so 1.005 rounds to 1.01, not
    # 1.00: '1.005' → '1.005e2' → 101 → '101e-2'. Both shifts are exact decimal moves, never a multiplication.
    shifted = _move_point(v, d)
    if not math.isfinite(shifted):
        return v  # too large to have `digits` decimals (1e308 to 10 places): it is its own rounding
    return _move_point(_js_round(shifted), -d)


def _move_point(v: float, d: int) -> float:
    """`v` with its decimal point moved `d` places, through its JavaScript text: 1.5e-7 and 2 → 0.000015."""
    mantissa, _, exponent = num_to_str(v).partition("e")
    return float(f"{mantissa}e{int(exponent or 0) + d}")


def _js_round(v: float) -> float:
    """Math.round: half up (-2.5 → -2), and -0 for -0.5 ≤ v ≤ -0."""
    f = math.floor(v)
    return _signed(float(f + 1) if v - f >= 0.5 else float(f), v)


def _signed(r: float, v: float) -> float:
    """A zero result takes the sign of `v`, as Math.round/floor/ceil/trunc keep -0 (Math.ceil(-0.5) is -0)."""
    return math.copysign(0.0, v) if r == 0 else r


@builtin(G, "Rounded down.", ("floor(2.7)", 2))
def floor(run: Run, x: Any) -> float:
    v = want_num(x, "floor")
    return _signed(float(math.floor(v)), v) if math.isfinite(v) else v


@builtin(G, "Rounded up.", ("ceil(2.1)", 3))
def ceil(run: Run, x: Any) -> float:
    v = want_num(x, "ceil")
    return _signed(float(math.ceil(v)), v) if math.isfinite(v) else v


@builtin(G, "The absolute value.", ("abs(-3)", 3))
def abs_(run: Run, x: Any) -> float:
    return abs(want_num(x, "abs"))


@builtin(G, "`x` kept between `lo` and `hi`.", ("clamp(15, 0, 10)", 10))
def clamp(run: Run, x: Any, lo: Any, hi: Any) -> float:
    v, a, b = want_num(x, "clamp"), want_num(lo, "clamp"), want_num(hi, "clamp")
    return _js_min(_js_max(v, a), b)


def _js_max(a: float, b: float) -> float:
    """Math.max of two: NaN if either is, +0 above -0."""
    if a != a or b != b:
        return math.nan
    if a == b:
        return a if math.copysign(1.0, a) > 0 else b
    return a if a > b else b


def _js_min(a: float, b: float) -> float:
    """Math.min of two: NaN if either is, -0 below +0."""
    if a != a or b != b:
        return math.nan
    if a == b:
        return a if math.copysign(1.0, a) < 0 else b
    return a if a < b else b


@builtin(
    G,
    "Text with exactly `digits` decimals, as JavaScript's toFixed ((2.5).toFixed(0) is '3').",
    ("(3.14159).toFixed(2)", "3.14"),
    ("(2.5).toFixed(0)", "3"),
    ("toFixed(1.005, 2)", "1.00"),
)
def toFixed(run: Run, x: Any, digits: Any = 0.0) -> str:
    v = want_num(x, "toFixed")
    d = want_int(digits, "toFixed")
    if not 0 <= d <= 100:
        raise EvalError("toFixed() digits must be between 0 and 100")
    if not math.isfinite(v) or abs(v) >= 1e21:
        return num_to_str(v)
    # The exact binary value, rounded half away from zero: what ECMA-262 Number.prototype.toFixed specifies.
    q = Decimal(v).quantize(Decimal(1).scaleb(-d), rounding=ROUND_HALF_UP, context=_EXACT)
    text = f"{q:f}"
    # -0 prints without its sign, but (-0.0001).toFixed(2) is '-0.00' in JavaScript.
    return text.lstrip("-") if v == 0 else text


@builtin(G, "True for a number that is not NaN.", ("isNumber(3)", True), ("isNumber('3')", False))
def isNumber(run: Run, x: Any) -> bool:
    return is_num(x) and x == x


__all__ = ["bad", "parse_number"]
