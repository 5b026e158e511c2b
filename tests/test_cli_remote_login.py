"""`pku-harness login mcp-<id>` / `logout mcp-<id>` for an installed remote plugin, against real MCP servers on
loopback (fastmcp with a static token, and with its in-memory OAuth server), with the in-memory keyring."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from tests.conftest import MemoryKeyring
from tests.runtime.fake_github import plugin_files
from tests.runtime.mcp.conftest import TOKEN, Server, serve
from tui.cli.main import cli
from tui.runtime.dev_origins import ENV

URL = "https://mcp.example.com/mcp"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def install(tmp_path: Path, auth: str) -> None:
    files = plugin_files(remote=URL)
    declared = f"remote: {{ mcp: '{URL}' }}"
    files["PLUGIN.md"] = files["PLUGIN.md"].replace(declared, f"remote: {{ mcp: '{URL}', auth: {auth} }}")
    folder = tmp_path / "notes"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    code, _, err = run("plugins", "install", str(folder), "--yes")
    assert code == 0, err


@pytest.fixture
def bearer_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Server]:
    for server in serve("http"):
        monkeypatch.setenv(ENV, server.mapping)
        install(tmp_path, "bearer")
        yield server


def test_bearer_login_from_stdin_and_logout(
    bearer_server: Server, memory_keyring: MemoryKeyring, isolated_data_dir: Path
) -> None:
    _, _, err = run("tools", "list")
    assert "notes: its server asks to log in (mcp.example.com asks to log in)" in err
    code, out, err = run("login", "mcp-notes", stdin="wrong-token\n")
    assert code == 1 and err.strip() == "Error: mcp-notes: mcp.example.com refused the token (invalid_token)"
    assert memory_keyring.items == {}

    code, out, err = run("login", "mcp-notes", stdin=f"{TOKEN}\n")
    assert code == 0, err
    assert out.strip() == "mcp-notes: logged in (6 tools)" and TOKEN not in out + err
    assert memory_keyring.items == {("pku-harness/mcp-notes", "bearer"): TOKEN}
    files = [p for p in isolated_data_dir.rglob("*") if p.is_file()]
    assert files and not any(TOKEN.encode() in p.read_bytes() for p in files)  # the store, audit: not there
    _, _, err = run("tools", "list")  # every command's connection now logs in with the kept token
    assert "mcp-notes.echo: new; off until you review it" in err and "asks to log in" not in err

    code, out, _ = run("logout", "mcp-notes")
    assert (code, out.strip()) == (0, "logged out of mcp-notes") and memory_keyring.items == {}
    _, _, err = run("tools", "list")
    assert "notes: its server asks to log in" in err
    code, out, _ = run("logout", "mcp-notes")
    assert (code, out.strip()) == (0, "mcp-notes: no login was kept")


def test_the_token_is_never_an_argument(bearer_server: Server, memory_keyring: MemoryKeyring) -> None:
    code, _, err = run("login", "mcp-notes", TOKEN)
    assert code == 2 and "Got unexpected extra argument" in err and memory_keyring.items == {}
    code, _, err = run("login", "mcp-notes", "--qr")
    assert code == 2 and "are for campus services" in err


def test_login_to_what_is_not_installed(tmp_path: Path) -> None:
    code, _, err = run("login", "mcp-ghost", stdin="x\n")
    assert code == 1 and "mcp-ghost: no installed plugin 'ghost' has a remote server" in err


def test_oauth_login_through_the_browser(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, memory_keyring: MemoryKeyring, isolated_data_dir: Path
) -> None:
    opened: list[str] = []

    async def browser(url: str) -> None:  # the student's browser, agreeing
        opened.append(url)
        async with httpx.AsyncClient() as client:
            consent = await client.get(url)
            assert (await client.get(consent.headers["location"])).status_code == 200

    monkeypatch.setattr("tui.runtime.plugins.mcp.auth.system_browser", browser)
    for server in serve("http", "oauth"):
        monkeypatch.setenv(ENV, server.mapping)
        install(tmp_path, "oauth")
        code, out, err = run("login", "mcp-notes")
        assert code == 0, err
        assert out.strip() == "mcp-notes: logged in (6 tools)"
        assert "open this address to log in to mcp-notes" in err and opened[0] in err
        users = {user for (service, user) in memory_keyring.items if service == "pku-harness/mcp-notes"}
        assert users == {"oauth-tokens", "oauth-client", "oauth-server"}
        tokens = json.loads(memory_keyring.items["pku-harness/mcp-notes", "oauth-tokens"])
        files = [p for p in isolated_data_dir.rglob("*") if p.is_file()]
        for token in (tokens["access_token"], tokens["refresh_token"]):
            assert token not in out + err and not any(token.encode() in p.read_bytes() for p in files)
        code, out, _ = run("logout", "mcp-notes")
        assert code == 0 and memory_keyring.items == {}
