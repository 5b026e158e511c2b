"""Replacement texts are measured before they are built, and build exactly what JavaScript builds.

The reference below is JavaScript's GetSubstitution written the direct way (build each piece, then join),
as the library did before it measured first; random texts, patterns and replacements must give the same
result and be charged the output's length, whichever way it is computed.
"""

from __future__ import annotations

import random
import re

import pytest

from tui.lang.expr import LangError, LimitError, Run, compile_expression

from .helpers import NOW, ev


def substitute(repl: str, match: str, groups: tuple[str | None, ...], text: str, start: int) -> str:
    """GetSubstitution, piece by piece (ASCII digits only, as in JavaScript)."""
    out: list[str] = []
    i, n = 0, len(repl)
    while i < n:
        ch = repl[i]
        if ch == "$" and i + 1 < n:
            nxt = repl[i + 1]
            if nxt == "$":
                out.append("$")
                i += 2
                continue
            if nxt == "&":
                out.append(match)
                i += 2
                continue
            if nxt == "`":
                out.append(text[:start])
                i += 2
                continue
            if nxt == "'":
                out.append(text[start + len(match) :])
                i += 2
                continue
            if "1" <= nxt <= "9":
                if i + 2 < n and "0" <= repl[i + 2] <= "9" and int(repl[i + 1 : i + 3]) <= len(groups):
                    k, i = int(repl[i + 1 : i + 3]), i + 3
                else:
                    k, i = int(nxt), i + 2
                out.append((groups[k - 1] or "") if k <= len(groups) else "$" + str(k))
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def reference(text: str, pattern: str, repl: str, is_regex: bool, every: bool) -> str:
    if is_regex:
        return re.sub(pattern, lambda m: substitute(repl, m.group(0), m.groups(), text, m.start()), text)
    if pattern not in text:
        return text
    if not every:
        i = text.index(pattern)
        return text[:i] + substitute(repl, pattern, (), text, i) + text[i + len(pattern) :]
    pieces, start = [], 0
    positions = (
        list(range(len(text) + 1)) if pattern == "" else [m.start() for m in re.finditer(re.escape(pattern), text)]
    )
    for p in positions:
        pieces.append(text[start:p])
        pieces.append(substitute(repl, pattern, (), text, p))
        start = p + len(pattern)
    pieces.append(text[start:])
    return "".join(pieces)


TOKENS = ["$&", "$`", "$'", "$$", "$1", "$2", "$12", "$9", "$0", "$", "x", "-", "$<n>", "二"]
REGEXES = ["a", "(a)(b)?", "(b+)", "a|b", "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)", "x"]


def test_random_replacements_match_the_reference() -> None:
    rnd = random.Random(15)
    for _ in range(1500):
        text = "".join(rnd.choice("abc二") for _ in range(rnd.randint(0, 12)))
        repl = "".join(rnd.choice(TOKENS) for _ in range(rnd.randint(0, 5)))
        is_regex = rnd.random() < 0.5
        every = rnd.random() < 0.5
        pattern = rnd.choice(REGEXES) if is_regex else rnd.choice(["a", "ab", "", "二", "zz"])
        fname = "replaceAll" if every else "replace"
        src = f"{fname}(t, {'regex(p)' if is_regex else 'p'}, r)"
        want = reference(text, pattern, repl, is_regex, every)
        assert ev(src, t=text, p=pattern, r=repl) == want, (src, text, pattern, repl)


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("'abc'.replace(regex('(b)'), '[$&|$`|$\\'|$1|$$]')", "a[b|a|c|b|$]c"),
        ("'abc'.replaceAll('b', '$`$`')", "aaac"),
        ("'abc'.replace(regex('(b)'), '$²')", "a$²c"),  # was a Python ValueError: '²'.isdigit() is True
        ("'abc'.replace(regex('(b)'), '$١')", "a$١c"),  # an Arabic-Indic 1 is text, as in JavaScript
        ("'abc'.replace(regex('(b)'), '$10')", "ab0c"),  # group 1, then 0: there is no group 10
        ("'ab'.replaceAll('', '-')", "-a-b-"),
    ],
)
def test_replacement_patterns_follow_javascript(src: str, want: str) -> None:
    assert ev(src) == want


@pytest.mark.parametrize(
    "src",
    [
        "t.replaceAll('a', '$`')",
        "t.replaceAll('a', \"$'\")",
        "t.replace(regex('a'), '$`$&')",
        "t.replaceAll('a', m => m + m)",
    ],
)
def test_the_charge_is_the_length_of_the_output(src: str) -> None:
    text = "a" * 300
    run = Run(NOW)
    out = compile_expression(src).evaluate({"t": text}, run)
    # One evaluation per 64 characters built is part of what the run was charged.
    assert run.used >= len(out) // 64


def test_a_replacement_past_the_string_limit_is_refused_before_it_is_built() -> None:
    with pytest.raises(LimitError, match="string of 1,799,970,000 characters"):
        ev("'a'.repeat(60000).replaceAll('a', '$`')")
    with pytest.raises(LangError):
        ev("'a'.repeat(3000).replace(regex('(a)'), '$1'.repeat(1000))")
