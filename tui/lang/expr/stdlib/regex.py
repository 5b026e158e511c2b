"""Regular expressions on RE2 (linear time): test, match, matchAll, regex() (language.md §5, threats §3.2)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import re2
from re2 import _re2  # type: ignore[attr-defined]  # the binding google-re2 wraps: one call per match

from tui.lang.expr.errors import RegexError
from tui.lang.expr.limits import MAX_PATTERN, MAX_PATTERNS_PER_RUN, MAX_STRING, Run
from tui.lang.expr.stdlib.measured import Replacement
from tui.lang.expr.stdlib.registry import bad, builtin, want_str
from tui.lang.expr.values import LONE_HALF, Opaque, to_str, well_formed

G = "regex"

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # RE2 would print compile errors over the terminal UI (threats.md R4)
_OPTIONS.max_mem = 8 << 20

#: Compiled patterns shared by all runs (patterns are pure), bounded.
_CACHE: dict[str, Any] = {}
_CACHE_MAX = 2048

#: Constructs RE2 refuses, found before compiling so the message can name them and suggest a way out.
_UNSUPPORTED = (
    ("(?=", "lookahead (?=…) is not supported (RE2 has no lookaround)"),
    ("(?!", "negative lookahead (?!…) is not supported (RE2 has no lookaround)"),
    ("(?<=", "lookbehind (?<=…) is not supported (RE2 has no lookaround)"),
    ("(?<!", "negative lookbehind (?<!…) is not supported (RE2 has no lookaround)"),
    ("(?>", "atomic groups (?>…) are not supported"),
)


#: Evaluations per match found by matchAll, replace, replaceAll and split, and per group of it: one RE2
#: search from Python takes about a microsecond, each group about half as much again, and the match is
#: then read and copied (1.5 µs in all). In text that is not ASCII every position is also converted from
#: UTF-8 bytes to characters (two more calls into RE2's binding per match): three times as much.
MATCH_COST = 6
GROUP_COST = 2

Span = tuple[int, int]
Spans = list[Span]
"""Where a match and its groups are in the text: [(start, end) of the match, of group 1, …], (-1, -1) for a
group that took no part."""

_UNANCHORED = _re2.RE2.Anchor.UNANCHORED


class Regex(Opaque):
    """A compiled pattern, the value of regex(text); its type is 'regex'.

    Every match costs MATCH_COST evaluations plus GROUP_COST per capturing group (RE2 reports a position for
    each group of each match), charged as it is found; the text of groups is charged from their positions before
    any of it is copied: 330 groups over 100,000 matches stop at the budget instead of building 33 million
    strings.
    """

    __slots__ = ("groups", "pattern", "re", "weight")
    type_name = "regex"
    not_text = "a regex is not text: use it with test(), match(), matchAll(), replace() or split()"

    def __init__(self, pattern: str, compiled: Any) -> None:
        self.pattern = pattern
        self.re = compiled
        self.groups: int = compiled.groups
        """How many capturing groups the pattern has."""
        self.weight = max(64, self.groups * self.groups)
        """Cost of searching 4,096 characters. RE2 finds a match in linear time, but working out where
        nested groups begin and end is slower the more groups there are (measured per million characters:
        10 groups 0.24 s, 30 groups 1 s, 100 groups 6.5 s, 300 groups 58 s), so patterns of more than 8
        groups are charged by the square of their count; up to 8, one evaluation per 64 characters."""

    def scan_cost(self, text: str) -> int:
        """What searching `text` costs, charged before RE2 runs."""
        return 1 + len(text) * self.weight // 4096

    def search(self, run: Run, text: str) -> Spans | None:
        """The first match, or None."""
        run.charge(self.scan_cost(text))
        return next(self._spans(text), None)

    def finditer(self, run: Run, text: str) -> list[Spans]:
        """Every match, each charged as it is found (the budget stops a text of 100,000 matches after a few
        thousand, not after all of them were collected)."""
        run.charge(self.scan_cost(text))
        per_match = (MATCH_COST + GROUP_COST * self.groups) * (1 if text.isascii() else 3)
        out = []
        for m in self._spans(text):
            run.used += per_match
            if run.used > run.stop:
                run.over()
            out.append(m)
        return out

    def _spans(self, text: str) -> Iterator[Spans]:
        """The matches from left to right, as JavaScript's matchAll finds them (after an empty match the next
        search starts one character later), without google-re2's per-match Python: one RE2 call per match,
        and for ASCII text no offset conversion at all (3x faster)."""
        raw = getattr(self.re, "_regexp", None)
        text = well_formed(text)  # RE2 reads UTF-8; positions stay, the caller cuts groups from its own text
        if raw is None:  # another binding than google-re2's: its own iterator
            for m in self.re.finditer(text):
                yield [m.span(k) for k in range(self.groups + 1)]
            return
        data = text.encode()
        end = len(data)
        ascii_only = end == len(text)
        pos = base_byte = base_char = 0
        while True:
            spans = raw.Match(_UNANCHORED, data, pos, end)
            start, stop = spans[0]
            if start == -1:
                return
            if ascii_only:
                yield spans
            else:
                # Byte offsets to characters: the match start from the last one, its groups from the start.
                base_char += _re2.BytesToCharLen(data, base_byte, start)
                base_byte = start
                yield [(-1, -1) if a == -1 else (base_char + _chars(data, start, a), base_char + _chars(data, start, b))
                       for a, b in spans]  # fmt: skip
            if start == stop:  # an empty match: the next search starts one character after it, as in JavaScript
                if stop == end:  # (google-re2's own finditer reports an empty match at the end twice)
                    return
                pos = stop + _re2.CharLenToBytes(data, stop, 1)
            else:
                pos = stop

    def group_chars(self, m: Spans) -> int:
        """Characters the groups of match `m` hold (the whole match not included)."""
        return sum(b - a for a, b in m[1:])

    def replace(self, run: Run, text: str, repl: Any) -> str:
        """Every match replaced by `repl`: replacement text (measured before building) or a function."""
        matches = self.finditer(run, text)
        size = len(text)
        pieces: list[str] = []
        last = 0
        if repl.__class__ is str:
            r = Replacement(repl, self.groups, self.re.groupindex)
            total = size
            for m in matches:
                a, b = m[0]
                total += r.length(size, a, b, m if r.groups else ())
                total -= b - a
                if total > MAX_STRING:
                    break  # refused below, before anything is built
            run.charge_text(total)
            for m in matches:
                a, b = m[0]
                pieces.append(text[last:a])
                pieces.append(r.build(text, a, b, _group_texts(text, m) if r.groups else ()))
                last = b
        else:
            for m in matches:
                a, b = m[0]
                run.charge_scan(b - a + self.group_chars(m))  # the texts handed to the function
                pieces.append(text[last:a])
                pieces.append(call_replacer(run, repl, text[a:b], _group_texts(text, m), a, text))
                last = b
            run.charge_text(sum(map(len, pieces)) + size - last)
        pieces.append(text[last:])
        return "".join(pieces)

    def split(self, run: Run, text: str, limit: int) -> list[Any]:
        """The pieces between matches, with the groups of each match; at most `limit` items."""
        if not text:  # JavaScript: no pieces when the pattern matches the empty text, else the text itself
            return [] if self.search(run, text) is not None or limit == 0 else [text]
        out: list[Any] = []
        last = 0
        for m in self.finditer(run, text):
            a, b = m[0]
            if a == b and (a == last or a == len(text)):
                continue  # JavaScript: an empty match where the last piece ended, or at the end, splits nothing
            if self.groups:
                run.charge_scan(self.group_chars(m))
            out.append(text[last:a])
            out.extend(_group_texts(text, m))
            last = b
            if len(out) >= limit:
                break
        out.append(text[last:])
        return out

    def match_lists(self, run: Run, text: str, matches: list[Spans]) -> list[list[Any]]:
        """Each match as [whole, group1, …], its text charged before it is copied."""
        chars = 0
        for m in matches:
            a, b = m[0]
            chars += b - a + self.group_chars(m)
        run.charge_scan(chars)
        return [[text[m[0][0] : m[0][1]], *_group_texts(text, m)] for m in matches]

    def __repr__(self) -> str:
        return f"regex({self.pattern!r})"


def _chars(data: bytes, start: int, at: int) -> int:
    return _re2.BytesToCharLen(data, start, at) if at > start else 0


def _group_texts(text: str, m: Spans) -> tuple[str | None, ...]:
    """The texts of the groups of a match (None for a group that took no part), as re's groups() gives."""
    return tuple(None if a == -1 else text[a:b] for a, b in m[1:])


