"""Request steps: build the request from templates, check it against the policy, send it, read the answer."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import httpx

from tui.lang.documents.tool import RequestSpec
from tui.lang.expr import LangError, stringify, to_json
from tui.lang.expr.stdlib.html import parse_html
from tui.lang.expr.stdlib.jsondata import parse_json
from tui.lang.expr.values import js_order, to_str
from tui.lang.host import HostError, HttpRequest, HttpResponse
from tui.lang.netpolicy import PolicyError, campus_url, check_public_url
from tui.lang.steps.errors import ToolError
from tui.lang.steps.state import MAX_RESPONSE_BYTES, RunState

#: Longest JSON body a request may carry, in characters (four times the longest text an expression builds).
MAX_BODY_CHARS = 4 * 1_048_576

Render = Callable[[Any], Any]
"""Renders a template (a string, or strings inside lists and mappings) in the step's scope."""

_CHARSET = re.compile(rb"""<meta[^>]+charset=["']?([A-Za-z0-9_-]+)""", re.IGNORECASE)
_FORBIDDEN_HEADERS = {"cookie", "authorization", "host", "content-length", "transfer-encoding", "connection",
                      "proxy-authorization", "forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip",
                      "synjones-auth", "uuid"}  # fmt: skip
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


#: Response headers that carry or set credentials: never shown to a plugin.
CREDENTIAL_HEADERS = frozenset({"set-cookie", "set-cookie2", "authorization", "proxy-authorization", "cookie",
                                "www-authenticate", "synjones-auth"})  # fmt: skip
_SECRET_PARAMS = frozenset({"token", "ticket", "access_token", "jwt", "session", "sessionid", "auth"})


def scrub_url(url: str) -> str:
    """`url` without query parameters that carry credentials (an SSO hop's `token=`)."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    kept = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() not in _SECRET_PARAMS]
    if len(kept) == len(parse_qsl(parts.query, keep_blank_values=True)):
        return url
    return urlunsplit(parts._replace(query=urlencode(kept, quote_via=quote)))


def query_items(value: Any) -> list[tuple[str, str]]:
    """A request's `query:` or `form:` object as its parameters, in JavaScript's key order (array-index keys
    first, as `query()` and URLSearchParams walk an object); a list value repeats its key."""
    if not isinstance(value, dict):
        raise ToolError("expression", "query must give an object of parameters")
    items: list[tuple[str, str]] = []
    for k, v in js_order(value).items():
        for item in v if isinstance(v, list) else [v]:
            if item is None:
                continue
            if isinstance(item, dict | list):
                raise ToolError("expression", f"query parameter {k!r} must be text or a number")
            items.append((k, to_str(item)))
    return items


def build_request(spec: RequestSpec, render: Render, network: tuple[str, ...], campus: tuple[str, ...]) -> HttpRequest:
    """The request a spec describes, with its URL checked against the manifest's declarations."""
    url = render(spec.url)
    if not isinstance(url, str):
        raise ToolError("expression", "the request url must give text")
    query = query_items(render(spec.query)) if spec.query is not None else []
    headers: dict[str, str] = {}
    for k, v in (spec.headers or {}).items():
        if k.lower() in _FORBIDDEN_HEADERS:
            raise ToolError("network", f"header {k!r} is set by the app, never by a plugin")
        if not _HEADER_NAME.fullmatch(k):
            raise ToolError("network", f"{k!r} is not a valid header name")
        value = to_str(render(v))
        if any(c in value for c in "\r\n\0"):
            raise ToolError("network", f"the value of header {k!r} contains a line break")
        headers[k] = value
    body: bytes | None = None
    if spec.json_body is not None:
        # JSON as JavaScript writes it (1e-7, not Python's 1e-07), after to_json named anything that cannot go
        body = stringify(to_json(render(spec.json_body), "json"), limit=MAX_BODY_CHARS).encode()
        headers.setdefault("content-type", "application/json")
    elif spec.form is not None:
        body = urlencode(query_items(render(spec.form))).encode()
        headers.setdefault("content-type", "application/x-www-form-urlencoded")
    elif spec.body is not None:
        body = to_str(render(spec.body)).encode()
    try:
        if spec.campus is not None:
            if spec.campus not in campus:
                raise PolicyError(f"campus service {spec.campus!r} is not declared in the manifest's campus list")
            u = campus_url(spec.campus, url)
        else:
            u = check_public_url(url, network)
    except PolicyError as e:
        # A URL outside the plugin's declared reach: kind network for a `catch`, but the plugin's own mistake.
        raise ToolError("network", str(e), cause="plugin") from None
    return HttpRequest(spec.method, with_query(u, query), headers, body, spec.campus)


