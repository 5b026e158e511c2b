"""A GitHub-like plugin host for install tests: the API's `repos`, `commits/<ref>` (sha media type),
`git/ref/heads|tags/<name>`, `git/tags/<sha>` and `compare/<base>...<head>`, raw files by commit (a fork's
commits too, as GitHub serves them through the parent), and plain HTTPS sites — served in-process (an httpx
transport) or on a loopback port.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

import httpx

from tui.runtime.plugins.fetch import Endpoints

Answer = tuple[int, dict[str, str], bytes]


def plugin_files(
    version: str = "1.0.0",
    pid: str = "notes",
    network: tuple[str, ...] = ("api.example.com",),
    campus: tuple[str, ...] = (),
    abilities: tuple[str, ...] = (),
    tools: dict[str, dict[str, object]] | None = None,
    default_modes: str = "",
    remote: str = "",
    instructions: str = "Use `notes__list` to list the student's notes.",
    description: str = "Lists notes.",
) -> dict[str, str]:
    """A small valid plugin: `list` (a tool file) plus any `tools` written inline."""
    lines = [
        "---",
        "spec: 1",
        f"id: {pid}",
        "name: 笔记",
        "description: A plugin served by the fake GitHub.",
        f"version: {version}",
        "author: tests",
        f"network: {json.dumps(list(network))}",
        f"campus: [{', '.join(campus)}]",
        f"abilities: [{', '.join(abilities)}]",
        "tools:",
        "  list: tools/list.yaml",
    ]
    for name, spec in (tools or {}).items():
        tool = {"title": "工具", "effect": "read", "description": "A tool.", "return": "1", **spec}
        lines.append(f"  {name}: {json.dumps(tool, ensure_ascii=False)}")
    if default_modes:
        lines.append(f"defaultModes: {default_modes}")
    if remote:
        lines.append(f"remote: {{ mcp: '{remote}' }}")
    lines += ["---", instructions, ""]
    return {
        "PLUGIN.md": "\n".join(lines),
        "tools/list.yaml": f"title: 笔记列表\ndescription: {description}\neffect: read\nreturn: \"['a', 'b']\"\n",
        "NOTES.txt": "not named by the manifest: never fetched",
    }


@dataclass
class Repo:
    default_branch: str = "main"
    refs: dict[str, str] = field(default_factory=dict)
    """Branches: name → commit."""
    commits: dict[str, dict[str, bytes]] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    """Tags: name → commit."""
    annotated: set[str] = field(default_factory=set)
    """Tags that are annotated (the ref points at a tag object, which points at the commit)."""
    parents: dict[str, str | None] = field(default_factory=dict)

    def find(self, ref: str) -> str | None:
        """A branch, a tag, a commit id or a unique prefix of one (7 hex digits or more), as GitHub resolves."""
        if ref in self.refs:
            return self.refs[ref]
        if ref in self.tags:
            return self.tags[ref]
        if len(ref) >= 7 and all(c in "0123456789abcdef" for c in ref):
            found = [sha for sha in self.commits if sha.startswith(ref)]
            return found[0] if len(found) == 1 else None
        return None

    def ancestors(self, sha: str) -> list[str]:
        """`sha` and every commit before it."""
        out: list[str] = []
        at: str | None = sha
        while at is not None and at not in out:
            out.append(at)
            at = self.parents.get(at)
        return out


class FakeGitHub:
    """Repositories by (owner, repo), plain sites by (host, path); every request is recorded."""

    def __init__(self) -> None:
        self.repos: dict[tuple[str, str], Repo] = {}
        self.sites: dict[tuple[str, str], bytes] = {}
        self.requests: list[str] = []
        self.override: dict[str, Callable[[], Answer]] = {}
        """Answers for exact request paths (after the kind): lying lengths, broken connections."""
        self.on_resolve: Callable[[str, str], None] | None = None
        """Called after a ref is resolved (tests move the ref there)."""

    def push(self, owner: str, repo: str, files: dict[str, str], ref: str = "main", prefix: str = "") -> str:
        """Commit `files` under `prefix` and point `ref` at it; returns the commit id."""
        r = self.repos.setdefault((owner, repo), Repo())
        sha = self._commit(r, files, prefix, r.refs.get(ref))
        r.refs[ref] = sha
        return sha

    def push_fork(self, owner: str, repo: str, files: dict[str, str], prefix: str = "", on: str = "main") -> str:
        """A commit made in a fork on top of `on`: GitHub serves it through the parent's API and raw URLs by id,
        but no branch or tag of the parent has it. Returns its id."""
        r = self.repos[owner, repo]
        return self._commit(r, files, prefix, r.refs[on], salt="fork")

    def force_push(self, owner: str, repo: str, files: dict[str, str], ref: str = "main", prefix: str = "") -> str:
        """Rewrite `ref`'s history: a new commit with no parent (the old commits are still served by id)."""
        r = self.repos[owner, repo]
        sha = self._commit(r, files, prefix, None, salt="rewritten")
        r.refs[ref] = sha
        return sha

    def publish_builtins(self, changes: dict[str, dict[str, str]] | None = None) -> str:
        """Push every plugin shipped in `plugins_builtin/` to the official repository (`plugins/<id>/`), as the
        app's own copies, with `changes` (id → path → text) written over them; returns the commit id."""
        from tui.runtime.builtin import builtin_folders

        tree: dict[str, str] = {}
        for folder in builtin_folders():
            for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
                tree[f"plugins/{folder.name}/{path.relative_to(folder).as_posix()}"] = path.read_text(encoding="utf-8")
        for pid, files in (changes or {}).items():
            tree.update({f"plugins/{pid}/{k}": v for k, v in files.items()})
        return self.push("pkuinfo", "pku-harness-plugins", tree)

    def tag(self, owner: str, repo: str, name: str, sha: str, annotated: bool = False) -> None:
        """Tag a commit."""
        r = self.repos[owner, repo]
        r.tags[name] = sha
        if annotated:
            r.annotated.add(name)

    @staticmethod
    def _commit(r: Repo, files: dict[str, str], prefix: str, parent: str | None, salt: str = "") -> str:
        tree = {f"{prefix}{k}": v.encode() for k, v in files.items()}
        text = json.dumps([salt, parent, sorted((k, v.decode()) for k, v in tree.items())])
        sha = hashlib.sha1(text.encode()).hexdigest()
        r.commits[sha] = tree
        r.parents.setdefault(sha, parent)
        return sha

    def serve(self, kind: str, path: str) -> Answer:
        self.requests.append(f"{kind}{path}")
        if path in self.override:
            return self.override[path]()
        parts = [unquote(p) for p in path.strip("/").split("/")]
        if kind == "api" and len(parts) >= 3 and parts[0] == "repos":
            repo = self.repos.get((parts[1], parts[2]))
            if repo is None:
                return 404, {}, b'{"message": "Not Found"}'
            if len(parts) == 3:
                return (
                    200,
                    {"content-type": "application/json"},
                    json.dumps({"default_branch": repo.default_branch}).encode(),
                )
            if parts[3] == "commits" and len(parts) == 5:
                ref = parts[4]
                sha = repo.find(ref)
                if sha is None:
                    return 422, {}, b'{"message": "No commit found"}'
                if self.on_resolve:
                    self.on_resolve(parts[1], ref)
                return 200, {"content-type": "text/plain"}, sha.encode()
            if parts[3:5] == ["git", "ref"] and len(parts) >= 7 and parts[5] in ("heads", "tags"):
                return self._ref(repo, parts[5], "/".join(parts[6:]))
            if parts[3:5] == ["git", "tags"] and len(parts) == 6:
                name = next((n for n in repo.annotated if _tag_object(n) == parts[5]), None)
                if name is None:
                    return 404, {}, b'{"message": "Not Found"}'
                return _json({"tag": name, "object": {"type": "commit", "sha": repo.tags[name]}})
            if parts[3] == "compare" and len(parts) == 5 and "..." in parts[4]:
                return self._compare(repo, *parts[4].split("...", 1))
            return 404, {}, b""
        if kind == "raw" and len(parts) >= 4:
            repo = self.repos.get((parts[0], parts[1]))
            tree = repo.commits.get(parts[2]) if repo else None
            body = tree.get("/".join(parts[3:])) if tree else None
            return (200, {}, body) if body is not None else (404, {}, b"404: Not Found")
        if kind.startswith("site:"):
            body = self.sites.get((kind[5:], path))
            return (200, {}, body) if body is not None else (404, {}, b"")
        return 404, {}, b""

    @staticmethod
    def _ref(repo: Repo, kind: str, name: str) -> Answer:
        """`git/ref/heads/NAME` or `git/ref/tags/NAME`: exact names only, as the singular `ref` endpoint is."""
        if kind == "heads" and name in repo.refs:
            target = {"type": "commit", "sha": repo.refs[name]}
        elif kind == "tags" and name in repo.tags:
            annotated = name in repo.annotated
            sha = _tag_object(name) if annotated else repo.tags[name]
            target = {"type": "tag" if annotated else "commit", "sha": sha}
        else:
            return 404, {}, b'{"message": "Not Found"}'
        return _json({"ref": f"refs/{kind}/{name}", "object": target})

    @staticmethod
    def _compare(repo: Repo, base_ref: str, head_ref: str) -> Answer:
        """`compare/BASE...HEAD`: identical, behind (HEAD is on BASE), ahead or diverged, with HEAD's own commits."""
        base, head = repo.find(base_ref), repo.find(head_ref)
        if base is None or head is None:
            return 404, {}, b'{"message": "Not Found"}'
        on_base, on_head = repo.ancestors(base), repo.ancestors(head)
        own = [c for c in on_head if c not in on_base]
        if base == head:
            status = "identical"
        elif head in on_base:
            status = "behind"
        elif base in on_head:
            status = "ahead"
        else:
            status = "diverged"
        commits = [{"sha": c, "commit": {"message": "x" * 200}} for c in own]
        return _json({"status": status, "ahead_by": len(own), "commits": commits, "files": []})

    def transport(self) -> httpx.MockTransport:
        """In-process: api.github.com, raw.githubusercontent.com and any other host as a site."""

        def handle(request: httpx.Request) -> httpx.Response:
            host = request.url.host
            kind = {"api.github.com": "api", "raw.githubusercontent.com": "raw"}.get(host, f"site:{host}")
            status, headers, body = self.serve(kind, request.url.raw_path.decode().split("?")[0])
            return httpx.Response(status, headers=headers, stream=httpx.ByteStream(body))

        return httpx.MockTransport(handle)

    @contextmanager
    def loopback(self) -> Iterator[Endpoints]:
        """A real HTTP server on 127.0.0.1: `/api/…` and `/raw/…`; yields the endpoints to configure."""
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = urlsplit(self.path).path
                kind, _, rest = path.lstrip("/").partition("/")
                status, headers, body = fake.serve(kind, "/" + rest)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                if "content-length" not in {k.lower() for k in headers}:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            yield Endpoints(f"{base}/api", f"{base}/raw")
        finally:
            server.shutdown()
            server.server_close()


def _tag_object(name: str) -> str:
    """The id of an annotated tag's own object (not its commit's)."""
    return hashlib.sha1(f"tag {name}".encode()).hexdigest()


def _json(data: object) -> Answer:
    return 200, {"content-type": "application/json"}, json.dumps(data).encode()
