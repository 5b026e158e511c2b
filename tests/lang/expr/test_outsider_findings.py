"""What a JavaScript author found trying the language with only the README and the reference (issue 20,
second round): each finding pinned by the value node gives, or by the message the author should see.
"""

from __future__ import annotations

import pytest

from tests.lang.documents.test_broken_plugins import FREE, files, sub
from tests.lang.expr.helpers import NOW, raw
from tui.lang.documents.source import MemorySource
from tui.lang.documents.validator import validate
from tui.lang.expr import EvalError, LangError, ParseError, Run, compile_expression, from_json

# --- replacement text: named groups and two-digit group numbers (node's values) ------------------------------

#: replacement → ('x-y'.replace(/(?<a>x)-(y)/, r), 'x'.replace(/(x)/, r), 'x'.replace('x', r)) in node
REPLACEMENTS = {
    "$01": ("x", "x", "$01"),
    "$012": ("x2", "x2", "$012"),
    "$00": ("$00", "$00", "$00"),
    "$0": ("$0", "$0", "$0"),
    "$05": ("$05", "$05", "$05"),
    "$10": ("x0", "x0", "$10"),
    "$1$2": ("xy", "x$2", "$1$2"),
    "$<a>": ("x", "$<a>", "$<a>"),
    "$<b>": ("", "$<b>", "$<b>"),
    "$<zz>": ("", "$<zz>", "$<zz>"),
    "$<a": ("$<a", "$<a", "$<a"),
    "$<>": ("", "$<>", "$<>"),
    "$$<a>": ("$<a>", "$<a>", "$<a>"),
    "$<a>$<b>": ("x", "$<a>$<b>", "$<a>$<b>"),
}


@pytest.mark.parametrize("repl", sorted(REPLACEMENTS))
def test_replacement_text_reads_group_numbers_and_names_as_javascript(repl: str) -> None:
    named, numbered, plain = REPLACEMENTS[repl]
    assert raw("'x-y'.replace(regex('(?<a>x)-(y)'), r)", r=repl) == named
    assert raw("'x'.replace(regex('(x)'), r)", r=repl) == numbered
    assert raw("'x'.replace('x', r)", r=repl) == plain


def test_a_named_group_swaps_parts() -> None:
    src = r"'x-y'.replace(regex('(?<first>\w)-(?<second>\w)'), '$<second>-$<first>')"
    assert raw(src) == "y-x"
    assert raw("'x'.replace(regex('(?<a>x)|(?<b>z)'), '[$<b>]')") == "[]"  # a group that took no part: ''


# --- costs ---------------------------------------------------------------------------------------------------


def used(src: str, **names: object) -> int:
    run = Run(NOW)
    compile_expression(src).evaluate(from_json(names), run)
    return run.used


def test_spreading_an_object_costs_what_merge_and_a_list_spread_cost() -> None:
    obj = {f"k{i}": i for i in range(1600)}
    spread = used("({...o})", o=obj)
    assert spread == used("[...a]", a=list(range(1600)))  # one per 16 keys, as §8 says (was one per key)
    assert abs(spread - used("merge(o)", o=obj)) <= 2
    assert spread < 200
    # the usual JavaScript way of building an object key by key fits the budget at a realistic size
    assert used("range(N).reduce((acc, x) => ({...acc, [x]: 1}), {})", N=1000) < 40_000


# --- date(text, fmt) ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fmt", "value"),
    [
        ("1:05", "H:mm", "2026-11-30T01:05:00+08:00"),  # today, as date('1:05') (was January 1)
        ("12-25", "MM-DD", "2026-12-25T00:00:00+08:00"),  # this year
        ("07", "DD", "2026-11-07T00:00:00+08:00"),  # this month
        ("2027-03", "YYYY-MM", "2027-03-01T00:00:00+08:00"),  # the 1st
        ("2027", "YYYY", "2027-01-01T00:00:00+08:00"),
        ("at 2026", "[at] YYYY", "2026-01-01T00:00:00+08:00"),  # [text] as in formatDate
        ("2026-11-30T08:00", "YYYY-MM-DDTHH:mm", "2026-11-30T08:00:00+08:00"),
    ],
)
def test_a_format_fills_missing_parts_from_now_as_dayjs(text: str, fmt: str, value: str) -> None:
    assert raw("date(t, f)", t=text, f=fmt) == value
    assert raw("date(t)", t="1:05") == raw("date(t, 'H:mm')", t="1:05")


