"""The HTTP under the MCP SDK: `httpx2` (the SDK's own HTTP library, not `httpx`) with the plugins' network policy.

One `PolicyTransport` serves one remote server. Every request it sends must be for that server's host over https
(the SDK already follows redirects only within the origin; this refuses anything else whatever asked for it); the
connection is made by a backend that resolves the name, checks every address with the rule of public requests
(`tui.runtime.addresses.refused`) and connects to a checked address in the same step, so a DNS answer cannot
change in between (threats.md N4). A dev origin (`dev_origins.py`) sends the declared host to a loopback server
instead, over a backend that admits loopback only; the request keeps its declared URL and Host header.

Answers are read as a bounded stream: a body over `MAX_RESPONSE` (2 MB) fails as it arrives, and only identity
encoding is accepted (a compressed body would be inflated by httpx2 beyond the count). The long-lived event stream
of a GET (server notifications, legacy SSE) is not counted as one body: the SDK caps each of its events instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpcore2
import httpx
import httpx2

from tui.runtime.addresses import refused
from tui.runtime.dev_origins import DevRoutes, loopback_only
from tui.runtime.pinned import Refused, Resolver, Rule, checked_address, system_resolve

MAX_RESPONSE = 2 * 1024 * 1024
"""The largest answer read from a remote server, in bytes."""
MAX_EVENT = 1024 * 1024
"""The largest event of a long-lived event stream (server notifications; every answer of a legacy SSE server)."""
USER_AGENT = "pku-harness/0.1 (+https://github.com/pkuinfo/pku-harness-plugins)"


class ResponseTooLarge(httpx2.StreamError):
    """An answer over the limit. A `StreamError`, so the SDK turns it into an error of the request it answered."""


class _PinnedBackend(httpcore2.AsyncNetworkBackend):
    """Resolves, checks every address with `rule` and connects to a checked one, in one step (pinned.py's rule on
    httpcore2, which httpx2 runs on)."""

    def __init__(self, resolve: Resolver, rule: Rule) -> None:
        self.inner = httpcore2.AnyIOBackend()
        self.resolve = resolve
        self.rule = rule

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: object = None,
    ) -> httpcore2.AsyncNetworkStream:
        try:
            address = await checked_address(self.resolve, self.rule, host.strip("[]"))
        except Refused as e:
            raise httpcore2.ConnectError(str(e)) from None
        return await self.inner.connect_tcp(address, port, timeout, local_address, socket_options)  # type: ignore[arg-type]

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: object = None
    ) -> httpcore2.AsyncNetworkStream:
        raise httpcore2.ConnectError("unix sockets are never used for remote servers")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def _pinned(resolve: Resolver, rule: Rule) -> httpx2.AsyncHTTPTransport:
    transport = httpx2.AsyncHTTPTransport(trust_env=False, retries=0)
    transport._pool = httpcore2.AsyncConnectionPool(  # the pool httpx2 builds, on the pinned backend
        ssl_context=httpx2.create_ssl_context(trust_env=False),
        network_backend=_PinnedBackend(resolve, rule),
        http1=True,
        http2=False,
    )
    return transport


class _Capped(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, url: str, limit: int, seen: Seen) -> None:
        self.inner, self.url, self.limit, self.seen = inner, url, limit, seen

    async def __aiter__(self) -> AsyncIterator[bytes]:
        total = 0
        async for chunk in self.inner:
            total += len(chunk)
            if total > self.limit:
                reason = f"the answer from {self.url} is over {self.limit // 1048576} MB"
                self.seen.refusals.append(reason)
                raise ResponseTooLarge(reason)
            yield chunk

    async def aclose(self) -> None:
        await self.inner.aclose()


class _EventCapped(_Capped):
    """An event stream: each event (up to a blank line) counted on its own, the stream as a whole not."""

    async def __aiter__(self) -> AsyncIterator[bytes]:
        pending = 0  # bytes since the last event boundary
        tail = b""
        async for chunk in self.inner:
            seen = tail + chunk
            ends = [seen.rfind(sep) + len(sep) for sep in (b"\n\n", b"\r\n\r\n", b"\r\r") if sep in seen]
            pending = len(seen) - max(ends) if ends else pending + len(chunk)
            tail = seen[-3:]
            if pending > self.limit:
                reason = f"an event from {self.url} is over {self.limit // 1048576} MB"
                self.seen.refusals.append(reason)
                raise ResponseTooLarge(reason)
            yield chunk


@dataclass
class Seen:
    """What the transport saw that the SDK's errors do not carry: the client reads it to say what went wrong."""

    statuses: list[int] = field(default_factory=list)
    """The status of every answer, in order."""
    refusals: list[str] = field(default_factory=list)
    """Every request or answer this transport refused, with the reason."""
    challenge: str | None = None
    """The `WWW-Authenticate` header of the last 401 answer: the server wants a login."""
    lost_sessions: int = 0
    """Answers 404 to a request that named a session: the server no longer knows it (it restarted, or ended it),
    and the spec says the client starts a new one."""


