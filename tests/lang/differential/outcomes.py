"""What each side gave for a case, in one comparable form, and how the two answers relate.

Values are compared as JavaScript sees them, through a canonical form:

* numbers as doubles by their `repr`, so `-0` differs from `0` (Object.is) and NaN equals NaN;
* strings as sequences of UTF-16 units (a surrogate pair written as two halves is the same string as the
  character it makes, as in JavaScript);
* objects as ordered (key, value) pairs: key order is part of a value (JavaScript lists integer-like keys
  first, then the others in insertion order).

The engine is run in-process (compile_expression + evaluate) with the brief's crash rule: any exception that
is not the language's own `LangError` is a crash, and so is a value outside the value model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tui.lang.expr import Closure, LangError, Run, compile_expression, from_json
from tui.lang.expr.values import Opaque, js_order

from .pools import NOW

Canon = tuple[Any, ...]


def utf16(s: str) -> str:
    """The string as JavaScript holds it: surrogate halves that make a pair become that one character."""
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def canon_num(x: float) -> Canon:
    return ("num", repr(x))


def canon_py(v: Any) -> Canon:
    """The canonical form of an engine value; raises TypeError for anything outside the value model."""
    if v is None:
        return ("null",)
    c = v.__class__
    if c is bool:
        return ("bool", v)
    if c is float:
        return canon_num(v)
    if c is int:
        return canon_num(float(v)) if abs(v) < 2**1000 else canon_num(math.copysign(math.inf, v))
    if c is str:
        return ("str", utf16(v))
    if c is list:
        return ("arr", tuple(canon_py(x) for x in v))
    if c is dict:
        # the order every observation of an object shows (keys(), stringify, a result): the engine keeps
        # insertion order in the dict and applies JavaScript's order where it can be seen
        return ("obj", tuple((utf16(k), canon_py(x)) for k, x in js_order(v).items()))
    if c is Closure:
        return ("function",)
    if isinstance(v, Opaque):
        return (v.type_name,)
    raise TypeError(f"not a value of the language: {c.__name__}")


_SPECIAL = {"-0": -0.0, "NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def canon_js(v: Any) -> Canon:
    """The canonical form of the oracle's tagged JSON (values.mjs enc())."""
    if v is None:
        return ("null",)
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int | float):
        return canon_num(float(v))
    if isinstance(v, str):
        return ("str", utf16(v))
    if isinstance(v, list):
        return ("arr", tuple(canon_js(x) for x in v))
    if "$n" in v:
        return canon_num(_SPECIAL[v["$n"]])
    if "$x" in v:
        return (v["$x"],)
    return ("obj", tuple((utf16(k), canon_js(x)) for k, x in v["$o"]))


def show(c: Canon) -> str:
    """A canonical value as JavaScript-like text, for reports."""
    match c:
        case ("null",):
            return "null"
        case ("bool", b):
            return "true" if b else "false"
        case ("num", r):
            special = {"-0.0": "-0", "nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
            return special.get(str(r), str(r).removesuffix(".0"))
        case ("str", s):
            return _quote(s)
        case ("arr", items):
            return "[" + ", ".join(show(x) for x in items) + "]"
        case ("obj", pairs):
            return "{" + ", ".join(f"{_quote(k)}: {show(x)}" for k, x in pairs) + "}"
    return f"<{c[0]}>"


def _quote(s: str) -> str:
    """Text in single quotes, escaped as JavaScript would write it (lone surrogates and controls as \\uXXXX)."""
    out = "".join(
        ch
        if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF
        else (f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else ch)
        for ch in s.replace("\\", "\\\\")
    )
    return "'" + out.replace("'", "\\'") + "'"


@dataclass(frozen=True)
class Project:
    """The engine's answer: a value, a language error, or a crash (any other exception)."""

    kind: str  # 'value' | 'error' | 'crash'
    value: Canon | None = None
    error: str = ""  # 'EvalError: …' or 'OverflowError: …'


@dataclass(frozen=True)
class Js:
    """The oracle's answer: a value, a documented refusal (`row`), or a native throw."""

    kind: str  # 'value' | 'refuse' | 'throw'
    value: Canon | None = None
    error: str = ""  # the refusal row, or the native error's name and message
    row: str = ""
    lenient: Js | None = None  # for row 'sig': the answer with JavaScript's own coercions


def run_project(source: str, context: dict[str, Any], limit: int = 100_000) -> Project:
    try:
        value = compile_expression(source).evaluate(from_json(context), Run(NOW, limit=limit))
        return Project("value", canon_py(value))
    except LangError as e:
        return Project("error", error=f"{type(e).__name__}: {e.msg}")
    except Exception as e:  # a crash: the language promises its own errors only
        return Project("crash", error=f"{type(e).__name__}: {e}")


def js_outcome(reply: dict[str, Any]) -> Js:
    if "ok" in reply:
        return Js("value", canon_js(reply["ok"]))
    if "refuse" in reply:
        lenient = js_outcome(reply["lenient"]) if "lenient" in reply else None
        return Js("refuse", error=f"{reply['refuse']}: {reply['msg']}", row=reply["refuse"], lenient=lenient)
    return Js("throw", error=f"{reply['throw']}: {reply['msg']}")


class Verdict(Enum):
    """How the two answers relate (the classes of the on-demand report)."""

    SAME = "same value"
    SAME_LENIENT = "same value as JavaScript's coercion (a library argument the docs' kinds do not name)"
    BOTH_REFUSE = "both refuse"
    PROJECT_REFUSES = "project refuses where JS answers"
    DIFFERENT = "different values"
    JS_THROWS = "JS throws where project answers"
    CRASH = "crash"

    @property
    def agrees(self) -> bool:
        return self in (Verdict.SAME, Verdict.SAME_LENIENT, Verdict.BOTH_REFUSE)


def verdict(p: Project, j: Js) -> Verdict:
    if p.kind == "crash":
        return Verdict.CRASH
    if p.kind == "error":
        return Verdict.PROJECT_REFUSES if j.kind == "value" else Verdict.BOTH_REFUSE
    if j.kind == "value":
        return Verdict.SAME if p.value == j.value else Verdict.DIFFERENT
    if j.lenient is not None and j.lenient.kind == "value" and j.lenient.value == p.value:
        return Verdict.SAME_LENIENT
    return Verdict.JS_THROWS
