"""Regression tests for the classes of disagreement with JavaScript that the differential test against node found
(issue 20): one test per class, each with the value node gives (or the error where JavaScript throws).

The differential test itself (tests/lang/differential/) finds new ones; these pin the fixed ones by name.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from tests.lang.expr.helpers import ev, raw
from tui.lang.expr import EvalError, LangError, from_json, stringify, to_json

LONE = "a\ud800b"  # legal JSON ("a\\ud800b") and a legal JavaScript string: half of a UTF-16 pair


def js_text(src: str, **names: Any) -> str:
    """What `'' + (src)` gives: the JavaScript text of a number, so -0 and Infinity are visible."""
    return str(raw(f"'' + ({src})", **names))


# --- crashes: lone surrogates and overflow -------------------------------------------------------------------


def test_regex_functions_read_a_lone_surrogate_and_give_it_back() -> None:
    assert ev("test(s, 'b$')", s=LONE) is True
    assert raw("s.split(regex('b'))", s=LONE) == ["a\ud800", ""]
    assert raw("s.replace(regex('(.)b'), (m, g) => g + '!')", s=LONE) == "a\ud800!"
    assert raw("match(s, '(.)(b)')", s=LONE) == ["\ud800b", "\ud800", "b"]
    assert raw("matchAll(s, '.').map(m => m[0])", s=LONE) == ["a", "\ud800", "b"]
    assert raw("s.replace(regex('[^a]'), 'x')", s=LONE) == "axx"  # regex() replaces every match


def test_a_pattern_holding_a_lone_surrogate_is_a_regex_error() -> None:
    with pytest.raises(LangError, match="lone UTF-16 surrogate"):
        raw("test('x', p)", p="\ud800")


def test_url_encoding_a_lone_surrogate_is_an_error_as_in_javascript() -> None:
    # JavaScript: URIError: URI malformed
    for src in ("encodeURIComponent(s)", "query({ a: s })", "query({ [s]: 1 })"):
        with pytest.raises(EvalError, match="lone UTF-16 surrogate"):
            raw(src, s=LONE)


def test_stringify_escapes_a_lone_surrogate_as_json_stringify_does() -> None:
    assert raw("stringify([s])", s=LONE) == '["a\\ud800b"]'
    assert stringify({"\udc00": 1}) == '{"\\udc00":1}'
    assert raw("stringify('é\"😀')") == '"é\\"😀"'  # everything else as before: only lone halves are escaped


def test_a_value_leaving_the_interpreter_is_utf8_text() -> None:
    # what JavaScript's TextEncoder (and so fetch) sends for a lone surrogate: U+FFFD
    assert to_json(from_json({"k\udfff": [LONE]})) == {"k\ufffd": ["a\ufffdb"]}
    json.dumps(to_json(from_json([LONE])), ensure_ascii=False).encode()  # no UnicodeEncodeError


def test_plugin_eval_batch_survives_a_lone_surrogate_and_goes_on() -> None:
    lines = [
        {"expr": "s", "context": {"s": LONE}},
        {"expr": "regex(s)", "context": {"s": LONE}},
        {"expr": "1 + 1"},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)  # json.dumps writes the half as \ud800
    out = subprocess.run(
        [sys.executable, "-m", "tui", "plugin", "eval", "--batch", "/dev/stdin"],
        input=text.encode(), capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr.decode()
    got = [json.loads(line) for line in out.stdout.decode().split("\n") if line]
    assert got[0] == {"value": LONE}
    assert "lone UTF-16 surrogate" in got[1]["error"]
    assert got[2] == {"value": 2}


def test_round_to_digits_of_a_number_too_large_for_decimals_is_the_number() -> None:
    assert ev("round(1e308, 10)") == 1e308  # was OverflowError
    assert ev("round(4294967295, 20)") == 4294967295  # was 4294967295.0000005 (divided by 10**20)
    assert ev("round(1.005, 2)") == 1.01
    assert ev("round(1.5e-7, 7)") == 2e-7  # the decimal point moves in the number's text, exponent and all
    assert ev("round(123.456, -1)") == 120


# --- -0 ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "js"),
    [
        ("1 / round(-0.4)", "-Infinity"),  # Math.round(-0.4) is -0
        ("1 / round(-0)", "-Infinity"),
        ("1 / floor(-0)", "-Infinity"),
        ("1 / ceil(-0.5)", "-Infinity"),
        ("1 / int(-0.5)", "-Infinity"),  # Math.trunc
        ("1 / clamp(-0, 0, 10)", "Infinity"),  # Math.min(Math.max(-0, 0), 10): max puts +0 above -0
        ("1 / clamp(0, -0, -0)", "-Infinity"),
        ("1 / min([0, -0])", "-Infinity"),
        ("1 / max([-0, 0])", "Infinity"),
        ("1 / round(-0.001, 2)", "Infinity"),  # through the text '0', as the decimal shift reads it
        ("clamp(0 / 0, 1, 2)", "NaN"),
    ],
)
def test_negative_zero_survives_rounding_as_in_javascript(src: str, js: str) -> None:
    assert js_text(src) == js


def test_avg_adds_left_to_right_as_javascript_does() -> None:
    # Python 3.12's sum() compensates and gives 0.2; [0.1, 0.2, 0.3].reduce((a, b) => a + b) / 3 does not
    assert ev("avg([0.1, 0.2, 0.3])") == 0.20000000000000004


# --- numbers leaving the interpreter ----------------------------------------------------------------------------


def test_whole_numbers_in_results_print_as_javascript_prints_them() -> None:
    out = json.dumps(to_json([2.0**53, 1e16, 1.2345678901234567e20, 1e21, float(2**60), -0.0, 0.5]))
    assert out == "[9007199254740992, 10000000000000000, 123456789012345670000, 1e+21, 1152921504606847000, 0, 0.5]"
    assert float(json.loads(out)[2]) == 1.2345678901234567e20  # the same double, JavaScript's digits


def test_a_result_for_the_model_writes_fractions_as_javascript_does() -> None:
    from tui.runtime.gate import model_copy

    assert model_copy({"a": 1e-7, "b": 0.000001, "c": 2**53, "d": "二"}) == (
        '{"a":1e-7,"b":0.000001,"c":9007199254740992,"d":"二"}'
    )


# --- URLs --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "js"),
    [  # what new URL(relative, base).href gives
        ("url('https://a.pku.edu.cn/x#h', '')", "https://a.pku.edu.cn/x"),
        ("url('https://a.pku.edu.cn', '二 教')", "https://a.pku.edu.cn/%E4%BA%8C%20%E6%95%99"),
        ("url('https://a.pku.edu.cn', '')", "https://a.pku.edu.cn/"),
        ("url('https://a.pku.edu.cn/a/b', '../../../x')", "https://a.pku.edu.cn/x"),
        ("url('https://A.pku.edu.cn:443/a/./b/../c', ' ?q=1 ')", "https://a.pku.edu.cn/a/c?q=1"),
        ("url('https://a.pku.edu.cn/x/y.html', '../z?q=1')", "https://a.pku.edu.cn/z?q=1"),
    ],
)
def test_url_resolves_as_whatwg_new_url_does(src: str, js: str) -> None:
    assert ev(src) == js


def test_url_against_something_that_is_not_a_url_is_an_error() -> None:
    with pytest.raises(EvalError, match="not a valid URL"):
        ev("url('not a url', 'x')")


@pytest.mark.parametrize("text", ["%", "%E4%BA%8C%2", "%zz", "%C3%28"])
def test_decode_uri_component_refuses_what_javascript_refuses(text: str) -> None:
    with pytest.raises(EvalError, match="malformed percent-encoding"):
        ev("decodeURIComponent(t)", t=text)


# --- optional calls ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "js"),
    [
        ("o.zz?.().x", None),  # no such method: the rest of the chain is skipped, not read from null
        ("o.zz?.(error('never')).x", None),  # and so are its arguments
        ("o.n?.().x.y", None),  # a key holding null
        ("o.keys?.()", ["n", "a"]),  # a library method is a method
        ("[1, 2].map?.(x => x * 2)", [2, 4]),
    ],
)
def test_an_optional_call_short_circuits_the_whole_chain(src: str, js: Any) -> None:
    assert ev(src, o={"n": None, "a": 1}) == js


def test_an_optional_call_of_a_method_that_returns_null_still_reads_on() -> None:
    with pytest.raises(EvalError, match="of null"):
        ev("[null].first?.().x")  # `?.()` guards the call, not what it returns
    with pytest.raises(EvalError, match="of null"):
        ev("[null, 1].find?.(x => true).y")
    assert ev("o.a?.b.c?.().d", o={"a": {"b": {"c": None}}}) is None  # the key holds null: skipped


# --- key order -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "js"),
    [  # what node gives
        ("keys({ b: 1, 1: 2 })", ["1", "b"]),
        ("keys(o)", ["1", "10", "b", "01", "-1", "4294967295"]),
        ("values({ z: 1, 0: 2 })", [2, 1]),
        ("entries(groupBy([3, 1, 'x'], x => x)).map(e => e[0])", ["1", "3", "x"]),
        ("stringify({ ...{ b: 1 }, 2: 3 })", '{"2":3,"b":1}'),
        ("query({ b: 1, 1: 2 })", "1=2&b=1"),
        ("str(merge({ b: 1 }, { 0: 2 }))", '{"0":2,"b":1}'),
    ],
)
def test_objects_show_array_index_keys_first_as_javascript_does(src: str, js: Any) -> None:
    o = {"b": 1, "10": 2, "01": 3, "-1": 4, "4294967295": 5, "1": 6}
    assert ev(src, o=o) == js


def test_a_value_leaving_the_interpreter_has_javascript_key_order() -> None:
    assert list(ev("({ b: 1, 2: 2, a: 3, 1: 4 })")) == ["1", "2", "b", "a"]


# --- an explicit null is not a left-out argument ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("src", "js"),
    [
        ("[1, 2].join(null)", "1null2"),
        ("'a'.padStart(6, null)", "nullna"),
        ("'a'.padEnd(5, null)", "anull"),
        ("'anullb'.split(null)", ["a", "b"]),
        ("[1].concat(null)", [1, None]),
        ("'a'.concat(null)", "anull"),
        ("[].reduce((a, b) => a, null)", None),
        ("'a,b'.split()", ["a,b"]),
        ("'a,b'.split(',', -1)", ["a", "b"]),  # ToUint32(-1): no limit
        ("'a,b,c'.split(',', 2)", ["a", "b"]),
        ("'a,b'.split(',', 0)", []),
    ],
)
def test_null_as_an_argument_is_what_javascript_reads(src: str, js: Any) -> None:
    assert ev(src) == js


@pytest.mark.parametrize("src", ["[1, 2].slice(0, null)", "[[1]].flat(null)", "'ab'.substring(1, null)"])
def test_null_where_javascript_would_read_zero_is_an_error(src: str) -> None:
    with pytest.raises(EvalError, match="expects a number, got null"):
        ev(src)


# --- arrows ------------------------------------------------------------------------------------------------------


def test_a_brace_after_an_arrow_is_a_block_to_javascript_so_an_error_here() -> None:
    with pytest.raises(LangError, match=r"to return an object write x => \(\{ … \}\)"):
        ev("[1].map(x => { a: x })")  # JavaScript: [undefined] (a labelled statement in a block)
    assert ev("[1].map(x => ({ a: x }))") == [{"a": 1}]


@pytest.mark.parametrize("item", [{"a": 1}, 5, True])
def test_an_array_pattern_over_something_that_is_not_a_list_is_an_error(item: Any) -> None:
    with pytest.raises(EvalError, match=r"cannot take \[a\] apart: .* is not a list"):
        ev("[x].map(([a]) => a)", x=item)
    assert ev("['xy'].map(([a, b]) => b)") == ["y"]  # a string is iterable: its characters


@pytest.mark.parametrize(
    ("src", "js"),
    [
        ("[1, 2].map((x, i, a) => a)", [[1, 2], [1, 2]]),
        ("[1, 2].filter((x, i, a) => len(a) == 2)", [1, 2]),
        ("[1, 2].find((x, i, a) => a[1] == x)", 2),
        ("[1, 2].some((x, i, a) => a[0] == 2)", False),
        ("[1, 2].every((x, i, a) => len(a) == 2)", True),
        ("[1, 2].reduce((s, x, i, a) => s + len(a), 0)", 4),
        ("'abc'.replace('b', (m, i) => i)", "a1c"),
        ("'abc'.replaceAll('b', (m, i, s) => s)", "aabcc"),
        ("'abcb'.replace(regex('(b)'), (m, g, i, s) => i + s)", "a1abcbc3abcb"),
    ],
)
def test_callbacks_get_every_argument_javascript_passes(src: str, js: Any) -> None:
    assert ev(src) == js


def test_includes_and_index_of_find_the_same_list_as_javascript_does() -> None:
    assert ev("[x].includes(x)", x=[1]) is True
    assert ev("[1, x].indexOf(x)", x=[1]) == 1
    assert ev("[1, x].lastIndexOf(x)", x=[1]) == 1
    assert ev("[[1]].includes([1])") is False  # another list with the same items is another list


# --- smaller ones ---------------------------------------------------------------------------------------------------


def test_format_date_replaces_only_the_documented_tokens() -> None:
    assert ev("formatDate(0, 'D days [at] H:mm:ss')") == "1 days at 8:00:00"  # was '1 day0' (an 's' token)


@pytest.mark.parametrize(
    ("src", "js"),
    [  # new Date(ms).toISOString(), in Beijing time
        ("date(999.9999)", "1970-01-01T08:00:00.999+08:00"),  # TimeClip truncates; was rounded to :01
        ("date(-1.5)", "1970-01-01T07:59:59.999+08:00"),
        ("date(-62135596800000)", "0001-01-01T08:00:00+08:00"),
    ],
)
def test_epoch_milliseconds_are_truncated_as_javascript_does(src: str, js: str) -> None:
    assert ev(src) == js


def test_a_date_outside_the_years_1_to_9999_is_an_error_that_says_so() -> None:
    with pytest.raises(EvalError, match="from the year 1 to 9999"):
        ev("date(1e15)")  # JavaScript: +033658-09-27T01:46:40.000Z (a documented difference)


@pytest.mark.parametrize(
    ("text", "value"), [("价格12元", 12), ("第3-5节", 3), ("约 7.9 分", 7.9), ("abc", None), ("x" * 5000 + "12", 12)]
)
def test_num_reads_the_first_number_in_the_text(text: str, value: Any) -> None:
    assert ev("num(t)", t=text) == value


def test_uniq_compares_lists_and_objects_deeply() -> None:
    assert ev("uniq([{ a: 1, b: 2 }, { b: 2, a: 1 }])") == [{"a": 1, "b": 2}]  # key order does not matter
    assert ev("uniq([[0 / 0], [null]])") == [[None], [None]]  # NaN is not null (both print as null)
    assert ev("len(uniq([[0 / 0], [0 / 0]]))") == 1  # NaN equals NaN in uniq
    assert ev("uniq([1, true, '1', [1], [true]])") == [1, True, "1", [1], [True]]
    assert ev("uniqBy([{ k: [1] }, { k: [1] }], 'k')") == [{"k": [1]}]


def test_get_gives_a_null_that_is_there() -> None:
    assert ev("get({ a: null }, 'a', 5)") is None  # lodash's get: the default is for what is missing
    assert ev("get({ a: null }, 'a.b', 5)") == 5
    assert ev("get({}, 'a', 5)") == 5


@pytest.mark.parametrize(
    ("src", "js"), [("1_000", 1000), ("1_000.5_5e1_0", 10005500000000), ("0x1_F", 31), ("0b1_0", 2), ("0.0_1", 0.01)]
)
def test_numeric_separators_are_read_as_javascript_reads_them(src: str, js: Any) -> None:
    assert ev(src) == js


@pytest.mark.parametrize("src", ["1__0", "1_", "1_.5", "0_1", "0x_1", "1e_1"])
def test_a_misplaced_numeric_separator_is_a_syntax_error(src: str) -> None:
    with pytest.raises(LangError):
        ev(src)


def test_a_hex_literal_too_big_for_a_double_is_infinity() -> None:
    assert js_text("0x" + "F" * 300) == "Infinity"  # was OverflowError


def test_parse_url_reads_as_whatwg_new_url_does() -> None:
    got = ev("parseUrl('https://X.pku.edu.cn:8080/a/../b c?x=1+2&y=%E4%BA%8C&x=3#frag')")
    # new URL(…): hostname, pathname, Object.fromEntries(searchParams), hash without '#'
    assert got == {"scheme": "https", "host": "x.pku.edu.cn", "path": "/b%20c", "query": {"x": "3", "y": "二"},
                   "hash": "frag"}  # fmt: skip
    with pytest.raises(EvalError, match="not a valid URL"):
        ev("parseUrl('/relative/path')")


@pytest.mark.parametrize(
    ("src", "js"),
    [("split('', regex('x*'))", []), ("''.split(regex('^'))", []), ("split('', regex('y'))", [""]),
     ("matchAll('ab', '$')", [[""]]), ("'ab'.replace(regex('$'), '!')", "ab!"),
     # an empty match right where the last piece ended splits nothing (found by the 100,000-case run)
     ("'5,5'.split(regex('[^,]*'))", ["", ",", ""]), ("'{\"x'.split(regex('x*'))", ["{", '"', ""]),
     ("'aa'.matchAll(regex('a*?')).length", 3), ("'a,b'.split(regex(',*'))", ["a", "b"])],
)  # fmt: skip
def test_empty_matches_as_javascript_finds_them(src: str, js: Any) -> None:
    # ''.split(/x*/) is [] in JavaScript; google-re2 also reported the empty match at the end twice
    assert ev(src) == js


@pytest.mark.parametrize(
    ("src", "js"),
    [  # String(x) in node for each: a whole power of a whole number is exact, rounded once
        ("10 ** 23", "1e+23"),  # an exact tie: ties to even (the C library's pow gave 1.0000000000000001e+23)
        ("3 ** 40", "12157665459056929000"),
        ("(-3) ** 3", "-27"),
        ("2 ** 1023", "8.98846567431158e+307"),
        ("2 ** 1024", "Infinity"),
        ("(-2) ** 1025", "-Infinity"),
        ("1 / ((-0) ** 3)", "-Infinity"),  # -0 keeps its sign (not the integer path)
    ],
)
def test_whole_powers_are_exact_as_javascript_gives_them(src: str, js: str) -> None:
    """An outsider found `10 ** 23` one unit off; §10 keeps only fdlibm's last-digit differences of other powers."""
    assert js_text(src) == js


