"""The value model: what an expression can produce, and JavaScript's rules for turning values into text.

Values are `None` (null), `bool`, `float` (an IEEE double; `int` from outside data is accepted and read as a
number), `str`, `list`, `dict`, `Closure` (an arrow function), `Node` (parsed HTML), `Regex` and `SecretValue`
(what `otp.code` gives: it can be passed along, never read).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from tui.lang.expr.errors import EvalError, LangError, LimitError
from widgets_render.js_text import int_to_float as int_to_float  # the number writer is shared with the app
from widgets_render.js_text import num_to_str as num_to_str

#: Deepest nesting of lists/objects that stringify/equals/output will walk (language.md §7).
MAX_DEPTH = 64


class Closure:
    """An arrow function compiled from plugin text; only the standard library calls it."""

    __slots__ = ("bound", "cost", "fn", "nparams", "origin", "source")

    def __init__(self, fn: Callable[..., Any], nparams: int, cost: int, source: str) -> None:
        self.fn = fn
        """The compiled Python function; takes the arrow's parameters positionally."""
        self.nparams = nparams
        """How many parameters the arrow declares (the index is passed only when it asks for it)."""
        self.cost = cost
        """Evaluations one call costs: the caller charges one, the body the rest as it starts (language.md §8)."""
        self.source = source
        """The arrow's text, for messages."""
        self.origin: tuple[tuple[str, ...], str] | None = None
        """For a plugin function: (its parameters, its body), what a call site inlined from them checks."""
        self.bound: tuple[Any, ...] = ()
        """For a plugin function: the values its body's names had when it was made (in the order of
        compile_function(...).free_names), which an inlined copy of the body reads instead of its caller's."""

    def __repr__(self) -> str:
        return f"<function {self.source}>"


class Opaque:
    """Base of the values that are not JSON and cannot leave the interpreter (nodes, regexes, secrets)."""

    __slots__ = ()
    type_name = "opaque"
    #: What an error says where text is needed: that this value is not text and what to do with it instead
    #: (str() of it fails too, so the general advice "use str(x) or join()" would mislead).
    not_text: str | None = None

    def describe(self) -> str:
        """How an error message names this value ('a node'); a secret also says where it came from."""
        return article(self.type_name)

    def refusal(self) -> str | None:
        """Why this value may never become text or JSON, when the value says so itself (a secret), else None."""
        return None


def describe(v: Any) -> str:
    """A value's type as error messages name it: 'an array', 'null', or what an opaque value says of itself."""
    if isinstance(v, Opaque):
        return v.describe()
    return article(type_of(v))


def refusal_of(v: Any) -> str | None:
    """Why `v` refuses to be read at all (a secret's message naming its ability), or None."""
    return v.refusal() if isinstance(v, Opaque) else None


def is_num(v: Any) -> bool:
    """True for numbers (float, or int from outside data); never for booleans."""
    c = v.__class__
    return c is float or c is int


def type_of(v: Any) -> str:
    """The language's type name of a value, as the `type()` function returns it."""
    if v is None:
        return "null"
    c = v.__class__
    if c is bool:
        return "boolean"
    if c is float or c is int:
        return "number"
    if c is str:
        return "string"
    if c is list:
        return "array"
    if c is dict:
        return "object"
    if c is Closure:
        return "function"
    if isinstance(v, Opaque):
        return v.type_name
    raise EvalError(f"not a plugin value: {c.__name__}")


def truthy(v: Any) -> bool:
    """JavaScript truthiness: '', 0, NaN, null and false are falsy; [] and {} are truthy."""
    if v is None or v is False:
        return False
    if v is True:
        return True
    c = v.__class__
    if c is float:
        return v == v and v != 0.0
    if c is str or c is int:
        return bool(v)
    return True


#: First characters of an array-index key ('0', '7', '42'): only these can change an object's key order.
_DIGITS = frozenset("0123456789")
#: Array indexes stop below 2**32 - 1 (ECMA-262); a longer run of digits is an ordinary key.
_MAX_INDEX = 2**32 - 2


