"""Real MCP servers for the client's tests: `tests/runtime/mcp/server.py` in a process of its own on 127.0.0.1,
reached as `https://mcp.example.com` through a dev origin (PKU_HARNESS_DEV_ORIGINS)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TOKEN = "s3cret-token"
HOST = "mcp.example.com"


@dataclass
class Server:
    """A running test server: its port, and its process (to stop it, or start it again on the same port)."""

    port: int
    args: list[str]
    proc: subprocess.Popen[bytes]

    @property
    def mapping(self) -> str:
        """The dev origin that sends mcp.example.com here."""
        return f"{HOST}=http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def start(self) -> None:
        self.proc = _spawn(self.port, self.args)
        _wait(self.port, self.proc)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _spawn(port: int, args: list[str]) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "tests.runtime.mcp.server", str(port), TOKEN, *args]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the test MCP server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the test MCP server did not start in 30 s")


def serve(*args: str) -> Iterator[Server]:
    """Start a server (`http` or `sse`, `many` for 65 tools), yield it, stop it."""
    port = _free_port()
    server = Server(port, list(args), _spawn(port, list(args)))
    try:
        _wait(port, server.proc)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def mcp_http() -> Iterator[Server]:
    """Streamable HTTP at /mcp, six tools."""
    yield from serve("http")
