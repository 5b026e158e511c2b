"""The Host a real run uses: public HTTP under the policy, campus requests signed by the campus session, the
SQLite KV scoped to the plugin, abilities. Every request the plugin built is checked for registered secrets
before it is sent (outgoing.py): public ones at every hop, campus ones before they are signed."""

from __future__ import annotations

from typing import Any

from tui.lang.host import HostError, HttpRequest, HttpResponse, KvBatch
from tui.runtime.abilities import Abilities
from tui.runtime.campus.session import CampusSession
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.kv import SqliteKv
from tui.runtime.outgoing import OutgoingCheck


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
        guard: OutgoingCheck | None = None,
    ) -> None:
        self.plugin_id = plugin_id
        self.kv = kv
        self.fetcher = fetcher
        self.abilities = abilities
        self.session = campus
        self.declared_campus = declared_campus
        self.guard = guard or abilities.guard.for_plugin(plugin_id)
        """No request of this plugin leaves with a registered secret in it."""
        fetcher.guard = self.guard  # and every redirect hop of a public request is checked the same way

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        return await self.fetcher.fetch(request, allowed)

    async def campus(self, request: HttpRequest) -> HttpResponse:
        if request.campus not in self.declared_campus:  # the interpreter checked too (threats.md C5)
            raise HostError(
                "network", f"campus service {request.campus!r} is not declared by {self.plugin_id}", cause="plugin"
            )
        # Before signing: what the plugin wrote must not carry a secret into a service (a public post, a search).
        self.guard(request.method, request.url, request.headers, request.body)
        return await self.session.request(request, request.effect)

    async def kv_get(self, key: str) -> Any:
        return self.kv.get(self.plugin_id, key)

    async def kv_check(self, batch: KvBatch) -> None:
        self.kv.check(self.plugin_id, batch)

    async def kv_commit(self, batch: KvBatch) -> None:
        self.kv.commit(self.plugin_id, batch)

    async def ability(self, name: str, args: Any) -> Any:
        return await self.abilities.call(self.plugin_id, name, args)
