"""`plugins.draftRun`: one read tool of a draft, run for real, with less than an installed plugin may do.

A draft has had no install review, so its run may only read: the tool's effect must be read (and so every tool
it calls: the validator holds calls to the caller's effect); its public requests go through the normal network
policy (the interpreter allows only the domains the draft's manifest declares, the fetcher refuses loopback and
private addresses, and an author's dev origins map declared hosts as for any plugin); it never reaches a campus
service — neither a `campus:` request nor a request to a campus site nor an ability that acts with the student's
campus account (`CAMPUS_ABILITIES`) — and no ability that writes. Its KV store is a scratch store that starts
empty and is dropped after the run: the real plugin's KV (an installed plugin of the same id) is never read or
written. Every request the run sent is listed in the result (method, URL, status), so the student sees them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from tui.lang.documents.loader import Plugin
from tui.lang.documents.manifest import ABILITIES
from tui.lang.host import HostError, HttpRequest, HttpResponse, KvBatch
from tui.lang.steps.errors import ToolError
from tui.lang.steps.interpreter import Interpreter
from tui.lang.testing.memorykv import MemoryKv
from tui.runtime.abilities import Abilities
from tui.runtime.dev_origins import DevOrigin, DevRoutes
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.message import Message

#: Ability groups that act with the student's campus account or its codes: an installed, reviewed plugin only.
CAMPUS_ABILITIES = frozenset({"verify", "otp", "campusPage", "sms"})


def _campus_site(host: str) -> bool:
    host = host.lower().rstrip(".")
    return host == "pku.edu.cn" or host.endswith(".pku.edu.cn")


@dataclass
class DraftHost:
    """The Host of a draft's run (see the module docstring); `requests` lists what it sent, in order."""

    draft: str
    plugin_id: str
    fetcher: PolicyFetcher
    abilities: Abilities
    kv: MemoryKv = field(default_factory=MemoryKv)
    requests: list[dict[str, Any]] = field(default_factory=list)

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        host = httpx.URL(request.url).host
        if _campus_site(host):
            raise HostError("network", Message("draft_run_campus_host", draft=self.draft, host=host), final=True)
        seen: dict[str, Any] = {"method": request.method, "url": request.url, "status": None}
        self.requests.append(seen)
        try:
            response = await self.fetcher.fetch(request, allowed)
        except HostError as e:
            seen["error"] = str(e)
            raise
        seen["status"] = response.status
        if response.url != request.url:
            seen["finalUrl"] = response.url  # a redirect (within the declared domains)
        return response

    async def campus(self, request: HttpRequest) -> HttpResponse:
        service = request.campus or "?"
        raise HostError("network", Message("draft_run_campus", draft=self.draft, service=service), final=True)

    async def kv_get(self, key: str) -> Any:
        return self.kv.get(key, time.time() * 1000)

    async def kv_check(self, batch: KvBatch) -> None:
        self.kv.check(batch, time.time() * 1000)

    async def kv_commit(self, batch: KvBatch) -> None:
        self.kv.commit(batch, time.time() * 1000)

    async def ability(self, name: str, args: Any) -> Any:
        group, _, op = name.partition(".")
        if group in CAMPUS_ABILITIES:
            raise HostError("ability", Message("draft_run_ability_campus", draft=self.draft, ability=name), final=True)
        if ABILITIES.get(group, {}).get(op, "write") != "read":
            raise HostError("ability", Message("draft_run_ability_write", draft=self.draft, ability=name), final=True)
        return await self.abilities.call(self.plugin_id, name, args)


def check_runnable(draft: str, plugin: Plugin, tool: str) -> None:
    """Refuse, before anything runs, a tool the draft does not have or one whose effect is not read.

    Raises:
        HostError: naming the draft and the tool.
    """
    found = plugin.tools.get(tool)
    if found is None:
        raise HostError("ability", Message("draft_run_no_tool", draft=draft, tool=tool))
    effect = found.definition.effect
    if effect != "read":
        raise HostError(
            "ability", Message("draft_run_not_read", draft=draft, tool=tool, effect=Message(f"effect_{effect}"))
        )


async def run_draft_tool(
    draft: str,
    plugin: Plugin,
    tool: str,
    raw_input: Any,
    abilities: Abilities,
    dev_origins: tuple[DevOrigin, ...] = (),
    locale: str = "zh",
    now: str | None = None,
) -> dict[str, Any]:
    """Run `tool` of a validated draft: `{ok: true, result, requests, steps}` or `{ok: false, error, requests}`
    (a failed run still shows what it sent).

    Raises:
        HostError: the tool is missing or not a read tool (nothing ran).
    """
    check_runnable(draft, plugin, tool)
    routes = DevRoutes.for_plugin(dev_origins, plugin.manifest.network)
    async with PolicyFetcher(dev=routes) as fetcher:
        host = DraftHost(draft, plugin.manifest.id, fetcher, abilities)
        fetcher.guard = abilities.guard.for_plugin(plugin.manifest.id)  # no registered secret leaves, as for any run
        try:
            run = await Interpreter(plugin, host, None, locale=locale).run(tool, raw_input, now=now)
        except ToolError as e:
            return {"ok": False, "error": str(e), "requests": host.requests}
    return {"ok": True, "result": run.value, "requests": host.requests, "steps": run.steps}