def _index(k: str) -> int | None:
    """The array index a key stands for ('0', '42'; not '01', '-1', '4294967295', '١'), or None."""
    if k == "0":
        return 0
    if k[:1] in _DIGITS and k[0] != "0" and len(k) <= 10 and k.isascii() and k.isdigit():
        n = int(k)
        return n if n <= _MAX_INDEX else None
    return None


def js_order(d: dict[str, Any]) -> dict[str, Any]:
    """`d` in JavaScript's key order: array-index keys first, ascending, then the others in insertion order.

    Objects keep insertion order (a dict); the order is applied where it can be seen — keys(), values(),
    entries(), stringify and a value leaving the interpreter — so building an object costs nothing more. The
    dict itself when no key starts with a digit, which is nearly always.
    """
    if not d or min(d) >= ":":  # no key can start with a digit: found in C, twice as fast as the loop below
        return d
    for k in d:
        if k[:1] in _DIGITS:
            break
    else:
        return d
    indexed = sorted((n, k) for k in d if (n := _index(k)) is not None)
    if not indexed:
        return d
    out = {k: d[k] for _, k in indexed}
    for k, v in d.items():
        if k not in out:
            out[k] = v
    return out


def to_str(v: Any) -> str:
    """JavaScript's String(v) for scalars; arrays and objects are an error (use str() or join())."""
    c = v.__class__
    if c is str:
        return v
    if v is None:
        return "null"
    if c is bool:
        return "true" if v else "false"
    if c is float or c is int:
        return num_to_str(v)
    why = refusal_of(v) or (v.not_text if isinstance(v, Opaque) else None)
    if why:
        raise EvalError(why)
    raise EvalError(f"cannot turn {article(type_of(v))} into text here; use str(x) or join()")


def to_text(v: Any, run: Any = None) -> str:
    """Text by the template rules (language.md §6): scalars as String(), arrays and objects as JSON.

    With a `run`, every item written is charged as it is reached (see stringify).
    """
    c = v.__class__
    if c is list or c is dict:
        return stringify(v, run=run)
    return to_str(v)


def article(type_name: str) -> str:
    """'an array', 'a string', 'null' — for messages."""
    if type_name == "null":
        return "null"
    return ("an " if type_name[0] in "aeiou" else "a ") + type_name


def stringify(v: Any, indent: int | None = None, limit: int | None = None, run: Any = None) -> str:
    """JSON.stringify: compact by default, numbers as JavaScript prints them, NaN/Infinity as null.

    With a `run` (a limits.Run), each list or object is charged one evaluation per item before it is
    written: writing an item costs far more than the characters it adds (a number is a few characters).

    Raises:
        LimitError: the text would pass `limit` characters (default: the language's string limit); checked
            while writing, so a list of many references to one big string fails before it is built. Or
            the run's budget is spent.
    """
    from tui.lang.expr.limits import MAX_STRING

    out = _JsonOut(MAX_STRING if limit is None else limit, run)
    _stringify(v, out, 0, indent)
    return "".join(out.parts)


#: JSON text of a string, exactly as json.dumps(s, ensure_ascii=False) writes it, without its per-call cost.
_encode_basestring: Callable[[str], str] = json.encoder.encode_basestring
#: A UTF-16 half on its own (legal in JSON data and in JavaScript strings; not encodable as UTF-8).
LONE_HALF = re.compile("[\ud800-\udfff]")


def _quote(text: str) -> str:
    """JSON text of a string as JavaScript's JSON.stringify writes it: a lone surrogate as its `\\udXXX` escape
    (ES2019's well-formed stringify), so the text can always be written out as UTF-8."""
    out = _encode_basestring(text)
    if out.isascii() or LONE_HALF.search(out) is None:
        return out
    return LONE_HALF.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


