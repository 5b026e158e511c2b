"""OAuth login to a real MCP server: fastmcp's in-memory OAuth server on 127.0.0.1 (dynamic registration, PKCE,
refresh), reached as https://mcp.example.com through a dev origin. The browser's consent is an httpx client that
follows the authorization URL to the app's loopback listener; tokens end in keyring and only there."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import MemoryKeyring
from tests.runtime.mcp.conftest import HOST, Server, serve
from tui.lang.documents.manifest import Remote
from tui.runtime.dev_origins import parse
from tui.runtime.plugins.mcp.auth import LoginFailed, auth_for, logged_in, login, logout
from tui.runtime.plugins.mcp.client import McpServer
from tui.runtime.plugins.mcp.oauth import Receiver, StoredOAuth
from tui.runtime.plugins.mcp.tokens import TokenStore, service_name
from tui.runtime.secrets import Secrets

REMOTE = Remote(mcp=f"https://{HOST}/mcp", auth="oauth")


@pytest.fixture(scope="module")
def mcp_oauth() -> Iterator[Server]:
    """Streamable HTTP behind fastmcp's in-memory OAuth server; access tokens live an hour."""
    yield from serve("http", "oauth")


class Browser:
    """The student's browser, agreeing to everything: follows the authorization URL and its redirect."""

    def __init__(self, deny: bool = False, state: str | None = None) -> None:
        self.opened: list[str] = []
        self.deny = deny
        self.state = state

    async def __call__(self, url: str) -> None:
        self.opened.append(url)
        async with httpx.AsyncClient() as client:
            consent = await client.get(url)
            assert consent.status_code == 302, consent.text
            back = httpx.URL(consent.headers["location"])
            if self.deny:
                back = back.copy_with(params={"error": "access_denied", "state": back.params["state"]})
            if self.state is not None:
                wrong = await client.get(back.copy_with(params={**back.params, "state": self.state}))
                assert wrong.status_code == 400  # another login's redirect is not taken for this one
            answer = await client.get(back)
            assert answer.status_code == 200 and "Logged in" in answer.text


def kept(keyring: MemoryKeyring, server: str = "notes") -> dict[str, str]:
    return {user: value for (service, user), value in keyring.items.items() if service == service_name(server)}


async def connect(server: Server, secrets: Secrets | None = None) -> McpServer:
    mcp = McpServer("notes", REMOTE.mcp, auth=auth_for("notes", REMOTE, secrets=secrets), dev=[parse(server.mapping)])
    await mcp.connect()
    return mcp


