"""设置 → 远程服务器: logging in to a remote plugin's server from the app — a masked box for a bearer token, the
browser for OAuth — and logging out, against real MCP servers on loopback, with the in-memory keyring."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from textual.widgets import Button, DataTable, Input, Static

from tests.app.helpers import open_settings_section, settle, until
from tests.conftest import MemoryKeyring
from tests.runtime.fake_github import plugin_files
from tests.runtime.mcp.conftest import TOKEN, serve
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.remote_login import RemoteLoginScreen, open_remote_login
from tui.cli.main import cli
from tui.runtime.dev_origins import parse

NOW = "2026-11-30T12:00:00+08:00"
URL = "https://mcp.example.com/mcp"


def install(tmp_path: Path, auth: str) -> None:
    """A remote plugin `notes` (its server declared in `network`, so a dev origin may map it)."""
    files = plugin_files(remote=URL, network=("api.example.com", "mcp.example.com"))
    declared = f"remote: {{ mcp: '{URL}' }}"
    files["PLUGIN.md"] = files["PLUGIN.md"].replace(declared, f"remote: {{ mcp: '{URL}', auth: {auth} }}")
    folder = tmp_path / "notes"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["plugins", "install", str(folder), "--yes"])
    assert result.exit_code == 0, result.stderr


def quiet(app: PkuHarnessApp) -> PkuHarnessApp:
    """The app as if the campus login had just been declined: the built-in widgets' campus data (not logged in
    here) brings a notice instead of the campus login screen over 设置."""
    app.login_declined_at = time.monotonic()
    return app


def row(app: PkuHarnessApp) -> list[str]:
    table = app.query_one("#remote-table", DataTable)
    return [str(cell) for cell in table.get_row_at(0)]


@pytest.fixture
def bearer_app(tmp_path: Path, isolated_data_dir: Path) -> Iterator[PkuHarnessApp]:
    for server in serve("http"):
        install(tmp_path, "bearer")
        yield quiet(make_app(data_dir=isolated_data_dir, now=NOW, dev_origins=(parse(server.mapping),)))


async def test_bearer_login_and_logout_in_settings(bearer_app: PkuHarnessApp, memory_keyring: MemoryKeyring) -> None:
    app = bearer_app
    async with app.run_test(size=(120, 40)) as pilot:
        remote = app.runtime.remote
        assert (await remote.ensure("notes"))[0] == "needs_login"  # the app's connection: no login yet
        await open_settings_section(pilot, app, "remote")
        assert row(app) == ["mcp-notes", "mcp.example.com", "令牌（bearer）", "未登录"]
        app.query_one("#remote-login", Button).press()
        await until(pilot, lambda: isinstance(app.screen, RemoteLoginScreen) and app.screen.query("#remote-token"))
        box = app.screen.query_one("#remote-token", Input)
        await until(pilot, lambda: box.has_focus)  # ready for the paste (focused once the dialog has mounted)
        assert box.password  # masked

        await pilot.press(*"wrong-token", "enter")
        error = app.screen.query_one("#remote-error", Static)
        await until(pilot, lambda: "没有接受" in str(error.render()), seconds=15)
        assert str(error.render()) == "服务器没有接受这次登录（mcp.example.com refused the token (invalid_token)）"
        assert box.value == "" and memory_keyring.items == {}  # the box keeps nothing, keyring got nothing

        box.value = TOKEN
        await pilot.press("enter", "enter", "enter")  # a burst: the login under way is not cancelled by the rest
        await until(pilot, lambda: not isinstance(app.screen, RemoteLoginScreen), seconds=15)
        assert memory_keyring.items == {("pku-harness/mcp-notes", "bearer"): TOKEN}
        await until(pilot, lambda: row(app)[3] == "已登录")
        # the app's own connection is made again with the token kept, and its tools come on
        await until(pilot, lambda: remote.state("notes")[0] == "ready", seconds=15)

        app.query_one("#remote-logout", Button).press()
        await pilot.pause(0.1)
        await pilot.press("y")
        await until(pilot, lambda: row(app)[3] == "未登录")
        assert memory_keyring.items == {}
        await until(pilot, lambda: remote.state("notes")[0] == "needs_login", seconds=15)


async def test_oauth_login_from_the_exposed_function(
    tmp_path: Path, isolated_data_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    opened: list[str] = []

    async def browser(url: str) -> None:  # the student's browser, agreeing
        opened.append(url)
        async with httpx.AsyncClient() as client:
            consent = await client.get(url)
            assert (await client.get(consent.headers["location"])).status_code == 200

    server = next(servers := serve("http", "oauth"))
    await asyncio.to_thread(install, tmp_path, "oauth")  # the install's review connects with asyncio.run
    app = quiet(make_app(data_dir=isolated_data_dir, now=NOW, locale="en", dev_origins=(parse(server.mapping),)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            assert not open_remote_login(app, "ghost")  # not installed: nothing shown
            done: list[bool | None] = []
            assert open_remote_login(app, "notes", done.append, browser=browser)
            await until(pilot, lambda: isinstance(app.screen, RemoteLoginScreen) and app.screen.query("#remote-go"))
            assert "Log in in the browser" in str(app.screen.query_one("#remote-go", Button).label)
            app.screen.query_one("#remote-go", Button).press()
            await until(pilot, lambda: done == [True], seconds=20)
            assert opened and opened[0].startswith("http://127.0.0.1:")  # the dev origin's loopback server
            users = {user for (service, user) in memory_keyring.items if service == "pku-harness/mcp-notes"}
            assert users == {"oauth-tokens", "oauth-client", "oauth-server"}
            await open_settings_section(pilot, app, "remote")
            assert row(app) == ["mcp-notes", "mcp.example.com", "OAuth", "logged in"]
    finally:
        servers.close()  # the generator's own `finally` stops the server


async def test_escape_while_waiting_for_the_browser_stops_the_login(
    tmp_path: Path, isolated_data_dir: Path, memory_keyring: MemoryKeyring
) -> None:
    opened: list[str] = []

    async def browser(url: str) -> None:  # opened, and never answered
        opened.append(url)

    server = next(servers := serve("http", "oauth"))
    await asyncio.to_thread(install, tmp_path, "oauth")  # the install's review connects with asyncio.run
    app = quiet(make_app(data_dir=isolated_data_dir, now=NOW, dev_origins=(parse(server.mapping),)))
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            done: list[bool | None] = []
            assert open_remote_login(app, "notes", done.append, browser=browser)
            await until(pilot, lambda: isinstance(app.screen, RemoteLoginScreen) and app.screen.query("#remote-go"))
            app.screen.query_one("#remote-go", Button).press()
            url = app.screen.query_one("#remote-url", Static)
            await until(pilot, lambda: bool(opened) and "authorize" in str(url.render()), seconds=15)
            assert "正在等浏览器（最多 5 分钟）" in str(app.screen.query_one("#remote-status", Static).render())
            redirect = httpx.URL(httpx.URL(opened[0]).params["redirect_uri"])
            await pilot.press("escape")
            await until(pilot, lambda: done == [False])
            await until(pilot, lambda: not isinstance(app.screen, RemoteLoginScreen))
            await settle(pilot, app)  # the cancelled login's worker has ended, and with it the listener
            async with httpx.AsyncClient() as client:
                with pytest.raises(httpx.ConnectError):
                    await client.get(redirect.copy_with(params={"code": "c", "state": "s"}))
            assert memory_keyring.items.keys() <= {("pku-harness/mcp-notes", "oauth-client")}  # no tokens
    finally:
        servers.close()
