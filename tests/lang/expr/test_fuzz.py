"""Property tests: expressions generated from the grammar, over random JSON contexts (issue #2).

Whatever the text, only the language's own errors escape, and every value is of the value model.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.lang.expr import FUNCTIONS, LangError, Run, compile_expression, from_json, stringify, to_json
from tui.lang.expr.stdlib.jsondata import parse_json
from tui.lang.expr.values import num_to_str

from .helpers import NOW, assert_plain

NAMES = ["a", "b", "rows", "s", "n", "nil"]
PROPS = ["a", "b", "length", "room", "__class__", "constructor", "__proto__", "0", "map", "x"]
# CI runs a few hundred examples per property; FUZZ_SCALE=100 pytest tests/lang/expr/test_fuzz.py digs deeper.
SCALE = int(os.environ.get("FUZZ_SCALE", "1"))
SETTINGS = settings(max_examples=400 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.integers(-(10**6), 10**6)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(PROPS), inner, max_size=4),
    max_leaves=12,
)
contexts = st.fixed_dictionaries({name: json_values for name in NAMES})

number_lits = st.sampled_from(
    ["0", "1", "-1", "2.5", "1e3", "0x1F", "1e-7", "1e21", ".5", "0 / 0", "1 / 0", "1e300", "-1e300", "2 ** 53", "-0"]
)
string_lits = st.sampled_from(["''", "'a'", "'\\\\d+'", "'北大'", '"x y"', "'1,234'", "'<p>x</p>'", "'2026-11-30'"])
atoms = st.sampled_from([*NAMES, "true", "false", "null", "[]", "({})", "x", "i"]) | number_lits | string_lits


def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binop = st.sampled_from(
        ["+", "-", "*", "/", "%", "**", "<", ">", "<=", ">=", "==", "!=", "===", "!==", "&&", "||", "??"]
    )
    fn_names = st.sampled_from(sorted(FUNCTIONS))
    arrow = st.builds(lambda p, body: f"{p} => {body}", st.sampled_from(["x", "(x, i)", "({ a })", "([a, b])"]), inner)
    arg = inner | arrow
    args = st.lists(arg, max_size=3).map(", ".join)
    return st.one_of(
        st.builds(lambda a, op, b: f"({a} {op} {b})", inner, binop, inner),
        st.builds(lambda op, a: f"{op}({a})", st.sampled_from(["!", "-", "+"]), inner),
        st.builds(lambda a, b, c: f"({a} ? {b} : {c})", inner, inner, inner),
        st.builds(lambda a, p: f"{a}.{p}" if p.isidentifier() else f"{a}[{p!r}]", inner, st.sampled_from(PROPS)),
        st.builds(lambda a, p: f"{a}?.{p}", inner, st.sampled_from([p for p in PROPS if p.isidentifier()])),
        st.builds(lambda a, k: f"{a}[{k}]", inner, inner),
        st.builds(lambda f, xs: f"{f}({xs})", fn_names, args),
        st.builds(lambda r, f, xs: f"{r}.{f}({xs})", inner, fn_names, args),
        st.builds(lambda xs: f"[{xs}]", st.lists(inner, max_size=3).map(", ".join)),
        st.builds(lambda k, v: f"({{ {k}: {v} }})", st.sampled_from(["a", "'b c'", "[a]", "...b"]), inner).map(
            lambda s: s.replace(": ...b", ", ...b") if "...b" in s else s
        ),
        st.builds(lambda a, b: f"`t${{{a}}}-${{{b}}}`", inner, inner),
        st.builds(lambda a: f"[...{a}]", inner),
    )


expressions = st.recursive(atoms, extend, max_leaves=10)


@SETTINGS
@given(src=expressions, ctx=contexts)
def test_only_language_errors_escape_and_values_stay_plain(src: str, ctx: dict[str, Any]) -> None:
    run = Run(NOW, limit=20_000)
    try:
        value = compile_expression(src).evaluate(from_json(ctx), run)
    except LangError as e:
        assert e.msg and e.source is not None
        return
    assert_plain(value)
    try:
        out = to_json(value)
    except LangError:
        return  # a closure or node in the result: refused with the path named
    json.dumps(out, allow_nan=False)  # always valid JSON on the way out


@settings(max_examples=1500 * SCALE, deadline=None)
@given(
    st.lists(
        st.sampled_from([*list("ab1.()[]{}?:!=<>+-*/%&|'\"`$\\,; \n=>xy_"), "${", "?.", "=>", "..."]), max_size=30
    ).map("".join)
)
def test_the_parser_never_crashes_on_arbitrary_text(src: str) -> None:
    try:
        compile_expression(src)
    except LangError as e:
        assert e.pos is None or 0 <= e.pos <= len(src)


@settings(max_examples=300 * SCALE, deadline=None)
@given(st.text(max_size=60))
def test_the_parser_never_crashes_on_unicode_text(src: str) -> None:
    with contextlib.suppress(LangError):
        compile_expression(src)


@settings(max_examples=2000 * SCALE, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_text_round_trips_and_never_prints_a_python_form(x: float) -> None:
    text = num_to_str(x)
    assert float(text) == x
    assert not text.endswith(".0") and "e-0" not in text and "e+0" not in text


def ecma_number_text(x: float) -> str:
    """Number::toString as ECMA-262 writes it, from Decimal's exact digits of repr(x): the reference that
    num_to_str (which slices repr instead, for speed) must always agree with."""
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign, digit_tuple, exp = Decimal(repr(x)).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    n, k = len(digit_tuple) + int(exp), len(digits)
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return ("-" if sign else "") + out


@settings(max_examples=3000 * SCALE, deadline=None)
@given(st.floats() | st.integers(-(2**60), 2**60).map(float) | st.integers(-30, 30).map(lambda e: 1.5 * 10.0**e))
def test_number_text_is_the_ecma_algorithm(x: float) -> None:
    assert num_to_str(x) == ecma_number_text(x)


@pytest.mark.parametrize(
    ("x", "text"),
    [(1e21, "1e+21"), (1e-7, "1e-7"), (0.1 + 0.2, "0.30000000000000004"), (-0.0, "0"), (2.0**53, "9007199254740992"),
     (1e16, "10000000000000000"), (123e18, "123000000000000000000"), (1e-6, "0.000001"), (-1.5e-7, "-1.5e-7"),
     (2**70, "1.1805916207174113e+21"), (math.nan, "NaN"), (-math.inf, "-Infinity"), (5e-324, "5e-324")],
)  # fmt: skip
def test_number_text_examples(x: float, text: str) -> None:
    assert num_to_str(x) == text


def deeper_than_64(v: Any) -> bool:
    """The reference json() must agree with: some value sits below more than 64 containers."""
    stack = [(v, 0)]
    while stack:
        x, d = stack.pop()
        if d > 64:
            return True
        if isinstance(x, list):
            stack.extend((y, d + 1) for y in x)
        elif isinstance(x, dict):
            stack.extend((y, d + 1) for y in x.values())
    return False


nested = st.recursive(
    st.none() | st.integers() | st.text(alphabet='[]{}\\"ab', max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("[]{a", max_size=2), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300 * SCALE, deadline=None)
@given(inner=nested, depth=st.integers(55, 70), wrap=st.lists(st.booleans(), min_size=70, max_size=70))
def test_json_depth_check_agrees_with_a_walk(inner: Any, depth: int, wrap: list[bool]) -> None:
    v = inner
    for is_list in wrap[:depth]:
        v = [v, 1] if is_list else {"k]": v}
    text = json.dumps(v)
    try:
        parse_json(text)
        refused = False
    except LangError:
        refused = True
    assert refused == deeper_than_64(json.loads(text))


@SETTINGS
@given(value=json_values)
def test_stringify_agrees_with_json_for_finite_data(value: Any) -> None:
    v = from_json(value)
    text = stringify(v)
    parsed = json.loads(text)

    def same(a: Any, b: Any) -> bool:
        if isinstance(a, float) and not math.isfinite(a):
            return b is None
        if isinstance(a, bool) or a is None or isinstance(a, str):
            return a == b and type(a) is type(b)
        if isinstance(a, float):
            return isinstance(b, int | float) and not isinstance(b, bool) and a == float(b)
        if isinstance(a, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)

    assert same(v, parsed)
