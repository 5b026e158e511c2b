"""Install links: every form the seeds accept (安装链接), parsed into one `PluginLink`, and the official rule.

Accepted: a GitHub folder (`https://github.com/<owner>/<repo>/tree/<ref>/<path>`), a repository root
(`https://github.com/<owner>/<repo>`, PLUGIN.md at the root), a file (`…/blob/<ref>/<path>/PLUGIN.md`), any HTTPS
URL of a PLUGIN.md, the deep link `pkuharness://plugin?src=<one of those, URL-encoded>` (decoded once), and a
local folder for authors. Anything else is refused with a message naming the accepted forms.

A link can only *claim* to be official: a GitHub link into `pkuinfo/pku-harness-plugins` under `plugins/`
(owner and repository compared case-insensitively, GitHub's own rule; the path after normalising, with no
`.`/`..` segment). A raw.githubusercontent.com or mirror URL is a community link even when it names the same
files. Whether the claim holds is decided when the link is fetched (`fetch`): GitHub serves a fork's
commits through the parent repository's URLs, so only a named branch or tag of the official repository, or a
commit reachable from its default branch, carries the mark.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs, unquote, urlsplit

from tui.lang.documents.source import SourceError, check_path
from tui.runtime.message import Message

OFFICIAL_OWNER = "pkuinfo"
OFFICIAL_REPO = "pku-harness-plugins"
OFFICIAL_FOLDER = "plugins"
MANIFEST = "PLUGIN.md"

ACCEPTED_FORMS = Message("link_forms")

_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")

Kind = Literal["github", "url", "local"]


class LinkError(ValueError):
    """A link the app does not accept; the message says why and lists the accepted forms."""


@dataclass(frozen=True)
class PluginLink:
    """Where a plugin comes from, in one of three shapes."""

    kind: Kind
    text: str
    """The link as the student gave it (after decoding a deep link); stored and shown on the review."""
    owner: str = ""
    repo: str = ""
    ref: str | None = None
    """Branch, tag or commit as written; None for a repository root (its default branch)."""
    path: str = ""
    """Folder of PLUGIN.md inside the repository ('' for the root). For `tree` links whose ref may contain '/',
    `ref_and_path` keeps the unsplit rest."""
    ref_and_path: str = ""
    base_url: str = ""
    """For `url` links: the folder URL every file path is joined to (ends in '/')."""
    folder: Path | None = None
    """For `local` links."""

    @property
    def in_official_repo(self) -> bool:
        """A link into github.com/pkuinfo/pku-harness-plugins under plugins/: necessary for the official mark, not
        enough (the fetched ref decides, see the module docstring)."""
        if self.kind != "github":
            return False
        if (self.owner.lower(), self.repo.lower()) != (OFFICIAL_OWNER, OFFICIAL_REPO):
            return False
        parts = self.path.split("/") if self.path else []
        return len(parts) >= 2 and parts[0] == OFFICIAL_FOLDER

    def candidates(self) -> list[tuple[str, str]]:
        """(ref, path) pairs to try in order: a `tree`/`blob` ref may itself contain '/' (`feature/x`)."""
        if self.ref is None:
            return [("", "")]
        if not self.ref_and_path:
            return [(self.ref, self.path)]
        parts = self.ref_and_path.split("/")
        return [("/".join(parts[:i]), "/".join(parts[i:])) for i in range(1, len(parts) + 1)]


RefKind = Literal["branch", "tag", "commit", "ref"]


@dataclass(frozen=True)
class ResolvedRef:
    """What a GitHub link's ref turned out to be when it was fetched (shown on the review)."""

    kind: RefKind
    """`branch` or `tag` of the repository, a `commit` on its default branch, or `ref`: as written, not looked
    up (only links into the official repository are looked up: the mark depends on it)."""
    name: str
    """The ref as resolved (a branch or tag name, or the commit id as written)."""
    commit: str
    """The 40-hex commit every file came from."""


def parse_link(text: str, cwd: Path | None = None) -> PluginLink:
    """Parse an install link.

    Raises:
        LinkError: the link is not one of the accepted forms, or breaks a rule (plain http, `..` in a path).
    """
    raw = text.strip()
    if not raw:
        raise LinkError(Message("link_empty", forms=ACCEPTED_FORMS))
    if raw.lower().startswith("pkuharness:"):
        return _deep_link(raw, cwd)
    if "://" not in raw:
        return _local(raw, cwd)
    return _url(raw)