class _JsonOut:
    __slots__ = ("limit", "parts", "run", "size")

    def __init__(self, limit: int, run: Any) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit
        self.run = run

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size > self.limit:
            raise self.over()

    def over(self) -> LimitError:
        return LimitError(f"JSON text over the {self.limit:,}-character limit")


def _stringify(v: Any, out: _JsonOut, depth: int, indent: int | None) -> None:
    if depth > MAX_DEPTH:
        raise LimitError(f"nesting depth {MAX_DEPTH} exceeded")
    c = v.__class__
    if v is None:
        out.add("null")
    elif c is bool:
        out.add("true" if v else "false")
    elif c is float or c is int:
        out.add(num_to_str(v) if math.isfinite(v) else "null")
    elif c is str:
        if out.size + len(v) + 2 > out.limit:  # JSON text of a string is never shorter than the string
            raise out.over()
        out.add(_quote(v))
    elif c is list:
        if not v:
            out.add("[]")
            return
        if out.run is not None:
            out.run.charge(len(v))
        nl = "" if indent is None else "\n" + " " * (indent * (depth + 1))
        out.add("[" + nl)
        for i, item in enumerate(v):
            if i:
                out.add("," + nl)
            if item.__class__ is str and out.size + len(item) + 2 <= out.limit:
                out.add(_quote(item))  # texts, the most common items, without a call of _stringify each
            else:
                _stringify(item if item.__class__ is not Closure else None, out, depth + 1, indent)
        out.add("]" if indent is None else "\n" + " " * (indent * depth) + "]")
    elif c is dict:
        if not v:
            out.add("{}")
            return
        if out.run is not None:
            out.run.charge(len(v))
        nl = "" if indent is None else "\n" + " " * (indent * (depth + 1))
        sep = ":" if indent is None else ": "
        out.add("{")
        first = True
        for k, item in js_order(v).items():
            if item.__class__ is Closure:
                continue  # JSON.stringify drops function-valued keys
            if not first:
                out.add(",")
            first = False
            out.add(nl)
            out.add(_quote(k))
            out.add(sep)
            _stringify(item, out, depth + 1, indent)
        out.add("" if indent is None else "\n" + " " * (indent * depth))
        out.add("}")
    elif c is Closure:
        out.add("null")
    else:
        raise EvalError(refusal_of(v) or f"cannot turn {article(type_of(v))} into JSON")


#: Most values (list items and object values, all levels together) one piece of data may carry out of the
#: interpreter. Each takes at least two characters of JSON (itself and a separator), so a value with more
#: could never pass the language's string limit as text; walking it would only cost time and memory
#: (a list that holds itself twice, 25 levels deep, is 33 million values).
MAX_NODES = 524_288


def to_json(v: Any, path: str = "result") -> Any:
    """Turn a value that leaves the interpreter into plain JSON data.

    Whole numbers become `int` (`2`, not `2.0`), NaN and ±Infinity become `None`, and a function or node is
    an error naming where it sits (`result[3].link`). The path is worked out only when there is an error.

    Raises:
        EvalError: a function, node or regex in the value. LimitError: nesting deeper than MAX_DEPTH, or
            more than MAX_NODES values.
    """
    return to_json_measured(v, path)[0]


def to_json_measured(v: Any, path: str = "result") -> tuple[Any, int, int]:
    """to_json, with the characters of its texts and keys (a floor under its JSON text's length) and how
    many more characters JavaScript's number text takes than json.dumps's ('1e-7' against 1e-07)."""
    try:
        return _to_json(v, 0, left := [MAX_NODES, 0, 0]), left[1], left[2]
    except _Misplaced as e:
        raise e.error(path + "".join(reversed(e.keys))) from None


