"""URL functions: resolve, build queries, encode and decode, take apart."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, quote, unquote

from ada_url import URL, join_url

from tui.lang.expr.errors import EvalError
from tui.lang.expr.limits import Run, cap_text
from tui.lang.expr.stdlib.html import HtmlNode
from tui.lang.expr.stdlib.registry import ABSENT, bad, builtin, want_dict, want_str
from tui.lang.expr.values import js_order, to_str, well_formed

G = "url"
# encodeURIComponent leaves A-Z a-z 0-9 - _ . ! ~ * ' ( ) alone; quote() keeps letters, digits and _.-~
_COMPONENT_SAFE = "-_.!~*'()"


@builtin(
    G,
    "`relative` resolved against `base` (a URL, or a page from `as: html`); `url(u)` alone is `u` normalised.",
    ("url('https://a.pku.edu.cn/x/y.html', '../z?q=1')", "https://a.pku.edu.cn/z?q=1"),
    ("url('https://A.pku.edu.cn/a/../二')", "https://a.pku.edu.cn/%E4%BA%8C"),
)
def url(run: Run, base: Any, relative: Any = ABSENT) -> str:
    b = (base.base_url or "") if isinstance(base, HtmlNode) else want_str(base, "url")
    rel = "" if relative is ABSENT else want_str(relative, "url")
    run.charge_text(len(b) + len(rel))
    try:
        # WHATWG (ada), as new URL(rel, base) — or new URL(base) alone: percent-encodes spaces and Chinese,
        # drops the base's #hash, clamps `..` at the root; a lone surrogate is read as U+FFFD, as JavaScript's
        # USVString conversion does (a page parsed from text has no address of its own: its links are read as
        # they are)
        out = (
            URL(well_formed(b or rel)).href
            if relative is ABSENT or not b
            else join_url(well_formed(b), well_formed(rel))
        )
    except ValueError:
        if relative is ABSENT or not b:
            raise EvalError(
                f"url(): {(b or rel)[:80]!r} is not a valid URL (an absolute URL, like https://…)"
            ) from None
        raise EvalError(f"url(): cannot resolve {rel[:80]!r} against {b[:80]!r} (not a valid URL)") from None
    cap_text(len(out))
    return out


def _enc(v: Any, fname: str = "query") -> str:
    text = to_str(v)
    try:
        return quote(text, safe=_COMPONENT_SAFE)
    except UnicodeEncodeError:  # a lone UTF-16 surrogate: JavaScript throws "URIError: URI malformed"
        raise EvalError(f"{fname}(): the text holds a lone UTF-16 surrogate, which cannot be URL-encoded") from None


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
    for k, v in js_order(d).items():  # as URLSearchParams walks an object: JavaScript's key order
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
    out = _enc(text, "encodeURIComponent")
    run.charge_text(len(out))
    return out


@builtin(G, "The text an encoded URL component stands for.", ("decodeURIComponent('%E4%BA%8C')", "二"))
def decodeURIComponent(run: Run, s: Any) -> str:
    text = want_str(s, "decodeURIComponent")
    # Read in C, but decoded escape by escape in Python (a quarter of a microsecond each): one evaluation
    # per two escapes, counted (in C) before any is decoded.
    run.charge_scan(len(text))
    run.charge(text.count("%") // 2)
    bad_escape = _BAD_ESCAPE.search(text)
    if bad_escape:  # JavaScript: URIError (unquote would keep the '%' as it is)
        raise EvalError(f"decodeURIComponent(): malformed percent-encoding at {bad_escape.group()!r}")
    try:
        return unquote(text, errors="strict")
    except UnicodeDecodeError:
        raise EvalError("decodeURIComponent(): malformed percent-encoding (not UTF-8)") from None


#: A '%' that does not start an escape of two hex digits.
_BAD_ESCAPE = re.compile("%(?![0-9A-Fa-f]{2}).{0,2}", re.S)


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
        parts = URL(well_formed(text))  # WHATWG, as new URL(u): the path normalised and encoded, the host lower-case
    except ValueError:
        raise EvalError(f"parseUrl(): {text[:80]!r} is not a valid URL") from None
    q: dict[str, Any] = {}
    # as URLSearchParams reads a query ('+' is a space; the last of a repeated key wins, at its first place)
    for k, v in parse_qsl(parts.search[1:], keep_blank_values=True):
        q[k] = v
    scheme, path, fragment = parts.protocol[:-1], parts.pathname, parts.hash[1:]
    return {"scheme": scheme, "host": parts.hostname, "path": path, "query": q, "hash": fragment}
