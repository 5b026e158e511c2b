"""Where a remote server's credentials live: the OS keyring, one service per server, and nowhere else.

The service is `pku-harness/mcp-<server>` (the plugin's id); its entries are `bearer` (a pasted token),
`oauth-tokens` (the access and refresh tokens with their ABSOLUTE expiry — the SDK keeps only `expires_in`, which
means nothing after a restart), `oauth-client` (the dynamic client registration) and `oauth-server` (the
authorization server's metadata, so a refresh after a restart goes to the right token endpoint). Nothing of it is
written to the store, the audit log or a log record; every value read or written is added to the app's secrets
registry, which masks it wherever it might still turn up (a server echoing it in a tool result, an error).

`KeyringStorage` is the SDK's `TokenStorage` protocol over these entries. Keyring calls may block (a Secret
Service asking to be unlocked), so the async methods run them in a thread. The SDK's models are imported only
where a record is read or written: importing `mcp` takes most of a second, and `kept_login` (what 设置 shows for
each remote plugin) needs none of it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from tui.runtime.secrets import Secrets

if TYPE_CHECKING:
    from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken, ProtectedResourceMetadata

SERVICE_PREFIX = "pku-harness/mcp-"
BEARER, TOKENS, CLIENT, SERVER = "bearer", "oauth-tokens", "oauth-client", "oauth-server"
ENTRIES = (BEARER, TOKENS, CLIENT, SERVER)


class KeyringMissing(Exception):
    """No usable keyring: a login cannot be kept (the message says what to do)."""


def service_name(server_id: str) -> str:
    """The keyring service of the server of plugin `server_id`."""
    return f"{SERVICE_PREFIX}{server_id}"


def _keyring() -> Any:
    import keyring

    from tui.runtime.campus.vault import keyring_usable

    if not keyring_usable():
        raise KeyringMissing(
            "no usable keyring (e.g. a headless Linux without Secret Service): a remote server's login is kept "
            "only there; install and unlock one (gnome-keyring, KeePassXC) and log in again"
        )
    return keyring


class TokenStore:
    """The keyring entries of one server. Every secret read or written is added to `secrets` (when given)."""

    def __init__(self, server_id: str, secrets: Secrets | None = None) -> None:
        self.server_id = server_id
        self.service = service_name(server_id)
        self.secrets = secrets

    def require(self) -> None:
        """Raise KeyringMissing unless a login can be kept (checked before anything is asked of a server)."""
        _keyring()

    def _get(self, entry: str) -> str | None:
        from keyring.errors import KeyringError

        try:
            value = _keyring().get_password(self.service, entry)
        except KeyringMissing:
            return None  # nothing can be stored, so nothing is: not logged in
        except KeyringError as e:
            raise KeyringMissing(f"the keyring could not be read: {e}") from None
        return value if isinstance(value, str) and value else None

    def _set(self, entry: str, value: str) -> None:
        from keyring.errors import KeyringError

        try:
            _keyring().set_password(self.service, entry, value)
        except KeyringError as e:
            raise KeyringMissing(f"the keyring refused to keep the login: {e}") from None

    def _json(self, entry: str) -> dict[str, Any] | None:
        raw = self._get(entry)
        try:
            value = json.loads(raw) if raw else None
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def _remember(self, *values: str | None) -> None:
        if self.secrets is not None:
            for v in values:
                self.secrets.add(v, "remote-token")

    def bearer(self) -> str | None:
        """The pasted token, or None."""
        token = self._get(BEARER)
        self._remember(token)
        return token

    def set_bearer(self, token: str) -> None:
        """Keep the pasted token."""
        self._remember(token)
        self._set(BEARER, token)

    def tokens(self) -> tuple[OAuthToken, float | None] | None:
        """The OAuth tokens and their absolute expiry (`time.time()` seconds; None: no expiry), or None."""
        from mcp.shared.auth import OAuthToken

        record = self._json(TOKENS)
        if record is None:
            return None
        expires_at = record.pop("expires_at", None)
        try:
            token = OAuthToken.model_validate(record)
        except ValidationError:
            return None
        self._remember(token.access_token, token.refresh_token)
        return token, float(expires_at) if isinstance(expires_at, int | float) else None

    def set_tokens(self, token: OAuthToken, expires_at: float | None) -> None:
        """Keep the OAuth tokens with their absolute expiry."""
        self._remember(token.access_token, token.refresh_token)
        record = token.model_dump(mode="json", exclude_none=True)
        record["expires_at"] = expires_at
        self._set(TOKENS, json.dumps(record))

    def client(self) -> OAuthClientInformationFull | None:
        """The client registration, or None."""
        from mcp.shared.auth import OAuthClientInformationFull

        record = self._json(CLIENT)
        try:
            client = OAuthClientInformationFull.model_validate(record) if record is not None else None
        except ValidationError:
            return None
        if client is not None:
            self._remember(client.client_secret)
        return client

    def set_client(self, client: OAuthClientInformationFull) -> None:
        """Keep the client registration."""
        self._remember(client.client_secret)
        self._set(CLIENT, client.model_dump_json(exclude_none=True))

    def server(self) -> tuple[OAuthMetadata | None, ProtectedResourceMetadata | None]:
        """The authorization server's metadata and the resource's, as found at the login (each may be None)."""
        from mcp.shared.auth import OAuthMetadata, ProtectedResourceMetadata

        record = self._json(SERVER) or {}
        found: list[Any] = []
        for key, model in (("authorization", OAuthMetadata), ("resource", ProtectedResourceMetadata)):
            try:
                found.append(model.model_validate(record[key]) if record.get(key) else None)
            except ValidationError:
                found.append(None)
        return found[0], found[1]

    def set_server(self, metadata: OAuthMetadata | None, resource: ProtectedResourceMetadata | None) -> None:
        """Keep what discovery found, for refreshes in later runs."""
        record = {
            "authorization": metadata.model_dump(mode="json", exclude_none=True) if metadata else None,
            "resource": resource.model_dump(mode="json", exclude_none=True) if resource else None,
        }
        self._set(SERVER, json.dumps(record))

    def has(self, *entries: str) -> bool:
        """Whether any of `entries` is kept."""
        return any(self._get(e) is not None for e in entries)

    def clear(self, *entries: str) -> bool:
        """Remove `entries` (all of them when none is named); True when one was there."""
        from keyring.errors import KeyringError, PasswordDeleteError

        removed = False
        for entry in entries or ENTRIES:
            try:
                if self._get(entry) is None:
                    continue
                _keyring().delete_password(self.service, entry)
                removed = True
            except PasswordDeleteError:
                continue
            except KeyringError as e:
                raise KeyringMissing(f"the keyring refused to remove the login: {e}") from None
        return removed


def kept_login(server_id: str, auth: str) -> bool:
    """Whether keyring keeps a login for the server of `server_id` whose `remote.auth` is `auth` (not whether the
    server still takes it)."""
    entry = {"bearer": BEARER, "oauth": TOKENS}.get(auth)
    try:
        return entry is not None and TokenStore(server_id).has(entry)
    except KeyringMissing:
        return False


class KeyringStorage:
    """The SDK's `TokenStorage` over a `TokenStore`, with the absolute expiry the SDK does not keep.

    `fresh`: the first read of the tokens finds none (a login asked for anew), while writes are kept as usual.
    """

    def __init__(self, store: TokenStore, *, fresh: bool = False, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.fresh = fresh
        self.clock = clock
        self.expires_at: float | None = None
        """The absolute expiry of the tokens last read or written."""

    async def get_tokens(self) -> OAuthToken | None:
        if self.fresh:
            self.fresh = False
            return None
        found = await asyncio.to_thread(self.store.tokens)
        if found is None:
            return None
        token, self.expires_at = found
        return token

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.expires_at = None if tokens.expires_in is None else self.clock() + int(tokens.expires_in)
        await asyncio.to_thread(self.store.set_tokens, tokens, self.expires_at)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return await asyncio.to_thread(self.store.client)

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        await asyncio.to_thread(self.store.set_client, client_info)
