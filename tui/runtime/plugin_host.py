"""The Host a real run uses: public HTTP under the policy, the SQLite KV scoped to the plugin, abilities.

Campus requests need the campus session (issue 9); until it exists they fail with a clear "not logged in".
Host abilities other than the pure `crypto.sha256` arrive with the runtime's ability layer (issue 4).
"""

from __future__ import annotations

import hashlib
from typing import Any

from tui.lang.host import HostError, HttpRequest, HttpResponse
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.kv import SqliteKv


class PluginHost:
    """Host for one plugin's runs."""

    def __init__(self, plugin_id: str, kv: SqliteKv, fetcher: PolicyFetcher) -> None:
        self.plugin_id = plugin_id
        self.kv = kv
        self.fetcher = fetcher

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        return await self.fetcher.fetch(request, allowed)

    async def campus(self, request: HttpRequest) -> HttpResponse:
        raise HostError("network", f"not logged in to {request.campus}: campus requests need the app's campus session")

    async def kv_get(self, key: str) -> Any:
        return self.kv.get(self.plugin_id, key)

    async def kv_set(self, key: str, value: Any, ttl_ms: int | None) -> None:
        self.kv.set(self.plugin_id, key, value, ttl_ms)

    async def kv_delete(self, key: str) -> None:
        self.kv.delete(self.plugin_id, key)

    async def ability(self, name: str, args: Any) -> Any:
        if name == "crypto.sha256":
            text = args.get("text") if isinstance(args, dict) else None
            if not isinstance(text, str):
                raise HostError("ability", "crypto.sha256 needs { text }")
            return {"hex": hashlib.sha256(text.encode()).hexdigest()}
        raise HostError("ability", f"{name} is not available here yet (host abilities arrive with the app runtime)")