def call_replacer(run: Run, fn: Any, match: str, groups: tuple[str | None, ...], offset: int, text: str) -> str:
    """The text a replacement function gives for one match, called as JavaScript calls it: (match, group1, …,
    offset, whole text)."""
    run.charge(1)
    return to_str(fn.fn(match, *groups, float(offset), text))


def translate(pattern: str) -> str:
    """Check a plugin pattern and turn the language's flags into RE2's.

    Leading flag groups may hold i, m, s and u; `u` is dropped (RE2 always matches UTF-8) and `U` is refused
    (in RE2 it means ungreedy, which is not what a JavaScript author means).
    """
    if len(pattern) > MAX_PATTERN:
        raise RegexError(f"pattern is {len(pattern):,} characters; the limit is {MAX_PATTERN:,}")
    flags = ""
    rest = pattern
    while rest.startswith("(?") and ")" in rest[:8]:
        end = rest.index(")")
        group = rest[2:end]
        if not group or any(c not in "imsuU" for c in group):
            break
        if "U" in group:
            raise RegexError("flag U is not supported (RE2 reads it as 'ungreedy'); flags are i, m, s and u")
        flags += group.replace("u", "")
        rest = rest[end + 1 :]
    _check_constructs(rest)
    flags = "".join(sorted(set(flags)))
    return (f"(?{flags})" if flags else "") + rest