@pytest.mark.parametrize("token", ["YY", "dddd", "ddd", "MMM", "hh", "A", "SSS"])
def test_a_token_a_format_cannot_read_is_named(token: str) -> None:
    with pytest.raises(EvalError, match=f"the format token '{token}' cannot be read"):
        raw("date('x', f)", f=f"{token} [x]")


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("date('2026-11-30T08:00:00+25:00')", "has the offset +25:00; an offset is at most ±23:59"),
        ("date('2026-11-30T08:00:00+05:75')", "has the offset +05:75"),  # node: Invalid Date (was 09:45)
        ("addMinutes('2026-11-30', 0/0)", "cannot add NaN minutes; the amount must be a finite number"),
        ("addDays('2026-11-30', 1e9)", "1000000000 days is out of range (at most 10,000,000)"),
        ("date('2026-02-30')", "is not a valid date: 2026-02 has 28 days"),
        ("date('2026-13-01')", "there is no month 13"),
        ("date('2026-01-01 24:00')", "hours run to 23"),
        ("date('9999-12-31T23:00:00-05:00')", "not a time from the year 1 to 9999"),  # was a crash (OverflowError)
    ],
)
def test_date_errors_say_what_is_wrong_in_the_language_words(src: str, message: str) -> None:
    with pytest.raises(EvalError) as e:
        raw(src)
    assert message in str(e.value)
    assert "timedelta" not in str(e.value) and "nan" not in str(e.value) and "must be in" not in str(e.value)


# --- messages ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "what", "column"),
    [
        ("({room, cap = 5})", "default values in a pattern are", 20),
        ("({cap: c})", "renaming in a pattern is", 13),
        ("({a: {b}})", "nested patterns are", 11),
        ("([a, [b]])", "nested patterns are", 13),
        ("([a, , c])", "holes in a pattern are", 13),
        ("({room, ...rest})", "rest elements in a pattern are", 16),
    ],
)
def test_destructuring_beyond_plain_names_says_so_where_it_starts(pattern: str, what: str, column: int) -> None:
    with pytest.raises(ParseError) as e:
        compile_expression(f"rs.map({pattern} => 1)")
    assert e.value.msg.startswith(f"{what} not supported: destructuring takes plain names only ({{a, b}} or [a, b])")
    assert e.value.line_col == (1, column)


def test_a_template_written_in_an_expression_field_says_to_write_the_expression() -> None:
    with pytest.raises(ParseError) as e:
        compile_expression("${a}")
    assert "takes an expression itself, like a.b, not a template like ${a.b}" in e.value.msg
    assert e.value.line_col == (1, 1)
    # where an author meets it: a tool step's `value`, reported by the validator with file and line
    broken = files(tools__free_yaml=sub(FREE, "\"page.rows.filter(r => test(r.room, '^\\\\d+$'))\"", '"${page.rows}"'))
    _, problems = validate(MemorySource(broken))
    hits = [p for p in problems if "not a template like ${a.b}" in p.message]
    assert [(p.file, p.line) for p in hits] == [("tools/free.yaml", 12)], [str(p) for p in problems]


@pytest.mark.parametrize(
    "src",
    ["'abc'.includes(regex('b'))", "str(regex('a'))", "'a' + regex('a')", "`${regex('a')}`", "[regex('a')].join()"],
)
def test_a_regex_where_text_is_needed_says_it_is_not_text(src: str) -> None:
    with pytest.raises(EvalError) as e:
        raw(src)
    assert e.value.msg == "a regex is not text: use it with test(), match(), matchAll(), replace() or split()"


def test_a_node_where_text_is_needed_says_how_to_read_it() -> None:
    for src in ("str(html('<p>a</p>'))", "'a' + html('<p>a</p>')"):
        with pytest.raises(EvalError, match=r"a node is not text: read it with text\(node\)"):
            raw(src)


def test_a_regex_error_shows_the_pattern_as_written() -> None:
    with pytest.raises(LangError) as e:
        raw("test('a', '\\q')")  # the expression test('a', '\q'): the pattern is \q
    assert e.value.msg == "invalid regular expression '\\q': invalid escape sequence: \\q"


@pytest.mark.parametrize(
    ("src", "echo"),
    [
        ("(a?.b).c", "cannot read 'c' of null ((a?.b).c)"),
        ("((a)).b.c", "cannot read 'b' of null (((a)).b)"),
        ("(12345.678).foo()", "a number has no method 'foo' ((12345.678).foo)"),
    ],
)
def test_an_error_echoes_a_parenthesized_expression_whole(src: str, echo: str) -> None:
    with pytest.raises(EvalError) as e:
        raw(src, a=None)
    assert e.value.msg == echo


def test_url_of_one_text_that_is_not_a_url_says_so() -> None:
    with pytest.raises(EvalError) as e:
        raw("url('not a url')")
    assert e.value.msg == "url(): 'not a url' is not a valid URL (an absolute URL, like https://…)"
    with pytest.raises(EvalError, match="cannot resolve 'x' against 'not a url'"):
        raw("url('not a url', 'x')")  # two arguments: both are named


