"""The campus session: signs plugins' campus requests, logs in and re-logs in, keeps secrets in the vault.

A plugin's request arrives as a path on a service (already joined and host-checked by the interpreter). Here it
is checked again, stripped of any header the app owns, signed with the service's credentials, sent at most two
at a time per host, and answered without a credential header, and with every secret of the session masked in
its body, headers and URL (answers.py). An expired session is renewed
once with the stored credentials (one renewal at a time per service) and the request retried once; a request
that may have changed something is never retried after an ambiguous failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets as pysecrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from tui.lang.host import HostError, HttpRequest, HttpResponse
from tui.runtime.campus import exchanges
from tui.runtime.campus.answers import scrub_answer
from tui.runtime.campus.iaaa import LoginError, password_login, send_sms_code
from tui.runtime.campus.login_throttle import LoginThrottle
from tui.runtime.campus.net import CampusNet
from tui.runtime.campus.services import SERVICES, Service, ServiceState, UnsupportedService, service
from tui.runtime.campus.signed import send_signed
from tui.runtime.campus.totp import BadSecret, totp
from tui.runtime.campus.vault import NO_KEYRING, FileVault, KeyringVault, MemoryVault, Vault, VaultError, keyring_usable
from tui.runtime.message import Message
from tui.runtime.secrets import Kind, Secrets
from tui.runtime.settings import read_setting, write_setting
from tui.runtime.store import Store

#: Headers only the app sets on a campus request: a plugin's are dropped (threats.md C2).
APP_HEADERS = frozenset({"cookie", "authorization", "host", "synjones-auth", "synaccesssource", "uuid",
                         "proxy-authorization", "x-xsrf-token"})  # fmt: skip
ENV_USER, ENV_PASSWORD = "PKU_USERNAME", "PKU_PASSWORD"
#: The lock automatic logins of the account take, whatever the service (a refusal is seen by the next).
ACCOUNT_LOCK = "account"
#: The members of vault entries that are secrets, with their kinds.
_VAULT_SECRETS: tuple[tuple[str, Kind], ...] = (("password", "password"), ("secret", "otp-secret"), ("token", "token"))


class LoginRequired(HostError):
    """The service needs a login the app cannot do by itself (no stored password, or a code only a person has)."""

    def __init__(self, service_name: str, message: str) -> None:
        super().__init__("network", message, cause="login", service=service_name)


@dataclass(frozen=True)
class ServiceStatus:
    """One row of the status panel."""

    name: str
    title: str
    state: str
    """logged_in, expired, logged_out, verification (treehole wants a code) or unsupported."""
    expires_at: float | None = None


def choose_vault(store: Store) -> Vault:
    """The file vault when the student chose one, else the keyring, else memory (with NO_KEYRING to show)."""
    chosen = read_setting(store, "campus.vaultFile")
    if isinstance(chosen, str) and chosen:
        return FileVault(chosen)
    return KeyringVault() if keyring_usable() else MemoryVault()


def forget_vault_file(store: Store) -> None:
    """Stop using the vault file the student chose (the file itself is left as it is): the keyring, or memory,
    keeps secrets from now on."""
    write_setting(store, "campus.vaultFile", None)


class CampusSession:
    """The student's campus login state for every service."""

    def __init__(
        self,
        store: Store,
        secrets: Secrets,
        vault: Vault | None = None,
        net: CampusNet | None = None,
        backoff: tuple[float, ...] = (0.5, 2.0),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.secrets = secrets
        self._vault = vault
        self.net = net or CampusNet()
        if self.net.secrets is None:
            self.net.secrets = secrets  # cookies and login tokens are registered the moment they arrive
        self.backoff = backoff
        self.clock = clock
        self._states: dict[str, ServiceState] = {}
        self._jars: dict[str, httpx.Cookies] = {}
        self._generation: dict[str, int] = {}
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}
        self._memory_account: dict[str, str] | None = None
        self._saved: set[str] = set()
        """Services whose state in the vault matches memory (cookies are saved only when they change)."""
        self.on_login_required: list[Callable[[str, str], None]] = []
        """Called with (service, message) when a login only the student can do is needed (the app opens it)."""
        self.logins = 0
        """How many logins ran (tests count re-logins)."""
        self.throttle = LoginThrottle(store, lambda: self.clock())
        """The automatic logins IAAA refused, per account (none for a minute after one, none after three)."""

    @property
    def vault(self) -> Vault:
        """Where secrets live; chosen on first use (importing keyring would slow the app's start)."""
        if self._vault is None:
            self._vault = choose_vault(self.store)
        return self._vault

    def use_vault(self, vault: Vault) -> None:
        """Switch to another vault (the student chose a file, or unlocked one); sessions are read from it anew."""
        self._vault = vault
        self._states.clear()
        self._jars.clear()
        self._saved.clear()

    @property
    def vault_note(self) -> str | None:
        """What to tell the student about where secrets are kept, when it is not the keyring."""
        if isinstance(self.vault, MemoryVault):
            return NO_KEYRING
        return None

    # -- secrets in the vault -------------------------------------------------------------------------
    def _vault_get(self, name: str) -> dict[str, Any] | None:
        try:
            value = self.vault.get(name)
        except VaultError:
            return None
        for k, kind in _VAULT_SECRETS:
            if value and isinstance(value.get(k), str):
                self.secrets.add(value[k], kind)
        return value

    def account(self) -> tuple[str, str] | None:
        """The student id and password to log in with: remembered, this session's, or PKU_USERNAME/PKU_PASSWORD."""
        for source in (self._vault_get("account"), self._memory_account):
            if source and source.get("username") and source.get("password"):
                return str(source["username"]), str(source["password"])
        user, password = os.environ.get(ENV_USER), os.environ.get(ENV_PASSWORD)
        if user and password:
            self.secrets.add(password, "password")
            return user, password
        return None

    def username(self) -> str | None:
        """The student id last used (shown in the login form), without needing the password."""
        for source in (self._vault_get("account"), self._memory_account):
            if source and source.get("username"):
                return str(source["username"])
        return os.environ.get(ENV_USER) or None

    def remember_account(self, username: str, password: str, remember: bool) -> None:
        """Keep the credentials in the vault (`remember`) or for this session only.

        Raises:
            VaultError: the vault refused (the credentials are still kept for this session).
        """
        self.secrets.add(password, "password")
        self._memory_account = {"username": username, "password": password}
        if remember:
            self.vault.put("account", {"username": username, "password": password})
        else:
            self.vault.delete("account")

    def otp_secret(self) -> str | None:
        """The bound mobile token's secret, or None."""
        entry = self._vault_get("otp")
        return str(entry["secret"]) if entry and isinstance(entry.get("secret"), str) else None

    def set_otp_secret(self, secret: str | None, person: str = "") -> None:
        """Bind (or with None, forget) the mobile token's secret.

        Raises:
            BadSecret: not base32. VaultError: the vault refused.
        """
        if secret is None:
            self.vault.delete("otp")
            return
        from tui.runtime.campus.totp import normalise_secret

        clean = normalise_secret(secret)
        self.secrets.add(clean, "otp-secret")
        self.secrets.add(clean.rstrip("="), "otp-secret")
        self.vault.put("otp", {"secret": clean, "personId": person})

    def otp_code(self) -> str | None:
        """The mobile token's current code (registered as a secret), or None when none is bound."""
        secret = self.otp_secret()
        if not secret:
            return None
        try:
            code = totp(secret, self.clock())
        except BadSecret:
            return None
        self.secrets.add(code, "otp")
        return code

    def state(self, name: str) -> ServiceState | None:
        """The stored state of a service (loaded from the vault once)."""
        if name not in self._states:
            loaded = ServiceState.from_json(self._vault_get(f"session:{name}"))
            if loaded is None:
                return None
            self._remember(name, loaded)
        return self._states.get(name)

    def _remember(self, name: str, state: ServiceState) -> None:
        for value, kind in state.secret_values():
            self.secrets.add(value, kind)
        self._states[name] = state
        jar = httpx.Cookies()
        for c in state.cookies:
            jar.set(str(c.get("name")), str(c.get("value")), str(c.get("domain", "")), str(c.get("path", "/")))
        self._jars[name] = jar

    def persist(self, name: str) -> None:
        """Write a service's state to the vault now (after a change outside a request, like a pending check)."""
        self._saved.discard(name)
        self._save(name)

    def _save(self, name: str) -> None:
        state = self._states[name]
        cookies = [
            {"name": c.name, "value": c.value or "", "domain": c.domain, "path": c.path}
            for c in self._jars[name].jar  # session cookies too: the service needs them (campus.md §6)
        ]
        for c in cookies:
            self.secrets.add(c["value"], "cookie")
        if cookies == state.cookies and name in self._saved:
            return
        state.cookies = cookies
        try:
            self.vault.put(f"session:{name}", state.to_json())
            self._saved.add(name)
        except VaultError:
            pass  # kept in memory; the status panel says where secrets live

    def device(self) -> str:
        """Treehole's device id: 12 hex characters, kept across logins as the web client does."""
        value = read_setting(self.store, "campus.treeholeDevice")
        if isinstance(value, str) and len(value) == 12:
            return value
        value = pysecrets.token_hex(6)
        write_setting(self.store, "campus.treeholeDevice", value)
        return value

    def status(self) -> list[ServiceStatus]:
        """Every service's state, for the status panel and `pku-harness status`."""
        rows = []
        for s in SERVICES.values():
            state = self.state(s.name) if s.supported else None
            if not s.supported:
                label = "unsupported"
            elif state is None:
                label = "logged_out"
            elif state.expired(self.clock()):
                label = "expired"
            elif state.extra.get("pending"):
                label = "verification"
            else:
                label = "logged_in"
            rows.append(ServiceStatus(s.name, s.title, label, state.expires_at if state else None))
        return rows

    # -- logging in -----------------------------------------------------------------------------------
    def _jar(self, name: str) -> httpx.Cookies:
        """The service's cookie jar as it is now (a login replaces it)."""
        return self._jars.setdefault(name, httpx.Cookies())

    def _lock(self, name: str) -> asyncio.Lock:
        key = (id(asyncio.get_running_loop()), name)
        if key not in self._locks:
            self._locks[key] = asyncio.Lock()
        return self._locks[key]

    async def login(
        self,
        name: str,
        username: str | None = None,
        password: str | None = None,
        otp_code: str | None = None,
        sms_code: str | None = None,
    ) -> ServiceState:
        """Log in to one service: IAAA (with the mobile token's code when one is bound), then its exchange.

        Without `username`/`password` the stored credentials are used.

        Raises:
            UnsupportedService: the service's flow is not documented.
            LoginError: IAAA or the service refused (kind `missing` when there are no credentials).
        """
        svc = service(name)
        if username is None or password is None:
            stored = self.account()
            if stored is None:
                raise LoginError("missing", Message("campus_no_login", service=svc.titles))
            username, password = stored
        self.secrets.add(password, "password")
        state = await self._login(svc, username, password, otp_code, sms_code)
        self.throttle.succeeded(username)  # IAAA took the password: automatic logins may start again
        return state

    async def _login(
        self, svc: Service, username: str, password: str, otp_code: str | None, sms_code: str | None = None
    ) -> ServiceState:
        """IAAA with the password (and the token's code), then the service's exchange."""
        jar = httpx.Cookies()
        self.logins += 1
        if svc.app_id is None:
            state = await exchanges.its(self.net, jar, username, password, svc)
        else:
            for typed in (otp_code, sms_code):
                if typed:
                    self.secrets.add(typed, "otp")  # typed by the student: as secret as a computed one
            code = otp_code or self.otp_code()
            assert svc.redirect is not None
            device = self.device()
            token = await password_login(
                self.net, svc.app_id, svc.redirect.format(device=device), username, password, code, sms_code
            )
            self.secrets.add(token, "token")
            state = await exchanges.EXCHANGES[svc.name](self.net, jar, svc, token, device)
        return self._install(svc.name, state, jar)

    async def send_sms_code(self, name: str, username: str) -> str:
        """Text the IAAA login code for logging in to `name`; the masked number (iaaa.send_sms_code)."""
        svc = service(name)
        if svc.app_id is None:
            raise LoginError("server", Message("campus_no_sms", service=svc.titles))
        return await send_sms_code(self.net, svc.app_id, username)

    async def login_with_token(self, name: str, iaaa_token: str) -> ServiceState:
        """Finish a QR-code login: exchange the token IAAA gave after the scan.

        Raises:
            LoginError: the service refused the token.
        """
        svc = service(name)
        jar = httpx.Cookies()
        self.secrets.add(iaaa_token, "token")
        self.logins += 1
        state = await exchanges.EXCHANGES[svc.name](self.net, jar, svc, iaaa_token, self.device())
        return self._install(svc.name, state, jar)

    def _install(self, name: str, state: ServiceState, jar: httpx.Cookies) -> ServiceState:
        old = self._states.get(name)
        if old and old.extra.get("pending") and "pending" not in state.extra:
            state.extra["pending"] = old.extra["pending"]  # a verification waits across a re-login
        self._remember(name, state)
        self._jars[name] = jar
        self._generation[name] = self._generation.get(name, 0) + 1
        self.persist(name)
        return state

    def logout(self, name: str | None = None, forget_account: bool = False) -> None:
        """Forget one service's session (or every one); with `forget_account`, the stored password too."""
        for n in [name] if name else list(SERVICES):
            self._states.pop(n, None)
            self._jars.pop(n, None)
            self._saved.discard(n)
            with contextlib.suppress(VaultError):
                self.vault.delete(f"session:{n}")
        if forget_account:
            self._memory_account = None
            with contextlib.suppress(VaultError):
                self.vault.delete("account")

    async def _relogin(self, name: str, seen_generation: int) -> ServiceState:
        """Log in again on the app's own (a session expired) unless another request already did while this one
        waited for the lock — and unless IAAA refused this account's last automatic login (login_throttle.py).
        One automatic login of the account at a time, whatever the service, so a refusal is seen by the next."""
        async with self._lock(name), self._lock(ACCOUNT_LOCK):
            current = self._states.get(name)
            if self._generation.get(name, 0) != seen_generation and current and not current.expired(self.clock()):
                return current
            user = self.username()
            refused = self.throttle.refusal(user, SERVICES[name].titles) if user else None
            if refused is not None:
                if refused.key == "campus_auto_login_stopped":
                    for listener in self.on_login_required:
                        listener(name, refused)
                raise LoginRequired(name, refused)
            try:
                return await self.login(name)
            except LoginError as e:
                message = self._login_message(name, e)
                if e.kind in ("network", "server"):
                    # Nothing the student can type fixes an unreachable IAAA: no login screen, a network error.
                    raise HostError("network", message) from None
                if user and self.throttle.failed(user, e.kind, message):
                    message = self.throttle.refusal(user, SERVICES[name].titles) or message
                for listener in self.on_login_required:
                    listener(name, message)
                raise LoginRequired(name, message) from None

    def _login_message(self, name: str, e: LoginError) -> Message:
        svc = SERVICES[name]
        title = svc.titles
        if e.kind == "missing":
            return Message("campus_not_logged_in", title=title, name=name)
        if e.kind == "otp":
            return Message("campus_needs_otp", title=title)
        if e.kind == "sms":
            return Message("campus_needs_sms", title=title)
        if e.kind == "captcha":
            return Message("campus_needs_captcha", title=title)
        return Message("campus_relogin_failed", title=title, error=str(e))

    # -- requests -------------------------------------------------------------------------------------
    async def request(self, request: HttpRequest, effect: str = "read") -> HttpResponse:
        """Send a plugin's campus request signed with the student's session.

        Raises:
            HostError: the service is unsupported, the path leaves its host, the login is missing
                (LoginRequired), or the request failed (network, timeout, size).
        """
        name = request.campus or ""
        try:
            svc = service(name)
        except UnsupportedService as e:
            raise HostError("network", str(e)) from None
        url = httpx.URL(request.url)
        if url.scheme != "https" or url.host != svc.host:
            raise HostError("network", f"campus path must stay on {name} ({svc.host}); refused before signing")
        headers = {
            k.lower(): v
            for k, v in request.headers.items()
            if k.lower() not in APP_HEADERS and not k.lower().startswith(("x-forwarded-", "proxy-"))
        }
        state = self.state(name)
        if state is None or state.expired(self.clock()):
            state = await self._relogin(name, self._generation.get(name, 0))
        generation = self._generation.get(name, 0)
        sent = (request.method, url, headers, request.body, effect)

        async def send(state: ServiceState) -> tuple[int, str, dict[str, str], bytes]:
            return await send_signed(self.net, self._jar(name), self.backoff, svc, state, *sent)

        status, final, resp_headers, body = await send(state)
        if svc.expired(status, resp_headers, body, final):
            state = await self._relogin(name, generation)
            status, final, resp_headers, body = await send(state)
            if svc.expired(status, resp_headers, body, final):
                raise HostError(
                    "network",
                    f"{svc.title} still says the session expired after logging in again",
                    cause="login",
                    service=name,
                )
        self._save(name)  # registers the cookies this answer set, so they are masked in it too
        return scrub_answer(self.secrets, svc, status, final, resp_headers, body)
