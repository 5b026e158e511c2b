"""Recognisers for the PENDING entries: cheap looks at a finding (which functions it calls, what an error
says) and value comparisons that forgive one known cause (-0, a lone surrogate's escape, the last digit).

Each takes a finding (and the lab, for the entries that rerun the case) and says whether the entry explains
it. They are deliberately narrow: a recogniser that explains too much would hide a new bug.
"""

from __future__ import annotations

import re
from typing import Any

from . import render as R
from . import tree as T
from .documented import text_of, uses_regex
from .lab import JS_LINE_ENDS, Finding, Lab
from .outcomes import Canon, Verdict

#: The verdicts an entry may explain.
DIFF = (Verdict.DIFFERENT,)
REFUSES = (Verdict.PROJECT_REFUSES,)
THROWS = (Verdict.JS_THROWS,)
CRASH = (Verdict.CRASH,)
ANY = (Verdict.DIFFERENT, Verdict.PROJECT_REFUSES, Verdict.JS_THROWS)


def map(c: Canon, leaf: Any) -> Canon:
    """Apply `leaf` to every scalar of a canonical value, keeping its shape."""
    if c[0] == "arr":
        return ("arr", tuple(map(x, leaf) for x in c[1]))
    if c[0] == "obj":
        return ("obj", tuple((k, map(x, leaf)) for k, x in c[1]))
    return leaf(c)  # type: ignore[no-any-return]


def unsigned(c: Canon) -> Canon:
    return map(c, lambda x: ("num", "0.0") if x == ("num", "-0.0") else x)


def equal_but(f: Finding, norm: Any) -> bool:
    """Equal once `norm` is applied to both values (JavaScript's value with its own coercions, if need be)."""
    js = f.js.value if f.js.lenient is None else f.js.lenient.value
    return f.project.value is not None and js is not None and norm(f.project.value) == norm(js)


def calls(f: Finding, *names: str) -> bool:
    return any(
        (isinstance(n, T.Call) and n.fname in names) or (isinstance(n, T.MCall) and n.name in names)
        for n in T.walk(f.tree)
    )


def negative_zero(f: Finding, lab: Lab) -> bool:
    return equal_but(f, unsigned)


def surrogate_crash(f: Finding, lab: Lab) -> bool:
    return "surrogates not allowed" in f.project.error


def overflow_crash(f: Finding, lab: Lab) -> bool:
    return f.project.error.startswith("OverflowError")


def empty_arrow_crash(f: Finding, lab: Lab) -> bool:
    return f.project.error.startswith("SyntaxError") and any(
        isinstance(n, T.Arrow) and not n.params for n in T.walk(f.tree)
    )


def invalid_url(f: Finding, lab: Lab) -> bool:
    return f.js.error.startswith("TypeError: Invalid URL")


def num_of_non_text(f: Finding, lab: Lab) -> bool:
    return f.js.error.startswith("sig: num() reads a number or a text")


def variadic_needs_one(f: Finding, lab: Lab) -> bool:
    return "takes at least 1 argument" in f.project.error and f.project.error.endswith("got 0")


def calls_num(f: Finding) -> bool:
    return calls(f, "num", "int")


def optional_call_chain(f: Finding, lab: Lab) -> bool:
    links = (T.Member, T.Index, T.MCall)
    return any(
        isinstance(n, links) and isinstance(n.obj, T.MCall) and n.obj.optcall
        for n in T.walk(f.tree)
        if isinstance(n, links)
    )


def from_entries_pairs(f: Finding, lab: Lab) -> bool:
    return "fromEntries() expects" in f.project.error


def array_key(f: Finding, lab: Lab) -> bool:
    return "an array cannot be used as" in f.project.error


def escaped_surrogates(c: Canon) -> Canon:
    """Texts with each lone surrogate written as JSON.stringify writes it (\\ud800)."""

    def leaf(x: Canon) -> Canon:
        if x[0] != "str":
            return x
        return ("str", "".join(f"\\u{ord(ch):04x}" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in x[1]))

    return map(c, leaf)


def stringify_surrogate(f: Finding, lab: Lab) -> bool:
    return calls(f, "str", "stringify") and equal_but(f, escaped_surrogates)


def surrogates_stringified(f: Finding) -> bool:
    return calls(f, "str", "stringify") and any(0xD800 <= ord(c) <= 0xDFFF for c in text_of(f))


def url_text(f: Finding, lab: Lab) -> bool:
    return calls(f, "url")


def url_parts(f: Finding, lab: Lab) -> bool:
    return calls(f, "parseUrl")


def empty_match(f: Finding, lab: Lab) -> bool:
    """A pattern that can match the empty text ('$', 'x*', '[^,]*') in matchAll/replace/split."""
    if not calls(f, "matchAll", "replace", "replaceAll", "split"):
        return False
    for n in T.walk(f.tree):
        if isinstance(n, T.Str):
            try:
                if re.match(R.cook(n.raw).removeprefix("(?i)"), "") is not None and R.cook(n.raw) != "":
                    return True
            except re.error:
                pass
    return False


def lenient_dates(f: Finding, lab: Lab) -> bool:
    return f.js.error.startswith("bad-arg: cannot read") and "as a date" in f.js.error


def index_of_identity(f: Finding, lab: Lab) -> bool:
    return calls(f, "indexOf", "includes", "lastIndexOf")


def round_digits(f: Finding, lab: Lab) -> bool:
    return any(isinstance(n, T.Call) and n.fname == "round" and len(n.args) == 2 for n in T.walk(f.tree))


def lenient_decode(f: Finding, lab: Lab) -> bool:
    return f.js.error.startswith("URIError") and calls(f, "decodeURIComponent")


def close(c: Canon) -> Canon:
    """Numbers (and texts that are a number) to 14 significant digits: equal when two values differ only in
    the last digits of a double."""

    def leaf(x: Canon) -> Canon:
        if x[0] == "num":
            return ("num", f"{float(x[1]):.14g}")
        if x[0] == "str":
            return ("str", NUMBER.sub(lambda m: f"{float(m[0]):.14g}", x[1]))
        return x

    return map(c, leaf)


NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?")


def last_digit(f: Finding, lab: Lab) -> bool:
    """Only V8's `**` is not C's pow: + - * / and the rounding functions are exact on both sides."""
    return any(isinstance(n, T.Bin) and n.op == "**" for n in T.walk(f.tree)) and equal_but(f, close)


def regex_and_line_ends(f: Finding) -> bool:
    return uses_regex(f) and any(c in JS_LINE_ENDS for c in text_of(f))


def object_key(f: Finding, lab: Lab) -> bool:
    return "Cannot convert object to primitive value" in f.js.error


def first_of_null(f: Finding, lab: Lab) -> bool:
    return f.js.error.startswith("sig: first() argument 1 must be L, got null")


def diff_minutes(f: Finding, lab: Lab) -> bool:
    return calls(f, "diffMinutes")


def calls_num_or_pct(f: Finding) -> bool:
    return calls(f, "num", "int", "pct")


def calls_get(f: Finding) -> bool:
    return calls(f, "get")


def negative_split_limit(f: Finding, lab: Lab) -> bool:
    return any(
        isinstance(n, T.Call | T.MCall)
        and (n.fname if isinstance(n, T.Call) else n.name) == "split"
        and any(isinstance(a, T.Unary) and a.op == "-" for a in n.args)
        for n in T.walk(f.tree)
    )
