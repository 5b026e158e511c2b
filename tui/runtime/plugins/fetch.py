"""Fetching a plugin from a link: one commit, only the files the manifest names, 512 KB at most, then validated.

GitHub links are resolved to a commit first (the API's `commits/<ref>` with the `sha` media type), and every file
is then read from the raw-content host at that commit, so a branch that moves while we fetch cannot mix two
versions. Files are fetched lazily, as the loader asks for them: the loader reads exactly the files the manifest
names, so the app never lists a folder. Every request goes through `fetch_http.Session` (public addresses
only, each redirect checked, one byte budget). A link into the official repository gets the official mark only
when its commit is vouched for (`official_mark.vouch`). Network code is synchronous: the CLI calls it directly,
the app from a worker thread.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, replace
from urllib.parse import quote

import httpx

from tui.lang.documents.loader import Plugin
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import DirectorySource, PluginSource, SourceError
from tui.lang.documents.validator import validate
from tui.runtime.message import Message, message_of
from tui.runtime.pinned import SyncResolver
from tui.runtime.plugins.fetch_http import Answer, Budget, OverBudget, RemoteSource, Session, loopback_origins
from tui.runtime.plugins.links import PluginLink, ResolvedRef
from tui.runtime.plugins.official_mark import default_branch, vouch

GITHUB_API = "https://api.github.com"
GITHUB_RAW = "https://raw.githubusercontent.com"
_SHA = re.compile(r"^[0-9a-f]{40}$")
#: Bytes an API answer may have: they do not count against the plugin's budget, but they are bounded all the same.
API_BYTES = 64 * 1024


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
    ref: ResolvedRef | None
    """What the GitHub ref resolved to (None for other links)."""
    plugin: Plugin
    problems: list[Problem]
    """Warnings (errors would have raised)."""
    official: bool = False
    """The official mark: a link into the official repository whose commit is a named branch or tag of it, or
    reachable from its default branch. Never from parsing the link alone."""

    @property
    def commit(self) -> str | None:
        """The GitHub commit every file came from (None for other links)."""
        return self.ref.commit if self.ref else None

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


class PluginFetcher:
    """Fetches and validates plugins from links.

    `transport` lets tests serve plugins in-process; `resolve` replaces the system resolver (with a `transport`,
    each hop's answer is checked before the request instead, since an in-memory transport connects nowhere).
    """

    def __init__(
        self,
        endpoints: Endpoints | None = None,
        transport: httpx.BaseTransport | None = None,
        resolve: SyncResolver | None = None,
    ) -> None:
        self.endpoints = endpoints or Endpoints()
        self.transport = transport
        self.resolve = resolve

    def session(self) -> Session:
        """A session whose only plain-http, loopback origins are the configured mirror's."""
        mirrors = loopback_origins([self.endpoints.github_api, self.endpoints.github_raw])
        return Session(mirrors, self.transport, self.resolve)

    def fetch(self, link: PluginLink) -> Fetched:
        """Fetch and validate; nothing is written anywhere.

        Raises:
            FetchError: a refused URL, network, size, encoding or validation failure (with the problems).
        """
        if link.kind == "local":
            assert link.folder is not None
            return self._validated(link, None, DirectorySource(link.folder))
        with self.session() as session:
            budget = Budget()
            if link.kind == "url":
                return self._validated(link, None, RemoteSource(session, link.base_url, budget))
            resolved, ref = self._resolve(session, link)
            vouched = None
            if resolved.in_official_repo:  # only where the mark depends on it: each look-up is an API call
                repo = f"/repos/{quote(link.owner)}/{quote(link.repo)}"
                vouched = vouch(lambda path, what: self._api(session, path, what, lenient=True), repo, ref)
            official, ref = (True, vouched) if vouched is not None else (False, ref)
            base = f"{self.endpoints.github_raw}/{quote(link.owner)}/{quote(link.repo)}/{ref.commit}/"
            if resolved.path:
                base += quote(resolved.path) + "/"
            return self._validated(resolved, ref, RemoteSource(session, base, budget), official)

    def head(self, owner: str, repo: str, ref: str) -> str | None:
        """The commit a GitHub repository's `ref` points at now (one API call), or None when it cannot be read."""
        try:
            with self.session() as session:
                return self._commit(session, f"/repos/{quote(owner)}/{quote(repo)}", ref)
        except FetchError:
            return None

    def _validated(
        self, link: PluginLink, ref: ResolvedRef | None, source: PluginSource, official: bool = False
    ) -> Fetched:
        plugin, problems = validate(source)
        if plugin is None:
            errors = [p for p in problems if p.severity == "error"]
            n = len(errors)
            head = (
                Message("fetch_invalid_one", link=link.text)
                if n == 1
                else Message("fetch_invalid", link=link.text, count=n)
            )
            listed = "\n".join(f"  {p}" for p in errors)  # file:line details, as the validator wrote them
            raise FetchError(Message("fetch_problems", head=head, problems=listed), problems)
        return Fetched(link, ref, plugin, problems, official)

    def _resolve(self, session: Session, link: PluginLink) -> tuple[PluginLink, ResolvedRef]:
        """The commit of the link's ref (its default branch for a repository root), and the link's real path."""
        repo = f"/repos/{quote(link.owner)}/{quote(link.repo)}"
        if link.ref is None:
            branch = default_branch(self._api(session, repo, Message("fetch_what_repo")))
            if branch is None:
                raise FetchError(Message("fetch_no_repo", link=link.text, owner=link.owner, repo=link.repo))
            sha = self._commit(session, repo, branch)
            if sha is None:
                raise FetchError(Message("fetch_no_commit", link=link.text))
            return link, ResolvedRef("branch", branch, sha)
        for ref, path in link.candidates():
            sha = self._commit(session, repo, ref)
            if sha is not None:
                return replace(link, ref=ref, path=path), ResolvedRef("ref", ref, sha)
        raise FetchError(Message("fetch_no_ref", link=link.text, owner=link.owner, repo=link.repo))

    def _commit(self, session: Session, repo: str, ref: str) -> str | None:
        what = Message("fetch_what_ref", ref=ref)
        r = self._api(session, f"{repo}/commits/{quote(ref, safe='')}", what, "application/vnd.github.sha")
        if r is None:
            return None
        sha = r.text.strip()
        if not _SHA.match(sha):
            raise FetchError(Message("fetch_not_commit", answer=sha[:60], ref=ref))
        return sha

    def _api(
        self,
        session: Session,
        path: str,
        what: str,
        accept: str = "application/vnd.github+json",
        lenient: bool = False,
    ) -> Answer | None:
        """The API's answer to `path`: None for 404 and 422, and with `lenient` for an answer over `API_BYTES`
        (a comparison that lists a fork's own commits: the answers that vouch for a commit are short)."""
        try:
            r = session.get(self.endpoints.github_api + path, Budget(API_BYTES), what, {"Accept": accept})
        except OverBudget:
            if lenient:
                return None
            raise FetchError(Message("fetch_api_big", what=what, kb=API_BYTES // 1024)) from None
        except SourceError as e:
            raise FetchError(message_of(e)) from None
        if r.status in (404, 422):
            return None
        if r.status != 200:
            raise FetchError(Message("fetch_api_status", what=what, status=r.status))
        return r
