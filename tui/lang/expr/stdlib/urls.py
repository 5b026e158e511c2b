"""URL functions: resolve, build queries, encode and decode, take apart."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urljoin, urlsplit

from tui.lang.expr.errors import EvalError
from tui.lang.expr.limits import Run, cap_text
from tui.lang.expr.stdlib.html import HtmlNode
from tui.lang.expr.stdlib.registry import bad, builtin, want_dict, want_str
from tui.lang.expr.values import to_str

G = "url"
# encodeURIComponent leaves A-Z a-z 0-9 - _ . ! ~ * ' ( ) alone; quote() keeps letters, digits and _.-~
_COMPONENT_SAFE = "-_.!~*'()"


@builtin(
    G,
    "`relative` resolved against `base` (a URL, or a page from `as: html`).",
    ("url('https://a.pku.edu.cn/x/y.html', '../z?q=1')", "https://a.pku.edu.cn/z?q=1"),
)
def url(run: Run, base: Any, relative: Any = "") -> str:
    b = (base.base_url or "") if isinstance(base, HtmlNode) else want_str(base, "url")
    rel = want_str(relative, "url") if relative is not None else ""
    run.charge_text(len(b) + len(rel))
    return urljoin(b, rel.strip())


def _enc(v: Any) -> str:
    return quote(to_str(v), safe=_COMPONENT_SAFE)


@builtin(
    G,
    "A query string from an object (null values left out, lists repeat the key).",
    ("query({ a: 1, b: '二' })", "a=1&b=%E4%BA%8C"),
    ("query({ t: ['x', 'y'], n: null })", "t=x&t=y"),
)
def query(run: Run, obj: Any) -> str:
    d = want_dict(obj, "query")
    parts: list[str] = []
    size = -1
    for k, v in d.items():
        items = v if v.__class__ is list else [v]
        if v.__class__ is list:
            run.charge(len(items))
        key = None
        for item in items:
            if item is None:
                continue
            if item.__class__ in (list, dict):
                raise EvalError(f"query(): the value of {k!r} must be text, a number or a list of them")
            value = to_str(item)
            # Encoding never shortens text: a pair that cannot fit is refused before it is encoded, and
            # the text so far is measured as it grows (a key repeated for every item of a long list).
            cap_text(size + 2 + len(k) + len(value))
            key = _enc(k) if key is None else key
            parts.append(f"{key}={_enc(value)}")
            size += 1 + len(parts[-1])
            cap_text(size)
    out = "&".join(parts)
    run.charge_text(len(out))
    return out


@builtin(G, "Text made safe for a URL component.", ("encodeURIComponent('二 教')", "%E4%BA%8C%20%E6%95%99"))
def encodeURIComponent(run: Run, s: Any) -> str:
    if s.__class__ in (list, dict):
        raise bad("encodeURIComponent", "text", s)
    text = to_str(s)
    cap_text(len(text))  # encoding never shortens text (and at most multiplies it by nine)
    out = _enc(text)
    run.charge_text(len(out))
    return out


@builtin(G, "The text an encoded URL component stands for.", ("decodeURIComponent('%E4%BA%8C')", "二"))
def decodeURIComponent(run: Run, s: Any) -> str:
    text = want_str(s, "decodeURIComponent")
    # Read in C, but decoded escape by escape in Python (a quarter of a microsecond each): one evaluation
    # per two escapes, counted (in C) before any is decoded.
    run.charge_scan(len(text))
    run.charge(text.count("%") // 2)
    try:
        return unquote(text, errors="strict")
    except UnicodeDecodeError:
        raise EvalError("decodeURIComponent(): malformed percent-encoding") from None


@builtin(
    G,
    "A URL's parts: { scheme, host, path, query (an object), hash }.",
    ("parseUrl('https://x.pku.edu.cn/a/b?c=1').host", "x.pku.edu.cn"),
    ("parseUrl('https://x.pku.edu.cn/a?c=1&d=%E4%BA%8C').query", {"c": "1", "d": "二"}),
)
def parseUrl(run: Run, u: Any) -> dict[str, Any]:
    text = want_str(u, "parseUrl")
    # Split in C, but the query is taken apart pair by pair in Python (a microsecond and a half each):
    # two evaluations per pair, counted before, and one per two escapes as decodeURIComponent.
    run.charge_scan(len(text))
    run.charge(2 * text.count("&") + text.count("%") // 2)
    try:
        parts = urlsplit(text.strip())
        host = parts.hostname or ""
    except ValueError as e:
        raise EvalError(f"parseUrl(): {e}") from None
    q: dict[str, Any] = {}
    for k, v in parse_qsl(parts.query, keep_blank_values=True):
        q[k] = v
    return {"scheme": parts.scheme, "host": host, "path": parts.path, "query": q, "hash": parts.fragment}
