"""The extract step: items out of HTML by CSS selectors, each field through pipes (language.md §9)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from tui.lang.documents.tool import Extract
from tui.lang.expr import LangError, Run
from tui.lang.expr.stdlib.dates import iso, parse
from tui.lang.expr.stdlib.html import HtmlNode, collapse, parse_html, selector_errors
from tui.lang.expr.stdlib.numbers import parse_number
from tui.lang.expr.stdlib.regex import compile_pattern
from tui.lang.steps.errors import ToolError

PIPES = ("text", "html", "attr", "url", "num", "int", "date", "trim", "match")


def parse_field(spec: str) -> tuple[str, list[tuple[str, str]]]:
    """`'a.title | attr href | url'` → ('a.title', [('attr', 'href'), ('url', '')]).

    Everything after `match ` is the pattern, `|` included.
    """
    parts = spec.split("|")
    selector = parts[0].strip()
    pipes: list[tuple[str, str]] = []
    i = 1
    while i < len(parts):
        seg = parts[i].strip()
        name, _, arg = seg.partition(" ")
        if name == "match":
            arg = "|".join([arg, *parts[i + 1 :]]).strip()
            pipes.append((name, arg))
            break
        if name not in PIPES:
            raise ValueError(f"unknown pipe {name!r} (pipes: {', '.join(PIPES)})")
        if name == "attr" and not arg.strip():
            raise ValueError("attr needs a name, like attr href")
        pipes.append((name, arg.strip()))
        i += 1
    if not selector:
        raise ValueError("a field starts with a CSS selector ('.' for the matched element)")
    return selector, pipes


def run_extract(spec: Extract, source: Any, limit: int | None, run: Run) -> list[dict[str, Any]]:
    """The items of one extract step."""
    if isinstance(source, str):
        node = parse_html(run, source)
    elif isinstance(source, HtmlNode):
        node = source
    else:
        raise ToolError("expression", "extract from: must give an HTML node or HTML text")
    fields = {name: parse_field(f) for name, f in spec.fields.items()}
    try:
        matches = node.node.css(spec.each)
    except selector_errors() as e:
        raise ToolError("expression", f"invalid CSS selector {spec.each!r} ({e})") from None
    if limit is not None:
        matches = matches[:limit]
    run.charge(len(matches))  # one per item made; its fields are found and read in C (language.md §8)
    items = []
    for m in matches:
        item: dict[str, Any] = {}
        for name, (selector, pipes) in fields.items():
            item[name] = _field(m, selector, pipes, node.base_url, run)
        items.append(item)
    return items


def _field(element: Any, selector: str, pipes: list[tuple[str, str]], base: str | None, run: Run) -> Any:
    if selector == ".":
        target = element
    else:
        try:
            target = element.css_first(selector)
        except selector_errors() as e:
            raise ToolError("expression", f"invalid CSS selector {selector!r} ({e})") from None
    if target is None:
        return None  # a selector that finds nothing gives null, never an error
    value: Any = target
    if not pipes or pipes[0][0] not in ("text", "html", "attr"):
        value = collapse(target.text(deep=True) or "")
    for name, arg in pipes:
        value = _pipe(name, arg, value, base, run)
        if value is None:
            return None
    return value


def _pipe(name: str, arg: str, value: Any, base: str | None, run: Run) -> Any:
    node_like = not isinstance(value, str | float)
    if name == "text":
        return collapse(value.text(deep=True) or "") if node_like else value
    if name == "html":
        return value.html if node_like else value
    if name == "attr":
        if not node_like:
            raise ToolError("expression", f"attr {arg} must come right after the selector")
        got = value.attributes.get(arg)
        return None if got is None else str(got)
    text = value if isinstance(value, str) else str(value)
    if name == "trim":
        return text.strip()
    if name == "url":
        return urljoin(base or "", text.strip())
    if name == "num":
        return parse_number(text)
    if name == "int":
        n = parse_number(text)
        return None if n is None else float(int(n)) if abs(n) != float("inf") else n
    if name == "date":
        try:
            return iso(parse(run, text.strip(), "date"))
        except LangError:
            return None
    if name == "match":
        try:
            rx = compile_pattern(run, arg)
        except LangError as e:
            raise ToolError("expression", e.msg) from None
        m = rx.search(run, text)
        if m is None:
            return None
        a, b = m[1] if len(m) > 1 else m[0]  # the first group, or the whole match without groups
        return None if a == -1 else text[a:b]
    raise ToolError("expression", f"unknown pipe {name!r}")