class PolicyTransport(httpx2.AsyncBaseTransport):
    """The transport of one remote server at `host` (declared in `remote.mcp`): https to that host only, public
    addresses only (or the loopback server a dev origin maps it to), answers capped at `max_body`."""

    def __init__(
        self,
        host: str,
        dev: DevRoutes | None = None,
        resolve: Resolver = system_resolve,
        max_body: int = MAX_RESPONSE,
    ) -> None:
        self.host = host
        self.dev = dev
        self.max_body = max_body
        self.seen = Seen()
        self.public = _pinned(resolve, refused)
        self.loopback = _pinned(resolve, loopback_only) if dev is not None else None

    def _refuse(self, request: httpx2.Request, reason: str) -> httpx2.ConnectError:
        self.seen.refusals.append(reason)
        return httpx2.ConnectError(reason, request=request)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        url = request.url
        if url.scheme != "https" or url.host != self.host or url.port not in (None, 443) or url.userinfo:
            raise self._refuse(request, f"refused: {url.copy_with(query=None)} is not on the server's host {self.host}")
        sent, pool = request, self.public
        target = self.dev.target(httpx.URL(str(url))) if self.dev is not None else None
        if target is not None and self.loopback is not None:  # an author's mapping: loopback, Host kept as declared
            sent = httpx2.Request(
                request.method, target, headers=request.headers, stream=request.stream, extensions=request.extensions
            )
            pool = self.loopback
        response = await pool.handle_async_request(sent)
        self.seen.statuses.append(response.status_code)
        if response.status_code == 401:
            self.seen.challenge = response.headers.get("www-authenticate", "")
        if response.status_code == 404 and request.headers.get("mcp-session-id"):
            self.seen.lost_sessions += 1
        encoding = response.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            await response.aclose()
            raise self._refuse(request, f"refused: {self.host} answered with an encoding ({encoding}) not asked for")
        streaming = request.method == "GET" and response.headers.get("content-type", "").startswith("text/event-stream")
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        shown = f"https://{self.host}{url.path}"
        capped = (
            _EventCapped(response.stream, shown, MAX_EVENT, self.seen)
            if streaming
            else _Capped(response.stream, shown, self.max_body, self.seen)
        )
        return httpx2.Response(
            response.status_code, headers=response.headers, stream=capped, extensions=response.extensions
        )

    async def aclose(self) -> None:
        await self.public.aclose()
        if self.loopback is not None:
            await self.loopback.aclose()


def http_client(transport: PolicyTransport, auth: httpx2.Auth | None = None) -> httpx2.AsyncClient:
    """The client the SDK is given: this transport, no redirects, nothing from the environment (proxies,
    .netrc), identity encoding, and timeouts that let a notification stream stay open."""
    return httpx2.AsyncClient(
        transport=transport,
        auth=auth,
        follow_redirects=False,
        trust_env=False,
        timeout=httpx2.Timeout(30.0, connect=10.0, read=300.0),
        headers={"user-agent": USER_AGENT, "accept-encoding": "identity"},
    )


def bearer(token: str) -> httpx2.Auth:
    """An `httpx2.Auth` that sends `Authorization: Bearer <token>` (the transport sends nothing off the host)."""
    return _Bearer(token)


class _Bearer(httpx2.Auth):
    def __init__(self, token: str) -> None:
        self.token = token

    def auth_flow(self, request: httpx2.Request) -> Any:
        request.headers["authorization"] = f"Bearer {self.token}"
        yield request
