"""HTML functions on selectolax (Lexbor, a C parser: no Python recursion over deep documents)."""

from __future__ import annotations

import re
from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import MAX_STRING, Run
from tui.lang.expr.stdlib.registry import bad, builtin, want_list, want_str
from tui.lang.expr.stdlib.tablerows import table_mode, table_rows
from tui.lang.expr.values import Opaque, stringify, well_formed

G = "html"

_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "caption", "dd", "details", "div", "dl", "dt", "fieldset",
        "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
        "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "tfoot", "thead", "tr", "ul",
    }
)  # fmt: skip
_SKIP = frozenset(["script", "style", "head", "template", "noscript", "title"])


class HtmlNode(Opaque):
    """A parsed HTML document or element (type 'node'); it remembers the URL of its page."""

    __slots__ = ("base_url", "node", "size")
    type_name = "node"
    not_text = "a node is not text: read it with text(node), htmlText(node) or attr(node, name)"

    def __init__(self, node: Any, base_url: str | None = None, size: int | None = None) -> None:
        self.node = node
        self.base_url = base_url
        self.size = size
        """Nodes in its subtree (elements and texts), counted when first needed; see weight()."""

    def __repr__(self) -> str:
        return f"<node {self.node.tag}>"


#: Deepest element nesting accepted. Lexbor's tree builder checks the open-element stack at every block start
#: tag, so deep nesting is quadratic (measured: 10,000 nested divs 0.06 s, 30,000 1.3 s, 100,000 21 s);
#: real pages stay under 100 levels (threats.md L9).
MAX_HTML_DEPTH = 1_024
_TAG = re.compile(r"<(/?[A-Za-z][A-Za-z0-9-]*)")
# Elements that never hold children, or that the parser closes by itself, do not deepen the stack. A
# trailing slash does not close anything in HTML5 (`<div/>` opens a div), so it is not looked at.
_NO_DEPTH = frozenset(
    {
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "tbody", "thead", "tfoot", "colgroup",
        "caption", "rb", "rt", "rp",
    }
)  # fmt: skip
# Common spellings; any other mixed case counts as depth, which can only over-estimate.
_NO_DEPTH_SPELLINGS = frozenset(v for n in _NO_DEPTH for v in (n, n.upper(), n.title()))
_NO_DEPTH_TAGS = _NO_DEPTH_SPELLINGS | frozenset("/" + n for n in _NO_DEPTH_SPELLINGS)


def html_depth(text: str) -> int:
    """The deepest element nesting of `text`, estimated in one linear pass over its tags.

    Stray end tags never lower the count below zero, so they cannot hide nesting that follows them.
    Measured: about 15 ms for 100,000 tags (Lexbor parses them in about as long); the regex gives each tag
    as one string ('div', '/div'), which is twice as fast as (slash, name) pairs.
    """
    depth = deepest = 0
    for tag in _TAG.findall(text):
        if tag in _NO_DEPTH_TAGS:
            continue
        if tag[0] == "/":
            if depth:
                depth -= 1
        else:
            depth += 1
            if depth > deepest:
                deepest = depth
    return deepest


#: Nodes a query or text() walks per evaluation: Lexbor walks in C, about 10 ns a node (a 100,000-element
#: subtree takes 1-3 ms whatever the query finds).
NODES_PER_EVALUATION = 16


def weight(n: HtmlNode) -> int:
    """How many nodes a query, text() or htmlText() of `n` walks: what they are charged for, before they run.

    Lexbor does the walking in C, but its cost grows with the subtree while the answer may be tiny
    (`select(page, 'nomatch')` on 100,000 elements takes 9 ms and finds nothing), so the library charges
    by the subtree. A document knows its size from its text; an element's subtree is counted once (a C
    walk, about as fast as the query it pays for) and remembered.
    """
    if n.size is None:
        count = 0
        for _ in n.node.traverse(include_text=True):
            count += 1
        n.size = count
    return n.size


