"""OAuth 2.1 for remote servers: the SDK's `OAuthClientProvider` (PKCE, dynamic client registration, discovery),
a loopback redirect for the browser's consent, and a provider for connections that refreshes but never asks.

- `oauth_login` runs the whole flow once, when the student asks: a listener on 127.0.0.1 (a random port, or the
  port the kept registration names, since a registered redirect URI must match exactly) receives `code` and
  `state`; only the `state` of the authorization URL just opened is accepted. The flow's requests (metadata,
  registration, token) go through the server's `PolicyTransport` — the SDK's provider is an `httpx2.Auth`, so
  whatever it sends is sent by the client it authenticates, with that client's transport — and so only to the
  server's own host (an authorization server elsewhere is refused, with its name).
- `StoredOAuth` authenticates a connection with the kept tokens: it loads their absolute expiry (the SDK alone
  would trust a token loaded after a restart forever), refreshes an expired one, and tries one refresh when the
  server answers 401. It never discovers, registers or opens a browser on its own: a 401 it cannot mend goes back
  to the connection, which then needs a login — the student's step.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Awaitable, Callable
from hmac import compare_digest
from typing import Literal
from urllib.parse import parse_qs, urlsplit

import httpx
import httpx2
from mcp.client.auth import OAuthClientProvider, OAuthFlowError, OAuthRegistrationError, OAuthTokenError
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER

from tui.runtime.dev_origins import DevRoutes
from tui.runtime.pinned import Resolver, system_resolve
from tui.runtime.plugins.mcp.http import PolicyTransport, http_client
from tui.runtime.plugins.mcp.tokens import CLIENT, TOKENS, KeyringStorage, TokenStore

CALLBACK = "/callback"
LOGIN_TIMEOUT = 300.0
"""Seconds the browser's consent may take."""
_PAGE = (
    "<!doctype html><meta charset=utf-8><title>PKU harness</title>"
    "<p>{zh}</p><p>{en}</p>"  # the browser's page, not the app's: both languages, as the student may use either
)
_DONE = _PAGE.format(zh="登录完成，可以关闭此页，回到 PKU harness。", en="Logged in: you can close this page.")
_WRONG = _PAGE.format(zh="这不是 PKU harness 正在等的登录。", en="This is not the login PKU harness is waiting for.")
_PING = {"jsonrpc": "2.0", "id": 0, "method": "ping"}


FailKind = Literal["refused", "denied", "timeout", "network", "none"]


class LoginFailed(Exception):
    """The login did not complete; the message says why in one sentence (never a token), `kind` what happened:
    refused (the server would not take it), denied (consent not given), timeout (no answer from the browser),
    network (the server could not be reached, or a request was refused by the network policy), none (nothing to
    log in to)."""

    def __init__(self, message: str, kind: FailKind = "refused") -> None:
        super().__init__(message)
        self.kind: FailKind = kind


def client_metadata(redirect_uri: str) -> OAuthClientMetadata:
    """What the app registers as: a native public client (no secret) with PKCE and refresh."""
    return OAuthClientMetadata(
        client_name="PKU harness",
        redirect_uris=[redirect_uri],  # type: ignore[list-item]
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )


class Receiver:
    """The loopback listener the browser is sent back to: `GET /callback?code=…&state=…` on 127.0.0.1."""

    def __init__(self, port: int = 0) -> None:
        self.preferred = port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._state: str | None = None
        self._result: asyncio.Future[AuthorizationCodeResult] | None = None

    @property
    def redirect_uri(self) -> str:
        return f"http://127.0.0.1:{self.port}{CALLBACK}"

    async def __aenter__(self) -> Receiver:
        self._result = asyncio.get_running_loop().create_future()
        for port in dict.fromkeys((self.preferred, 0)):
            try:
                self._server = await asyncio.start_server(self._answer, "127.0.0.1", port)
                break
            except OSError:
                continue  # the registered port is taken: a new one, and a new registration
        assert self._server is not None
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
        if self._result is not None and not self._result.done():
            self._result.cancel()

    def expect(self, state: str) -> None:
        """Accept only a redirect with this `state` (the one of the authorization URL opened)."""
        self._state = state

    async def wait(self, timeout: float = LOGIN_TIMEOUT) -> AuthorizationCodeResult:
        """The code and state the browser brought back; TimeoutError after `timeout` seconds."""
        assert self._result is not None
        return await asyncio.wait_for(asyncio.shield(self._result), timeout)

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10.0)
            method, target, *_ = head[:8192].decode("latin-1").split("\r\n", 1)[0].split(" ")
            url = urlsplit(target)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            state, expected = query.get("state", "").encode(), (self._state or "").encode()
            accepted = method == "GET" and url.path == CALLBACK and bool(expected) and compare_digest(state, expected)
            status, page = ("200 OK", _DONE) if accepted else ("400 Bad Request", _WRONG)
            body = page.encode()
            writer.write(
                f"HTTP/1.1 {status}\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {len(body)}\r\n"
                "connection: close\r\ncache-control: no-store\r\n\r\n".encode()
                + body
            )
            await writer.drain()
            if accepted and self._result is not None and not self._result.done():
                if "error" in query:  # the student declined, or the server refused
                    why = query.get("error_description") or query["error"]
                    self._result.set_exception(LoginFailed(f"the server did not grant access: {why[:200]}", "denied"))
                else:
                    self._result.set_result(
                        AuthorizationCodeResult(code=query.get("code", ""), state=query["state"], iss=query.get("iss"))
                    )
        except (TimeoutError, OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # not a browser bringing a code back: nothing to answer
        finally:
            writer.close()


def _registered_port(client: OAuthClientInformationFull | None) -> int:
    for uri in (client.redirect_uris or []) if client is not None else []:
        u = urlsplit(str(uri))
        if u.hostname == "127.0.0.1" and u.path == CALLBACK and u.port:
            return u.port
    return 0


class LoginOAuth(OAuthClientProvider):
    """The SDK's provider over the keyring, with the kept expiry and server metadata loaded with the tokens."""

    def __init__(
        self,
        server_url: str,
        storage: KeyringStorage,
        redirect_uri: str,
        redirect_handler: Callable[[str], Awaitable[None]] | None = None,
        callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]] | None = None,
    ) -> None:
        super().__init__(server_url, client_metadata(redirect_uri), storage, redirect_handler, callback_handler)
        self.storage = storage

    async def _initialize(self) -> None:
        await super()._initialize()
        self.context.token_expiry_time = self.storage.expires_at  # absolute: right after a restart too
        metadata, resource = await asyncio.to_thread(self.storage.store.server)
        self.context.oauth_metadata = self.context.oauth_metadata or metadata
        if self.context.protected_resource_metadata is None and resource is not None:
            self.context.protected_resource_metadata = resource
            if resource.authorization_servers:
                self.context.auth_server_url = str(resource.authorization_servers[0])


