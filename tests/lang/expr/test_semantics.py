"""The one rule (language.md §2): exactly what JavaScript gives, or a clear error — never a third answer."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tui.lang.expr import Closure, EvalError, LangError
from tui.lang.expr.values import num_to_str, to_json

from .helpers import ev, raw

# (expression, the value JavaScript gives; undefined read as null)
JS_CASES: list[tuple[str, Any]] = [
    # numbers print as JavaScript prints them
    ("'' + 4 / 2", "2"),
    ("'' + 1e-7", "1e-7"),
    ("'' + 1.5e-7", "1.5e-7"),
    ("'' + 0.000001", "0.000001"),
    ("'' + 1e21", "1e+21"),
    ("'' + 123e18", "123000000000000000000"),
    ("'' + -0", "0"),
    ("'' + 0.1 * 3", "0.30000000000000004"),
    ("'' + 2 ** 53", "9007199254740992"),
    ("'' + 2 ** 64", "18446744073709552000"),
    ("'' + 1 / 3", "0.3333333333333333"),
    ("'' + 100", "100"),
    ("'' + 1 / 0", "Infinity"),
    ("'' + -1 / 0", "-Infinity"),
    ("'' + 0 / 0", "NaN"),
    ("'' + 5e-324", "5e-324"),
    # arithmetic
    ("7 % -3", 1),
    ("-7 % 3", -1),
    ("5.5 % 2", 1.5),
    ("2 ** 0.5", math.sqrt(2)),
    ("2 ** 3 ** 2", 512),
    ("(-8) ** (1 / 3)", None),  # NaN leaves the interpreter as null
    ("10 ** 400", None),  # Infinity → null on the way out
    ("0.1 + 0.2 == 0.3", False),
    ("9007199254740993 == 9007199254740992", True),  # doubles, not big ints
    ("1 - 0.9", 0.09999999999999998),
    ("-(-3)", 3),
    ("+'x' == null", "error"),  # unary + does not coerce
    # strings
    ("'a' + null", "anull"),
    ("'a' + true", "atrue"),
    ("'北京'[1]", "京"),
    ("'abc'.length", 3),
    ("'abc'[5]", None),
    ("'abc'['1']", "b"),
    ("'10' < '9'", True),
    ("'a' < 'B'", False),
    ("`a${1}b${null}c${true}`", "a1bnullctrue"),
    ("`${1 / 4}`", "0.25"),
    ("'x'.concat(1, null)", "x1null"),
    # truthiness and logic return operands
    ("[] && 'yes'", "yes"),
    ("({}) && 1", 1),
    ("'' || 0 || null", None),
    ("0 || ''", ""),
    ("0 ?? 1", 0),
    ("'' ?? 1", ""),
    ("null ?? false", False),
    ("!'0'", False),
    ("!0", True),
    ("!!(0 / 0)", False),
    ("1 && 2 && 3", 3),
    ("null || 0 ? 'a' : 'b'", "b"),
    ("true ? 1 : false ? 2 : 3", 1),
    # equality is strict
    ("1 == 1.0", True),
    ("null == null", True),
    ("0 == -0", True),
    ("(0 / 0) == (0 / 0)", False),
    ("'1' != 1", True),
    ("true == 1", False),
    ("null == false", False),
    ("[1] == null", False),
    ("'a' === 'a'", True),
    ("1 !== 1", False),
    # member access and optional chaining
    ("obj.a", 1),
    ("obj['a']", 1),
    ("obj.missing", None),
    ("obj?.missing?.deeper", None),
    ("nil?.a.b.c", None),
    ("nil?.[0]", None),
    ("nil?.length", None),
    ("list[1]", 20),
    ("list['1']", 20),
    ("list[1.5]", None),
    ("list[99]", None),
    ("list.length", 3),
    ("({ 1: 'one' })[1]", "one"),
    ("({ true: 'yes' })[true]", "yes"),
    ("({ null: 'n' })[null]", "n"),
    ("obj.constructor", None),
    ("obj.__proto__", None),
    ("obj.toString", None),
    ("(5).x", None),
    ("true.x", None),
    # literals
    ("0x10 + 0o10 + 0b10", 26),
    (".5 + 1.", 1.5),
    ("1e3", 1000),
    ("[1, [2, [3]]]", [1, [2, [3]]]),
    ("({ 'a b': 1, \"c\": 2 })", {"a b": 1, "c": 2}),
    ("({ a: 1, a: 2 })", {"a": 2}),
    ("({ a: 1, ...{ a: 2, b: 3 } })", {"a": 2, "b": 3}),
    ("({ ...null, ...'ab' })", {"0": "a", "1": "b"}),
    ("[...'ab', ...[1]]", ["a", "b", 1]),
    ("({ [1 + 1]: 'two' })", {"2": "two"}),
    # arrows receive (item, index)
    ("list.map((x, i) => i)", [0, 1, 2]),
    ("list.map(x => x / 10)", [1, 2, 3]),
    ("list.filter((x, i) => i > 0)", [20, 30]),
    ("[{ a: 1, b: 2 }].map(({ a, b }) => a + b)", [3]),
    ("[[1, 2]].map(([a, b]) => a * b)", [2]),
    ("list.map(x => list.map(y => x + y)).length", 3),
    ("list.reduce((acc, x, i) => acc + x * i, 0)", 80),
    ("[1, 2, 3].map(x => x * 2).filter(x => x > 2).reduce((a, b) => a + b)", 10),
    ("sum(list, (x, i) => i)", 3),
    ("list.map(x => ({ x }))", [{"x": 10}, {"x": 20}, {"x": 30}]),
    # methods on objects: an own function-valued key first
    ("coalesce(null, x => x * 2)(21)", 42),
    # nothing mutates
    ("[list.reverse(), list]", [[30, 20, 10], [10, 20, 30]]),
    # join and String() rules
    ("[1, null, 2].join('-')", "1--2"),
    ("[1, [2, 3]].join(';')", "1;2,3"),
    ("[true, 1.5].join()", "true,1.5"),
    # numbers from text
    ("num('  -3.5e2 ')", -350),
    ("num('9'.repeat(400))", 1e400 if False else None),  # Infinity → null on output, never a big int
    ("num('45%')", 45),
    ("int('12.9元')", 12),
    ("int(-0.5)", 0),
    ("round(-2.5)", -2),
    ("round(2.4999)", 2),
    ("round(1.005, 2)", 1.01),
    ("(1.005).toFixed(2)", "1.00"),
    ("(-2.5).toFixed(0)", "-3"),
    ("(0).toFixed(2)", "0.00"),
    ("(1e21).toFixed(2)", "1e+21"),
    ("(0.000001).toFixed(7)", "0.0000010"),
    ("(123.456).toFixed()", "123"),
    # strings by JavaScript's rules
    ("'a,b'.split()", ["a,b"]),
    ("''.split(',')", [""]),
    ("'abc'.split('')", ["a", "b", "c"]),
    ("'a,b,c'.split(',', 2)", ["a", "b"]),
    ("'aaa'.replace('a', '$&$&')", "aaaa"),
    ("'x-y'.replace('-', '$$')", "x$y"),
    ("'abc'.replace('', '_')", "_abc"),
    ("'abc'.replaceAll('', '_')", "_a_b_c_"),
    ("'abc'.slice(-2, -1)", "b"),
    ("'abc'.substring(-1, 2)", "ab"),
    ("'  x\\u3000'.trim()", "x"),
    ("'abc'.padStart(6, '12')", "121abc"),
    ("'abc'.padEnd(2)", "abc"),
    ("'abc'.at(-1)", "c"),
    ("'abc'.indexOf('c', 5)", -1),
    ("'aXbX'.lastIndexOf('X')", 3),
    ("'ß'.toUpperCase()", "SS"),
    ("[NaN_].includes(NaN_)", True),
    ("[NaN_].indexOf(NaN_)", -1),
    # misc
    ("type(null)", "null"),
    ("type(1)", "number"),
    ("type('')", "string"),
    ("type(true)", "boolean"),
    ("type({})", "object"),
    ("type(x => x)", "function"),
    ("equals({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })", True),
    ("equals([1], [1, 2])", False),
    ("sortBy([3, null, 1, 'b', 'a', 2], x => x)", [1, 2, 3, "a", "b", None]),
    ("sortBy([{ n: 1, k: 'a' }, { n: 0, k: 'b' }, { n: 1, k: 'c' }], 'n', 'desc').map(x => x.k)", ["a", "c", "b"]),
    ("groupBy([1.5, 2.5], x => x)", {"1.5": [1.5], "2.5": [2.5]}),
    ("range(0)", []),
    ("range(3, 0, -1)", [3, 2, 1]),
    ("zip([1, 2, 3], ['a'])", [[1, "a"], [2, None], [3, None]]),
    ("max([])", None),
    ("avg([])", None),
    ("sum([])", 0),
    ("get(obj, ['a'])", 1),
    ("get(list, '1')", 20),
    ("has(list, 2)", True),
    ("keys({ b: 1, a: 2 })", ["b", "a"]),
]

NAMES: dict[str, Any] = {"obj": {"a": 1}, "list": [10, 20, 30], "nil": None}


@pytest.mark.parametrize(("src", "want"), JS_CASES, ids=[c[0] for c in JS_CASES])
def test_javascript_value(src: str, want: Any) -> None:
    names = dict(NAMES)
    if "NaN_" in src:
        names["NaN_"] = float("nan")
    if want == "error":
        with pytest.raises(LangError):
            ev(src, **names)
        return
    got = ev(src, **names)
    if isinstance(want, float) and isinstance(got, float):
        assert got == pytest.approx(want, rel=0, abs=0)
    else:
        assert got == want
        assert type(got) is type(want) or (isinstance(want, int | float) and isinstance(got, int | float))


# Expressions JavaScript would answer with a coercion the language refuses: they must fail clearly.
ERROR_CASES = [
    ("'5' * 2", "'\\*' needs numbers"),
    ("'5' - 2", "'-' needs numbers"),
    ("null + 1", "'\\+' needs two numbers"),
    ("true + 1", "'\\+' needs two numbers"),
    ("[1] + 'a'", "cannot join text and an array"),
    ("({}) + ''", "cannot join text and an object"),
    ("1 < '2'", "compares two numbers or two strings"),
    ("null < 1", "compares two numbers or two strings"),
    ("[1] == [1]", "use equals"),
    ("({}) != ({})", "use equals"),
    ("`${[1, 2]}`", "cannot turn an array into text"),
    ("-'3'", "'-' needs numbers"),
    ("nil.a", "cannot read 'a' of null \\(nil.a\\)"),
    ("nil[0]", "cannot read '0' of null"),
    ("nil.length", "cannot read 'length' of null"),
    ("obj.a.b.c", "cannot read 'c' of null \\(obj.a.b.c\\)"),
    ("list.map", "'map' is a function"),
    ("list.sort()", "sortBy"),
    ("list.push(1)", "lists cannot be changed"),
    ("obj.nope()", "has no method 'nope'"),
    ("nil.trim()", "cannot call 'trim' of null"),
    ("obj.a()", "not a function"),
    ("(1)(2)", "not a function"),
    ("map(1, x => x)", "map\\(\\) expects a list"),
    ("list.map(1)", "map\\(\\) expects a function"),
    ("[].reduce((a, b) => a + b)", "empty list needs a starting value"),
    ("sum(['1'])", "sum\\(\\) expects a number"),
    ("range(1, 2, 0)", "step cannot be 0"),
    ("len(1)", "len\\(\\) expects a list"),
    ("'x'.repeat(-1)", "count must be"),
    ("json('[1,')", "not valid JSON"),
    ("decodeURIComponent('%E4%BA')", "malformed"),
    ("error('boom')", "boom"),
    ("chunk([1], 0)", "at least 1"),
    ("fromEntries([1])", "pairs"),
    ("sortBy([[1], [2]], x => x)", "sortBy\\(\\) keys must be"),
    ("date('not a date')", "cannot read 'not a date' as a date"),
    ("date('2026-02-30')", "not a valid date"),
    ("toFixed(1, 101)", "between 0 and 100"),
    ("trim(1, 2)", "takes 1 argument, got 2"),
    ("list.slice(1, 2, 3)", r"\.slice\(\) takes 0 to 2 arguments, got 3"),  # the arguments written, not the list
]


@pytest.mark.parametrize(("src", "pattern"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_refused_coercions_and_faults_are_clear_errors(src: str, pattern: str) -> None:
    with pytest.raises(LangError, match=pattern):
        ev(src, **NAMES)


def test_values_stay_in_the_value_model() -> None:
    # Numbers are floats inside (never ints), closures are Closure objects, and output turns 2.0 into 2.
    assert raw("4 / 2").__class__ is float
    assert raw("len([1, 2])").__class__ is float
    assert isinstance(raw("coalesce(x => x)"), Closure)
    assert to_json(raw("4 / 2")) == 2 and isinstance(to_json(raw("4 / 2")), int)


def test_functions_and_nodes_in_a_result_name_their_path() -> None:
    with pytest.raises(EvalError, match=r"result\[1\]\.f is a function"):
        ev("[1, { f: coalesce(x => x) }]")
    with pytest.raises(EvalError, match=r"result\.page is a node"):
        ev("({ page: html('<p>x</p>') })")


@pytest.mark.parametrize("x", [0.1, 1e-7, 1e21, 123456789.125, -1.5e-300, 2**53 + 2.0, 1 / 3, 100.0, 5e-324])
def test_number_text_round_trips(x: float) -> None:
    assert float(num_to_str(x)) == x


def test_a_context_int_is_read_as_a_number() -> None:
    # Hosts should pass floats, but an int from outside data must behave the same (and never grow big).
    from tui.lang.expr import Run, compile_expression

    out = compile_expression("n * 2 + big ** 2").evaluate({"n": 3, "big": 10**20}, Run("2026-11-30T00:00:00+08:00"))
    assert out == 6 + 1e40 and out.__class__ is float
