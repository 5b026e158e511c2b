"""`plugin run --record`: wraps a host, keeps what it answered, and writes a recorded-test file from it."""

from __future__ import annotations

import io
import json
from typing import Any
from urllib.parse import urlsplit

from ruamel.yaml import YAML

from tui.lang.expr.secret import SECRET_MASK, SecretValue
from tui.lang.host import HostError, HttpRequest, HttpResponse, KvBatch
from tui.lang.netpolicy import CAMPUS_HOSTS


class RecordingHost:
    """Passes every call to `inner` and remembers requests, responses and ability answers in order."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.http: list[dict[str, Any]] = []
        self.abilities: list[dict[str, Any]] = []

    def _keep(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        url = request.url
        if request.campus is not None and urlsplit(url).hostname == CAMPUS_HOSTS.get(request.campus):
            parts = urlsplit(url)
            url = parts.path + (f"?{parts.query}" if parts.query else "")
        req: dict[str, Any] = {"method": request.method, "url": url}
        if request.campus is not None:
            req = {"campus": request.campus, **req}
        resp: dict[str, Any] = {"status": response.status}
        ctype = next((v for k, v in response.headers.items() if k.lower() == "content-type"), "")
        text = response.body.decode("utf-8", errors="replace")
        if "json" in ctype:
            try:
                resp["json"] = json.loads(text)
            except ValueError:
                resp["text"] = text
        else:
            resp["text"] = text
            if ctype:
                resp["headers"] = {"content-type": ctype}
        self.http.append({"request": req, "response": resp})
        return response

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        return self._keep(request, await self.inner.fetch(request, allowed))

    async def campus(self, request: HttpRequest) -> HttpResponse:
        return self._keep(request, await self.inner.campus(request))

    async def kv_get(self, key: str) -> Any:
        return await self.inner.kv_get(key)

    async def kv_check(self, batch: KvBatch) -> None:
        await self.inner.kv_check(batch)

    async def kv_commit(self, batch: KvBatch) -> None:
        await self.inner.kv_commit(batch)

    async def ability(self, name: str, args: Any) -> Any:
        try:
            result = await self.inner.ability(name, args)
        except HostError as e:
            self.abilities.append({"call": name, "error": str(e)})
            raise
        # A secret's text never goes into a test file; replayed, the placeholder is a secret again.
        kept = SECRET_MASK if isinstance(result, SecretValue) else result
        self.abilities.append({"call": name, "result": kept})
        return result


def test_file_text(
    tool: str, now: str, name: str, input_value: Any, host: RecordingHost, result: Any = None, error: str | None = None
) -> str:
    """The YAML text of a one-case test file for what `host` saw."""
    case: dict[str, Any] = {"name": name, "input": input_value}
    if host.http:
        case["http"] = host.http
    if host.abilities:
        case["abilities"] = host.abilities
    if error is not None:
        case["expectError"] = error
    else:
        case["expect"] = result
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    yaml.width = 120
    out = io.StringIO()
    yaml.dump({"tool": tool, "now": now, "cases": [case]}, out)
    return out.getvalue()