class StoredOAuth(LoginOAuth):
    """A connection's auth: the kept tokens, refreshed when expired or refused once; never an interactive step."""

    async def _auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        # The lock covers deciding on the token and refreshing it, not the request: the SDK's provider holds it
        # until the answer's headers, which serialises every call to a server that answers when the tool is done.
        async with self.context.lock:
            if not self._initialized:
                await self._initialize()
            self.context.protocol_version = request.headers.get(MCP_PROTOCOL_VERSION_HEADER)
            if not self.context.is_token_valid() and self.context.can_refresh_token():
                await self._refreshed((yield await self._refresh_token()))
            sent = self._token() if self.context.is_token_valid() else None
            if sent is not None:
                self._add_auth_header(request)
        response = yield request
        if response.status_code != 401 or sent is None:
            return  # a 401 without a token goes back to the connection: it needs a login
        async with self.context.lock:  # refused before its time: refreshed once (unless another call just did)
            again = self._token() != sent
            if not again and self.context.can_refresh_token():
                again = await self._refreshed((yield await self._refresh_token()))
            if again:
                self._add_auth_header(request)
        if again:
            yield request  # a 401 again goes back to the connection: it needs a login

    def _token(self) -> str | None:
        tokens = self.context.current_tokens
        return tokens.access_token if tokens is not None else None

    async def _refreshed(self, response: httpx2.Response) -> bool:
        if await self._handle_refresh_response(response):
            return True
        if response.status_code in (400, 401):  # invalid_grant: the refresh token is dead, the login with it
            await asyncio.to_thread(self.storage.store.clear, TOKENS)
        # The SDK dropped the tokens from memory; what keyring keeps is read again by the next request (after a
        # server error, the same refresh token may well work then).
        self._initialized = False
        return False


def _state_of(url: str) -> str:
    values = parse_qs(urlsplit(url).query).get("state") or [""]
    return values[0]


async def oauth_login(
    store: TokenStore,
    url: str,
    open_browser: Callable[[str], Awaitable[None]],
    *,
    routes: DevRoutes | None = None,
    resolve: Resolver = system_resolve,
    timeout: float = LOGIN_TIMEOUT,
) -> None:
    """Log in to the server at `url` through the browser; the tokens, registration and metadata end in keyring.

    `open_browser` is given the authorization URL (with a dev origin, the loopback URL it maps to).

    Raises:
        LoginFailed: consent refused or not given within `timeout`, a refused request, a server error.
        KeyringMissing: no keyring to keep the login in.
    """
    host = httpx2.URL(url).host
    async with Receiver(_registered_port(store.client())) as receiver:
        registered = store.client()
        if registered is not None and receiver.redirect_uri not in [str(u) for u in registered.redirect_uris or []]:
            store.clear(CLIENT)  # registered with another redirect URI: the server would refuse this one

        async def redirect(authorization_url: str) -> None:
            parsed = httpx2.URL(authorization_url)
            if parsed.scheme != "https":
                raise LoginFailed(f"the server's authorization address is not https: {parsed.scheme}://{parsed.host}")
            receiver.expect(_state_of(authorization_url))
            mapped = routes.target(httpx.URL(authorization_url)) if routes is not None else None
            await open_browser(mapped or authorization_url)

        storage = KeyringStorage(store, fresh=True)
        provider = LoginOAuth(url, storage, receiver.redirect_uri, redirect, lambda: receiver.wait(timeout))
        transport = PolicyTransport(host, routes, resolve)
        try:
            async with http_client(transport, provider) as client:
                headers = {"accept": "application/json, text/event-stream"}
                async with client.stream("POST", url, json=_PING, headers=headers) as response:
                    status = response.status_code
        except LoginFailed:
            raise
        except TimeoutError:
            raise LoginFailed(f"no answer came back from the browser within {timeout:g} s", "timeout") from None
        except (OAuthFlowError, OAuthTokenError, OAuthRegistrationError) as e:
            raise LoginFailed(f"{host} refused the login: {str(e)[:300]}") from None
        except httpx2.HTTPError as e:
            reason = transport.seen.refusals[-1] if transport.seen.refusals else str(e) or type(e).__name__
            raise LoginFailed(f"cannot log in to {host}: {reason}", "network") from None
    if status in (401, 403):
        raise LoginFailed(f"{host} refused the new login (HTTP {status})")
    if provider.context.current_tokens is None:
        raise LoginFailed(f"{host} did not ask for a login: there is nothing to keep", "none")
    store.set_server(provider.context.oauth_metadata, provider.context.protected_resource_metadata)
