"""Which IP addresses a public request may connect to (threats.md N4): one rule for every public-only path.

An address is public when it is globally routable and not multicast. An IPv6 address can carry an IPv4 address
inside it, and the network then delivers the connection to that IPv4 address: a NAT64 gateway, a 6to4 relay or
the host's own dual stack (IPv4-mapped) turns `64:ff9b::7f00:1` into 127.0.0.1. Python's `is_global` judges
only the IPv6 form, so the table below names every such form; the embedded IPv4 must be public too (and so
must the IPv6 itself). Prefixes that are never reachable from the public internet, though `ipaddress` calls
them global, are refused outright.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from ipaddress import IPv4Address, IPv6Address, IPv6Network

Embedded = Callable[[int], list[int]]
"""The IPv4 address(es), as integers, that a 128-bit address carries."""


def _low32(n: int) -> list[int]:
    return [n & 0xFFFFFFFF]


def _sixtofour(n: int) -> list[int]:
    return [(n >> 80) & 0xFFFFFFFF]  # 2002:AABB:CCDD::/48 — bits 16 to 48


def _teredo(n: int) -> list[int]:
    # 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC — the server in bits 32-64, the client (inverted) in the last 32
    return [(n >> 64) & 0xFFFFFFFF, ~n & 0xFFFFFFFF]


#: IPv6 prefixes whose addresses carry an IPv4 address, with how to find it. Disjoint, so order is free.
EMBEDDING: tuple[tuple[IPv6Network, str, Embedded], ...] = (
    (IPv6Network("::ffff:0:0/96"), "IPv4-mapped", _low32),
    (IPv6Network("::ffff:0:0:0/96"), "IPv4-translated (SIIT)", _low32),
    (IPv6Network("::/96"), "IPv4-compatible", _low32),
    (IPv6Network("64:ff9b::/96"), "NAT64", _low32),
    (IPv6Network("2002::/16"), "6to4", _sixtofour),
    (IPv6Network("2001::/32"), "Teredo", _teredo),
)

#: IPv6 prefixes that `ipaddress` (3.11) calls global but that no public server has.
NEVER_PUBLIC: tuple[tuple[IPv6Network, str], ...] = (
    (IPv6Network("64:ff9b:1::/48"), "local-use NAT64 (RFC 8215)"),
    (IPv6Network("fec0::/10"), "site-local"),
    (IPv6Network("3fff::/20"), "documentation (RFC 9637)"),
    (IPv6Network("5f00::/16"), "SRv6 segment identifiers (RFC 9602)"),
)


def _plain(ip: IPv4Address | IPv6Address) -> bool:
    return ip.is_global and not ip.is_multicast


def refusal(address: str) -> str | None:
    """Why a public request may not connect to `address` (`None`: it may).

    The reason names the form and the embedded IPv4 (`NAT64 of 127.0.0.1`), so an error says what happened.
    """
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return "not an IP address"
    if isinstance(ip, IPv4Address):
        return None if _plain(ip) else "not a public address"
    if ip.is_loopback or ip.is_unspecified:  # `::1` and `::` lie in ::/96 but carry no IPv4 address
        return "not a public address"
    for net, what in NEVER_PUBLIC:
        if ip in net:
            return what
    for net, what, embedded in EMBEDDING:
        if ip in net:
            inner = [IPv4Address(v) for v in embedded(int(ip))]
            bad = [str(v) for v in inner if not _plain(v)]
            if bad:
                return f"{what} of {', '.join(bad)}"
            break
    return None if _plain(ip) else "not a public address"


def is_public(address: str) -> bool:
    """True for an address a public request may connect to (see `refusal`)."""
    return refusal(address) is None


def refused(host: str, addresses: list[str]) -> str | None:
    """The error for a resolver's answer that is empty or has any non-public address (`None`: all public).

    Every address must be public, not just the one connected to: a name with one private answer is a rebinding
    attempt whichever the resolver lists first.
    """
    if not addresses:
        return f"refused: {host} resolves to no address"
    bad = [f"{a}, {why}" if why != "not a public address" else a for a in addresses if (why := refusal(a))]
    if bad:
        return f"refused: {host} resolves to a non-public address ({'; '.join(bad)})"
    return None
