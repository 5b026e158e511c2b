"""Fetching a plugin from a link: one commit, only the files the manifest names, 512 KB at most, then validated.

GitHub links are resolved to a commit first (the API's `commits/<ref>` with the `sha` media type), and every file
is then read from the raw-content host at that commit, so a branch that moves while we fetch cannot mix two
versions. Files are fetched lazily, as the loader asks for them: the loader reads exactly the files the manifest
names, so the app never lists a folder. Bytes are counted while streaming against one budget for the whole
plugin; compressed bodies are refused (we ask for identity) so a small answer cannot inflate; a Content-Length
that disagrees with the bytes sent is an error. Network code is synchronous: the CLI calls it directly, the app
from a worker thread.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, replace
from urllib.parse import quote, urljoin

import httpx

from tui.lang.documents.loader import Plugin
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import MAX_PLUGIN_BYTES, DirectorySource, PluginSource, SourceError, check_path
from tui.lang.documents.validator import validate
from tui.runtime.links import LinkError, PluginLink, check_https

GITHUB_API = "https://api.github.com"
GITHUB_RAW = "https://raw.githubusercontent.com"
USER_AGENT = "pku-harness/0.1 (plugin installer)"
TIMEOUT_S = 20.0
MAX_REDIRECTS = 5
_SHA = re.compile(r"^[0-9a-f]{40}$")


class FetchError(Exception):
    """The plugin could not be fetched or does not validate; `problems` has the validator's list, if any."""

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or []


@dataclass(frozen=True)
class Endpoints:
    """The GitHub API and raw-content base URLs (settings; tests and mirrors point them at a loopback server)."""

    github_api: str = GITHUB_API
    github_raw: str = GITHUB_RAW

    @classmethod
    def from_env(cls, api: str | None = None, raw: str | None = None) -> Endpoints:
        """Stored values, overridden by PKU_HARNESS_GITHUB_API / PKU_HARNESS_GITHUB_RAW."""
        return cls(
            (os.environ.get("PKU_HARNESS_GITHUB_API") or api or GITHUB_API).rstrip("/"),
            (os.environ.get("PKU_HARNESS_GITHUB_RAW") or raw or GITHUB_RAW).rstrip("/"),
        )


@dataclass(frozen=True)
class Fetched:
    """A plugin fetched and validated, not yet installed."""

    link: PluginLink
    """The link, with a `tree` link's ref and path as resolved."""
    commit: str | None
    """The GitHub commit every file came from (None for other links)."""
    plugin: Plugin
    problems: list[Problem]
    """Warnings (errors would have raised)."""

    @property
    def files(self) -> dict[str, str]:
        """Exactly the files loaded, by path."""
        return self.plugin.files

    @property
    def content_hash(self) -> str:
        return content_hash(self.plugin.files)


def content_hash(files: dict[str, str]) -> str:
    """sha256 over every loaded file, path and text, in path order (length-prefixed: no two sets collide)."""
    h = hashlib.sha256()
    for path in sorted(files):
        p, body = path.encode(), files[path].encode()
        h.update(b"%d:%s%d:%s" % (len(p), p, len(body), body))
    return "sha256:" + h.hexdigest()


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


def get_limited(
    client: httpx.Client, url: str, budget: Budget, what: str, headers: dict[str, str] | None = None
) -> Answer:
    """GET `url` (redirects followed by hand, each hop https), counting body bytes against `budget`.

    Raises:
        SourceError: naming `what`, on any failure (network, size, encoding, a lying Content-Length).
    """
    for _ in range(MAX_REDIRECTS + 1):
        try:
            check_https(url)
        except LinkError as e:
            raise SourceError(f"{what}: {e}") from None
        try:
            with client.stream("GET", url, headers={"Accept-Encoding": "identity", **(headers or {})}) as r:
                if r.is_redirect and "location" in r.headers:
                    url = urljoin(url, r.headers["location"])
                    continue
                encoding = r.headers.get("content-encoding", "identity").lower()
                if encoding not in ("identity", ""):
                    raise SourceError(
                        f"{what}: the server sent a {encoding}-compressed body; plugins are fetched uncompressed"
                    )
                declared = r.headers.get("content-length")
                if declared is not None and declared.isdigit() and int(declared) > budget.left:
                    raise SourceError(_over(what, budget))
                body = bytearray()
                for chunk in r.iter_raw():
                    body += chunk
                    if len(body) > budget.left:
                        raise SourceError(_over(what, budget))
                if declared is not None and (not declared.isdigit() or int(declared) != len(body)):
                    raise SourceError(f"{what}: the server said {declared} bytes and sent {len(body)}")
                budget.left -= len(body)
                return Answer(r.status_code, bytes(body))
        except httpx.HTTPError as e:
            raise SourceError(f"{what}: could not be fetched ({type(e).__name__}: {e})") from None
    raise SourceError(f"{what}: more than {MAX_REDIRECTS} redirects")


