"""Dev origins: a plugin author's explicit, loud mapping of a declared host to a server on this machine.

`--origin api.example.com=http://127.0.0.1:8000` (or `PKU_HARNESS_DEV_ORIGINS`, comma-separated, for the app)
sends the plugin's requests for `https://api.example.com/...` to `http://127.0.0.1:8000/...` — path and query
kept. Everything else still sees the declared URL: the `network` check, the secret guard, the response URL the
plugin reads, cache keys and `--record`'s test file (so a recording replays without the mapping). The Host header
sent is the declared host too, so a local server that builds absolute links or serves several hosts behaves as
the real one; an absolute redirect back to the loopback origin is read as one to the declared host.

The rules that keep it a development tool: only a host the plugin's `network` declares is mapped (a campus
service's host only when named there exactly, never through a wildcard); only to loopback (127.0.0.0/8, ::1,
`localhost`, which must resolve to loopback when connecting); http or https, no path. `campus:` requests, signed
by the campus session, never go through a mapping. Nothing is mapped unless the flag or the variable says so.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import httpx

from tui.lang.netpolicy import CAMPUS_HOSTS, host_matches, is_ip_host
from tui.runtime.pinned import PinnedTransport, Resolver, system_resolve

#: The variable the app (`pku-harness`, `--demo`) reads its mappings from.
ENV = "PKU_HARNESS_DEV_ORIGINS"
#: Hosts the campus session talks to: mapped only when a plugin's `network` names them exactly.
CAMPUS_SESSION_HOSTS = frozenset({*CAMPUS_HOSTS.values(), "iaaa.pku.edu.cn"})


class DevOriginError(ValueError):
    """A mapping that cannot be used; the message is one sentence naming it."""


@dataclass(frozen=True, slots=True)
class DevOrigin:
    """One mapping: requests for `host` go to `origin` (scheme://loopback[:port], no path)."""

    host: str
    """The declared host, lower-case IDNA, no trailing dot."""
    origin: str

    def __str__(self) -> str:
        return f"{self.host}={self.origin}"


def _loopback_name(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parse(text: str) -> DevOrigin:
    """One `HOST=http://127.0.0.1:PORT` mapping.

    Raises:
        DevOriginError: not of that form, a HOST that is not a domain name, a target off this machine.
    """
    host, sep, target = text.strip().partition("=")
    host = host.strip().lower().rstrip(".")
    if not sep or not host or not target.strip():
        raise DevOriginError(f"{text!r} is not a mapping like api.example.com=http://127.0.0.1:8000")
    if "://" in host or "/" in host or ":" in host or "*" in host or is_ip_host(host):
        raise DevOriginError(f"{text!r}: {host!r} is not a host name (write the bare name the plugin declares)")
    try:
        host = host.encode("idna").decode("ascii")
        u = httpx.URL(target.strip())
    except (UnicodeError, httpx.InvalidURL, ValueError):
        raise DevOriginError(f"{text!r} is not a mapping like api.example.com=http://127.0.0.1:8000") from None
    if u.scheme not in ("http", "https"):
        raise DevOriginError(f"{text!r}: the target must be an http:// or https:// origin")
    if u.userinfo or u.query or u.fragment or u.path not in ("", "/"):
        raise DevOriginError(f"{text!r}: the target must be an origin only (scheme, host, port), without a path")
    if not _loopback_name(u.host):
        raise DevOriginError(
            f"{text!r}: the target {u.host!r} is not this machine; only 127.0.0.0/8, ::1 and localhost are allowed"
        )
    shown = f"[{u.host}]" if ":" in u.host else u.host
    return DevOrigin(host, f"{u.scheme}://{shown}" + (f":{u.port}" if u.port else ""))


def parse_all(texts: Iterable[str]) -> tuple[DevOrigin, ...]:
    """Every mapping given (each `--origin`, or the variable's comma-separated items); a host mapped twice is
    refused, since which one wins would be a guess."""
    found: dict[str, DevOrigin] = {}
    for text in texts:
        for item in (part for part in text.split(",") if part.strip()):
            mapping = parse(item)
            if mapping.host in found and found[mapping.host] != mapping:
                raise DevOriginError(f"{mapping.host} is mapped twice ({found[mapping.host]} and {mapping})")
            found[mapping.host] = mapping
    return tuple(found.values())


def from_env(environ: Mapping[str, str] = os.environ) -> tuple[DevOrigin, ...]:
    """The mappings `PKU_HARNESS_DEV_ORIGINS` names (none when it is unset or empty)."""
    text = environ.get(ENV, "")
    return parse_all([text]) if text.strip() else ()


def declares(network: Iterable[str], host: str) -> bool:
    """Whether a plugin's `network` admits mapping `host`: it names it (a campus session's host: exactly)."""
    patterns = list(network)
    if host in CAMPUS_SESSION_HOSTS:
        return host in patterns
    return host_matches(host, patterns)


def check_declared(mappings: Iterable[DevOrigin], networks: Mapping[str, Iterable[str]]) -> None:
    """Refuse a mapping no plugin in `networks` (plugin id → its `network`) declares.

    Raises:
        DevOriginError: naming the mapping and what to declare.
    """
    for m in mappings:
        if not any(declares(network, m.host) for network in networks.values()):
            where = ", ".join(sorted(networks)) or "no plugin"
            campus = " (a campus service's host must be named exactly, not by a wildcard)"
            raise DevOriginError(
                f"{str(m)!r}: {m.host} is not in the network list of {where}; only a declared host can be mapped"
                + (campus if m.host in CAMPUS_SESSION_HOSTS else "")
            )


def describe(mappings: Iterable[DevOrigin]) -> str:
    """The mappings as one line (`a.example.com=http://127.0.0.1:8000, …`): the audit mark and the warnings."""
    return ", ".join(map(str, mappings))


class DevRoutes:
    """The mappings one plugin's run uses: where a declared URL is sent, and how an answer's URL reads back."""

    def __init__(self, mappings: Iterable[DevOrigin]) -> None:
        self.by_host = {m.host: m for m in mappings}
        self.origins = {httpx.URL(m.origin): m for m in self.by_host.values()}

    @classmethod
    def for_plugin(cls, mappings: Iterable[DevOrigin], network: Iterable[str]) -> DevRoutes | None:
        """The routes of the mappings this plugin declares; None when it declares none of them."""
        patterns = list(network)
        mine = [m for m in mappings if declares(patterns, m.host)]
        return cls(mine) if mine else None

    def target(self, url: httpx.URL) -> str | None:
        """The loopback URL for a declared (already checked) URL, or None when its host is not mapped."""
        m = self.by_host.get(url.raw_host.decode("ascii", "replace").lower().rstrip("."))
        if m is None:
            return None
        origin = httpx.URL(m.origin)
        return str(url.copy_with(scheme=origin.scheme, host=origin.host, port=origin.port))

    def declared(self, url: str) -> str:
        """`url` as the plugin sees it: a URL on a mapped loopback origin reads as the same path on its host."""
        try:
            u = httpx.URL(url)
            m = self.origins.get(httpx.URL(f"{u.scheme}://{u.netloc.decode('ascii')}"))
        except (httpx.InvalidURL, ValueError, UnicodeError):
            return url
        return url if m is None else str(u.copy_with(scheme="https", host=m.host, port=None))


def loopback_only(host: str, addresses: list[str]) -> str | None:
    """The connection rule of dev origins: every address of the name is this machine's (none a DNS answer moved)."""
    if addresses and all(_loopback_name(a.split("%")[0]) for a in addresses):
        return None
    return f"refused: the dev origin {host} must be a loopback address ({', '.join(addresses) or 'none'})"


def loopback_transport(resolve: Resolver = system_resolve) -> PinnedTransport:
    """The transport of mapped requests: resolved, checked and connected in one place, to loopback only."""
    return PinnedTransport(resolve, rule=loopback_only)
