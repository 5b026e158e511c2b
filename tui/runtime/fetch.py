"""Public HTTP for plugins, under the network policy (threats.md §3.4, L4).

Redirects are followed by hand so that every hop is checked against the declared domains; bodies are read
as a raw stream and decoded here with a bounded inflater, so neither a lying Content-Length nor a gzip bomb
buffers more than 2 MB (plus one chunk); credential headers never reach the plugin; no cookie outlives its
request; resolved addresses must be public (`tui.runtime.addresses`, checked where the connection is made:
`tui.runtime.pinned`).
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx

from tui.lang.host import HostError, HttpRequest, HttpResponse
from tui.lang.netpolicy import PolicyError, check_public_url
from tui.lang.steps.requests import CREDENTIAL_HEADERS
from tui.runtime.addresses import is_public, refused
from tui.runtime.dev_origins import DevRoutes, loopback_transport
from tui.runtime.pinned import PinnedBackend, PinnedTransport, Resolver, system_resolve

MAX_BODY = 2 * 1024 * 1024
MAX_REDIRECTS = 10
USER_AGENT = "pku-harness/0.1 (+https://github.com/pkuinfo/pku-harness-plugins)"

Guard = Callable[[str, str, dict[str, str], bytes | None], None]
"""Called with (method, url, headers, body) before every hop is sent; raises HostError to refuse it."""

__all__ = ["Guard", "PinnedBackend", "PinnedTransport", "PolicyFetcher", "Resolver", "is_public", "system_resolve"]


async def _once(data: bytes) -> AsyncIterator[bytes]:
    yield data


class _Inflater:
    """Decodes a gzip or deflate stream chunk by chunk, never producing more than the allowance."""

    def __init__(self, encoding: str) -> None:
        self.d = zlib.decompressobj(16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)

    def feed(self, data: bytes, allowance: int) -> bytes:
        out = bytearray()
        data = self.d.unconsumed_tail + data
        while data and len(out) <= allowance:
            out += self.d.decompress(data, allowance + 1 - len(out))
            data = self.d.unconsumed_tail
        return bytes(out)


class PolicyFetcher:
    """Sends public requests for one run. Use as `async with PolicyFetcher() as f: await f.fetch(...)`.

    With no `transport`, connections go through the PinnedTransport. A test passes an in-memory transport
    and a `resolve` that the fetcher then checks before each request instead. `guard` sees every hop before
    it is sent (the runtime's check that no registered secret leaves, outgoing.py). `dev` sends the hosts an
    author mapped to a loopback server (dev_origins.py); everything before and after the send sees the declared URL.
    """

    def __init__(
        self,
        transport: httpx.AsyncBaseTransport | None = None,
        resolve: Resolver = system_resolve,
        timeout: float = 20.0,
        max_body: int = MAX_BODY,
        guard: Guard | None = None,
        dev: DevRoutes | None = None,
    ) -> None:
        self.precheck = transport is not None
        self.client = httpx.AsyncClient(
            transport=transport or PinnedTransport(resolve),
            follow_redirects=False,
            trust_env=False,  # no proxies or .netrc credentials from the environment
            timeout=httpx.Timeout(timeout, connect=10.0),
            headers={"user-agent": USER_AGENT, "accept-encoding": "gzip, identity"},
        )
        self.resolve = resolve
        self.max_body = max_body
        self.guard = guard
        self.dev = dev
        self.dev_client: httpx.AsyncClient | None = None
        """The client for mapped hosts: loopback connections only, made at the first mapped request."""

    async def __aenter__(self) -> PolicyFetcher:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.client.aclose()
        if self.dev_client is not None:
            await self.dev_client.aclose()

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        """Send `request`, following redirects that stay within `allowed`.

        Raises:
            HostError: policy (a redirect out of the declared domains, a private address), size, network.
        """
        method, url, body = request.method, request.url, request.body
        headers = dict(request.headers)
        for _ in range(MAX_REDIRECTS + 1):
            try:
                u = check_public_url(url, allowed)
            except PolicyError as e:
                raise HostError("network", f"refused: {e}") from None
            if self.guard is not None:
                self.guard(method, url, headers, body)
            target = self.dev.target(u) if self.dev is not None else None
            if target is not None:  # an author's mapping: sent to loopback, read back as the declared URL
                host = {"host": u.netloc.decode("ascii")}
                status, _, resp_headers, data = await self._send(method, target, headers | host, body, self._dev())
                final_url = url
            else:
                if self.precheck:
                    await self._check_addresses(u.host)
                status, final_url, resp_headers, data = await self._send(method, url, headers, body)
            location = resp_headers.get("location")
            if status in (301, 302, 303, 307, 308) and location:
                try:
                    url = str(httpx.URL(url).join(location))
                except httpx.InvalidURL as e:
                    raise HostError("network", f"{url} redirected to an invalid URL ({e})") from None
                if self.dev is not None:
                    url = self.dev.declared(url)
                if status == 303 or (status in (301, 302) and method == "POST"):
                    method, body = "GET", None
                    headers.pop("content-type", None)
                continue
            safe = {k: v for k, v in resp_headers.items() if k.lower() not in CREDENTIAL_HEADERS}
            return HttpResponse(status, final_url, safe, data)
        raise HostError("network", f"more than {MAX_REDIRECTS} redirects from {request.url}")

    async def _check_addresses(self, host: str) -> None:
        try:
            addresses = await self.resolve(host)
        except OSError as e:
            raise HostError("network", f"cannot resolve {host} ({e.strerror or e})") from None
        error = refused(host, addresses)
        if error:
            raise HostError("network", error)

    def _dev(self) -> httpx.AsyncClient:
        if self.dev_client is None:
            self.dev_client = httpx.AsyncClient(
                transport=loopback_transport(),
                follow_redirects=False,
                trust_env=False,
                timeout=self.client.timeout,
                headers=self.client.headers,
            )
        return self.dev_client

    async def _send(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        body: bytes | None,
        client: httpx.AsyncClient | None = None,
    ) -> tuple[int, str, dict[str, str], bytes]:
        client = client or self.client
        try:
            async with client.stream(method, url, headers=headers, content=body) as resp:
                client.cookies.clear()  # nothing a server sets is carried to the next request
                declared = resp.headers.get("content-length")
                if declared and declared.isdigit() and int(declared) > self.max_body:
                    raise HostError("limit", f"the response from {url} is over {self.max_body // 1048576} MB")
                encoding = resp.headers.get("content-encoding", "identity").lower().strip()
                if encoding not in ("identity", "gzip", "deflate", ""):
                    raise HostError("network", f"{url} answered with an unsupported encoding {encoding!r}")
                inflater = _Inflater(encoding) if encoding in ("gzip", "deflate") else None
                data = bytearray()
                raw_total = 0
                if resp.is_stream_consumed:
                    # In-memory transports hand over a body already read (and decoded): check its size only.
                    inflater = None
                    chunks: Any = _once(resp.content)
                else:
                    chunks = resp.aiter_raw()
                async for chunk in chunks:
                    raw_total += len(chunk)
                    piece = inflater.feed(chunk, self.max_body - len(data)) if inflater else chunk
                    data += piece
                    if len(data) > self.max_body or raw_total > self.max_body:
                        raise HostError("limit", f"the response from {url} is over {self.max_body // 1048576} MB")
                headers_out = {k: v for k, v in resp.headers.items() if k.lower() != "content-encoding"}
                return resp.status_code, str(resp.url), headers_out, bytes(data)
        except HostError:
            raise
        except httpx.TimeoutException:
            raise HostError("timeout", f"{url} did not answer in time") from None
        except zlib.error:
            raise HostError("network", f"{url} sent a broken compressed body") from None
        except (httpx.HTTPError, httpx.InvalidURL) as e:  # InvalidURL: httpx joins a bad `Location` as it answers
            raise HostError("network", f"{url}: {str(e) or type(e).__name__}") from None
