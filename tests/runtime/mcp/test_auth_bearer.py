"""Bearer login to a real MCP server (fastmcp with a static token verifier on 127.0.0.1, reached as
https://mcp.example.com through a dev origin): the token is kept in keyring only, once the server takes it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.conftest import MemoryKeyring
from tests.runtime.mcp.conftest import HOST, TOKEN, Server, serve
from tui.lang.documents.manifest import Remote
from tui.runtime.dev_origins import parse
from tui.runtime.plugins.mcp.auth import LoginFailed, auth_factory, auth_for, check_token, logged_in, login, logout
from tui.runtime.plugins.mcp.client import McpServer
from tui.runtime.secrets import Secrets

REMOTE = Remote(mcp=f"https://{HOST}/mcp", auth="bearer")


async def connect(server: Server, remote: Remote = REMOTE) -> McpServer:
    mcp = McpServer("notes", remote.mcp, auth=auth_for("notes", remote), dev=[parse(server.mapping)])
    await mcp.connect()
    return mcp


async def test_bearer_login_list_call_and_logout(
    mcp_http: Server, memory_keyring: MemoryKeyring, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    assert auth_for("notes", REMOTE) is None  # no token: the connection goes without, and hears 401
    assert (await connect(mcp_http)).state.kind == "needs_login"

    secrets = Secrets()
    checked = await login("notes", REMOTE, token=f"  Bearer {TOKEN}\n", dev=[parse(mcp_http.mapping)], secrets=secrets)
    assert (checked.state.kind, checked.tools) == ("ready", 6)
    assert memory_keyring.items == {("pku-harness/mcp-notes", "bearer"): TOKEN}
    assert logged_in("notes", REMOTE)
    assert TOKEN not in secrets.scrub_text(f"echo: {TOKEN}")  # masked wherever it turns up
    assert secrets.find([f"https://evil.example/?t={TOKEN}"]) == "remote-token"  # a plugin's request is refused

    mcp = McpServer("notes", REMOTE.mcp, auth=auth_factory(secrets)("notes", REMOTE), dev=[parse(mcp_http.mapping)])
    assert (await mcp.connect()).kind == "ready"
    assert [t.id for t in mcp.tools][:2] == ["mcp-notes.echo", "mcp-notes.fail"]
    assert (await mcp.call("echo", {"text": "hi"})).text == "echo: hi"
    await mcp.close()
    assert not any(TOKEN.encode() in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert TOKEN not in caplog.text

    assert logout("notes") and memory_keyring.items == {} and not logged_in("notes", REMOTE)
    assert (await connect(mcp_http)).state.kind == "needs_login"


async def test_a_refused_token_is_not_kept(mcp_http: Server, memory_keyring: MemoryKeyring) -> None:
    with pytest.raises(LoginFailed, match=r"^mcp.example.com refused the token \(invalid_token\)$"):
        await login("notes", REMOTE, token="not-the-token", dev=[parse(mcp_http.mapping)])
    assert memory_keyring.items == {}


async def test_a_server_that_is_down_keeps_the_token_and_says_so(memory_keyring: MemoryKeyring) -> None:
    for server in serve("http"):
        server.stop()
        checked = await login("notes", REMOTE, token=TOKEN, dev=[parse(server.mapping)])
        assert checked.state.kind == "error" and checked.state.reason.startswith("cannot connect to mcp.example.com")
        assert memory_keyring.items == {("pku-harness/mcp-notes", "bearer"): TOKEN}
        server.start()
        assert (await connect(server)).state.kind == "ready"


@pytest.mark.parametrize(
    ("pasted", "why"),
    [("", "the token is empty"), ("Bearer ", "the token is empty"), ("two words", "a token has no spaces"),
     ("a\x1bb", "a token has no spaces or control characters"), ("x" * 20000, "longer than 16384")],
    ids=["empty", "scheme-only", "spaces", "escape", "too-long"],
)  # fmt: skip
def test_what_cannot_be_a_token(pasted: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        check_token(pasted)


async def test_no_login_for_a_server_without_auth(memory_keyring: MemoryKeyring) -> None:
    none = Remote(mcp=f"https://{HOST}/mcp")
    assert auth_for("notes", none) is None and not logged_in("notes", none)
    with pytest.raises(LoginFailed, match="mcp-notes needs no login"):
        await login("notes", none, token=TOKEN)


async def test_without_a_keyring_nothing_is_kept(mcp_http: Server) -> None:
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    from tui.runtime.plugins.mcp.auth import KeyringMissing

    assert auth_for("notes", REMOTE) is None and not logged_in("notes", REMOTE)
    with pytest.raises(KeyringMissing, match="no usable keyring"):
        await login("notes", REMOTE, token=TOKEN, dev=[parse(mcp_http.mapping)])
