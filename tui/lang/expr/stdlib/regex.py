"""Regular expressions on RE2 (linear time): test, match, matchAll, regex() (language.md §5, threats §3.2)."""

from __future__ import annotations

from typing import Any

import re2

from tui.lang.expr.errors import RegexError
from tui.lang.expr.limits import MAX_PATTERN, MAX_PATTERNS_PER_RUN, MAX_STRING, Run
from tui.lang.expr.stdlib.measured import Replacement
from tui.lang.expr.stdlib.registry import bad, builtin, want_str
from tui.lang.expr.values import LONE_HALF, Opaque, to_str

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


class Regex(Opaque):
    """A compiled pattern, the value of regex(text); its type is 'regex'.

    Every match costs one evaluation plus one per capturing group (RE2 reports a position for each group of
    each match), and the text of groups is charged from their positions before any of it is copied: 330
    groups over 100,000 matches stop at the budget instead of building 33 million strings.
    """

    __slots__ = ("groups", "pattern", "re", "weight")
    type_name = "regex"

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

    def search(self, run: Run, text: str) -> Any:
        run.charge(self.scan_cost(text))
        readable = _readable(text)
        m = self.re.search(readable)
        return m if m is None or readable is text else _OnOriginal(m, text, self.groups)

    def finditer(self, run: Run, text: str) -> list[Any]:
        run.charge(self.scan_cost(text))
        per_match = 1 + self.groups
        out = []
        readable = _readable(text)
        last = None
        for m in self.re.finditer(readable):
            if m.span() == last:
                continue  # google-re2 reports an empty match at the end twice ('$' over 'ab'); JavaScript once
            last = m.span()
            out.append(m if readable is text else _OnOriginal(m, text, self.groups))
            run.used += per_match
            if run.used > run.stop:
                run.over()
        return out

    def group_chars(self, m: Any) -> int:
        """Characters the groups of match `m` hold (the whole match not included)."""
        n = 0
        for k in range(1, self.groups + 1):
            a, b = m.span(k)
            n += b - a
        return n

    def replace(self, run: Run, text: str, repl: Any) -> str:
        """Every match replaced by `repl`: replacement text (measured before building) or a function."""
        matches = self.finditer(run, text)
        size = len(text)
        pieces: list[str] = []
        last = 0
        if repl.__class__ is str:
            r = Replacement(repl, self.groups)
            total = size
            for m in matches:
                a, b = m.span()
                total += r.length(size, a, b, [m.span(k) for k in range(self.groups + 1)] if r.groups else ())
                total -= b - a
                if total > MAX_STRING:
                    break  # refused below, before anything is built
            run.charge_text(total)
            for m in matches:
                a, b = m.span()
                pieces.append(text[last:a])
                pieces.append(r.build(text, a, b, m.groups() if r.groups else ()))
                last = b
        else:
            for m in matches:
                a, b = m.span()
                run.charge_scan(b - a + self.group_chars(m))  # the texts handed to the function
                pieces.append(text[last:a])
                pieces.append(call_replacer(run, repl, m.group(0), m.groups(), a, text))
                last = b
            run.charge_text(sum(map(len, pieces)) + size - last)
        pieces.append(text[last:])
        return "".join(pieces)

    def split(self, run: Run, text: str, limit: int) -> list[str]:
        """The pieces between matches, with the groups of each match; at most `limit` items."""
        if not text:  # JavaScript: no pieces when the pattern matches the empty text, else the text itself
            return [] if self.search(run, text) is not None or limit == 0 else [text]
        out: list[str] = []
        last = 0
        for m in self.finditer(run, text):
            a, b = m.span()
            if a == b and (a == 0 or a == len(text)):
                continue
            if self.groups:
                run.charge_scan(self.group_chars(m))
            out.append(text[last:a])
            out.extend(g for g in m.groups())
            last = b
            if len(out) >= limit:
                break
        out.append(text[last:])
        return out

    def match_lists(self, run: Run, matches: list[Any]) -> list[list[Any]]:
        """Each match as [whole, group1, …], its text charged before it is copied."""
        chars = 0
        for m in matches:
            a, b = m.span()
            chars += b - a + self.group_chars(m)
        run.charge_scan(chars)
        return [[m.group(0), *m.groups()] for m in matches]

    def __repr__(self) -> str:
        return f"regex({self.pattern!r})"


def _readable(text: str) -> str:
    """`text` as RE2 can read it: each lone surrogate as U+FFFD (one code point too, so every position stays the
    same). The text itself (the same object) when it has none, which is nearly always."""
    if text.isascii() or LONE_HALF.search(text) is None:
        return text
    return LONE_HALF.sub("\ufffd", text)


class _OnOriginal:
    """A match found in the readable copy of a text, whose groups are cut from the original text, so a lone
    surrogate a group captures comes back as itself, as in JavaScript."""

    __slots__ = ("groups_n", "m", "text")

    def __init__(self, m: Any, text: str, groups: int) -> None:
        self.m = m
        self.text = text
        self.groups_n = groups

    def span(self, k: int = 0) -> tuple[int, int]:
        return self.m.span(k)

    def group(self, k: int = 0) -> str | None:
        a, b = self.m.span(k)
        return None if a < 0 else self.text[a:b]

    def groups(self) -> tuple[str | None, ...]:
        return tuple(self.group(k) for k in range(1, self.groups_n + 1))


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
        raise RegexError(f"unsupported group {p[:4]!r}")


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
            raise RegexError(f"invalid regular expression {pattern!r}: a lone UTF-16 surrogate cannot be matched")
        translated = translate(pattern)
        try:
            compiled = re2.compile(translated, _OPTIONS)
        except re2.error as e:
            reason = e.args[0].decode() if e.args and isinstance(e.args[0], bytes) else str(e)
            raise RegexError(f"invalid regular expression {pattern!r}: {reason}") from None
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
    m = rx.search(run, want_str(s, "match"))
    if m is None:
        return None
    run.charge(rx.groups)
    return rx.match_lists(run, [m])[0]


@builtin(G, "Every match, each as [whole, group1, …].", ("matchAll('a1b22', '\\d+').map(m => m[0])", ["1", "22"]))
def matchAll(run: Run, s: Any, pattern: Any) -> list[Any]:
    rx = as_regex(run, pattern, "matchAll")
    return rx.match_lists(run, rx.finditer(run, want_str(s, "matchAll")))
