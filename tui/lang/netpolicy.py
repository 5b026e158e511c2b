"""The network policy: which URLs a plugin may reach (threats.md §3.4-3.5). Pure functions, no I/O.

Public requests: HTTPS on port 443 to a host that a `network` pattern names. `*.example.com` also matches
`example.com`; matching is by whole labels on the lower-cased IDNA form; IP literals, numeric hosts, user
info and other ports are never allowed. Campus requests: a path on the service's own host.
"""

from __future__ import annotations

import ipaddress
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where a URL is parsed: `plugin validate` of computed URLs never needs the client
    import httpx

#: The host each campus service's requests go to (campus.md §1). A request path is joined to it.
CAMPUS_HOSTS: dict[str, str] = {
    "card": "bdcard.pku.edu.cn",
    "treehole": "treehole.pku.edu.cn",
    "blackboard": "course.pku.edu.cn",
    "elective": "elective.pku.edu.cn",
    "cwfw": "cwfw.pku.edu.cn",
    "bdkj": "bdkj.pku.edu.cn",
    "its": "its.pku.edu.cn",
    "cwpay": "cwsf.pku.edu.cn",
    "library": "lib.pku.edu.cn",
    "library-space": "seat.lib.pku.edu.cn",
}


class PolicyError(Exception):
    """A URL the plugin may not reach; the message says why and what to declare."""


def host_matches(host: str, patterns: Iterable[str]) -> bool:
    """True when `host` (already lower-case IDNA, no trailing dot) is named by one of `patterns`."""
    for p in patterns:
        if p.startswith("*."):
            base = p[2:]
            if host == base or host.endswith("." + base):
                return True
        elif host == p:
            return True
    return False


def is_ip_host(host: str) -> bool:
    """True for an IP literal, or a host made of numbers that resolvers read as an address."""
    h = host.strip("[]")
    try:
        ipaddress.ip_address(h)
        return True
    except ValueError:
        pass
    # getaddrinfo reads 2130706433, 0x7f.1 and 127.1 as addresses too (threats.md L-url)
    return all(part.isdigit() or part.startswith("0x") for part in h.split(".")) if h else True


def check_public_url(url: str, patterns: Iterable[str]) -> httpx.URL:
    """The parsed URL when a public request may go there; raises PolicyError otherwise."""
    text = url.strip() if isinstance(url, str) else ""
    if text != url or not text:
        raise PolicyError(f"URL {url!r} has white space around it or is empty")
    if any(ord(c) <= 32 or 127 <= ord(c) < 160 for c in text) or "\\" in text:
        raise PolicyError(f"URL {url!r} contains spaces, control characters or a backslash")
    import httpx

    try:
        u = httpx.URL(text)
    except (httpx.InvalidURL, ValueError) as e:
        raise PolicyError(f"{url!r} is not a valid URL ({e})") from None
    if u.scheme != "https":
        raise PolicyError(f"only https:// URLs may be requested, not {u.scheme or 'a relative'} URL {url!r}")
    if u.userinfo:
        raise PolicyError(f"URL {url!r} carries a user name or password, which is not allowed")
    if u.port not in (None, 443):
        raise PolicyError(f"URL {url!r} uses port {u.port}; only HTTPS on port 443 is allowed")
    raw = u.raw_host.decode("ascii", "replace").lower().rstrip(".")
    if not raw or is_ip_host(raw):
        raise PolicyError(f"URL {url!r} names an IP address or no host; only declared domain names are allowed")
    if not host_matches(raw, patterns):
        raise PolicyError(f"{raw} is not declared in the manifest's network list")
    return u


def _invisible(c: str) -> bool:
    """Space and every control (C0, DEL, C1), format (bidi overrides, zero-width), surrogate, private-use or
    unassigned character, and the other separators: none belongs in a request path, and httpx raises on some."""
    return c <= " " or unicodedata.category(c)[0] == "C" or unicodedata.category(c) in ("Zs", "Zl", "Zp")


def campus_url(service: str, path: str) -> httpx.URL:
    """The URL of `path` on a campus service; the path must stay on that service's host."""
    host = CAMPUS_HOSTS.get(service)
    if host is None:
        raise PolicyError(f"unknown campus service {service!r}")
    if not isinstance(path, str) or not path.startswith("/") or path.startswith("//") or "\\" in path:
        raise PolicyError(f"a campus request takes a path starting with '/' on {service}, not {path!r}")
    if any(_invisible(c) for c in path):
        raise PolicyError(f"campus path {path!r} contains spaces, control or invisible characters")
    import httpx

    try:
        u = httpx.URL(f"https://{host}").join(path)
    except (httpx.InvalidURL, ValueError) as e:  # whatever else httpx cannot parse is refused, never raised on
        raise PolicyError(f"campus path {path!r} is not a valid URL path ({e})") from None
    if u.host != host or u.scheme != "https":
        raise PolicyError(f"campus path {path!r} leaves {host}")
    return u
