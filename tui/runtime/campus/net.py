"""The campus HTTP client: one connection pool, no cookies of its own (each service keeps its jar), at most two
requests at once per host, and an optional reroute of every campus host to one origin (tests, mirrors).

Every cookie an answer sets is registered as a secret as soon as it arrives (login flows' throw-away jars
too); `iaaa.login_send` also registers the tokens a login hop carries in its URL or its redirect.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import os
from typing import Any

import httpx

from tui.runtime.credentials import cookie_values
from tui.runtime.secrets import Kind, Secrets

ORIGIN_ENV = "PKU_HARNESS_CAMPUS_ORIGIN"
PER_HOST = 2
MAX_BODY = 2 * 1024 * 1024
TIMEOUT = 15.0  # the card server's own timeout in the official client (campus.md §5)
#: pkucli sends a browser's User-Agent on every campus request (`crates/*/src/client.rs`); httpx's own
#: (`python-httpx/…`) marks a script. A request that names its own (the card's Android client) keeps it.
CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/146.0.0.0 Safari/537.36"


class BodyTooLarge(Exception):
    """A campus answer over the 2 MB a plugin may receive."""


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    """The shared client never keeps a cookie: every service's cookies live in that service's own jar."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False

    def return_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False


class RerouteTransport(httpx.AsyncBaseTransport):
    """Sends every request to `origin` instead, keeping the real host in the `Host` header.

    The rest of the session sees the real `https://<service host>/…` URLs (so host checks, cookie domains and
    signing behave as in production); only the socket goes elsewhere: a fake campus in tests, or a mirror.
    """

    def __init__(self, origin: str, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.origin = httpx.URL(origin)
        self.inner = inner or httpx.AsyncHTTPTransport(retries=0)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url.copy_with(scheme=self.origin.scheme, host=self.origin.host, port=self.origin.port)
        headers = httpx.Headers(request.headers)
        headers["host"] = request.url.netloc.decode("ascii")
        rerouted = httpx.Request(request.method, url, headers=headers, stream=request.stream)
        rerouted.extensions = request.extensions
        return await self.inner.handle_async_request(rerouted)

    async def aclose(self) -> None:
        await self.inner.aclose()


class CampusNet:
    """Makes the shared client (one per event loop) and limits requests per host."""

    def __init__(
        self, origin: str | None = None, transport: httpx.AsyncBaseTransport | None = None, timeout: float = TIMEOUT
    ) -> None:
        self.origin = origin if origin is not None else os.environ.get(ORIGIN_ENV) or None
        self.transport = transport
        self.timeout = timeout
        self._loop: asyncio.AbstractEventLoop | None = None
        self._client: httpx.AsyncClient | None = None
        self._hosts: dict[str, asyncio.Semaphore] = {}
        self.secrets: Secrets | None = None
        """Where credentials seen on the wire are registered (the campus session sets its own)."""

    def _fresh_for_this_loop(self) -> None:
        # The CLI runs one event loop per command and tests one per test: pools and semaphores belong to a loop.
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._client, self._hosts = loop, None, {}

    def client(self) -> httpx.AsyncClient:
        """The shared client: HTTP/1.1 (the card server breaks on HTTP/2), no redirects, no cookies, no proxies."""
        self._fresh_for_this_loop()
        if self._client is None:
            transport = self.transport
            if self.origin:
                transport = RerouteTransport(self.origin, transport)
            self._client = httpx.AsyncClient(
                transport=transport,
                follow_redirects=False,
                trust_env=False,
                http2=False,
                timeout=httpx.Timeout(self.timeout, connect=10.0),
                cookies=http.cookiejar.CookieJar(policy=_NoCookies()),
            )
        return self._client

    def host_slot(self, host: str) -> asyncio.Semaphore:
        """The semaphore that keeps at most PER_HOST requests in flight to `host`."""
        self._fresh_for_this_loop()
        if host not in self._hosts:
            self._hosts[host] = asyncio.Semaphore(PER_HOST)
        return self._hosts[host]

    async def send(
        self,
        jar: httpx.Cookies,
        method: str,
        url: str,
        *,
        headers: dict[str, str] | None = None,
        params: Any = None,
        data: Any = None,
        json: Any = None,
        content: bytes | None = None,
    ) -> httpx.Response:
        """One request with `jar`'s cookies, under the host's slot; the body is read (at most MAX_BODY bytes).

        Raises:
            httpx.HTTPError: the network failed or timed out.
            BodyTooLarge: the answer is over MAX_BODY.
        """
        client = self.client()
        request = client.build_request(
            method, url, headers=headers, params=params, data=data, json=json, content=content
        )
        if "user-agent" not in {k.lower() for k in (headers or {})}:
            request.headers["user-agent"] = CHROME_UA
        jar.set_cookie_header(request)
        async with self.host_slot(request.url.host):
            response = await client.send(request, stream=True)
            try:
                body = bytearray()
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > MAX_BODY:
                        raise BodyTooLarge(f"the answer from {request.url.host} is over {MAX_BODY // 1048576} MB")
            finally:
                await response.aclose()
        response._content = bytes(body)  # what .content/.json() read; the stream is finished
        jar.extract_cookies(response)
        for value in response.headers.get_list("set-cookie"):
            self.register(cookie_values(value), "cookie")
        return response

    def register(self, values: list[str], kind: Kind = "token") -> None:
        """Remember credentials seen on the wire as secrets (when a session gave this client its registry)."""
        if self.secrets is not None:
            for v in values:
                self.secrets.add(v, kind)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
