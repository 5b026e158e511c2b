"""A GitHub-like plugin host for install tests: the API's `repos` and `commits/<ref>` (sha media type), raw
files by commit, and plain HTTPS sites — served in-process (an httpx transport) or on a loopback port.
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

from tui.runtime.plugin_fetch import Endpoints

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
    commits: dict[str, dict[str, bytes]] = field(default_factory=dict)


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
        tree = {f"{prefix}{k}": v.encode() for k, v in files.items()}
        sha = hashlib.sha1(json.dumps(sorted((k, v.decode()) for k, v in tree.items())).encode()).hexdigest()
        r.commits[sha] = tree
        r.refs[ref] = sha
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
                sha = repo.refs.get(ref) or (ref if ref in repo.commits else None)
                if sha is None:
                    return 422, {}, b'{"message": "No commit found"}'
                if self.on_resolve:
                    self.on_resolve(parts[1], ref)
                return 200, {"content-type": "text/plain"}, sha.encode()
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
