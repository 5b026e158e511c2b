"""Templates (language.md §6): strings outside expression fields, with `${expr}` replaced by its text.

A template that is exactly one `${expr}` keeps the value's type; `$${` is a literal `${`. Text pieces are
taken as written (no backslash escapes: they are already YAML strings), and arrays and objects become JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tui.lang.expr import ast
from tui.lang.expr.engine import Expression, cached, store
from tui.lang.expr.errors import LangError, LimitError, ParseError
from tui.lang.expr.inlining import Helpers
from tui.lang.expr.lexer import MAX_SOURCE, Lexer
from tui.lang.expr.limits import Run
from tui.lang.expr.parser import Parser
from tui.lang.expr.tokens import Kind


def has_placeholders(text: str) -> bool:
    """True when `text` holds a `${…}` to evaluate (a `$${` alone is only an escape)."""
    return "${" in text.replace("$${", "")


def parse_template(text: str) -> ast.Node:
    """The syntax tree of a template: a Template node, or the single expression when it is one `${expr}`."""
    if len(text) > MAX_SOURCE * 10:
        raise LimitError(f"template longer than {MAX_SOURCE * 10:,} characters", 0)
    quasis: list[str] = []
    exprs: list[ast.Node] = []
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("$${", i):
            buf.append("${")
            i += 3
            continue
        if text.startswith("${", i):
            tokens, after = Lexer(text, i + 2).until_brace()
            if tokens[0].kind is Kind.EOF:
                raise ParseError("empty '${}' in a template", i)
            exprs.append(Parser(tokens, text).parse_all())
            quasis.append("".join(buf))
            buf = []
            i = after
            continue
        buf.append(text[i])
        i += 1
    quasis.append("".join(buf))
    if len(exprs) == 1 and quasis == ["", ""]:
        return exprs[0]
    return ast.Template(0, n, quasis, exprs, False)


def _parse(text: str) -> ast.Node:
    """The template's tree; a parse error carries `text` as its source (for the position)."""
    try:
        return parse_template(text)
    except LangError as e:
        raise e.with_source(text) from None


def compile_template(text: str, helpers: Helpers | None = None) -> Expression:
    """Compile a template once (cached by its text and the plugin functions it may inline, see
    engine.compile_expression).

    Raises:
        ParseError, LimitError: a `${…}` part is not a valid expression (the position is in `text`).
    """
    hit = cached("t", text, helpers)
    if hit is not None:
        return hit
    tree = _parse(text)
    return store("t", text, tree, helpers)


def render(text: str, context: Mapping[str, Any], run: Run | None = None, helpers: Helpers | None = None) -> Any:
    """The value of a template: text, or the value itself when the template is one `${expr}`."""
    if not has_placeholders(text):
        return text.replace("$${", "${")
    return compile_template(text, helpers).evaluate(context, run)


def compile_text_template(text: str) -> Expression:
    """Compile a template for text a person reads (a notification), cached by its text: its value is always text,
    and a placeholder whose value is null writes nothing, where `render` writes `null` — a field the data does
    not have reads as null, and "余额 null 元" helps nobody. Nulls inside a list or object stay JSON's `null`.

    Raises:
        ParseError, LimitError: a `${…}` part is not a valid expression (the position is in `text`).
    """
    hit = cached("n", text)
    if hit is not None:
        return hit
    tree = _parse(text)
    if not isinstance(tree, ast.Template):  # one `${expr}` alone: still text
        tree = ast.Template(0, len(text), ["", ""], [tree], False)
    blank: list[ast.Node] = [ast.Logical(e.pos, e.end, "??", e, ast.Literal(e.pos, e.end, "")) for e in tree.exprs]
    return store("n", text, ast.Template(tree.pos, tree.end, tree.quasis, blank, tree.strict))
