"""Connecting to real MCP servers on loopback: login needed, the legacy SSE fallback, too many tools, a server that
goes away mid-call and comes back (backoff), and the URLs the network policy refuses."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx2
import pytest

from tests.runtime.mcp.conftest import HOST, TOKEN, Server, serve
from tui.runtime.dev_origins import parse
from tui.runtime.plugins.mcp.client import McpServer, ServerState
from tui.runtime.plugins.mcp.http import PolicyTransport, bearer, http_client


@pytest.fixture(scope="module")
def mcp_sse() -> Iterator[Server]:
    """A legacy server: SSE at /sse, where a POST is answered 405."""
    yield from serve("sse")


@pytest.fixture(scope="module")
def mcp_many() -> Iterator[Server]:
    """65 tools."""
    yield from serve("http", "many")


def remote(server: Server, path: str = "/mcp", token: str = TOKEN, **kw: object) -> McpServer:
    return McpServer("notes", f"https://{HOST}{path}", auth=bearer(token), dev=[parse(server.mapping)], **kw)  # type: ignore[arg-type]


async def test_a_wrong_token_needs_a_login(mcp_http: Server) -> None:
    server = remote(mcp_http, token="wrong")
    state = await server.connect()
    assert (state.kind, state.reason) == ("needs_login", "mcp.example.com asks to log in (invalid_token)")
    result = await server.call("echo", {"text": "x"})
    assert result.error == "login" and "asks to log in" in result.text


async def test_no_token_needs_a_login(mcp_http: Server) -> None:
    server = McpServer("notes", f"https://{HOST}/mcp", dev=[parse(mcp_http.mapping)])
    assert (await server.connect()).reason == "mcp.example.com asks to log in"


async def test_falls_back_to_legacy_sse(mcp_sse: Server) -> None:
    server = remote(mcp_sse, "/sse")
    state = await server.connect()
    assert (state.kind, state.transport) == ("ready", "sse")
    assert (await server.call("echo", {"text": "旧"})).text == "echo: 旧"
    # every answer comes on the one event stream: an event over 1 MB is refused, and ends that stream
    big = await server.call("big", {"size": 1_500_000})
    assert (big.error, big.text) == ("limit", "mcp-notes.big: an event from https://mcp.example.com/sse is over 1 MB")
    assert server.state.kind == "error"
    assert (await server.connect()).kind == "ready" and (await server.call("echo", {"text": "再"})).ok
    await server.close()


async def test_more_than_64_tools_are_refused(mcp_many: Server) -> None:
    state = await remote(mcp_many).connect()
    assert state.kind == "error"
    assert state.reason == "cannot connect to mcp.example.com: the server offers 65 tools; at most 64 are allowed"


async def test_a_server_that_goes_away_mid_call_and_comes_back() -> None:
    for server_proc in serve("http"):
        seen: list[ServerState] = []
        server = remote(server_proc, backoff=(0.2, 1.0), on_change=seen.append)
        assert (await server.connect()).kind == "ready"
        call = asyncio.create_task(server.call("sleep", {"seconds": 20}))
        await asyncio.sleep(0.5)
        server_proc.stop()
        start = time.perf_counter()
        result = await call
        assert time.perf_counter() - start < 2
        assert result.error == "network" and result.text.startswith("mcp-notes.sleep: mcp.example.com went away")
        assert server.state.kind == "error" and server.state.reason.startswith("the connection to mcp.example.com")
        down = await server.call("echo", {"text": "x"})
        assert down.error == "network" and down.text.startswith("notes is not connected: ")

        keeper = asyncio.create_task(server.keep_connected())
        try:
            async with asyncio.timeout(10):  # attempts fail while it is down, each after a longer wait
                while not (server.state.kind == "error" and "cannot connect" in server.state.reason):
                    await asyncio.sleep(0.05)
            server_proc.start()
            async with asyncio.timeout(10):
                while server.state.kind != "ready":
                    await asyncio.sleep(0.05)
        finally:
            keeper.cancel()
        assert (await server.call("echo", {"text": "back"})).text == "echo: back"
        kinds = [s.kind for s in seen]
        assert kinds[:2] == ["connecting", "ready"] and kinds.count("connecting") >= 3 and kinds[-1] == "ready"
        await server.close()


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://mcp.example.com/mcp", "refused: only https:// URLs may be requested"),
        ("https://127.0.0.1/mcp", "refused: URL 'https://127.0.0.1/mcp' names an IP address"),
        ("https://mcp.example.com:8443/mcp", "refused: URL 'https://mcp.example.com:8443/mcp' uses port 8443"),
    ],
)
async def test_urls_outside_the_policy_are_refused(mcp_http: Server, url: str, reason: str) -> None:
    state = await McpServer("notes", url, auth=bearer(TOKEN), dev=[parse(mcp_http.mapping)]).connect()
    assert state.kind == "error" and state.reason.startswith(reason)


async def test_a_host_without_its_own_mapping_is_not_sent_to_loopback(mcp_http: Server) -> None:
    # The mapping names mcp.example.com; another host is looked up for real, and a loopback answer is refused.
    async def to_loopback(host: str) -> list[str]:
        return ["127.0.0.1"]

    server = McpServer(
        "notes", "https://other.example.net/mcp", auth=bearer(TOKEN), dev=[parse(mcp_http.mapping)], resolve=to_loopback
    )
    state = await server.connect()
    assert state.kind == "error"
    assert "refused: other.example.net resolves to a non-public address (127.0.0.1)" in state.reason
    assert state.retry_at is not None and state.retry_at > time.monotonic()


async def test_the_transport_sends_nothing_off_the_servers_host(mcp_http: Server) -> None:
    transport = PolicyTransport(HOST, None)
    async with http_client(transport, bearer(TOKEN)) as client:
        for url in ("https://evil.example.org/steal", "http://mcp.example.com/mcp", "https://mcp.example.com:444/"):
            with pytest.raises(httpx2.ConnectError, match="is not on the server's host mcp.example.com"):
                await client.get(url)
    assert len(transport.seen.refusals) == 3


async def test_a_restarted_server_gets_a_new_session_and_the_call_is_retried_once(mcp_http: Server) -> None:
    server = remote(mcp_http)
    assert (await server.connect()).kind == "ready"
    assert (await server.call("echo", {"text": "一"})).text == "echo: 一"
    mcp_http.stop()
    mcp_http.start()  # the same port: the new process answers 404 to the old session id
    try:
        result = await server.call("echo", {"text": "二"})
        assert (result.ok, result.text) == (True, "echo: 二")
        assert server.state.kind == "ready"
    finally:
        await server.close()