def with_query(u: httpx.URL, query: list[tuple[str, str]]) -> str:
    """The URL with parameters appended in order (repeated keys kept), encoded as encodeURIComponent does."""
    base = str(u.copy_with(fragment=None))
    if not query:
        return base
    return base + ("&" if u.query else "?") + urlencode(query, quote_via=quote, safe="-_.!~*'()")


async def send(request: HttpRequest, host: Any, state: RunState, network: tuple[str, ...]) -> HttpResponse:
    """Send under the run's limits: counted first, at most four at once, within the deadline."""
    state.count_request()
    state.check_deadline()
    async with state.semaphore:
        state.in_flight += 1
        state.peak_in_flight = max(state.peak_in_flight, state.in_flight)
        try:
            async with asyncio.timeout(state.remaining()):
                if request.campus is not None:
                    response: HttpResponse = await host.campus(request)
                else:
                    response = await host.fetch(request, network)
        except TimeoutError:
            raise ToolError("timeout", f"the run's 60 s ran out waiting for {request.url}") from None
        except HostError as e:
            kind = e.kind if e.kind in ("http", "network", "timeout", "limit", "ability") else "network"
            # A refusal that ends the run (a secret in the request) is the plugin's doing, whatever its kind.
            cause = e.cause or ("plugin" if e.final else None)
            raise ToolError(kind, str(e), e.status, e.final, cause, e.service) from None  # type: ignore[arg-type]
        finally:
            state.in_flight -= 1
    if len(response.body) > MAX_RESPONSE_BYTES:
        raise ToolError("limit", f"the response from {request.url} is over {MAX_RESPONSE_BYTES // 1024 // 1024} MB")
    return response


def decode(response: HttpResponse, html: bool = False) -> str:
    """The body as text: the charset the server names (GBK pages are common on campus), else UTF-8."""
    ctype = next((v for k, v in response.headers.items() if k.lower() == "content-type"), "")
    m = re.search(r"charset=([\w-]+)", ctype, re.IGNORECASE)
    charset = m.group(1) if m else None
    if charset is None and html:
        mm = _CHARSET.search(response.body[:4096])
        charset = mm.group(1).decode() if mm else None
    try:
        return response.body.decode(charset or "utf-8", errors="replace")
    except LookupError:
        return response.body.decode("utf-8", errors="replace")


def read(response: HttpResponse, as_: str, state: RunState) -> Any:
    """The response as the step's `as` asks: json, text, html (a node) or response (any status)."""
    if as_ == "response":
        # Hosts strip credentials already; this repeats it so that no host can forget (threats.md C3).
        headers = {k.lower(): v for k, v in response.headers.items() if k.lower() not in CREDENTIAL_HEADERS}
        text = decode(response)
        state.expr.charge_text(len(text))
        return {"status": float(response.status), "url": scrub_url(response.url), "headers": headers, "text": text}
    if not 200 <= response.status < 300:
        raise ToolError("http", f"HTTP {response.status} from {response.url}", response.status)
    try:
        if as_ == "json":
            return parse_json(decode(response))
        text = decode(response, html=as_ == "html")
        if as_ == "html":
            return parse_html(state.expr, text, response.url)
        return text
    except LangError as e:
        if as_ == "json":
            raise ToolError("http", f"the response from {response.url} is {e.msg}") from None
        raise ToolError(e.kind if e.kind in ("limit", "timeout") else "http", e.msg) from None  # type: ignore[arg-type]
