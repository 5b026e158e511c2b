"""Text functions with JavaScript's meaning: split, replace, padStart, substring, trim and the rest."""

from __future__ import annotations

import math
from typing import Any

from tui.lang.expr.errors import EvalError
from tui.lang.expr.limits import MAX_ITEMS, Run, cap_text
from tui.lang.expr.stdlib.measured import Replacement
from tui.lang.expr.stdlib.regex import Regex, call_replacer
from tui.lang.expr.stdlib.registry import ABSENT, FUNCTIONS, alias, bad, builtin, want_int, want_num, want_str
from tui.lang.expr.values import Closure, to_str, to_text

G = "strings"

#: JavaScript's WhiteSpace and LineTerminator set (what trim() removes) — not Python's str.strip set.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"  # noqa: E501


#: Characters trim() reads per evaluation: JavaScript's white space is 25 characters, not all Latin-1, so
#: str.strip tests each character against the set (about 10 ns a character).
_STRIP_CHARS = 16


@builtin(G, "Text without leading and trailing white space.", ("trim('  二教  ')", "二教"))
def trim(run: Run, s: Any) -> str:
    t = want_str(s, "trim")
    run.charge(len(t) // _STRIP_CHARS)
    return t.strip(JS_SPACE)


@builtin(G, "Text without leading white space.", ("trimStart('  a ')", "a "))
def trimStart(run: Run, s: Any) -> str:
    t = want_str(s, "trimStart")
    run.charge(len(t) // _STRIP_CHARS)
    return t.lstrip(JS_SPACE)


@builtin(G, "Text without trailing white space.", ("trimEnd('  a ')", "  a"))
def trimEnd(run: Run, s: Any) -> str:
    t = want_str(s, "trimEnd")
    run.charge(len(t) // _STRIP_CHARS)
    return t.rstrip(JS_SPACE)


@builtin(G, "Lower-case text.", ("lower('ABC')", "abc"))
def lower(run: Run, s: Any) -> str:
    t = want_str(s, "lower")
    run.charge_text(len(t))
    return _capped(t.lower())


@builtin(G, "Upper-case text.", ("upper('abc')", "ABC"))
def upper(run: Run, s: Any) -> str:
    t = want_str(s, "upper")
    run.charge_text(len(t))
    return _capped(t.upper())


def _capped(out: str) -> str:
    # Case mapping can lengthen text ('ﬃ'.upper() is 'FFI'), by at most three times: bounded, so it is
    # checked after it is made.
    cap_text(len(out))
    return out


alias("toLowerCase", "lower", "Same as lower().", ("'ABC'.toLowerCase()", "abc"))
alias("toUpperCase", "upper", "Same as upper().", ("'abc'.toUpperCase()", "ABC"))


@builtin(
    G,
    "The pieces of a text between separators (text or regex()); '' splits into characters.",
    ("'a,b,,c'.split(',')", ["a", "b", "", "c"]),
    ("'a1b22c'.split(regex('\\d+'))", ["a", "b", "c"]),
)
def split(run: Run, s: Any, sep: Any = ABSENT, limit: Any = ABSENT) -> list[Any]:
    text = want_str(s, "split")
    # JavaScript's limit is ToUint32: -1 is 4294967295, so no limit
    lim = MAX_ITEMS if limit is ABSENT else min(MAX_ITEMS, want_int(limit, "split") % 2**32)
    if sep is ABSENT:
        parts = [text]
    elif isinstance(sep, Regex):
        parts = sep.split(run, text, lim)
    elif sep == "":
        # Counted before a list of characters is made; without a limit every piece counts (a text of a
        # million characters is over the list limit, not cut to its first 100,000).
        run.charge_items(len(text) if limit is ABSENT else min(len(text), lim))
        parts = list(text[:lim])
    else:
        sep_text = to_str(sep)
        count = text.count(sep_text) + 1  # in C, before the list is made
        run.charge_items(count if limit is ABSENT else min(count, lim))
        parts = text.split(sep_text, lim) if lim < MAX_ITEMS else text.split(sep_text)
    return parts[:lim]  # a regex split charged per match as it went


def _replace_text(run: Run, text: str, pat: str, repl: Any, every: bool) -> str:
    if pat not in text:
        return text
    size, width = len(text), len(pat)
    # Count first (in C), so the budget fails before a list of a million positions is made.
    found = (size + 1 if pat == "" else text.count(pat)) if every else 1
    run.charge(found)  # each occurrence is found and replaced in Python
    if pat == "":
        positions: Any = range(size + 1) if every else range(1)
    else:
        positions = []
        i = text.find(pat)
        while i >= 0:
            positions.append(i)
            if not every:
                break
            i = text.find(pat, i + width)
    pieces: list[str] = []
    start = 0
    if repl.__class__ is str:
        r = Replacement(repl, 0)
        # The output's length from the counts alone: charged (or refused) before a character is copied.
        run.charge_text(r.total(size, found, width, sum(positions) if r.before or r.after else 0))
        for p in positions:
            pieces.append(text[start:p])
            pieces.append(r.build(text, p, p + width))
            start = p + width
    else:
        for p in positions:
            pieces.append(text[start:p])
            pieces.append(call_replacer(run, repl, pat, (), p, text))
            start = p + width
        run.charge_text(sum(map(len, pieces)) + size - start)
    pieces.append(text[start:])
    return "".join(pieces)


def _repl_arg(repl: Any, fname: str) -> Any:
    if repl.__class__ is Closure or repl.__class__ is str:
        return repl
    if repl.__class__ in (list, dict):
        raise bad(fname, "replacement text or a function", repl)
    return to_str(repl)


@builtin(
    G,
    "With a text pattern: the first occurrence replaced (as JavaScript); with regex(): every match, "
    "$1…$99, $<name> and $& allowed (§6).",
    ("'a-b-c'.replace('-', '+')", "a+b-c"),
    ("replace('a1b22', regex('\\d+'), '#')", "a#b#"),
    ("replace('2026-11-30', regex('(\\d+)-(\\d+)-(\\d+)'), '$3/$2')", "30/11"),
)
def replace(run: Run, s: Any, pattern: Any, repl: Any) -> str:
    return _replace(run, s, pattern, repl, "replace", every=False)


def _replace(run: Run, s: Any, pattern: Any, repl: Any, fname: str, every: bool) -> str:
    text = want_str(s, fname)
    r = _repl_arg(repl, fname)
    if isinstance(pattern, Regex):
        return pattern.replace(run, text, r)
    return _replace_text(run, text, _text_pattern(pattern, fname), r, every=every)


def _text_pattern(p: Any, fname: str) -> str:
    if p.__class__ in (list, dict) or p.__class__ is Closure:
        raise bad(fname, "a text or regex() pattern", p)
    return to_str(p)


@builtin(G, "Every occurrence replaced.", ("'a-b-c'.replaceAll('-', '+')", "a+b+c"))
def replaceAll(run: Run, s: Any, pattern: Any, repl: Any) -> str:
    return _replace(run, s, pattern, repl, "replaceAll", every=True)


@builtin(G, "True when the text starts with `prefix` (at `position`).", ("'Hello'.startsWith('He')", True))
def startsWith(run: Run, s: Any, prefix: Any, position: Any = ABSENT) -> bool:
    text = want_str(s, "startsWith")
    p = 0 if position is ABSENT else min(max(0, want_int(position, "startsWith")), len(text))
    pre = _text_pattern(prefix, "startsWith")
    run.charge_scan(min(len(pre), len(text)))
    return text.startswith(pre, p)


@builtin(G, "True when the text ends with `suffix` (before `endPosition`).", ("'北大'.endsWith('大')", True))
def endsWith(run: Run, s: Any, suffix: Any, end_position: Any = ABSENT) -> bool:
    text = want_str(s, "endsWith")
    e = len(text) if end_position is ABSENT else min(max(0, want_int(end_position, "endsWith")), len(text))
    suf = _text_pattern(suffix, "endsWith")
    run.charge_scan(min(len(suf), len(text)))
    return text.endswith(suf, 0, e)  # not text[:e]: that would copy the text


def _pad(run: Run, s: Any, length: Any, fill: Any, fname: str, left: bool) -> str:
    text = want_str(s, fname)
    n = want_int(length, fname)
    f = " " if fill is ABSENT else to_str(fill)  # an explicit null pads with 'null', as in JavaScript
    if n <= len(text) or f == "":
        return text
    run.charge_text(n)  # before anything is built: raises past the string limit
    need = n - len(text)
    pad = (f * (need // len(f) + 1))[:need]
    return pad + text if left else text + pad


@builtin(G, "Text padded at the start to `length` with `fill` (default ' ').", ("'7'.padStart(3, '0')", "007"))
def padStart(run: Run, s: Any, length: Any, fill: Any = ABSENT) -> str:
    return _pad(run, s, length, fill, "padStart", True)


@builtin(G, "Text padded at the end to `length`.", ("'ab'.padEnd(4, '.')", "ab.."))
def padEnd(run: Run, s: Any, length: Any, fill: Any = ABSENT) -> str:
    return _pad(run, s, length, fill, "padEnd", False)


@builtin(G, "The text `count` times.", ("'ab'.repeat(3)", "ababab"))
def repeat(run: Run, s: Any, count: Any) -> str:
    text = want_str(s, "repeat")
    c = want_num(count, "repeat")
    if c < 0 or math.isinf(c):
        raise EvalError("repeat() count must be a finite number ≥ 0")
    k = 0 if c != c else int(c)  # NaN counts as 0, as in JavaScript
    if not text:
        return ""
    run.charge_text(len(text) * k)
    return text * k


@builtin(
    G,
    "Text between two indexes (swapped when start > end; negatives are 0).",
    ("'Hello'.substring(1, 3)", "el"),
    ("'Hello'.substring(3, 1)", "el"),
)
def substring(run: Run, s: Any, start: Any, end: Any = ABSENT) -> str:
    text = want_str(s, "substring")
    n = len(text)
    a = min(max(0, want_int(start, "substring")), n)
    b = n if end is ABSENT else min(max(0, want_int(end, "substring")), n)
    if a > b:
        a, b = b, a
    run.charge_scan(b - a)  # a copy of that many characters
    return text[a:b]


@builtin(G, "The character at an index, or ''.", ("'abc'.charAt(1)", "b"))
def charAt(run: Run, s: Any, index: Any = 0.0) -> str:
    text = want_str(s, "charAt")
    i = want_int(index, "charAt")
    return text[i] if 0 <= i < len(text) else ""


@builtin(
    G,
    "Last position of a substring (or of a value in a list), or -1.",
    ("'a-b-c'.lastIndexOf('-')", 3),
    ("[1, 2, 1].lastIndexOf(1)", 2),
    ("'abcabc'.lastIndexOf('b', 3)", 1),
    min_args=2,
    max_args=3,
)
def lastIndexOf(run: Run, hay: Any, needle: Any, *start: Any) -> float:
    # `start` as JavaScript reads fromIndex/position: the last match at or before it
    if hay.__class__ is list:
        from tui.lang.expr.stdlib.lists import same_value_zero

        run.charge(len(hay))  # one comparison in Python per item
        k = len(hay) - 1
        if start:
            n = want_int(start[0], "lastIndexOf")  # NaN is 0; negative counts from the end
            k = min(n, k) if n >= 0 else len(hay) + n
        for i in range(k, -1, -1):
            x = hay[i]
            if same_value_zero(x, needle) and x == x:
                return float(i)
        return -1.0
    text = want_str(hay, "lastIndexOf")
    sub = _text_pattern(needle, "lastIndexOf")
    run.charge_scan(len(text))
    at = len(text)
    pos = want_num(start[0], "lastIndexOf") if start else math.nan
    if pos == pos:  # NaN (or no position): from the end
        at = min(max(want_int(pos, "lastIndexOf"), 0), at)
    return float(text.rfind(sub, 0, at + len(sub)))


@builtin(
    "text",
    "Text by the template rules: numbers as JavaScript prints them, lists and objects as JSON.",
    ("str(4 / 2)", "2"),
    ("str(null)", "null"),
    ("str([1, 'a'])", '[1,"a"]'),
)
def str_(run: Run, v: Any) -> str:
    out = to_text(v, run)
    run.charge_text(len(out))
    return out


assert "str" in FUNCTIONS