# --- search positions, as node gives them ----------------------------------------------------------------------

INF, NAN = float("inf"), float("nan")
#: (text, needle, position) → (indexOf, includes, lastIndexOf) in node
TEXT_SEARCHES = [
    ("abc", "a", -1, 0, True, 0),  # a negative position is 0 for text (was counted from the end: -1)
    ("abc", "c", -1, 2, True, -1),
    ("abc", "", 5, 3, True, 3),
    ("abcabc", "b", 3, 4, True, 1),
    ("abcabc", "b", NAN, 1, True, 4),  # lastIndexOf reads NaN as "from the end"
    ("abcabc", "b", -5, 1, True, -1),
    ("abcabc", "b", 100, -1, False, 4),
    ("abcabc", "", 100, 6, True, 6),
    ("abcabc", "c", INF, -1, False, 5),
    ("abcabc", "a", -INF, 0, True, 0),
]
#: position → ([1,2,3,1,2,3].indexOf(2, i), .includes(2, i), .lastIndexOf(2, i), .lastIndexOf(1, i)) in node
LIST_SEARCHES = [
    (3, 4, True, 1, 3), (-1, -1, False, 4, 3), (-2, 4, True, 4, 3), (-6, 1, True, -1, 0),
    (-7, 1, True, -1, -1), (100, -1, False, 4, 3), (NAN, 1, True, -1, 0), (INF, -1, False, 4, 3),
    (-INF, 1, True, -1, -1), (1.5, 1, True, 1, 0),
]  # fmt: skip


@pytest.mark.parametrize(("s", "x", "i", "index", "has", "last"), TEXT_SEARCHES)
def test_text_search_positions_as_javascript(s: str, x: str, i: float, index: int, has: bool, last: int) -> None:
    names = {"s": s, "x": x, "i": i}
    assert raw("[s.indexOf(x, i), s.includes(x, i), s.lastIndexOf(x, i)]", **names) == [index, has, last]


@pytest.mark.parametrize(("i", "index", "has", "last2", "last1"), LIST_SEARCHES)
def test_list_search_positions_as_javascript(i: float, index: int, has: bool, last2: int, last1: int) -> None:
    src = "[a.indexOf(2, i), a.includes(2, i), a.lastIndexOf(2, i), a.lastIndexOf(1, i)]"
    assert raw(src, a=[1, 2, 3, 1, 2, 3], i=i) == [index, has, last2, last1]


def test_get_reads_length_of_a_text_or_a_list_as_lodash() -> None:
    assert raw("get({a: 'str'}, 'a.length')") == 3  # lodash: 3 (was null)
    assert raw("get({a: [1, 2]}, ['a', 'length'])") == 2
    assert raw("get({a: {length: 5}}, 'a.length')") == 5  # an object's own key, as before
    assert raw("get({a: 'str'}, 'a.length.x', 'd')") == "d"


# --- what the reference now says, held to the engine ------------------------------------------------------------


def test_grouping_orders_index_keys_first_as_a_javascript_object() -> None:
    # node: {"1":1,"2":1,"b":1,"a":1,"01":1} — not first-seen order, as §5 used to say
    assert raw("keys(countBy(['b', '2', 'a', '1', '01'], x => x))") == ["1", "2", "b", "a", "01"]
    assert raw("stringify(countBy(['b', '2', 'a', '1', '01'], x => x))") == '{"1":1,"2":1,"b":1,"a":1,"01":1}'


def test_a_field_name_key_is_one_key_and_a_field_no_item_has_is_named() -> None:
    rows = [{"cap": 2, "room": "a", "a.b": 1}, {"cap": 1, "room": "b", "a.b": 0}]
    assert raw("sortBy(rows, 'a.b').map(r => r.room)", rows=rows) == ["b", "a"]  # the field 'a.b', not a path
    with pytest.raises(EvalError) as e:
        raw("sum(rows, 'cpa')", rows=rows)
    assert e.value.msg == "sum(): no item has the field 'cpa'; did you mean 'cap'?"
    with pytest.raises(EvalError, match=r"avg\(\): no item has the field 'zzz' \(they have cap, room, a.b\)"):
        raw("avg(rows, 'zzz')", rows=rows)
    with pytest.raises(EvalError, match=r"sum\(\) expects a number, got null"):
        raw("sum(rows, 'n')", rows=[{"n": 1}, {"m": 2}])  # some item has it: the usual message


def test_diff_minutes_has_a_fraction_for_seconds() -> None:
    assert raw("diffMinutes('2026-11-30 18:00:30', '2026-11-30 18:00')") == 0.5
