"""Numbers and JSON as JavaScript writes them, wherever a value is shown: a widget's text, a tool's result in the
app and on the command line, the plugin language's own `str()` and `stringify()`.

Python writes `1e-07`, `1e+16` and `9007199254740992.0` where JavaScript writes `1e-7`, `10000000000000000` and
`9007199254740992`; the plugin language promises JavaScript's text (docs/PLUGIN-LANGUAGE.md §1), so one writer
serves every place a number leaves as text. Textual-free and plugin-free: the language, the runtime, the app and
the command line all use it.
"""

from __future__ import annotations

import json
import math
from typing import Any


def int_to_float(v: int) -> float:
    """An int from outside data as a double; too big for one is ±Infinity, as JavaScript reads it."""
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def num_to_str(x: float) -> str:
    """JavaScript's Number::toString(x): shortest round-trip digits, JS exponent rules.

    Below 1e16 a whole double's exact digits are its shortest (doubles there are at most 2 apart): str(int).
    Else repr(float) gives the shortest round-trip digits, JavaScript's; only exponent forms differ (Python's
    below 1e-4 and from 1e16, JavaScript's below 1e-6 and from 1e21) and are rebuilt: 5x faster than Decimal.
    """
    if x.__class__ is int:
        if -(2**53) < x < 2**53:
            return str(x)
        x = int_to_float(x)
    if x.is_integer() and -1e16 < x < 1e16:
        return str(int(x))  # int(-0.0) is 0: '0', as JavaScript prints -0
    r = repr(x)
    if "e" in r:
        return _exponent_form(r)
    if r[-1] in "fn":
        return "NaN" if x != x else "Infinity" if x > 0 else "-Infinity"
    return r  # 1e-4 <= |x| < 1e16 with a fraction: Python and JavaScript write the same


def _exponent_form(r: str) -> str:
    """ECMA-262 Number::toString from Python's exponent repr ('1.5e-07', '1e+16'): |x| < 1e-4 or >= 1e16."""
    mantissa, _, exp = r.partition("e")
    sign = "-" if mantissa[0] == "-" else ""
    digits = mantissa.lstrip("-").replace(".", "").rstrip("0")
    n = int(exp) + 1  # where the decimal point sits after the start of `digits`
    if 16 < n <= 21:
        return sign + digits + "0" * (n - len(digits))
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    return sign + digits[0] + ("." + digits[1:] if len(digits) > 1 else "") + f"e{n - 1:+d}"


def json_text(value: Any, indent: int | None = None, separators: tuple[str, str] | None = None) -> str:
    """`value` (plain JSON data) as `json.dumps(value, ensure_ascii=False, indent=…, separators=…)` writes it, with
    each float as JavaScript writes it (`1e-7`, `10000000000000000`, `9007199254740992`; NaN and ±Infinity as
    null, as JSON.stringify). Ints keep all their digits: they are data read from JSON text, shown as it was.

    Raises:
        TypeError: a value that is not JSON data (as json.dumps).
    """
    item, key = separators or ((", ", ": ") if indent is None else (",", ": "))
    out: list[str] = []
    _write(value, out, item, key, None if indent is None else " " * indent, "\n")
    return "".join(out)


def _write(v: Any, out: list[str], item: str, key: str, pad: str | None, at: str) -> None:
    c = v.__class__
    if v is None or v is True or v is False or c is str or c is int:
        out.append(json.dumps(v, ensure_ascii=False))
    elif c is float:
        out.append(num_to_str(v) if math.isfinite(v) else "null")
    elif c is list or c is tuple or c is dict:
        pairs = c is dict
        if not v:
            out.append("{}" if pairs else "[]")
            return
        inner = at + pad if pad is not None else ""
        out.append("{" if pairs else "[")
        for i, x in enumerate(v.items() if pairs else v):
            out.append((item if i else "") + inner)
            if pairs:
                out.append(json.dumps(str(x[0]), ensure_ascii=False) + key)
                x = x[1]
            _write(x, out, item, key, pad, inner)
        out.append((at if pad is not None else "") + ("}" if pairs else "]"))
    else:
        out.append(json.dumps(v, ensure_ascii=False))  # a bool or number subclass, or json's TypeError
