"""Regular expressions on RE2 (language.md §5, threats.md §3.2)."""

from __future__ import annotations

import time

import pytest

from tui.lang.expr import RegexError
from tui.lang.expr.stdlib.regex import translate

from .helpers import ev


@pytest.mark.parametrize(
    ("pattern", "translated"),
    [
        ("(?i)^yanyuan", "(?i)^yanyuan"),
        ("(?u)\\w+", "\\w+"),
        ("(?iu)x", "(?i)x"),
        ("(?i)(?s)a.b", "(?is)a.b"),
        ("(?:a)", "(?:a)"),
        ("a(?i)b", "a(?i)b"),
    ],
)
def test_flags_are_translated(pattern: str, translated: str) -> None:
    assert translate(pattern) == translated


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(?U)a+", "ungreedy"),
        ("(a)\\1", "backreference"),
        ("(?=a)", "lookahead"),
        ("(?!a)", "negative lookahead"),
        ("(?<=a)b", "lookbehind"),
        ("(?<!a)b", "negative lookbehind"),
        ("a\\Z", "use \\\\z"),
        ("a++", "possessive"),
        ("(?x) a", "unsupported group|invalid"),
        ("a{1001}", "invalid repetition size"),
        ("((a{100}){100}){100}", "invalid repetition size|too large"),
        ("\\p{L}{1000}", "too large"),
        ("(", "missing \\)"),
        ("x" * 1001, "limit is 1,000"),
    ],
)
def test_unsupported_constructs_are_named(pattern: str, message: str, capfd: pytest.CaptureFixture[str]) -> None:
    t0 = time.process_time()
    with pytest.raises(RegexError, match=message):
        ev("test('a', p)", p=pattern)
    assert time.process_time() - t0 < 0.2
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # RE2 must not print over the terminal (log_errors=False)


def test_catastrophic_patterns_run_in_linear_time() -> None:
    text = "a" * 200_000 + "!"
    t0 = time.process_time()
    assert ev("test(s, '^(a+)+$')", s=text) is False
    assert ev("test(s, '(a|aa)+$')", s=text) is False
    assert time.process_time() - t0 < 0.5


def test_match_groups_and_unmatched_groups() -> None:
    assert ev("match('2026-11-30', '(\\d+)-(\\d+)(x)?')") == ["2026-11", "2026", "11", None]
    assert ev("match('abc', '\\d')") is None
    assert ev("matchAll('a1b22', '([a-z])(\\d+)')") == [["a1", "a", "1"], ["b22", "b", "22"]]


def test_regex_semantics_are_re2s() -> None:
    # \d is ASCII (as in JavaScript, unlike Python's re); $ does not match before a final newline.
    assert ev("test('٣', '\\d')") is False
    assert ev("test('abc\\n', 'abc$')") is False
    assert ev("test('北大', '^..$')") is True  # UTF-8 aware: characters, not bytes


def test_replace_with_regex_and_groups() -> None:
    assert ev("replace('a1b22', regex('\\d+'), '<$&>')") == "a<1>b<22>"
    assert ev("'2026-11-30'.replace(regex('(\\d+)-(\\d+)-(\\d+)'), '$3.$2.$1')") == "30.11.2026"
    assert ev("replace('ab', regex('(x)?b'), '[$1]')") == "a[]"
    assert ev("replace('a1b2', regex('\\d'), d => str(num(d) * 2))") == "a2b4"
    assert ev("'a1b2c'.split(regex('\\d'))") == ["a", "b", "c"]


def test_pattern_errors_surface_when_the_pattern_is_used() -> None:
    with pytest.raises(RegexError, match="invalid regular expression"):
        ev("regex('[')")


@pytest.mark.parametrize(
    ("src", "ours"),
    [  # JavaScript without the `u` flag gives false for each; §6 lists the first four as RE2's
        ("test('\u212a', '(?i)k')", True),  # the Kelvin sign folds to k in Unicode's case folding
        ("test('\u017f', '(?i)s')", True),  # the long s folds to s
        ("test('\\r', '^.$')", True),  # `.` is any character but \n in RE2
        ("test('\u2028', '^.$')", True),
        ("test('\\n', '^.$')", False),  # and never \n: the two agree there
    ],
)
def test_the_documented_re2_differences_are_what_section_6_says(src: str, ours: bool) -> None:
    """§6: `.` matches \\r, U+2028 and U+2029, and `(?i)` folds the Kelvin sign and the long s (the differential
    test's oracle always uses JavaScript's `u` flag, under which JavaScript folds the same: it cannot see these)."""
    assert ev(src) is ours


def test_a_selector_holding_a_lone_surrogate_is_an_error_in_the_languages_words() -> None:
    from tui.lang.expr import LangError

    with pytest.raises(LangError, match=r"a CSS selector cannot hold a lone surrogate .*\\ud800"):
        ev("select(html('<p>a</p>'), s)", s="p\ud800")
