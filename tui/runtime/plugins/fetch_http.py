"""The installer's HTTP: every hop checked before it is requested, every connection to a public address.

Installer fetches follow the same rules as plugin requests (threats.md N4, issue 15 item 10): each URL, the
first and every redirect, must be https to a host name (not an IP literal or a number that resolves like one),
and the connection goes through `SyncPinnedTransport`, which resolves the name, refuses the answer unless every
address is public and connects to a checked address. The one exception is the GitHub mirror the settings (or
`PKU_HARNESS_GITHUB_API` / `PKU_HARNESS_GITHUB_RAW`) name when it is on this machine: exactly those origins
(scheme, host, port) may be plain http on loopback — tests and local mirrors use it, nothing else can.

Bodies are counted while streaming against one budget for the whole plugin; compressed bodies are refused (we
ask for identity) so a small answer cannot inflate; a Content-Length that disagrees with the bytes sent is an
error.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote

import httpx

from tui.lang.documents.source import MAX_PLUGIN_BYTES, SourceError, check_path
from tui.lang.netpolicy import is_ip_host
from tui.runtime.addresses import refused
from tui.runtime.message import Message, message_of
from tui.runtime.pinned import SyncPinnedTransport, SyncResolver, system_resolve_sync
from tui.runtime.plugins.links import is_loopback

USER_AGENT = "pku-harness/0.1 (plugin installer)"
TIMEOUT_S = 20.0
MAX_REDIRECTS = 5

Origin = tuple[str, str, int]
"""(scheme, host, port) of a URL, lower-case, with the scheme's default port filled in."""


class OverBudget(SourceError):
    """A body larger than the bytes left."""


def origin(url: httpx.URL) -> Origin:
    """The origin of a parsed URL."""
    port = url.port or (443 if url.scheme == "https" else 80)
    return url.scheme, url.host.lower(), port


def loopback_origins(urls: Iterable[str]) -> frozenset[Origin]:
    """The origins among `urls` that are on loopback: the only ones that may be plain http."""
    out = set()
    for u in urls:
        try:
            parsed = httpx.URL(u)
        except (httpx.InvalidURL, ValueError):
            continue
        if parsed.scheme in ("http", "https") and parsed.host and is_loopback(parsed.host):
            out.add(origin(parsed))
    return frozenset(out)


class Budget:
    """Bytes left for the whole plugin."""

    def __init__(self, limit: int = MAX_PLUGIN_BYTES) -> None:
        self.left = limit
        self.limit = limit


@dataclass(frozen=True)
class Answer:
    """A response whose body was read within the budget."""

    status: int
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Session:
    """One fetch's client with the hop rules. `transport` (tests) replaces the pinned transport; with it, a
    `resolve` given is checked before each hop instead, as `PolicyFetcher` does."""

    def __init__(
        self,
        mirrors: frozenset[Origin] = frozenset(),
        transport: httpx.BaseTransport | None = None,
        resolve: SyncResolver | None = None,
    ) -> None:
        self.mirrors = mirrors
        self.precheck = resolve if transport is not None else None
        exempt = [(host, port) for _, host, port in mirrors]
        self.client = httpx.Client(
            transport=transport or SyncPinnedTransport(resolve or system_resolve_sync, exempt),
            timeout=TIMEOUT_S,
            follow_redirects=False,
            headers={"User-Agent": USER_AGENT},
            trust_env=False,  # no proxies or .netrc credentials from the environment
        )

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()

    def check(self, url: str) -> httpx.URL:
        """The parsed URL when the installer may request it.

        Raises:
            SourceError: naming the URL and the rule it breaks.
        """
        try:
            u = httpx.URL(url)
        except (httpx.InvalidURL, ValueError) as e:
            raise SourceError(Message("http_bad_url", url=url, error=str(e))) from None
        if u.scheme in ("http", "https") and u.host and origin(u) in self.mirrors:
            return u
        if u.scheme != "https" or not u.host:
            raise SourceError(Message("http_https_only", url=url))
        if u.userinfo:
            raise SourceError(Message("http_credentials", url=url))
        if is_ip_host(u.host):
            raise SourceError(Message("http_ip", url=url))
        if self.precheck is not None:
            try:
                error = refused(u.host, self.precheck(u.host))
            except OSError as e:
                error = Message("http_unresolved", host=u.host, error=str(e.strerror or e))
            if error:
                raise SourceError(Message("about", what=url, detail=error))
        return u

    def get(self, url: str, budget: Budget, what: str, headers: dict[str, str] | None = None) -> Answer:
        """GET `url`, redirects followed by hand (each hop checked), counting body bytes against `budget`.

        Raises:
            SourceError: naming `what`, on any failure (a refused hop, network, size, encoding, a lying length).
        """
        for _ in range(MAX_REDIRECTS + 1):
            try:
                u = self.check(url)
            except SourceError as e:
                raise SourceError(Message("http_refused", what=what, error=message_of(e))) from None
            try:
                with self.client.stream("GET", u, headers={"Accept-Encoding": "identity", **(headers or {})}) as r:
                    if r.is_redirect and "location" in r.headers:
                        url = str(u.join(r.headers["location"]))
                        continue
                    return Answer(r.status_code, _read(r, budget, what))
            except httpx.InvalidURL as e:  # a Location httpx cannot parse
                raise SourceError(Message("http_bad_redirect", what=what, error=str(e))) from None
            except httpx.HTTPError as e:
                raise SourceError(Message("http_failed", what=what, kind=type(e).__name__, error=str(e))) from None
        raise SourceError(Message("http_redirects", what=what, count=MAX_REDIRECTS))


def _read(r: httpx.Response, budget: Budget, what: str) -> bytes:
    encoding = r.headers.get("content-encoding", "identity").lower()
    if encoding not in ("identity", ""):
        raise SourceError(Message("http_compressed", what=what, encoding=encoding))
    declared = r.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > budget.left:
        raise OverBudget(_over(what, budget))
    body = bytearray()
    for chunk in r.iter_raw():
        body += chunk
        if len(body) > budget.left:
            raise OverBudget(_over(what, budget))
    if declared is not None and (not declared.isdigit() or int(declared) != len(body)):
        raise SourceError(Message("http_length", what=what, declared=declared, sent=len(body)))
    budget.left -= len(body)
    return bytes(body)


def _over(what: str, budget: Budget) -> Message:
    return Message("http_over", what=what, kb=budget.limit // 1024)


class RemoteSource:
    """Plugin files under a base URL, fetched one by one as the loader names them."""

    def __init__(self, session: Session, base_url: str, budget: Budget) -> None:
        self.session = session
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.budget = budget

    def describe(self) -> str:
        return self.base_url

    def read_bytes(self, relpath: str) -> bytes:
        check_path(relpath)
        r = self.session.get(self.base_url + quote(relpath), self.budget, relpath)
        if r.status == 404:
            raise SourceError(Message("http_no_file", path=relpath, base=self.base_url))
        if r.status != 200:
            raise SourceError(Message("http_status", path=relpath, status=r.status))
        return r.body