def parse_html(run: Run | None, text: str, base_url: str | None = None) -> HtmlNode:
    """Parse HTML text into a document node (charging by size).

    Raises:
        LimitError: the document nests elements deeper than MAX_HTML_DEPTH.
    """
    if run is not None:
        run.charge(1 + len(text) // 64)
    # A document with fewer tags than the limit cannot nest deeper than it: skip the scan (most pages).
    tags = text.count("<")
    depth = html_depth(text) if tags > MAX_HTML_DEPTH else 0
    if depth > MAX_HTML_DEPTH:
        raise LimitError(f"HTML nested {depth:,} levels deep; the limit is {MAX_HTML_DEPTH:,}")
    # Every element starts with '<' (but the html, head and body the parser adds) and text nodes lie
    # between tags, so this bounds the document's node count without walking it.
    from selectolax.lexbor import LexborHTMLParser  # here: ~30 ms to load, and only HTML work needs it

    return HtmlNode(LexborHTMLParser(text).root, base_url, 2 * tags + 8)


def selector_errors() -> tuple[type[Exception], ...]:
    """What a bad CSS selector raises (selectolax is loaded by then: a node exists only after a parse)."""
    from selectolax.lexbor import SelectolaxError

    return (SelectolaxError, ValueError, TypeError)


def _node(run: Run, v: Any, fname: str) -> HtmlNode:
    if isinstance(v, HtmlNode):
        return v
    if v.__class__ is str:
        return parse_html(run, v)
    raise bad(fname, "an HTML node or text", v)


def _css(run: Run, fname: str, node: HtmlNode, selector: Any, only_first: bool = False) -> Any:
    sel = want_str(selector, fname)
    if not sel.isascii() and well_formed(sel) is not sel:
        # the CSS engine reads UTF-8, which cannot hold half of a pair: its own words would be Python's codec's
        raise EvalError(f"{fname}(): a CSS selector cannot hold a lone surrogate (half of a pair): {stringify(sel)}")
    run.charge(weight(node) // NODES_PER_EVALUATION)  # the subtree a query walks, before it is walked
    try:
        return node.node.css_first(sel) if only_first else node.node.css(sel)
    except selector_errors() as e:
        raise EvalError(f"{fname}(): invalid CSS selector {sel!r} ({e})") from None


def collapse(text: str) -> str:
    """White space runs to one space, trimmed."""
    return " ".join(text.split())


@builtin(G, "Parses HTML text into a node.", ("type(html('<p>x</p>'))", "node"))
def html(run: Run, text: Any) -> HtmlNode:
    return parse_html(run, want_str(text, "html"))


@builtin(
    G,
    "Every element matching a CSS selector.",
    ("select(html('<ul><li>a</li><li> b </li></ul>'), 'li').map(x => text(x))", ["a", "b"]),
)
def select(run: Run, node: Any, selector: Any) -> list[Any]:
    n = _node(run, node, "select")
    found = _css(run, "select", n, selector)
    run.charge(len(found))  # a node made in Python per element found
    return [HtmlNode(x, n.base_url) for x in found]


@builtin(
    G,
    "The first element matching a selector, or null; `first(list)` is the list's first item.",
    ("text(first(html('<p>x <b>y</b></p>'), 'p'))", "x y"),
    ("first([3, 1])", 3),
    min_args=1,
)
def first(run: Run, x: Any, selector: Any = None) -> Any:
    if x.__class__ is list and selector is None:
        return x[0] if x else None
    if x is None:
        return None
    if selector is None:
        raise EvalError("first() takes a list, or a node and a CSS selector")
    n = _node(run, x, "first")
    found = _css(run, "first", n, selector, only_first=True)
    return None if found is None else HtmlNode(found, n.base_url)


def _text_of(node: Any) -> str:
    return collapse(node.text(deep=True) or "")


@builtin(
    G,
    "An element's text with white space collapsed (null gives null).",
    ("text(html('<p> a\\n b </p>'))", "a b"),
)
def text(run: Run, node: Any) -> str | None:
    if node is None:
        return None
    n = _node(run, node, "text")
    run.charge(weight(n) // NODES_PER_EVALUATION)
    out = _text_of(n.node)
    run.charge_text(len(out))
    return out


def block_text(node: Any) -> str:
    """Text with line breaks where blocks, <br> and rows end (iterative: deep documents are fine)."""
    out: list[str] = []
    size = 0
    stack: list[tuple[Any, bool]] = [(node, False)]
    while stack:
        n, leaving = stack.pop()
        if leaving:
            out.append("\n")
            continue
        if n.is_text_node:
            piece = n.text_content or ""
            out.append(piece)
            size += len(piece)
            if size > MAX_STRING:
                raise LimitError(f"htmlText(): more than {MAX_STRING:,} characters of text")
            continue
        tag = n.tag
        if tag in _SKIP or n.is_comment_node:
            continue
        if tag == "br":
            out.append("\n")
            continue
        if tag in ("td", "th"):
            out.append(" ")
        block = tag in _BLOCKS
        if block:
            out.append("\n")
            stack.append((n, True))
        children = list(n.iter(include_text=True))
        stack.extend((c, False) for c in reversed(children))
    lines = (collapse(line) for line in "".join(out).split("\n"))
    return "\n".join(line for line in lines if line)


@builtin(
    G,
    "Readable text of a node or HTML text: one line per block, <br> kept as a line break.",
    ("htmlText('<p>a</p><p>b</p>')", "a\nb"),
    ("htmlText('x<br>y')", "x\ny"),
)
def htmlText(run: Run, node: Any) -> str | None:
    if node is None:
        return None
    n = _node(run, node, "htmlText")
    run.charge_scan(16 * weight(n))  # a walk in Python, one node at a time: a quarter evaluation per node
    out = block_text(n.node)
    run.charge_text(len(out))
    return out


@builtin(G, "An attribute's value, or null.", ("attr(first(html('<a href=\"/x\">x</a>'), 'a'), 'href')", "/x"))
def attr(run: Run, node: Any, name: Any) -> str | None:
    if node is None:
        return None
    n = _node(run, node, "attr")
    key = want_str(name, "attr")
    count = len(n.node.attrs)
    if key.islower():
        # Lexbor finds it in C (5 ns an attribute). Its names are lower case, and so is what it is asked for.
        run.charge(count // 16)
        value = n.node.attrs.get(key)
    else:
        # Copied into a dict to look one up (0.12 µs an attribute); nothing for an ordinary element.
        run.charge(count // 2)
        value = n.node.attributes.get(key)
    return None if value is None else str(value)


@builtin(
    G,
    "A table's rows with rowspan/colspan expanded: lists of texts; { header: true } gives objects keyed "
    "by the header row, { headerRows: 2 } by the first two rows' texts joined; { cells: true } gives "
    "{ text, row, col, rowspan, colspan, id } records.",
    (
        "tableRows(html('<table><tr><th>楼</th><th>时间</th></tr><tr><td>一教</td><td>8:00</td></tr></table>'), "
        "{ header: true })",
        [{"楼": "一教", "时间": "8:00"}],
    ),
    (
        "tableRows('<table><tr><td rowspan=2>a</td><td>1</td></tr><tr><td>2</td></tr></table>')",
        [["a", "1"], ["a", "2"]],
    ),
    (
        "tableRows('<table><tr><th rowspan=2>书</th><th colspan=2>出版</th></tr><tr><th>社</th><th>年</th></tr>"
        "<tr><td>围城</td><td>人文</td><td>1991</td></tr></table>', { headerRows: 2 })",
        [{"书": "围城", "出版 社": "人文", "出版 年": "1991"}],
    ),
)
def tableRows(run: Run, node: Any, options: Any = None) -> list[Any]:
    n = _node(run, node, "tableRows")
    mode, header_rows = table_mode(options)
    run.charge(weight(n) // NODES_PER_EVALUATION)
    table = n.node if n.node.tag == "table" else n.node.css_first("table")
    if table is None:
        return []
    return table_rows(run, table, mode, _text_of, header_rows)


__all__ = ["want_list"]