def _deep_link(raw: str, cwd: Path | None) -> PluginLink:
    parts = urlsplit(raw)
    if parts.netloc.lower() != "plugin" or parts.path not in ("", "/"):
        raise LinkError(Message("link_deep_form", forms=ACCEPTED_FORMS))
    values = parse_qs(parts.query, keep_blank_values=True).get("src", [])
    if len(values) != 1 or not values[0]:
        raise LinkError(Message("link_deep_src"))
    src = values[0]  # parse_qs decodes once; a second layer of encoding stays as written
    if src.lower().startswith("pkuharness:"):
        raise LinkError(Message("link_deep_nested"))
    if "://" not in src:
        raise LinkError(Message("link_deep_local"))
    return _url(src)


def _local(raw: str, cwd: Path | None) -> PluginLink:
    folder = Path(raw).expanduser()
    if not folder.is_absolute():
        folder = (cwd or Path.cwd()) / folder
    if folder.is_file() and folder.name == MANIFEST:
        folder = folder.parent
    if not (folder / MANIFEST).is_file():
        raise LinkError(Message("link_not_folder", link=raw, forms=ACCEPTED_FORMS))
    return PluginLink("local", str(folder), folder=folder)


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 or localhost: the one place plain http is allowed (tests and local mirrors)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_https(url: str) -> None:
    """Refuse anything but https (or http to a loopback address).

    Raises:
        LinkError: with the reason.
    """
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return
    if parts.scheme == "http" and parts.hostname and is_loopback(parts.hostname):
        return
    raise LinkError(Message("link_https_only", url=url))


def _segments(path: str, link: str) -> list[str]:
    segs = [unquote(s) for s in path.split("/") if s != ""]
    for s in segs:
        if s in (".", "..") or "\\" in s or any(ord(c) < 32 for c in s):
            raise LinkError(Message("link_bad_path", link=link))
    return segs


def _url(raw: str) -> PluginLink:
    parts = urlsplit(raw)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower().rstrip(".")
    if scheme not in ("https", "http"):
        raise LinkError(Message("link_scheme", link=raw, scheme=parts.scheme, forms=ACCEPTED_FORMS))
    check_https(raw)
    if parts.username or parts.password:
        raise LinkError(Message("link_credentials", link=raw))
    segs = _segments(parts.path, raw)
    if host in ("github.com", "www.github.com") and parts.port is None:
        return _github(raw, segs)
    if not segs or segs[-1] != MANIFEST:
        raise LinkError(Message("link_not_manifest", link=raw, forms=ACCEPTED_FORMS))
    if parts.query or parts.fragment:
        raise LinkError(Message("link_query", link=raw))
    folder_path = parts.path.rsplit("/", 1)[0] + "/"
    base = f"{scheme}://{parts.netloc}{folder_path}"
    return PluginLink("url", raw, base_url=base)


def _github(raw: str, segs: list[str]) -> PluginLink:
    if len(segs) < 2 or not all(_NAME.match(s) for s in segs[:2]):
        raise LinkError(Message("link_github_repo", link=raw, forms=ACCEPTED_FORMS))
    owner, repo = segs[0], segs[1].removesuffix(".git")
    rest = segs[2:]
    if not rest:
        return PluginLink("github", raw, owner=owner, repo=repo)
    kind, tail = rest[0], rest[1:]
    if kind == "blob":
        if len(tail) < 2 or tail[-1] != MANIFEST:
            raise LinkError(Message("link_github_file", link=raw))
        tail = tail[:-1]
    elif kind != "tree" or not tail:
        raise LinkError(Message("link_github_form", link=raw))
    joined = "/".join(tail)
    try:
        for s in tail:
            check_path(s)
    except SourceError as e:
        raise LinkError(Message("about", what=raw, detail=str(e))) from None
    return PluginLink("github", raw, owner=owner, repo=repo, ref=tail[0], path="/".join(tail[1:]), ref_and_path=joined)