@pytest.mark.parametrize(
    ("src", "said"),
    [
        ("'abc'.padStart()", ".padStart() takes 1 to 2 arguments, got 0"),
        ("[1, 2].slice(0, 1, 2)", ".slice() takes 0 to 2 arguments, got 3"),
        ("padStart('abc')", "padStart() takes 2 to 3 arguments, got 1"),  # the function form counts the text
    ],
)
def test_a_methods_argument_count_is_the_arguments_written(src: str, said: str) -> None:
    """An outsider: `'abc'.padStart()` said "takes 2 to 3 arguments, got 1" (counting the text before the dot)."""
    with pytest.raises(LangError, match=re.escape(said)):
        ev(src)


@pytest.mark.parametrize(
    ("src", "said"),
    [
        ("'x' + 'é'.normalize", "'normalize' is a JavaScript method the plugin language does not have"),
        ("'abc'.localeCompare ? 1 : 2", "'localeCompare' is a JavaScript method"),
        ("[3, 1].sort", "sort() is not provided"),
        ("(5).toPrecision", "'toPrecision' is a JavaScript method"),
    ],
)
def test_a_javascript_method_the_library_lacks_is_an_error_not_null(src: str, said: str) -> None:
    """An outsider: `'x' + 'é'.normalize` was 'xnull' — neither JavaScript's answer (a function) nor an error."""
    with pytest.raises(LangError, match=re.escape(said)):
        ev(src)


def test_an_objects_own_names_still_read_as_null() -> None:
    assert ev("['abc'.toString, [1].constructor, ({}).valueOf]") == [None, None, None]  # §10: own keys only
