"""A plugin author's local server: a real HTTP server on 127.0.0.1 standing in for `api.example.com`, which the
`localdev` fixture plugin declares (dev origins, `--origin`, PKU_HARNESS_DEV_ORIGINS)."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

#: `/odd`'s body: a lone surrogate, an integer past 2**53, -0 and a number past the largest double (Infinity).
ODD = '{"s": "a\\ud800b", "id": 12345678901234567890, "nz": -0, "big": 1E400}'

#: A community plugin declaring `api.example.com`, with a widget on a data source and one recorded test.
LOCALDEV = Path(__file__).resolve().parents[1] / "fixtures" / "plugins" / "localdev"


def unrecorded_localdev(folder: Path) -> Path:
    """A copy of LOCALDEV at `folder` without its recordings (a `--record` run makes them)."""
    shutil.copytree(LOCALDEV, folder)
    for f in (folder / "tests").glob("*.yaml"):
        f.unlink()
    return folder


@dataclass
class LocalApi:
    """The running server: its origin and what it was asked (path with query, Host header)."""

    origin: str
    seen: list[tuple[str, str]] = field(default_factory=list)

    def mapping(self, host: str = "api.example.com") -> str:
        """`host=<this origin>`, as `--origin` takes it."""
        return f"{host}={self.origin}"


@contextmanager
def local_api() -> Iterator[LocalApi]:
    """`/items?q=W`: `{word: W, items: ["本地W一", <the Host header>]}`; `/odd`: ODD; `/old`: a 302 to this server's
    own absolute `/items?q=moved` (as a local framework writes redirects)."""
    api = LocalApi("")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            api.seen.append((self.path, self.headers.get("host", "")))
            url = urlsplit(self.path)
            if url.path == "/old":
                self.send_response(302)
                self.send_header("Location", f"{api.origin}/items?q=moved")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if url.path == "/odd":  # JSON data that is legal and reads differently in Python than in JavaScript
                body = ODD.encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            word = parse_qs(url.query).get("q", [""])[0]
            body = json.dumps({"word": word, "items": [f"本地{word}一", self.headers.get("host", "")]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    api.origin = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