async def test_oauth_login_call_and_logout(
    mcp_oauth: Server, memory_keyring: MemoryKeyring, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    assert auth_for("notes", REMOTE) is None and not logged_in("notes", REMOTE)
    before = await connect(mcp_oauth)
    assert before.state.kind == "needs_login"

    browser, secrets = Browser(), Secrets()
    checked = await login("notes", REMOTE, open_browser=browser, dev=[parse(mcp_oauth.mapping)], secrets=secrets)
    assert (checked.state.kind, checked.tools) == ("ready", 6)
    # the browser was sent to the mapped authorization endpoint with PKCE and the loopback redirect
    opened = httpx.URL(browser.opened[0])
    assert opened.host == "127.0.0.1" and opened.path == "/authorize"
    assert opened.params["code_challenge_method"] == "S256" and opened.params["redirect_uri"].startswith(
        "http://127.0.0.1:"
    )
    entries = kept(memory_keyring)
    assert set(entries) == {"oauth-tokens", "oauth-client", "oauth-server"}
    tokens = json.loads(entries["oauth-tokens"])
    assert tokens["access_token"].startswith("test_access_token_") and tokens["refresh_token"]
    assert isinstance(tokens["expires_at"], float) and tokens["expires_in"] == 3600
    assert json.loads(entries["oauth-server"])["authorization"]["token_endpoint"] == f"https://{HOST}/token"
    assert logged_in("notes", REMOTE)

    mcp = await connect(mcp_oauth, secrets)
    assert mcp.state.kind == "ready"
    assert (await mcp.call("echo", {"text": "登录了"})).text == "echo: 登录了"
    await mcp.close()

    # the tokens are nowhere but keyring: not in the data directory, not in a log record; the registry masks them
    for token in (tokens["access_token"], tokens["refresh_token"]):
        assert not any(token.encode() in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
        assert token not in caplog.text
        assert token not in secrets.scrub_text(f"the server said {token}")

    assert logout("notes") and kept(memory_keyring) == {} and not logged_in("notes", REMOTE)
    after = await connect(mcp_oauth)
    assert after.state.kind == "needs_login"
    assert not logout("notes")


async def test_an_expired_token_is_refreshed_even_after_a_restart(memory_keyring: MemoryKeyring) -> None:
    # 4 s tokens: with 2 s, a handshake on a loaded machine outlived a token and two refreshes met (CI, once)
    for server in serve("http", "oauth", "ttl=4"):
        await login("notes", REMOTE, open_browser=Browser(), dev=[parse(server.mapping)])
        first = json.loads(kept(memory_keyring)["oauth-tokens"])
        await asyncio.sleep(4.5)  # the server no longer takes the access token
        # a new connection, as after a restart: the kept absolute expiry says the token is old, so it is
        # refreshed before the first request (the SDK alone would have sent it, and met a 401)
        mcp = await connect(server)
        assert mcp.state.kind == "ready", mcp.state
        # refreshed before the first request, not after a refusal (on a loaded machine the 2 s token may run out
        # again before the handshake ends, and that later 401 is refreshed too: only the first answer counts)
        assert mcp._seen.statuses and mcp._seen.statuses[0] != 401, mcp._seen.statuses
        second = json.loads(kept(memory_keyring)["oauth-tokens"])
        assert second["access_token"] != first["access_token"]
        assert second["refresh_token"] != first["refresh_token"]  # the server rotates them
        assert second["expires_at"] > first["expires_at"]
        await asyncio.sleep(4.5)  # expires while connected: the next call refreshes first
        assert (await mcp.call("echo", {"text": "again"})).text == "echo: again"
        third = json.loads(kept(memory_keyring)["oauth-tokens"])
        assert third["access_token"] != second["access_token"]
        await mcp.close()


async def test_a_dead_refresh_token_means_logging_in_again(mcp_oauth: Server, memory_keyring: MemoryKeyring) -> None:
    await login("notes", REMOTE, open_browser=Browser(), dev=[parse(mcp_oauth.mapping)])
    store = TokenStore("notes")
    found = store.tokens()
    assert found is not None
    token, _ = found
    store.set_tokens(token.model_copy(update={"refresh_token": "forged-refresh-token"}), 1.0)  # expired long ago
    mcp = await connect(mcp_oauth)
    assert mcp.state.kind == "needs_login"
    assert "oauth-tokens" not in kept(memory_keyring)  # refused: forgotten, so the app says to log in
    assert not logged_in("notes", REMOTE)


async def test_a_token_refused_before_its_time_is_refreshed_once(
    mcp_oauth: Server, memory_keyring: MemoryKeyring
) -> None:
    await login("notes", REMOTE, open_browser=Browser(), dev=[parse(mcp_oauth.mapping)])
    store = TokenStore("notes")
    found = store.tokens()
    assert found is not None
    token, expires_at = found
    store.set_tokens(token.model_copy(update={"access_token": "revoked-access-token"}), expires_at)
    mcp = await connect(mcp_oauth)
    assert mcp.state.kind == "ready"
    assert mcp._seen.statuses[0] == 401  # the forged token was sent, refused, then refreshed and sent again
    renewed = json.loads(kept(memory_keyring)["oauth-tokens"])
    assert renewed["access_token"] not in ("revoked-access-token", token.access_token)
    assert (await mcp.call("echo", {"text": "ok"})).ok
    await mcp.close()


async def test_calls_are_not_queued_behind_the_auth() -> None:
    # A server that answers a call only once it is done (JSON, not an event stream): the SDK's provider keeps its
    # lock until the answer, so three calls of 1.5 s took 4.5 s; the connection's auth holds it only to pick the
    # token. Serialised they take 4.5 s at least; the bound leaves 2 s for a busy machine.
    for server in serve("http", "oauth", "json"):
        await login("notes", REMOTE, open_browser=Browser(), dev=[parse(server.mapping)])
        mcp = await connect(server)
        start = time.perf_counter()
        results = await asyncio.gather(*(mcp.call("sleep", {"seconds": 1.5}) for _ in range(3)))
        assert [r.text for r in results] == ["awake"] * 3
        assert time.perf_counter() - start < 3.5
        await mcp.close()


async def test_the_listener_takes_only_its_own_redirect() -> None:
    async with Receiver() as receiver, httpx.AsyncClient() as client:
        base = receiver.redirect_uri
        assert (await client.get(base, params={"code": "c", "state": "s"})).status_code == 400  # nothing expected yet
        receiver.expect("the-state")
        assert (await client.get(base, params={"code": "c", "state": "another"})).status_code == 400
        other_path = base.replace("/callback", "/elsewhere")
        assert (await client.get(other_path, params={"code": "c", "state": "the-state"})).status_code == 400
        assert (await client.post(base, params={"code": "c", "state": "the-state"})).status_code == 400
        with pytest.raises(TimeoutError):
            await receiver.wait(0.2)  # none of those counted
        assert (await client.get(base, params={"code": "c", "state": "the-state"})).status_code == 200
        result = await receiver.wait(1)
        assert (result.code, result.state) == ("c", "the-state")


async def test_a_refresh_that_fails_on_the_servers_side_keeps_the_login(
    mcp_oauth: Server, memory_keyring: MemoryKeyring
) -> None:
    await login("notes", REMOTE, open_browser=Browser(), dev=[parse(mcp_oauth.mapping)])
    store = TokenStore("notes")
    found = store.tokens()
    assert found is not None
    store.set_tokens(found[0], 1.0)  # expired
    metadata, resource = store.server()
    assert metadata is not None
    endpoint = {**metadata.model_dump(mode="json"), "token_endpoint": f"https://{HOST}/no-such-endpoint"}
    store.set_server(type(metadata).model_validate(endpoint), resource)
    mcp = await connect(mcp_oauth)
    assert mcp.state.kind == "needs_login"  # the refresh got a 404: this connection went without a token
    assert logged_in("notes", REMOTE)  # but a 404 is not a refused refresh token: the login stays
    auth = mcp.auth
    assert isinstance(auth, StoredOAuth) and auth.context.current_tokens is None  # the SDK dropped them
    auth.context.oauth_metadata = metadata  # the server mended; the same auth reads keyring's tokens again
    assert (await mcp.connect()).kind == "ready"
    await mcp.close()


async def test_consent_refused_or_never_given(mcp_oauth: Server, memory_keyring: MemoryKeyring) -> None:
    dev = [parse(mcp_oauth.mapping)]
    with pytest.raises(LoginFailed, match="the server did not grant access: access_denied"):
        await login("notes", REMOTE, open_browser=Browser(deny=True), dev=dev)

    async def nobody(url: str) -> None:
        pass

    with pytest.raises(LoginFailed, match="no answer came back from the browser within 0.5 s"):
        await login("notes", REMOTE, open_browser=nobody, dev=dev, timeout=0.5)
    assert "oauth-tokens" not in kept(memory_keyring)
    # a redirect with another state is turned away; the right one still completes the login
    checked = await login("notes", REMOTE, open_browser=Browser(state="forged"), dev=dev)
    assert checked.state.kind == "ready"


async def test_the_second_login_reuses_the_registration(mcp_oauth: Server, memory_keyring: MemoryKeyring) -> None:
    dev = [parse(mcp_oauth.mapping)]
    await login("notes", REMOTE, open_browser=Browser(), dev=dev)
    client = json.loads(kept(memory_keyring)["oauth-client"])
    await login("notes", REMOTE, open_browser=Browser(), dev=dev)
    assert json.loads(kept(memory_keyring)["oauth-client"])["client_id"] == client["client_id"]
    # its redirect port is taken: a new port, so a new registration (a registered redirect must match exactly)
    port = int(httpx.URL(client["redirect_uris"][0]).port or 0)
    async with Receiver(port) as taken:
        assert taken.port == port
        await login("notes", REMOTE, open_browser=Browser(), dev=dev)
    assert json.loads(kept(memory_keyring)["oauth-client"])["client_id"] != client["client_id"]


async def test_an_authorization_server_off_the_host_is_refused() -> None:
    # The flow's requests go through the server's policy transport, as the connection's do: the resource names
    # auth.example.net as its authorization server, and a request there is refused before it is sent.
    for server in serve("http", "offhost"):
        with pytest.raises(LoginFailed) as refused:
            await login("notes", REMOTE, open_browser=Browser(), dev=[parse(server.mapping)])
        assert str(refused.value) == (
            "cannot log in to mcp.example.com: refused: https://auth.example.net/.well-known/"
            "oauth-authorization-server is not on the server's host mcp.example.com"
        )
