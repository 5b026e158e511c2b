"""Logging in to a remote plugin's server (`remote.auth`: none, bearer or oauth), and the auth its connection uses.

- `auth_for(server_id, remote)`: the `httpx2.Auth` a connection to the plugin's server sends, from what keyring
  keeps (tokens.py) — a pasted bearer token, or OAuth tokens that refresh themselves (oauth.StoredOAuth). None when
  there is no login: the server then answers 401 and the connection says it needs one. `auth_factory(secrets)`
  is the same as the `(server_id, remote)` callable the plugins' connection manager takes.
- `login(server_id, remote, …)`: bearer keeps the token the student pasted once it is not refused; oauth runs the
  browser flow (oauth.oauth_login). Either way the server is then connected to once, to say whether it worked.
- `logout(server_id)`: the bearer token, the OAuth tokens, the client registration and the server metadata all
  leave keyring.

A connection's auth is fixed when it is made: after a login or a logout the caller gives the server's connection
a new one (`server.auth = auth_for(…)`) and connects again.

A token never goes into an argument list, the store, the audit log or a message: the errors here name the host
and the reason, and every token read is added to the app's secrets registry, which masks it everywhere else.
"""

from __future__ import annotations

import asyncio
import webbrowser
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

import httpx2

from tui.lang.documents.manifest import Remote
from tui.runtime.dev_origins import DevOrigin, DevRoutes
from tui.runtime.pinned import Resolver, system_resolve
from tui.runtime.plugins.mcp.client import McpServer, ServerState
from tui.runtime.plugins.mcp.http import bearer
from tui.runtime.plugins.mcp.oauth import LOGIN_TIMEOUT, LoginFailed, StoredOAuth, oauth_login
from tui.runtime.plugins.mcp.tokens import KeyringMissing, KeyringStorage, TokenStore, kept_login
from tui.runtime.secrets import Secrets

__all__ = [
    "Checked",
    "KeyringMissing",
    "LoginFailed",
    "auth_factory",
    "auth_for",
    "logged_in",
    "login",
    "logout",
    "system_browser",
]

AuthFactory = Callable[[str, Remote], httpx2.Auth | None]
#: The longest token accepted from the student (a JWT with many claims is a few kB).
MAX_TOKEN = 16384


@dataclass(frozen=True)
class Checked:
    """How the server answered right after the login: its state and how many tools it offers."""

    state: ServerState
    tools: int


def auth_for(server_id: str, remote: Remote, *, secrets: Secrets | None = None) -> httpx2.Auth | None:
    """The auth of a connection to the server of plugin `server_id`, or None (no login kept, or `auth: none`)."""
    store = TokenStore(server_id, secrets)
    try:
        if remote.auth == "bearer":
            token = store.bearer()
            return bearer(token) if token else None
        if remote.auth == "oauth" and store.tokens() is not None:
            client = store.client()
            uris = [str(u) for u in (client.redirect_uris or [])] if client is not None else []
            return StoredOAuth(remote.mcp, KeyringStorage(store), uris[0] if uris else "http://127.0.0.1/callback")
    except KeyringMissing:
        return None  # an unreadable keyring holds no login the connection could use: it will need one
    return None


def auth_factory(secrets: Secrets | None = None) -> AuthFactory:
    """`auth_for` with the app's secrets registry: what the connection manager calls for each remote plugin."""

    def factory(server_id: str, remote: Remote) -> httpx2.Auth | None:
        return auth_for(server_id, remote, secrets=secrets)

    return factory


def logged_in(server_id: str, remote: Remote) -> bool:
    """Whether keyring keeps a login for this server (not whether the server still accepts it)."""
    return kept_login(server_id, remote.auth)


def check_token(token: str) -> str:
    """The pasted token, trimmed; ValueError when it cannot be one (empty, spaces inside, too long)."""
    scheme, _, rest = token.strip().partition(" ")
    token = rest.strip() if scheme.lower() == "bearer" else token.strip()  # pasted with its scheme, as shown
    if not token:
        raise ValueError("the token is empty")
    if len(token) > MAX_TOKEN:
        raise ValueError(f"the token is longer than {MAX_TOKEN} characters")
    if any(c.isspace() or not c.isprintable() for c in token):
        raise ValueError("a token has no spaces or control characters")
    return token


async def system_browser(url: str) -> None:
    """Open `url` in the student's browser (a thread: some browsers block the caller while they start)."""
    await asyncio.to_thread(webbrowser.open, url)


async def _check(
    server_id: str, remote: Remote, auth: httpx2.Auth | None, dev: Iterable[DevOrigin], resolve: Resolver
) -> Checked:
    server = McpServer(server_id, remote.mcp, auth=auth, dev=dev, resolve=resolve)
    try:
        state = await server.connect()
        return Checked(state, len(server.tools))
    finally:
        await server.close()


async def login(
    server_id: str,
    remote: Remote,
    *,
    token: str | None = None,
    open_browser: Callable[[str], Awaitable[None]] = system_browser,
    dev: Iterable[DevOrigin] = (),
    resolve: Resolver = system_resolve,
    secrets: Secrets | None = None,
    timeout: float = LOGIN_TIMEOUT,
) -> Checked:
    """Log in to the server of plugin `server_id` and connect once to check it.

    bearer: `token` is kept unless the server refuses it (a server that cannot be reached leaves it kept: the
    state says so). oauth: the browser flow, `open_browser` given the authorization URL.

    Raises:
        LoginFailed: refused, not completed, or nothing to log in to (`auth: none`).
        KeyringMissing: no keyring to keep the login in.
        ValueError: a bearer token that cannot be one.
    """
    dev = tuple(dev)
    store = TokenStore(server_id, secrets)
    host = httpx2.URL(remote.mcp).host
    if remote.auth in ("bearer", "oauth"):
        store.require()
    if remote.auth == "bearer":
        clean = check_token(token or "")
        if secrets is not None:
            secrets.add(clean, "remote-token")
        checked = await _check(server_id, remote, bearer(clean), dev, resolve)
        if checked.state.kind == "needs_login":
            raise LoginFailed(f"{host} refused the token{_reason(checked.state)}")
        store.set_bearer(clean)
        return checked
    if remote.auth == "oauth":
        routes = DevRoutes.for_plugin(dev, [host])
        await oauth_login(store, remote.mcp, open_browser, routes=routes, resolve=resolve, timeout=timeout)
        return await _check(server_id, remote, auth_for(server_id, remote, secrets=secrets), dev, resolve)
    raise LoginFailed(f"mcp-{server_id} needs no login (its auth is none)", "none")


def _reason(state: ServerState) -> str:
    found = state.reason.rpartition(" (")
    return f" ({found[2]}" if found[1] else ""


def logout(server_id: str) -> bool:
    """Forget every credential of the server of plugin `server_id`; True when there was one.

    Raises:
        KeyringMissing: the keyring refused to remove an entry.
    """
    return TokenStore(server_id).clear()
