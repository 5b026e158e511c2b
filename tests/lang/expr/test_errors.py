"""Errors name the fault and point at it: a caret under the column, the expression shown (language.md §3)."""

from __future__ import annotations

import pytest

from tui.lang.expr import EvalError, LangError, ParseError, UnboundNameError, compile_expression

from .helpers import ev

# (expression, error type, message pattern, 1-based column of the caret)
PARSE_ERRORS = [
    ("x = 1", ParseError, "assignment is not part", 3),
    ("a += 1", ParseError, "assignment", 3),
    ("a++", ParseError, "'\\+\\+' is not part", 2),
    ("new Date()", ParseError, "'new' is not part", 1),
    ("this", ParseError, "'this'", 1),
    ("typeof n", ParseError, "use type\\(x\\)", 1),
    ("'a' in obj", ParseError, "'in' is not part", 5),
    ("delete obj.a", ParseError, "'delete'", 1),
    ("void 0", ParseError, "'void'", 1),
    ("function () { return 1 }", ParseError, "'function'", 1),
    ("class A {}", ParseError, "'class'", 1),
    ("x => x", ParseError, "only be passed to a call", 1),
    ("(a, b) => a", ParseError, "only be passed to a call", 1),
    ("list.map(x => { return x })", ParseError, "arrow bodies are one expression", 15),
    ("list.map(x => {})", ParseError, "arrow bodies are one expression", 15),
    ("list.map((x = 1) => x)", ParseError, "default parameter", 13),
    ("list.map((...xs) => xs)", ParseError, "rest parameters", 11),
    ("list.map((x, x) => x)", ParseError, "declared twice", 10),
    ("/ab+c/.test(s)", ParseError, "regex literals", 1),
    ("a; b", ParseError, "statements are not part", 2),
    ("a, b", ParseError, "comma operator", 2),
    ("a & b", ParseError, "bitwise", 3),
    ("a || b ?? c", ParseError, "cannot be mixed", 8),
    ("-2 ** 2", ParseError, "parentheses before '\\*\\*'", 4),
    ("({ f() { return 1 } })", ParseError, "methods in object literals", 4),
    ("({ get x() { return 1 } })", ParseError, "getters and setters", 4),
    ("[1, , 2]", ParseError, "holes", 5),
    ("tag`x`", ParseError, "tagged templates", 4),
    ("1 +", ParseError, "ends too early", 4),
    ("'unterminated", ParseError, "never closed", 1),
    ("`a ${b`", ParseError, "never closed", 7),  # the backtick inside ${…} opens a new template
    ("/* open", ParseError, "never closed", 1),
    ("'\\ud800'", ParseError, "lone surrogate", 2),
    ("0755", ParseError, "may not start with 0", 1),
    ("1e", ParseError, "exponent has no digits", 1),
    ("3in", ParseError, "right after a number", 2),
    ("a ? b", ParseError, "expected ':'", 6),
    ("f(a b)", ParseError, "expected ','", 5),
    ("obj.", ParseError, "property name", 5),
    ("", ParseError, "empty expression", 1),
    ("#x", ParseError, "private names", 1),
    ("a \\u0062", ParseError, "unexpected '\\\\'", 3),
]


@pytest.mark.parametrize(("src", "kind", "pattern", "col"), PARSE_ERRORS, ids=[c[0] for c in PARSE_ERRORS])
def test_forbidden_and_broken_syntax_fails_at_the_column(src: str, kind: type, pattern: str, col: int) -> None:
    with pytest.raises(kind, match=pattern) as info:
        compile_expression(src)
    e = info.value
    assert e.line_col == (1, col), str(e)
    assert e.source == src


def test_message_shows_the_source_with_a_caret_under_the_fault() -> None:
    with pytest.raises(EvalError) as info:
        ev("page.data.rows.length", page={"data": None})
    assert str(info.value) == (
        "cannot read 'rows' of null (page.data.rows) (column 11)\npage.data.rows.length\n          ^"
    )


def test_caret_is_placed_by_display_width_after_chinese_text() -> None:
    with pytest.raises(ParseError) as info:
        compile_expression("'北京' +")
    assert info.value.caret().splitlines()[1] == " " * 8 + "^"  # 2 quotes + 2 wide chars (4 cells) + ' +'


