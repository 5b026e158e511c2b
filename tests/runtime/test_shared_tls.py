"""One TLS context per process: every plugin run's client, the dev loopback client and the installer's transport
use it (building two contexts per run cost ~32 ms a tool call); each run still gets its own client, pool and
cookie jar, and its connections still go through the pinned backend."""

from __future__ import annotations

import ssl

import httpx

from tui.runtime.dev_origins import loopback_transport
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.pinned import PinnedBackend, SyncPinnedBackend, SyncPinnedTransport, shared_ssl_context


def pool(client: httpx.AsyncClient | httpx.Client) -> object:
    return client._transport._pool  # type: ignore[union-attr]


async def test_every_run_shares_the_context_but_not_its_client_pool_or_cookies() -> None:
    async with PolicyFetcher() as one, PolicyFetcher() as two:
        first, second = pool(one.client), pool(two.client)
        assert first._ssl_context is second._ssl_context is shared_ssl_context()  # type: ignore[attr-defined]
        assert one.client is not two.client and first is not second
        assert one.client.cookies is not two.client.cookies
        assert isinstance(first._network_backend, PinnedBackend)  # type: ignore[attr-defined]
        assert one.client._transport._pool is first  # type: ignore[attr-defined]


def test_the_shared_context_checks_certificates_and_host_names() -> None:
    context = shared_ssl_context()
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.get_ca_certs() or context.cert_store_stats()["x509_ca"] > 0


def test_the_dev_and_installer_transports_use_it_too() -> None:
    assert loopback_transport()._pool._ssl_context is shared_ssl_context()  # type: ignore[attr-defined]
    sync = SyncPinnedTransport()
    assert sync._pool._ssl_context is shared_ssl_context()  # type: ignore[attr-defined]
    assert isinstance(sync._pool._network_backend, SyncPinnedBackend)  # type: ignore[attr-defined]
