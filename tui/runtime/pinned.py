"""Connections that only reach public addresses: httpcore network backends that resolve, check every address
(`tui.runtime.addresses`) and connect to a checked one — in one place, so a DNS answer cannot change between
the check and the connection (rebinding, threats.md N4). TLS still verifies the name the URL gave.

Two flavours of the same rule: the async one under plugin requests (`PolicyFetcher`), the sync one under the
installer (`PluginFetcher`). The sync one can exempt exact (host, port) pairs — the configured GitHub mirror on
loopback that tests and local mirrors use — and then accepts loopback addresses for those pairs only.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
import threading
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import httpcore
import httpx

from tui.runtime.addresses import refused

Resolver = Callable[[str], Awaitable[list[str]]]
SyncResolver = Callable[[str], list[str]]
Rule = Callable[[str, list[str]], str | None]
"""Given a host and its addresses: why the connection is refused, or None (`addresses.refused`: public only)."""


_context: ssl.SSLContext | None = None
_context_lock = threading.Lock()


def shared_ssl_context() -> ssl.SSLContext:
    """The one TLS context of the process (certificate checks on, the CA bundle loaded once).

    Making a context loads the CA bundle (~11 ms) and each transport made two: every plugin run built a client and
    paid ~32 ms for them (issue 22 item 8). A context holds no connection and no per-request state, and every
    pinned transport asks it for HTTP/1.1 only, so sharing it changes nothing a connection checks; each run still
    has its own client, connection pool and cookie jar, and each connection is still resolved, checked and
    pinned by its backend.
    """
    global _context
    with _context_lock:
        if _context is None:
            _context = httpx.create_ssl_context()
        return _context


async def system_resolve(host: str) -> list[str]:
    """The addresses the system resolver gives for `host`."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, 443, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def system_resolve_sync(host: str) -> list[str]:
    """The addresses the system resolver gives for `host` (blocking)."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)]


def _loopback_only(host: str, addresses: list[str]) -> str | None:
    def loop(a: str) -> bool:
        try:
            return ipaddress.ip_address(a.split("%")[0]).is_loopback
        except ValueError:
            return False

    if addresses and all(loop(a) for a in addresses):
        return None
    return f"refused: the mirror {host} must resolve to loopback addresses only ({', '.join(addresses) or 'none'})"


class Refused(Exception):
    """A connection the rule refuses, or a name that does not resolve; the message says which."""


async def checked_address(resolve: Resolver, rule: Rule, host: str) -> str:
    """The address to connect to for `host`: resolved once, every address checked by `rule`, the first one.

    Raises:
        Refused: the name does not resolve, or the rule refuses its addresses.
    """
    try:
        addresses = await resolve(host)
    except OSError as e:
        raise Refused(f"cannot resolve {host} ({e.strerror or e})") from None
    error = rule(host, addresses)
    if error:
        raise Refused(error)
    return addresses[0]


class PinnedBackend(httpcore.AsyncNetworkBackend):
    """The async backend: connects only to public addresses (or to those another `rule` admits)."""

    def __init__(
        self,
        resolve: Resolver = system_resolve,
        inner: httpcore.AsyncNetworkBackend | None = None,
        rule: Rule = refused,
    ) -> None:
        self.inner = inner or httpcore.AnyIOBackend()
        self.resolve = resolve
        self.rule = rule

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            address = await checked_address(self.resolve, self.rule, host)
        except Refused as e:
            raise httpcore.ConnectError(str(e)) from None
        return await self.inner.connect_tcp(address, port, timeout, local_address, socket_options)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("unix sockets are never used for public requests")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


class SyncPinnedBackend(httpcore.NetworkBackend):
    """The sync backend: connects only to public addresses, or to loopback for an exempt (host, port)."""

    def __init__(
        self,
        resolve: SyncResolver = system_resolve_sync,
        exempt: Iterable[tuple[str, int]] = (),
        inner: httpcore.NetworkBackend | None = None,
    ) -> None:
        self.inner = inner or httpcore.SyncBackend()
        self.resolve = resolve
        self.exempt = frozenset((h.lower(), p) for h, p in exempt)

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore.NetworkStream:
        try:
            addresses = self.resolve(host.strip("[]"))
        except OSError as e:
            raise httpcore.ConnectError(f"cannot resolve {host} ({e.strerror or e})") from None
        if (host.lower().strip("[]"), port) in self.exempt:
            error = _loopback_only(host, addresses)
        else:
            error = refused(host, addresses)
        if error:
            raise httpcore.ConnectError(error)
        return self.inner.connect_tcp(addresses[0], port, timeout, local_address, socket_options)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("unix sockets are never used for public requests")

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class PinnedTransport(httpx.AsyncHTTPTransport):
    """httpx's async transport with its connection pool on the PinnedBackend."""

    def __init__(
        self,
        resolve: Resolver = system_resolve,
        inner: httpcore.AsyncNetworkBackend | None = None,
        rule: Rule = refused,
    ) -> None:
        super().__init__(verify=shared_ssl_context(), http2=False, retries=0)  # its own pool is replaced below
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=shared_ssl_context(),
            network_backend=PinnedBackend(resolve, inner, rule),
            http1=True,
            http2=False,
        )


class SyncPinnedTransport(httpx.HTTPTransport):
    """httpx's sync transport with its connection pool on the SyncPinnedBackend."""

    def __init__(
        self,
        resolve: SyncResolver = system_resolve_sync,
        exempt: Iterable[tuple[str, int]] = (),
        inner: httpcore.NetworkBackend | None = None,
    ) -> None:
        super().__init__(verify=shared_ssl_context(), http2=False, retries=0)  # its own pool is replaced below
        self._pool = httpcore.ConnectionPool(
            ssl_context=shared_ssl_context(),
            network_backend=SyncPinnedBackend(resolve, exempt, inner),
            http1=True,
            http2=False,
        )