def test_runtime_error_inside_an_arrow_points_into_the_arrow() -> None:
    with pytest.raises(EvalError, match="'\\*' needs numbers") as info:
        ev("rows.map(r => r.cap * 2)", rows=[{"cap": "221"}])
    assert info.value.line_col == (1, 15)


def test_errors_in_a_library_call_point_at_the_call() -> None:
    with pytest.raises(EvalError, match="sum\\(\\) expects a number") as info:
        ev("1 + sum(['a'])")
    assert info.value.line_col == (1, 5)


def test_errors_on_later_lines_give_line_and_column() -> None:
    with pytest.raises(EvalError) as info:
        ev("rows\n  .map(r => r.a.b)", rows=[{"a": None}])
    assert info.value.line_col == (2, 17)
    assert "(at 2:17)" in str(info.value)


@pytest.mark.parametrize(
    "name",
    [
        "undefinedName",
        "globalThis",
        "Math",
        "process",
        "require",
        "eval",
        "Function",
        "window",
        "constructor",
        "__builtins__",
        "NaN",
        "Infinity",
        "undefined_",
    ],
)
def test_free_names_must_be_bound(name: str) -> None:
    with pytest.raises(UnboundNameError, match=f"unknown name '{name}'"):
        ev(name)


def test_unbound_names_fail_even_where_not_reached() -> None:
    # Bound names are checked before evaluation, as the validator will do from the plugin's names.
    with pytest.raises(UnboundNameError, match="'oops'"):
        ev("false && oops")


def test_a_bare_library_name_says_to_call_it() -> None:
    with pytest.raises(UnboundNameError, match="'map' is a function: call it"):
        ev("map")


def test_a_library_name_can_still_be_a_plugin_binding() -> None:
    # `let: text` or an input named `date` must not collide with the library …
    assert ev("text + date", text="a", date="b") == "ab"
    # … while a call always means the library function.
    assert ev("text(html)", html="<b> x </b>") == "x"


def test_free_names_are_reported_for_validation() -> None:
    expr = compile_expression("rows.filter(r => r.cap > limit).map(({ room }) => room + suffix)")
    assert set(expr.free_names) == {"rows", "limit", "suffix"}
    assert set(expr.calls) == set()
    assert set(compile_expression("sum(map(xs, x => x))").calls) == {"sum", "map"}


def test_arity_of_direct_calls_is_checked_when_compiling() -> None:
    with pytest.raises(ParseError, match="trim\\(\\) takes 1 argument, got 2") as info:
        compile_expression("1 + trim(a, b)")
    assert info.value.line_col == (1, 5)


def test_every_error_is_a_lang_error_with_title() -> None:
    for src in ("1 +", "x.y.z", "nil.x", "range(1e9)"):
        with pytest.raises(LangError) as info:
            ev(src, x={}, nil=None)
        assert info.value.title
        assert info.value.msg


def test_unicode_digits_are_not_numbers() -> None:
    # Found by fuzzing: str.isdigit() accepts '²' and '٣', float() then crashed the lexer.
    for src in ("²", "٣", "1²", "0x١"):
        with pytest.raises(ParseError):
            compile_expression(src)


def test_literal_before_optional_chain_compiles_silently(recwarn: pytest.WarningsRecorder) -> None:
    # Found by fuzzing: `0?.a` generated `0.0 is not None`, a SyntaxWarning that would print over the TUI.
    assert ev("0?.a") is None
    assert ev("1 ? 'y' : 'n'") == "y"
    assert not [w for w in recwarn if issubclass(w.category, SyntaxWarning)]


def test_error_with_an_empty_message_still_says_something() -> None:
    # Found by deep fuzzing: error('') raised an error whose message was empty.
    with pytest.raises(LangError, match="no message"):
        ev("error(' ')")


def test_line_maps_live_and_die_with_their_code() -> None:
    # No global registry of compiled expressions: the map from generated lines to source offsets is a global
    # of the generated module, so an expression dropped from the cache takes its map with it.
    import gc
    import weakref

    from tui.lang.expr.engine import Expression
    from tui.lang.expr.parser import parse

    expr = Expression("x.y.z", parse("x.y.z"))
    with pytest.raises(EvalError) as info:
        expr.evaluate({"x": {}})
    assert info.value.line_col == (1, 5)
    info = None  # type: ignore[assignment]  # the traceback holds the frames
    assert "__linemap__" in expr._fn.__globals__
    ref = weakref.ref(expr._fn)  # the function owns its globals, and with them the line map
    del expr
    gc.collect()
    assert ref() is None