def _check_constructs(p: str) -> None:
    for text, msg in _UNSUPPORTED:
        if text in p:
            raise RegexError(msg)
    i, n = 0, len(p)
    in_class = False
    while i < n:
        ch = p[i]
        if ch == "\\" and i + 1 < n:
            nxt = p[i + 1]
            if not in_class and nxt in "123456789":
                raise RegexError(f"backreference \\{nxt} is not supported (RE2 matches in linear time)")
            if nxt == "Z":
                raise RegexError("\\Z is not supported: use \\z or $")
            if nxt == "k" and i + 2 < n and p[i + 2] == "<":
                raise RegexError("named backreferences \\k<…> are not supported")
            i += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif not in_class and ch in "*+?}" and i + 1 < n and p[i + 1] == "+":
            raise RegexError(f"possessive quantifier {ch}+ is not supported")
        i += 1
    if p.startswith("(?") and not p.startswith(("(?:", "(?P<", "(?<", "(?i", "(?m", "(?s")):
        raise RegexError(f"unsupported group {as_written(p[:4])}")


def as_written(pattern: str) -> str:
    """A pattern quoted as the author wrote it: backslashes single (`'\\d'` in an expression is `\\d`, §10), only
    line breaks and tabs escaped so the message stays on one line."""
    quote = '"' if "'" in pattern and '"' not in pattern else "'"
    return quote + pattern.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + quote


def compile_pattern(run: Run | None, pattern: str) -> Regex:
    """Compile (or fetch) a pattern; errors name the construct or RE2's reason."""
    if run is not None:
        hit = run.regexes.get(pattern)
        if hit is not None:
            return hit
        if len(run.regexes) >= MAX_PATTERNS_PER_RUN:
            raise RegexError(f"more than {MAX_PATTERNS_PER_RUN} distinct patterns in one run")
        run.charge(1 + len(pattern))
    compiled = _CACHE.get(pattern)
    if compiled is None:
        if not pattern.isascii() and LONE_HALF.search(pattern):
            raise RegexError(
                f"invalid regular expression {as_written(pattern)}: a lone UTF-16 surrogate cannot be matched"
            )
        translated = translate(pattern)
        try:
            compiled = re2.compile(translated, _OPTIONS)
        except re2.error as e:
            reason = e.args[0].decode() if e.args and isinstance(e.args[0], bytes) else str(e)
            raise RegexError(f"invalid regular expression {as_written(pattern)}: {reason}") from None
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[pattern] = compiled
    rx = Regex(pattern, compiled)
    if run is not None:
        run.regexes[pattern] = rx
    return rx


def as_regex(run: Run, v: Any, fname: str) -> Regex:
    if isinstance(v, Regex):
        return v
    if v.__class__ is str:
        return compile_pattern(run, v)
    raise bad(fname, "a pattern (text or regex())", v)


@builtin(
    G,
    "A pattern value, for replace(), replaceAll() and split() to treat as a regex.",
    ("type(regex('\\d+'))", "regex"),
)
def regex(run: Run, pattern: Any) -> Regex:
    return compile_pattern(run, want_str(pattern, "regex"))


@builtin(G, "True when the pattern matches somewhere in the text.", ("test('Yanyuan', '(?i)^yanyuan')", True))
def test(run: Run, s: Any, pattern: Any) -> bool:
    return as_regex(run, pattern, "test").search(run, want_str(s, "test")) is not None


@builtin(
    G,
    "The first match as [whole, group1, …] (unmatched groups null), or null.",
    ("match('票价 12 元', '(\\d+) 元')", ["12 元", "12"]),
)
def match(run: Run, s: Any, pattern: Any) -> list[Any] | None:
    rx = as_regex(run, pattern, "match")
    text = want_str(s, "match")
    m = rx.search(run, text)
    if m is None:
        return None
    run.charge(rx.groups)
    return rx.match_lists(run, text, [m])[0]


@builtin(G, "Every match, each as [whole, group1, …].", ("matchAll('a1b22', '\\d+').map(m => m[0])", ["1", "22"]))
def matchAll(run: Run, s: Any, pattern: Any) -> list[Any]:
    rx = as_regex(run, pattern, "matchAll")
    text = want_str(s, "matchAll")
    return rx.match_lists(run, text, rx.finditer(run, text))
