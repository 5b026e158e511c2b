"""The Host a real run uses: public HTTP under the policy, campus requests signed by the campus session, the
SQLite KV scoped to the plugin, abilities."""

from __future__ import annotations

from typing import Any

from tui.lang.host import HostError, HttpRequest, HttpResponse, KvBatch
from tui.runtime.abilities import Abilities
from tui.runtime.campus.session import CampusSession
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.kv import SqliteKv


class PluginHost:
    """Host for one plugin's runs."""

    def __init__(
        self,
        plugin_id: str,
        kv: SqliteKv,
        fetcher: PolicyFetcher,
        abilities: Abilities,
        campus: CampusSession,
        declared_campus: tuple[str, ...],
    ) -> None:
        self.plugin_id = plugin_id
        self.kv = kv
        self.fetcher = fetcher
        self.abilities = abilities
        self.session = campus
        self.declared_campus = declared_campus

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        return await self.fetcher.fetch(request, allowed)

    async def campus(self, request: HttpRequest) -> HttpResponse:
        if request.campus not in self.declared_campus:  # the interpreter checked too (threats.md C5)
            raise HostError("network", f"campus service {request.campus!r} is not declared by {self.plugin_id}")
        return await self.session.request(request, request.effect)

    async def kv_get(self, key: str) -> Any:
        return self.kv.get(self.plugin_id, key)

    async def kv_check(self, batch: KvBatch) -> None:
        self.kv.check(self.plugin_id, batch)

    async def kv_commit(self, batch: KvBatch) -> None:
        self.kv.commit(self.plugin_id, batch)

    async def ability(self, name: str, args: Any) -> Any:
        return await self.abilities.call(self.plugin_id, name, args)
