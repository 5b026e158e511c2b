"""`plugin run --record`: wraps a host, keeps what it answered, and writes a recorded-test file from it."""

from __future__ import annotations

import io
import json
import math
from typing import Any
from urllib.parse import urlsplit

from ruamel.yaml import YAML

from tui.lang.documents.manifest import ABILITIES
from tui.lang.expr.secret import SECRET_MASK, SecretValue
from tui.lang.host import HostError, HttpRequest, HttpResponse, KvBatch
from tui.lang.netpolicy import CAMPUS_HOSTS
from tui.lang.testing.expectations import form_fields
from tui.lang.testing.model import iso_now


class RecordingHost:
    """Passes every call to `inner` and remembers requests, responses and ability answers in order."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.http: list[dict[str, Any]] = []
        self.abilities: list[dict[str, Any]] = []
        self.writes: list[dict[str, Any]] = []
        """The calls of write abilities with their arguments: the case's `expectCalls`."""
        self.posted: list[dict[str, Any]] = []
        """The requests other than GET and HEAD with their bodies: the case's `expectRequests`."""

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
        data = _as_data(text) if "json" in ctype else None
        if data is not None:
            resp["json"] = data[0]
        elif "json" in ctype:  # as the server wrote it: its data would not come back the same from the YAML
            resp["text"] = text
            resp["headers"] = {"content-type": ctype}
        else:
            resp["text"] = text
            if ctype:
                resp["headers"] = {"content-type": ctype}
        self.http.append({"request": req, "response": resp})
        if request.method.upper() not in ("GET", "HEAD"):
            self.posted.append({**req, **_body(request)})
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
        group, _, op = name.partition(".")
        if ABILITIES.get(group, {}).get(op, "read") != "read":
            self.writes.append({"ability": name, "args": args})
        try:
            result = await self.inner.ability(name, args)
        except HostError as e:
            self.abilities.append({"call": name, "error": str(e)})
            raise
        # A secret's text never goes into a test file; replayed, the placeholder is a secret again.
        kept = SECRET_MASK if isinstance(result, SecretValue) else result
        self.abilities.append({"call": name, "result": kept})
        return result


class _NotData(ValueError):
    pass


def _refuse(text: str) -> Any:
    raise _NotData(text)


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotData(text)  # 1E400: Infinity to JavaScript, which a YAML file would give back as text
    return value


def _integer(text: str) -> int:
    if text == "-0":
        raise _NotData(text)  # -0 to JavaScript; the recording's 0 would lose the sign
    return int(text)


def _as_data(text: str) -> tuple[Any] | None:
    """A JSON response as data for the recording's `json:`, when the file gives back exactly what the plugin read
    (else None: the recording keeps the text). Infinity (`1E400`, `Infinity`), NaN and `-0` do not survive the
    YAML file, and a replay that differs from the live run is a test that fails for nothing."""
    try:
        return (json.loads(text, parse_constant=_refuse, parse_float=_number, parse_int=_integer),)
    except (ValueError, RecursionError):
        return None


def _body(request: HttpRequest) -> dict[str, Any]:
    """What `expectRequests` says of a request's body: its JSON, its form fields, or its text."""
    if not request.body:
        return {}
    ctype = next((v for k, v in request.headers.items() if k.lower() == "content-type"), "")
    text = request.body.decode("utf-8", errors="replace")
    if "json" in ctype:
        try:
            return {"json": json.loads(text)}
        except ValueError:
            pass
    if "x-www-form-urlencoded" in ctype:
        return {"form": form_fields(text)}
    return {"text": text}


def recorded_case(
    name: str, input_value: Any, host: RecordingHost, result: Any = None, error: str | None = None
) -> dict[str, Any]:
    """One case for what `host` saw: its recordings, the writes it made, and the result (or error) it gave."""
    case: dict[str, Any] = {"name": name, "input": input_value}
    if host.http:
        case["http"] = host.http
    if host.abilities:
        case["abilities"] = host.abilities
    if error is not None:
        case["expectError"] = error
    else:
        case["expect"] = result
    if host.writes:
        case["expectCalls"] = host.writes
    if host.posted:
        case["expectRequests"] = host.posted
    return case


def add_case(existing: str | None, tool: str, now: str, case: dict[str, Any]) -> tuple[str, bool]:
    """The text of a test file with `case` added (or put in place of the case of its name: True), keeping what
    the file had, its comments too. A new file says `now` for all its cases; in an existing one, a case recorded
    at another time says its own.

    Raises:
        ValueError: the existing file is not a test file of `tool`.
    """
    yaml = YAML(typ="rt", pure=True)
    yaml.width = 120
    yaml.allow_unicode = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.preserve_quotes = True  # a quoted '2026-11-30 09:00' stays quoted: other YAML readers see a timestamp
    doc = yaml.load(existing) if existing and existing.strip() else None
    if doc is None:
        doc = {"tool": tool, "now": now, "cases": []}
    if not isinstance(doc, dict) or not isinstance(doc.get("cases"), list):
        raise ValueError("it is not a recorded-test file (no list of cases)")
    if doc.get("tool") != tool:
        raise ValueError(f"its cases run the tool {doc.get('tool')!r}, not {tool!r}: record into another file")
    if doc.get("now") is not None and not _same_time(str(doc["now"]), now):
        case = {"name": case["name"], "now": now, **{k: v for k, v in case.items() if k != "name"}}
    names = [c.get("name") if isinstance(c, dict) else None for c in doc["cases"]]
    replaced = case["name"] in names
    if replaced:
        doc["cases"][names.index(case["name"])] = case
    else:
        doc["cases"].append(case)
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue(), replaced


def _same_time(text: str, iso: str) -> bool:
    try:
        return iso_now(text) == iso
    except Exception:  # a file whose `now` is not a time: the new case says its own
        return False
