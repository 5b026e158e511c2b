"""`pku-harness login mcp-<id>` and `logout mcp-<id>`: the login to a remote plugin's MCP server.

`login` and `logout` (campus.py) hand a name starting with `mcp-` here. A bearer token is read from a hidden
prompt, or from standard input when that is not a terminal (`… | pku-harness login mcp-notes`) — never from the
command line, where the shell's history and the process list would keep it. OAuth prints the authorization
address, opens the browser and waits for it to come back (5 minutes at most).
"""

from __future__ import annotations

import asyncio
import sys

from tui.cli.output import ask, echo, fail
from tui.runtime.runtime import Runtime

PREFIX = "mcp-"


def is_remote(name: str | None) -> bool:
    """Whether `name` names a remote plugin's server (`mcp-<id>`) rather than a campus service."""
    return bool(name) and str(name).startswith(PREFIX)


def _read_token(name: str) -> str:
    if sys.stdin is not None and sys.stdin.isatty():
        return str(ask(f"token for {name} (hidden)", hide_input=True))
    return sys.stdin.readline() if sys.stdin is not None else ""


def login_remote(name: str, timeout: float) -> None:
    """Log in to the server of the installed remote plugin `name[4:]` and say how it answered."""
    from tui.runtime.dev_origins import DevOriginError, from_env
    from tui.runtime.plugins.mcp.auth import KeyringMissing, LoginFailed, login

    pid = name.removeprefix(PREFIX)
    rt = Runtime.open()
    try:
        installed = rt.registry.plugins.get(pid)
        remote = installed.plugin.manifest.remote if installed is not None else None
        if remote is None:
            raise fail(f"{name}: no installed plugin {pid!r} has a remote server (`remote:` in its PLUGIN.md)")
        if remote.auth == "none":
            echo(f"{name} needs no login (its auth is none)")
            return
        try:
            dev = from_env()
        except DevOriginError as e:
            raise fail(str(e)) from None
        token = _read_token(name) if remote.auth == "bearer" else None

        async def browser(url: str) -> None:
            from tui.runtime.plugins.mcp.auth import system_browser

            echo(f"open this address to log in to {name} (the browser should open it by itself):", err=True)
            echo(url, err=True)
            await system_browser(url)
            echo(f"waiting for the browser (at most {timeout:g} s)…", err=True)

        try:
            checked = asyncio.run(
                login(pid, remote, token=token, open_browser=browser, dev=dev, secrets=rt.secrets, timeout=timeout)
            )
        except (LoginFailed, KeyringMissing, ValueError) as e:
            raise fail(f"{name}: {e}") from None
        state = checked.state
        if state.kind == "ready":
            echo(f"{name}: logged in ({checked.tools} tools)")
        else:
            echo(f"{name}: login kept, but the server could not be checked: {state.reason or state.kind}")
    finally:
        rt.close()


def logout_remote(name: str) -> None:
    """Forget every credential of the server `name` (installed or not: an uninstalled plugin's are removed too)."""
    from tui.runtime.plugins.mcp.tokens import KeyringMissing, TokenStore

    try:
        removed = TokenStore(name.removeprefix(PREFIX)).clear()
    except KeyringMissing as e:
        raise fail(f"{name}: {e}") from None
    echo(f"logged out of {name}" if removed else f"{name}: no login was kept")
