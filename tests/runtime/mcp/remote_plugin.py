"""Helpers for the tests of remote plugins in the app: the `notes` plugin's folder, its server
(`tests/runtime/mcp/plugin_server.py` in a process of its own), and a runtime whose dev origin maps
`mcp.example.com` to it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.runtime.mcp.conftest import HOST, ROOT, _free_port, _wait
from tests.runtime.mcp.plugin_server import MANIFEST
from tui.lang.documents.common import Effect
from tui.runtime.dev_origins import parse
from tui.runtime.plugins.installer import Installer, Prepared
from tui.runtime.runtime import Runtime


@dataclass
class NotesServer:
    """The running server: its port and process; `restart(v2=True)` brings the changed listing on the same port."""

    port: int
    proc: subprocess.Popen[bytes]

    @property
    def mapping(self) -> str:
        return f"{HOST}=http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def restart(self, v2: bool = False) -> None:
        self.stop()
        self.proc = spawn(self.port, v2)
        _wait(self.port, self.proc)


def spawn(port: int, v2: bool = False) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "tests.runtime.mcp.plugin_server", str(port), *(["v2"] if v2 else [])]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def serve_notes(v2: bool = False) -> Iterator[NotesServer]:
    """Start the server, yield it, stop it."""
    port = _free_port()
    server = NotesServer(port, spawn(port, v2))
    try:
        _wait(port, server.proc)
        yield server
    finally:
        server.stop()


def notes_folder(root: Path, manifest: str = MANIFEST) -> Path:
    """The `notes` remote plugin as a folder (a link the installer takes)."""
    folder = root / "notes"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "PLUGIN.md").write_text(manifest, encoding="utf-8")
    return folder


def open_runtime(db: Path, server: NotesServer | None) -> Runtime:
    """A runtime on `db` whose remote servers reach the test server through the dev origin (none: unmapped)."""
    rt = Runtime.open(db)
    if server is not None:
        rt.map_origins((parse(server.mapping),))
    return rt


def prepare(rt: Runtime, folder: Path) -> Prepared:
    """The install review (it connects to the server: called off the event loop, as the app does)."""
    return Installer(rt).prepare(str(folder))


def install(rt: Runtime, prepared: Prepared, effects: Mapping[str, Effect] | None = None) -> None:
    Installer(rt).install(prepared, effects)
