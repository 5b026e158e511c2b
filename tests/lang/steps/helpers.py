"""Build small plugins in memory and hosts that count what they are asked."""

from __future__ import annotations

import asyncio
from typing import Any

from tui.lang.documents.loader import Plugin
from tui.lang.documents.source import MemorySource
from tui.lang.documents.validator import validate
from tui.lang.host import HostError, HttpRequest, HttpResponse, KvBatch
from tui.lang.testing.memorykv import MemoryKv

NOW = "2026-11-30T09:00:00+08:00"


def make_plugin(tools: dict[str, str], network: str = "[api.example.edu.cn]", extra: str = "") -> Plugin:
    """A plugin with the given tool files (name → YAML text); fails the test if it does not validate."""
    tool_lines = "".join(f"  {name}: tools/{name}.yaml\n" for name in tools)
    manifest = (
        "---\nspec: 1\nid: t\nname: 测试\ndescription: A plugin built by a test.\nversion: 1.0.0\nauthor: tests\n"
        f"network: {network}\n{extra}tools:\n{tool_lines}---\nTest.\n"
    )
    files: dict[str, str | bytes] = {"PLUGIN.md": manifest, **{f"tools/{n}.yaml": t for n, t in tools.items()}}
    plugin, problems = validate(MemorySource(files))
    assert plugin is not None, [str(p) for p in problems]
    return plugin


def tool(steps: str, effect: str = "read", ret: str | None = None, inputs: str = "") -> str:
    """A tool file around the given steps (YAML, indented by two)."""
    return f"title: T\ndescription: A test tool.\neffect: {effect}\n{inputs}steps:\n{steps}" + (
        f"return: {ret}\n" if ret else ""
    )


class CountingHost:
    """Answers every request with JSON after `delay` seconds, counting requests and concurrency."""

    def __init__(self, body: bytes = b'{"ok": true}', delay: float = 0.0, status: int = 200) -> None:
        self.body = body
        self.delay = delay
        self.status = status
        self.requests: list[HttpRequest] = []
        self.in_flight = 0
        self.peak = 0
        self.kv = MemoryKv()

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        self.requests.append(request)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
        finally:
            self.in_flight -= 1
        return HttpResponse(self.status, request.url, {"content-type": "application/json"}, self.body)

    async def campus(self, request: HttpRequest) -> HttpResponse:
        raise HostError("network", "not logged in")

    async def kv_get(self, key: str) -> Any:
        return self.kv.get(key, 0)

    async def kv_check(self, batch: KvBatch) -> None:
        self.kv.check(batch, 0)

    async def kv_commit(self, batch: KvBatch) -> None:
        self.kv.commit(batch, 0)

    async def ability(self, name: str, args: Any) -> Any:
        raise HostError("ability", "no abilities here")
