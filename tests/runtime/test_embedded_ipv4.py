"""IPv6 addresses that carry an IPv4 address (issue 15 item 9): the embedded address is judged, through the real
fetcher and its pinned backend, on a simulated network that routes each form to the IPv4 address it carries (as
a NAT64 gateway, a 6to4 relay or the dual stack would). A loopback canary stands for 127.0.0.1: it must never
see a connection; a second listener stands for the public server and must see one for each public form."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpcore
import pytest

from tui.lang.host import HostError, HttpRequest
from tui.runtime.fetch import PinnedBackend, PolicyFetcher, is_public

PUBLIC_V4 = "93.184.216.34"  # 5db8:d822

#: (form, address, the IPv4 the network delivers it to, allowed)
FORMS = [
    ("IPv4-mapped, private", "::ffff:127.0.0.1", "127.0.0.1", False),
    ("IPv4-mapped, metadata", "::ffff:169.254.169.254", "169.254.169.254", False),
    ("IPv4-mapped, public", "::ffff:5db8:d822", PUBLIC_V4, True),
    ("SIIT, private", "::ffff:0:7f00:1", "127.0.0.1", False),
    ("SIIT, public", "::ffff:0:5db8:d822", PUBLIC_V4, True),
    ("IPv4-compatible, private", "::7f00:1", "127.0.0.1", False),
    ("IPv4-compatible, 10/8", "::a00:1", "10.0.0.1", False),
    ("IPv4-compatible, public", "::5db8:d822", PUBLIC_V4, True),
    ("NAT64, private", "64:ff9b::7f00:1", "127.0.0.1", False),
    ("NAT64, public", "64:ff9b::5db8:d822", PUBLIC_V4, True),
    ("local-use NAT64, private", "64:ff9b:1::7f00:1", "127.0.0.1", False),
    ("local-use NAT64, public", "64:ff9b:1::5db8:d822", PUBLIC_V4, False),  # not globally routable at all
    ("6to4, private", "2002:7f00:1::1", "127.0.0.1", False),
    ("6to4, public", "2002:5db8:d822::1", PUBLIC_V4, True),
    ("Teredo, private client", "2001:0:5db8:d822:0:0:80ff:fffe", "127.0.0.1", False),  # client = ~0x80fffffe
    ("Teredo, private server", "2001:0:7f00:1:0:0:a247:29dd", "127.0.0.1", False),
    ("site-local", "fec0::1", "127.0.0.1", False),
]


@dataclass
class Listener:
    """A loopback TCP listener that counts the connections it accepts and closes them."""

    sock: socket.socket
    accepted: list[int] = field(default_factory=list)

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])


@pytest.fixture
def listeners() -> Iterator[dict[str, Listener]]:
    out: dict[str, Listener] = {}
    for name in ("canary", "public"):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        s.settimeout(0.1)
        out[name] = Listener(s)
    stop = threading.Event()

    def serve(listener: Listener) -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.sock.accept()
            except (TimeoutError, OSError):
                continue
            listener.accepted.append(1)
            conn.close()

    threads = [threading.Thread(target=serve, args=(v,), daemon=True) for v in out.values()]
    for t in threads:
        t.start()
    yield out
    stop.set()
    for t in threads:
        t.join()
    for v in out.values():
        v.sock.close()


class EmbeddingNetwork(httpcore.AsyncNetworkBackend):
    """Routes each IPv6 form to the IPv4 it carries: 127.0.0.1 (and every private one) reaches the canary, the
    public address reaches the public stand-in. Nothing leaves the machine."""

    def __init__(self, listeners: dict[str, Listener]) -> None:
        self.inner = httpcore.AnyIOBackend()
        self.routes = {ipaddress.ip_address(a): v4 for _, a, v4, _ in FORMS}
        self.listeners = listeners
        self.dialled: list[str] = []

    async def connect_tcp(self, host: str, port: int, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        self.dialled.append(host)
        v4 = self.routes[ipaddress.ip_address(host)]
        target = self.listeners["public" if v4 == PUBLIC_V4 else "canary"]
        return await self.inner.connect_tcp("127.0.0.1", target.port)

    async def connect_unix_socket(self, *args: Any, **kwargs: Any) -> httpcore.AsyncNetworkStream:
        raise AssertionError("never used")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


def answering(address: str):  # type: ignore[no-untyped-def]
    async def resolve(host: str) -> list[str]:
        return [address]

    return resolve


@pytest.mark.parametrize(("form", "address", "v4", "allowed"), FORMS, ids=[f[0] for f in FORMS])
async def test_the_embedded_ipv4_is_judged_where_the_connection_is_made(
    form: str, address: str, v4: str, allowed: bool, listeners: dict[str, Listener]
) -> None:
    network = EmbeddingNetwork(listeners)
    backend = PinnedBackend(answering(address))
    backend.inner = network
    if allowed:
        stream = await backend.connect_tcp("api.example.edu.cn", 443)
        await stream.aclose()
        assert network.dialled == [address]
    else:
        with pytest.raises(httpcore.ConnectError, match="non-public address"):
            await backend.connect_tcp("api.example.edu.cn", 443)
        assert network.dialled == []
    async with PolicyFetcher(resolve=answering(address)) as f:  # the default transport, on the same network
        f.client._transport._pool._network_backend.inner = network  # type: ignore[attr-defined]
        with pytest.raises(HostError) as e:  # a public form reaches the stand-in, which is not a TLS server
            await f.fetch(HttpRequest("GET", "https://api.example.edu.cn/x"), ("api.example.edu.cn",))
    assert ("non-public address" in str(e.value)) is not allowed
    for _ in range(20):  # the listener thread counts within its 0.1 s accept timeout
        if len(listeners["public"].accepted) == (2 if allowed else 0):
            break
        threading.Event().wait(0.05)
    assert listeners["canary"].accepted == []
    assert len(listeners["public"].accepted) == (2 if allowed else 0)
    assert is_public(address) is allowed


def test_the_refusal_names_the_form_and_the_embedded_address() -> None:
    from tui.runtime.addresses import refused

    assert refused("a.example", ["64:ff9b::7f00:1"]) == (
        "refused: a.example resolves to a non-public address (64:ff9b::7f00:1, NAT64 of 127.0.0.1)"
    )
    assert "6to4 of 10.0.0.1" in (refused("a.example", ["93.184.216.34", "2002:a00:1::"]) or "")
    assert refused("a.example", ["93.184.216.34", "2606:4700::1111"]) is None
    assert refused("a.example", []) == "refused: a.example resolves to no address"
