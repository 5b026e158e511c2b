"""Installer fetches use the pinned, public-only transport (issue 15 item 10): every hop — the link, each API
and raw request, each redirect — must be https to a host name whose every address is public, and only the
configured GitHub mirror on loopback may be plain http. Served by the fake GitHub on a real loopback port,
through the real sync transport; a loopback canary listener must never see a connection."""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpcore
import pytest

from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.runtime.plugins.fetch import Endpoints, PluginFetcher
from tui.runtime.plugins.installer import Installer, InstallError
from tui.runtime.runtime import Runtime

TREE = "https://github.com/someone/campus-plugins/tree/main/plugins/notes"


class Canary:
    """A loopback listener that counts connections (it stands for a service on the student's machine)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.1)
        self.port = int(self.sock.getsockname()[1])
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        if self.stop.is_set():
            return
        time.sleep(0.2)  # one accept timeout: a connection made just before is counted
        self.stop.set()
        self.thread.join()
        self.sock.close()


@pytest.fixture
def canary() -> Iterator[Canary]:
    c = Canary()
    yield c
    c.close()


@pytest.fixture
def github() -> Iterator[tuple[FakeGitHub, Endpoints]]:
    gh = FakeGitHub()
    gh.push("someone", "campus-plugins", plugin_files(), prefix="plugins/notes/")
    with gh.loopback() as endpoints:
        yield gh, endpoints


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    yield rt
    rt.close()


#: What the stub resolver answers for names the redirects use.
DNS = {
    "metadata.example": ["169.254.169.254"],
    "intranet.example": ["93.184.216.34", "10.0.0.1"],  # one private answer is enough to refuse
    "canary.example": ["127.0.0.1"],
    "mapped.example": ["::ffff:127.0.0.1"],
    "nat64.example": ["64:ff9b::7f00:1"],
}


def stub_resolve(host: str) -> list[str]:
    if host in DNS:
        return DNS[host]
    ipaddress.ip_address(host)  # literals resolve to themselves; any other name is unknown here
    return [host]


def redirect_targets(port: int) -> list[tuple[str, str]]:
    """(Location, what the refusal says)."""
    return [
        ("https://169.254.169.254/latest/meta-data/", "names an IP address"),
        ("https://10.0.0.1/plugins/notes/tools/list.yaml", "names an IP address"),
        (f"https://[::1]:{port}/list.yaml", "names an IP address"),
        (f"https://2130706433:{port}/list.yaml", "names an IP address"),
        (f"https://0x7f.1:{port}/list.yaml", "names an IP address"),
        (f"http://127.0.0.1:{port}/list.yaml", "https only"),  # plain http on loopback, not the mirror
        (f"http://localhost:{port}/list.yaml", "https only"),
    ]


def named_targets(port: int) -> list[tuple[str, str]]:
    """Host names the stub resolver sends to non-public addresses."""
    return [
        ("https://metadata.example/latest/meta-data/", "non-public address (169.254.169.254)"),
        ("https://intranet.example/x", "non-public address (10.0.0.1)"),
        (f"https://canary.example:{port}/x", "non-public address (127.0.0.1)"),
        (f"https://mapped.example:{port}/x", "IPv4-mapped of 127.0.0.1"),
        (f"https://nat64.example:{port}/x", "NAT64 of 127.0.0.1"),
    ]


def nothing_installed(runtime: Runtime) -> bool:
    return runtime.installs.all() == [] and "notes" not in runtime.registry.plugins


@pytest.mark.parametrize("index", range(7))
def test_a_redirect_to_an_address_or_plain_http_is_refused_before_any_review(
    index: int, github: tuple[FakeGitHub, Endpoints], canary: Canary, runtime: Runtime
) -> None:
    gh, endpoints = github
    location, why = redirect_targets(canary.port)[index]
    sha = gh.repos["someone", "campus-plugins"].refs["main"]
    gh.override[f"/someone/campus-plugins/{sha}/plugins/notes/tools/list.yaml"] = lambda: (
        302, {"location": location}, b""
    )  # fmt: skip
    with pytest.raises(InstallError, match=f"tools/list.yaml: refused: .*{why}"):
        Installer(runtime, PluginFetcher(endpoints)).prepare(TREE)
    assert nothing_installed(runtime)
    canary.close()
    assert canary.accepted == 0


@pytest.mark.parametrize("index", range(5))
def test_a_redirect_to_a_name_with_a_private_address_is_refused_where_it_connects(
    index: int, github: tuple[FakeGitHub, Endpoints], canary: Canary, runtime: Runtime
) -> None:
    gh, endpoints = github
    location, why = named_targets(canary.port)[index]
    gh.override["/repos/someone/campus-plugins/commits/main"] = lambda: (302, {"location": location}, b"")
    with pytest.raises(
        InstallError, match=f"ref main: could not be fetched .*{why.replace('(', '.').replace(')', '.')}"
    ):
        Installer(runtime, PluginFetcher(endpoints, resolve=stub_resolve)).prepare(TREE)
    assert nothing_installed(runtime)
    canary.close()
    assert canary.accepted == 0


def test_the_configured_mirror_on_loopback_is_the_one_plain_http_origin(
    github: tuple[FakeGitHub, Endpoints], canary: Canary, runtime: Runtime
) -> None:
    _, endpoints = github
    prepared = Installer(runtime, PluginFetcher(endpoints)).prepare(TREE)  # the mirror itself works
    assert prepared.review.plugin_id == "notes" and not prepared.review.official
    link = f"http://127.0.0.1:{canary.port}/p/notes/PLUGIN.md"
    with pytest.raises(InstallError, match="https only"):  # a url link to another loopback port
        Installer(runtime, PluginFetcher(endpoints)).prepare(link)
    private = Endpoints("http://10.0.0.1/api", "http://10.0.0.1/raw")  # a mirror off this machine: no exemption
    with pytest.raises(InstallError, match="https only"):
        Installer(runtime, PluginFetcher(private)).prepare(TREE)
    canary.close()
    assert canary.accepted == 0


def test_the_sync_backend_refuses_before_connecting(canary: Canary) -> None:
    from tui.runtime.pinned import SyncPinnedBackend

    for name in ("canary.example", "mapped.example", "nat64.example"):
        with pytest.raises(httpcore.ConnectError, match="non-public address"):
            SyncPinnedBackend(stub_resolve).connect_tcp(name, canary.port)
    with pytest.raises(httpcore.ConnectError, match="non-public address"):  # the exemption is per port
        SyncPinnedBackend(stub_resolve, exempt=[("127.0.0.1", 1)]).connect_tcp("127.0.0.1", canary.port)
    with pytest.raises(httpcore.ConnectError, match="loopback addresses only"):  # and only for loopback
        SyncPinnedBackend(stub_resolve, exempt=[("metadata.example", 80)]).connect_tcp("metadata.example", 80)
    SyncPinnedBackend(stub_resolve, exempt=[("127.0.0.1", canary.port)]).connect_tcp("127.0.0.1", canary.port).close()
    canary.close()
    assert canary.accepted == 1  # the exempt mirror origin, and nothing else
