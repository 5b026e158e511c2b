"""Public HTTP under the policy (threats.md §3.4, L4): redirects, size caps, bombs, credentials, addresses."""

from __future__ import annotations

import asyncio
import gzip
import tracemalloc
from collections.abc import AsyncIterator

import httpx
import pytest

from tui.lang.host import HostError, HttpRequest
from tui.runtime.fetch import PolicyFetcher, is_public

ALLOWED = ("api.example.edu.cn", "*.pku.edu.cn")
MB = 1024 * 1024


async def public(host: str) -> list[str]:
    return ["93.184.216.34"]


def fetcher(handler, resolve=public) -> PolicyFetcher:  # type: ignore[no-untyped-def]
    return PolicyFetcher(transport=httpx.MockTransport(handler), resolve=resolve)


def get(url: str) -> HttpRequest:
    return HttpRequest("GET", url)


async def streamed(data: bytes, chunk: int = 64 * 1024) -> AsyncIterator[bytes]:
    """A body that arrives in chunks, as from a real connection (MockTransport pre-reads plain bytes)."""
    for i in range(0, len(data), chunk):
        yield data[i : i + chunk]


async def test_a_redirect_to_an_undeclared_host_is_refused_and_never_requested() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        if request.url.host == "api.example.edu.cn":
            return httpx.Response(302, headers={"location": "https://evil.example.com/steal"})
        return httpx.Response(200, text="secret")

    async with fetcher(handler) as f:
        with pytest.raises(HostError, match="evil.example.com is not declared"):
            await f.fetch(get("https://api.example.edu.cn/start"), ALLOWED)
    assert seen == ["https://api.example.edu.cn/start"]


async def test_redirects_within_the_declared_domains_are_followed_and_checked_each_hop() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/a":
            return httpx.Response(301, headers={"location": "https://www.pku.edu.cn/b"})
        if request.url.path == "/b":
            return httpx.Response(307, headers={"location": "/c"})
        return httpx.Response(200, text=f"at {request.url}")

    async with fetcher(handler) as f:
        response = await f.fetch(get("https://api.example.edu.cn/a"), ALLOWED)
    assert response.status == 200 and response.url == "https://www.pku.edu.cn/c"


async def test_a_redirect_to_plain_http_or_an_ip_is_refused() -> None:
    for location in ("http://www.pku.edu.cn/x", "https://127.0.0.1/x", "https://2130706433/x"):
        async with fetcher(lambda r, loc=location: httpx.Response(302, headers={"location": loc})) as f:
            with pytest.raises(HostError, match="refused"):
                await f.fetch(get("https://api.example.edu.cn/a"), ALLOWED)


async def test_a_declared_host_resolving_to_a_private_address_is_refused() -> None:
    async def rebinding(host: str) -> list[str]:
        return ["127.0.0.1"]

    async with fetcher(lambda r: httpx.Response(200), resolve=rebinding) as f:
        with pytest.raises(HostError, match="non-public address"):
            await f.fetch(get("https://api.example.edu.cn/a"), ALLOWED)


@pytest.mark.parametrize(
    "address", ["127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.169.254", "::1", "fc00::1", "0.0.0.0", "100.64.0.1"]
)
def test_private_addresses_are_not_public(address: str) -> None:
    assert not is_public(address)


async def test_a_lying_content_length_does_not_buffer_more_than_2_mb() -> None:
    async def body() -> AsyncIterator[bytes]:
        for _ in range(100):
            yield b"x" * (64 * 1024)  # 6.4 MB in all

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-length": "100"}, content=body())

    async with fetcher(handler) as f:
        with pytest.raises(HostError, match="over 2 MB"):
            await f.fetch(get("https://api.example.edu.cn/big"), ALLOWED)


async def test_a_declared_oversize_is_refused_before_reading() -> None:
    async with fetcher(lambda r: httpx.Response(200, headers={"content-length": str(5 * MB)}, content=b"x")) as f:
        with pytest.raises(HostError, match="over 2 MB"):
            await f.fetch(get("https://api.example.edu.cn/big"), ALLOWED)


async def test_a_gzip_bomb_is_stopped_at_2_mb_without_inflating_it() -> None:
    bomb = gzip.compress(b"\0" * (200 * MB), compresslevel=9)  # ~200 KB on the wire
    assert len(bomb) < 400 * 1024

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-encoding": "gzip"}, content=streamed(bomb))

    tracemalloc.start()
    try:
        async with fetcher(handler) as f:
            with pytest.raises(HostError, match="over 2 MB"):
                await f.fetch(get("https://api.example.edu.cn/bomb"), ALLOWED)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 12 * MB  # the compressed body (in the mock) plus 2 MB of output, never 200 MB


async def test_gzip_within_the_limit_is_decoded() -> None:
    data = "二教 101".encode() * 1000
    async with fetcher(
        lambda r: httpx.Response(200, headers={"content-encoding": "gzip"}, content=streamed(gzip.compress(data)))
    ) as f:
        response = await f.fetch(get("https://api.example.edu.cn/ok"), ALLOWED)
    assert response.body == data and "content-encoding" not in response.headers


async def test_credential_headers_never_reach_the_plugin_and_cookies_are_not_carried() -> None:
    cookies_sent: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        cookies_sent.append(request.headers.get("cookie"))
        return httpx.Response(
            200, headers={"set-cookie": "sid=secret; Path=/", "authorization": "Bearer x", "x-ok": "1"}, text="ok"
        )

    async with fetcher(handler) as f:
        first = await f.fetch(get("https://api.example.edu.cn/a"), ALLOWED)
        await f.fetch(get("https://api.example.edu.cn/b"), ALLOWED)
    assert {k.lower() for k in first.headers} & {"set-cookie", "authorization"} == set()
    assert first.headers["x-ok"] == "1"
    assert cookies_sent == [None, None]


async def test_a_slow_loris_server_is_cut_by_the_run_deadline() -> None:
    async def drip() -> AsyncIterator[bytes]:
        for _ in range(1000):
            await asyncio.sleep(0.05)
            yield b"x"

    async with fetcher(lambda r: httpx.Response(200, content=drip())) as f:
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.5):
                await f.fetch(get("https://api.example.edu.cn/slow"), ALLOWED)


async def test_unsupported_encodings_are_refused() -> None:
    async with fetcher(lambda r: httpx.Response(200, headers={"content-encoding": "br"}, content=b"x")) as f:
        with pytest.raises(HostError, match="unsupported encoding"):
            await f.fetch(get("https://api.example.edu.cn/br"), ALLOWED)


async def test_too_many_redirects() -> None:
    async with fetcher(lambda r: httpx.Response(302, headers={"location": "/again"})) as f:
        with pytest.raises(HostError, match="more than 10 redirects"):
            await f.fetch(get("https://api.example.edu.cn/loop"), ALLOWED)


async def test_the_pinned_backend_checks_addresses_when_it_connects() -> None:
    # The real transport resolves and connects in one place: a rebinding answer cannot slip in between.
    from tui.runtime.fetch import PinnedBackend

    async def loopback(host: str) -> list[str]:
        return ["127.0.0.1"]

    import httpcore

    with pytest.raises(httpcore.ConnectError, match="non-public address \\(127.0.0.1\\)"):
        await PinnedBackend(loopback).connect_tcp("api.example.edu.cn", 443)
    async with PolicyFetcher(resolve=loopback) as f:  # the default transport pins too
        with pytest.raises(HostError, match="non-public address"):
            await f.fetch(get("https://api.example.edu.cn/x"), ALLOWED)