class _Misplaced(Exception):
    """A value that cannot leave, found somewhere below: each container it passes adds its key on the way up."""

    def __init__(self, value: Any, depth_error: bool) -> None:
        super().__init__()
        self.value = value
        self.child = value
        self.depth_error = depth_error
        self.keys: list[str] = []

    def error(self, path: str) -> LangError:
        if self.depth_error:
            return LimitError(f"nesting depth {MAX_DEPTH} exceeded at {path}")
        why = refusal_of(self.value)  # a secret says itself which ability it came from and who may take it
        if why:
            return EvalError(f"{path}: {why}")
        return EvalError(f"{path} is {article(type_of(self.value))}, which cannot be part of a result")

    def passing(self, container: Any, key: str) -> _Misplaced:
        self.keys.append(key)
        self.child = container
        return self


def well_formed(text: str) -> str:
    """`text` as UTF-8 can carry it: each lone surrogate as U+FFFD, as JavaScript's TextEncoder (and so `fetch`)
    sends it. Data leaving the interpreter is written as UTF-8 (a request, the store, the model)."""
    if text.isascii() or LONE_HALF.search(text) is None:
        return text  # the same object: nearly always
    return LONE_HALF.sub("\ufffd", text)  # one code point for one: every position stays the same


def _path_key(k: str) -> str:
    if len(k) > 64:  # a path names where the fault is; a key of a million characters would not help
        return f"[{json.dumps(k[:60] + '…', ensure_ascii=False)}]"
    return f".{k}" if k.isidentifier() else f"[{json.dumps(k, ensure_ascii=False)}]"


def _to_json(v: Any, depth: int, left: list[int]) -> Any:
    if depth > MAX_DEPTH:
        raise _Misplaced(v, True)
    c = v.__class__
    if c is str:
        left[1] += len(v)
        return v if v.isascii() else well_formed(v)
    if v is None or c is bool or (c is int and abs(v) < 2**53):
        return v
    if c is float or c is int:
        f = v if c is float else int_to_float(v)
        if not math.isfinite(f):
            return None  # as JSON.stringify writes Infinity and NaN
        if f == int(f) and abs(f) < 1e21:
            # a whole number prints as JavaScript prints it: 2**53 as 9007199254740992, not ….0; 1e16 in full,
            # not 1e+16; above 2**53 with JavaScript's digits (1.2345678901234567e20 as 123456789012345670000)
            return int(f) if abs(f) < 2**53 else int(num_to_str(f))
        left[2] += len(num_to_str(f)) - len(repr(f))
        return f
    if c is list or c is dict:
        left[0] -= len(v)
        if left[0] < 0:
            raise LimitError(f"a value of more than {MAX_NODES:,} items cannot leave the interpreter")
        if c is list:
            try:
                return [_to_json(x, depth + 1, left) for x in v]
            except _Misplaced as e:
                i = next(i for i, x in enumerate(v) if x is e.child)
                raise e.passing(v, f"[{i}]") from None
        left[1] += sum(map(len, v))
        try:
            v = js_order(v)
            return {(k if k.isascii() else well_formed(k)): _to_json(x, depth + 1, left) for k, x in v.items()}
        except _Misplaced as e:
            k = next(k for k, x in v.items() if x is e.child)
            raise e.passing(v, _path_key(k)) from None
    raise _Misplaced(v, False)


def from_json(v: Any, depth: int = 0) -> Any:
    """Bring outside data into the value model: ints become floats, tuples lists; anything else is refused."""
    if depth > MAX_DEPTH:
        raise LimitError(f"nesting depth {MAX_DEPTH} exceeded in data")
    c = v.__class__
    if v is None or c is bool or c is str or c is float:
        return v
    if c is int:
        return int_to_float(v)
    if c is list or c is tuple:
        return [from_json(x, depth + 1) for x in v]
    if c is dict:
        out = {}
        for k, x in v.items():
            if k.__class__ is not str:
                raise EvalError(f"object keys must be text, got {k!r}")
            out[k] = from_json(x, depth + 1)
        return out
    if c is Closure or isinstance(v, Opaque):
        return v
    raise EvalError(f"not JSON data: {c.__name__}")
