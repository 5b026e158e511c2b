"""Who may use a served app (`pku-harness serve`): every request to the page, its files and its websocket passes
here first.

A served session is the student's whole app: their campus login, their grants, their model key's use. So:

* Bound to another address than loopback (`--host`), the page wants a random token: in the URL's `token` query
  on the first load (the printed link, the QR code), then in a cookie the page sets (HttpOnly, SameSite=Strict:
  another site's page cannot send it). Without either, every route answers 403, the websocket included.
* Bound to loopback, the `Host` header must name this machine (`127.0.0.1`, `localhost`, `[::1]` or the bound
  address): a page on another site that re-points its own name at 127.0.0.1 (DNS rebinding) sends its own
  name and is refused.
* The websocket that drives the app must come from a page of this very origin: browsers let any page open a
  websocket anywhere (no CORS for websockets), so a site the student visits while serving could otherwise type
  into their app. Browsers always send `Origin` with a websocket; a client without one (a script on this
  machine) passes this check, and the token's where there is one.

The token is compared in constant time and never logged (the server keeps no access log).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from ipaddress import ip_address
from urllib.parse import urlsplit

from aiohttp import web

from tui.app.i18n import t

#: The cookie that carries the token after the first load, named with the port: browsers keep cookies per host,
#: not per port, and two servers on one machine would otherwise overwrite each other's.
COOKIE = "pku_harness_token_{port}"
#: Names a loopback page may be reached by (with any port).
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def is_loopback(host: str) -> bool:
    """Whether binding `host` keeps the page on this machine (127.0.0.0/8, ::1, localhost)."""
    if host.strip("[]") == "localhost":
        return True
    try:
        return ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any address


def new_token() -> str:
    """A token nobody guesses: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def host_name(host_header: str) -> str:
    """The name in a `Host` header without its port (`[::1]:8000` → `::1`)."""
    return (urlsplit(f"//{host_header}").hostname or "").lower()


class Guard:
    """The checks above, as an aiohttp middleware (`Guard(bound, port, token).middleware`). `token` None: no token
    is asked (a loopback bind)."""

    def __init__(self, bound: str, port: int, token: str | None) -> None:
        self.token = token
        self.cookie = COOKIE.format(port=port)
        self.loopback = is_loopback(bound)
        self.names = LOOPBACK_NAMES | {bound.strip("[]").lower()}

    def refusal(self, request: web.Request) -> str | None:
        """Why `request` is refused, as the key of its sentence in tui/app/strings/web.py (None: it may pass)."""
        if self.loopback and host_name(request.host) not in self.names:
            return "web_refused_host"
        origin = request.headers.get("Origin")
        if request.path == "/ws" and origin is not None and urlsplit(origin).netloc.lower() != request.host.lower():
            return "web_refused_origin"
        if self.token is not None and not self.token_given(request):
            return "web_refused_token"
        return None

    def token_given(self, request: web.Request) -> bool:
        """The token is in the URL or in the page's cookie."""
        assert self.token is not None
        given = [request.query.get("token", ""), request.cookies.get(self.cookie, "")]
        # compare_digest on bytes: a str holding non-ASCII would raise instead of answering no
        return any(g and secrets.compare_digest(g.encode(), self.token.encode()) for g in given)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse with 403 and a plain sentence in Chinese, then English (said to the refused client only: no
        secret is in it), or pass and mark the response (cookie, no referrer)."""
        refused = self.refusal(request)
        if refused is not None:
            said = f"403 禁止访问：{t(refused, 'zh')}。\n403 Forbidden: {t(refused, 'en')}.\n"
            return web.Response(status=403, text=said)
        response = await handler(request)
        if response.prepared:  # the websocket: its handshake has been sent, and it needs nothing more
            return response
        # The token is in the page's URL: a link the app opens must not carry it to another site.
        response.headers["Referrer-Policy"] = "no-referrer"
        if self.token is not None and request.query.get("token"):
            response.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict", path="/")
        return response
