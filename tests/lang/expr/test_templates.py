"""Templates (language.md §6): `${expr}` by its text, a lone `${expr}` keeps its type, `$${` escapes."""

from __future__ import annotations

from typing import Any

import pytest

from tui.lang.expr import LangError, ParseError, Run, compile_template, compile_text_template, from_json, render

from .helpers import NOW


def r(text: str, **names: Any) -> Any:
    return render(text, from_json(names), Run(NOW))


def test_lone_expression_keeps_its_type() -> None:
    assert r("${input.n}", input={"n": 3}) == 3.0
    assert r("${rows}", rows=[1, 2]) == [1.0, 2.0]
    assert r("${null}") is None
    assert r("${ {a: 1} }") == {"a": 1.0}


def test_text_with_expressions_is_text() -> None:
    assert r("n=${4 / 2}") == "n=2"
    assert r("${a}${b}", a=1, b=2) == "12"
    assert r("list: ${[1, 'a']}") == 'list: [1,"a"]'
    assert r("obj: ${o}", o={"k": None}) == 'obj: {"k":null}'
    assert r('${input.building ?? "二教"}', input={}) == "二教"
    assert r("v: ${x} ", x=None) == "v: null "


def test_escapes_and_plain_text() -> None:
    assert r("price $5") == "price $5"
    assert r("literal $${x}") == "literal ${x}"
    assert r("$${x} and ${1 + 1}") == "${x} and 2"
    assert r("a \\d+ b") == "a \\d+ b"  # no backslash processing in template text
    assert r("no placeholders") == "no placeholders"


def test_braces_inside_the_expression() -> None:
    assert r("${ {a: {b: 1}}.a.b } done") == "1 done"
    assert r("${ '}' + `${'{'}` }") == "}{"


def test_template_errors_point_into_the_template() -> None:
    with pytest.raises(ParseError) as info:
        compile_template("rooms in ${building +} today")
    assert info.value.line_col == (1, 22)
    with pytest.raises(ParseError, match="never closed"):
        compile_template("x ${unclosed")
    with pytest.raises(ParseError, match="empty"):
        compile_template("x ${} y")
    with pytest.raises(LangError) as err:
        r("a ${x.y.z} b", x={})
    assert err.value.line_col == (1, 9)


def test_templates_are_compiled_once() -> None:
    assert compile_template("${a} + ${b}") is compile_template("${a} + ${b}")


def test_a_text_template_leaves_nulls_out() -> None:
    def t(text: str, **names: Any) -> Any:
        return compile_text_template(text).evaluate(from_json(names), Run(NOW))

    assert r("余额 ${result.nosuch} 元", result={}) == "余额 null 元"  # the language's rule, for plugins
    assert t("余额 ${result.nosuch} 元", result={}) == "余额  元"  # text a person reads: nothing
    assert t("${result.n}", result={"n": 2}) == "2" and t("${result.n}", result={}) == ""  # always text
    assert t("${result.n ?? '?'}", result={}) == "?" and t("${r}", r=[1, None]) == "[1,null]"
    assert t("$${x} ${0}", r=None) == "${x} 0"
    with pytest.raises(ParseError):
        compile_text_template("${result.(}")