def _over(what: str, budget: Budget) -> str:
    return f"{what}: the plugin passes the {budget.limit // 1024} KB limit for all its files together"


class RemoteSource:
    """Plugin files under a base URL, fetched one by one as the loader names them."""

    def __init__(self, client: httpx.Client, base_url: str, budget: Budget) -> None:
        self.client = client
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.budget = budget

    def describe(self) -> str:
        return self.base_url

    def read_bytes(self, relpath: str) -> bytes:
        check_path(relpath)
        url = self.base_url + quote(relpath)
        r = get_limited(self.client, url, self.budget, relpath)
        if r.status == 404:
            raise SourceError(f"{relpath} does not exist at {self.base_url}")
        if r.status != 200:
            raise SourceError(f"{relpath}: the server answered HTTP {r.status}")
        return r.body


class PluginFetcher:
    """Fetches and validates plugins from links; `transport` lets tests serve them in-process."""

    def __init__(self, endpoints: Endpoints | None = None, transport: httpx.BaseTransport | None = None) -> None:
        self.endpoints = endpoints or Endpoints()
        self.transport = transport

    def _client(self) -> httpx.Client:
        return httpx.Client(
            transport=self.transport,
            timeout=TIMEOUT_S,
            follow_redirects=False,
            headers={"User-Agent": USER_AGENT},
            trust_env=False,
        )

    def fetch(self, link: PluginLink) -> Fetched:
        """Fetch and validate; nothing is written anywhere.

        Raises:
            FetchError: network, size, encoding or validation failure (with the validator's problems).
        """
        if link.kind == "local":
            assert link.folder is not None
            return self._validated(link, None, DirectorySource(link.folder))
        with self._client() as client:
            budget = Budget()
            if link.kind == "url":
                return self._validated(link, None, RemoteSource(client, link.base_url, budget))
            resolved, commit = self._resolve(client, link)
            base = f"{self.endpoints.github_raw}/{quote(link.owner)}/{quote(link.repo)}/{commit}/"
            if resolved.path:
                base += quote(resolved.path) + "/"
            return self._validated(resolved, commit, RemoteSource(client, base, budget))

    def _validated(self, link: PluginLink, commit: str | None, source: PluginSource) -> Fetched:
        plugin, problems = validate(source)
        if plugin is None:
            errors = [p for p in problems if p.severity == "error"]
            head = f"{link.text} does not validate ({len(errors)} error{'s' if len(errors) != 1 else ''})"
            raise FetchError(head + ":\n" + "\n".join(f"  {p}" for p in errors), problems)
        return Fetched(link, commit, plugin, problems)

    def _resolve(self, client: httpx.Client, link: PluginLink) -> tuple[PluginLink, str]:
        """The commit of the link's ref (its default branch for a repository root), and the link's real path."""
        api = f"{self.endpoints.github_api}/repos/{quote(link.owner)}/{quote(link.repo)}"
        if link.ref is None:
            info = self._api(client, api, "the repository")
            branch = _default_branch(info)
            if branch is None:
                raise FetchError(f"{link.text}: repository {link.owner}/{link.repo} not found")
            sha = self._commit(client, api, branch)
            if sha is None:
                raise FetchError(f"{link.text}: the default branch has no commit")
            return link, sha
        for ref, path in link.candidates():
            sha = self._commit(client, api, ref)
            if sha is not None:
                return replace(link, ref=ref, path=path), sha
        raise FetchError(f"{link.text}: no branch, tag or commit named in the link exists in {link.owner}/{link.repo}")

    def _commit(self, client: httpx.Client, api: str, ref: str) -> str | None:
        r = self._api(client, f"{api}/commits/{quote(ref, safe='')}", f"ref {ref}", "application/vnd.github.sha")
        if r is None:
            return None
        sha = r.text.strip()
        if not _SHA.match(sha):
            raise FetchError(f"the GitHub API answered {sha[:60]!r} for ref {ref}, not a commit id")
        return sha

    def _api(
        self, client: httpx.Client, url: str, what: str, accept: str = "application/vnd.github+json"
    ) -> Answer | None:
        # API answers do not count against the plugin's budget, but they are bounded all the same.
        try:
            r = get_limited(client, url, Budget(64 * 1024), what, {"Accept": accept})
        except SourceError as e:
            raise FetchError(str(e)) from None
        if r.status in (404, 422):
            return None
        if r.status != 200:
            raise FetchError(f"{what}: the GitHub API answered HTTP {r.status}")
        return r


def _default_branch(info: Answer | None) -> str | None:
    if info is None:
        return None
    try:
        branch = json.loads(info.body).get("default_branch")
    except (ValueError, AttributeError):
        return None
    return branch if isinstance(branch, str) and branch else None
