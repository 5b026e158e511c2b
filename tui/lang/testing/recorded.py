"""A Host that answers from recordings: HTTP exchanges matched by method + URL, abilities in call order."""

from __future__ import annotations

import difflib
import json
import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tui.lang.documents.source import BudgetedReader, SourceError
from tui.lang.expr import Run
from tui.lang.expr.stdlib.dates import parse as parse_date
from tui.lang.expr.values import LONE_HALF
from tui.lang.host import HostError, HttpRequest, HttpResponse, KvBatch
from tui.lang.netpolicy import campus_url
from tui.lang.testing.fixtures import FixtureReader
from tui.lang.testing.memorykv import MemoryKv
from tui.lang.testing.model import AbilityAnswer, Case, Exchange


class Unrecorded(HostError):
    """A request or ability call no recording answers: the case fails with the closest recording shown. A `catch`
    sees a network failure; the person at the app (the demo) is told there is no recording, not to check the
    network."""

    def __init__(self, message: str) -> None:
        super().__init__("network", message, cause="unrecorded")


def request_key(method: str, url: str) -> tuple[str, str, str, frozenset[tuple[str, str]]]:
    """What identifies a request: method, host, path, and the decoded query parameters as a set."""
    parts = urlsplit(url)
    query = frozenset(parse_qsl(parts.query, keep_blank_values=True))
    return method.upper(), (parts.hostname or "").lower(), parts.path or "/", query


class RecordedHost:
    """Answers one case's run from its recordings."""

    def __init__(self, case: Case, files: BudgetedReader | FixtureReader, now: str) -> None:
        self.exchanges: list[tuple[Any, Exchange]] = []
        for ex in case.http:
            url = ex.request.url
            if ex.request.campus is not None:
                url = str(campus_url(ex.request.campus, url))
            self.exchanges.append((request_key(ex.request.method, url), ex))
        self.used: set[int] = set()
        self.abilities: list[AbilityAnswer] = list(case.abilities)
        self.ability_calls: list[str] = []
        self.ability_args: list[Any] = []
        """Beside `ability_calls`: the arguments of each call, as JSON."""
        self.files = files if isinstance(files, FixtureReader) else FixtureReader(files)
        self.now_ms = parse_date(Run(now), now).timestamp() * 1000
        self.kv = MemoryKv(case.kv)
        for key, seed in case.cache.items():  # stored as a cache step stores: the value and when it was fetched
            self.kv.values[key] = ({"v": seed.value, "t": int(self.now_ms - seed.age)}, None)
        self.sent: list[HttpRequest] = []
        self.replay_abilities = False
        """Answer abilities by name from any recording (demo mode) instead of strictly in call order."""
        self.ability_inputs: list[dict[str, Any]] = []
        """In demo mode, beside each of `abilities`: the input of the case it was recorded in."""
        self.verified: dict[str, int] = {}
        """In demo mode, ability name → the recording a call with a `code` got past verification with. The campus
        session keeps the token a code earned, so later calls without a code get the data, not another request to
        verify (the 我的绩点 widget kept saying 需要验证 after the grades screen was verified); the runtime shares
        this between the plugin's runs for the session."""

    def _answer(self, request: HttpRequest) -> HttpResponse:
        self.sent.append(request)
        key = request_key(request.method, request.url)
        for i, (k, ex) in enumerate(self.exchanges):
            if i not in self.used and k == key:
                self.used.add(i)
                return self._response(ex, request.url)
        for k, ex in self.exchanges:
            if k == key:  # all uses of this exchange are spent: answer it again (pages, retries)
                return self._response(ex, request.url)
        raise Unrecorded(self._closest(request))

    def _closest(self, request: HttpRequest) -> str:
        tried = f"{request.method} {request.url}"
        if not self.exchanges:
            return f"no recorded exchange for {tried} (the case records none)"
        candidates = [f"{ex.request.method} {self._full(ex)}" for _, ex in self.exchanges]
        best = max(candidates, key=lambda c: difflib.SequenceMatcher(None, c, tried).ratio())
        return f"no recorded exchange for {tried}; the closest recorded one is {best}"

    @staticmethod
    def _full(ex: Exchange) -> str:
        if ex.request.campus is not None:
            return str(campus_url(ex.request.campus, ex.request.url))
        return ex.request.url

    def _response(self, ex: Exchange, url: str) -> HttpResponse:
        r = ex.response
        headers = dict(r.headers)
        if r.file is not None:
            try:
                body = self.files.read(r.file)
            except SourceError as e:
                raise HostError("network", f"fixture: {e}") from None
        elif r.text is not None:
            body = r.text.encode()
        else:
            # a lone surrogate (legal in JSON data) is written as its escape, as the server sent it: raw, it is no
            # UTF-8 (the replay crashed where the live run had read it)
            text = json.dumps(r.json_body, ensure_ascii=False)
            body = (text if text.isascii() else LONE_HALF.sub(_escaped, text)).encode()
            headers.setdefault("content-type", "application/json; charset=utf-8")
        return HttpResponse(r.status, r.url or url, headers, body)

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        return self._answer(request)

    async def campus(self, request: HttpRequest) -> HttpResponse:
        return self._answer(request)

    async def kv_get(self, key: str) -> Any:
        return self.kv.get(key, self.now_ms)

    async def kv_check(self, batch: KvBatch) -> None:
        self.kv.check(batch, self.now_ms)

    async def kv_commit(self, batch: KvBatch) -> None:
        self.kv.commit(batch, self.now_ms)

    def _replayed(self, name: str, args: Any) -> Any:
        """The demo's answer to an ability call: of the recordings of `name`, the one whose case's input shares the
        most values with the call's arguments (the first on a tie). So a grades screen asked with a code gets the
        recording made with a code — the grades — and without one the recording that asks to verify."""
        given = set(_leaves(args))
        best: tuple[int, int] | None = None
        for index, recorded in enumerate(self.abilities):
            if recorded.call != name:
                continue
            case_input = self.ability_inputs[index] if index < len(self.ability_inputs) else {}
            score = len(given & set(_leaves(case_input)))
            if best is None or score > best[0]:
                best = (score, index)
        if best is None:
            raise Unrecorded(f"the demo has no recorded answer for {name}")
        result = self.abilities[best[1]].result
        code = args.get("code") if isinstance(args, dict) else None
        if code and not _asks_to_verify(result):
            self.verified[name] = best[1]
        elif not code and _asks_to_verify(result) and name in self.verified:
            return self.abilities[self.verified[name]].result
        return result

    def unused(self) -> list[str]:
        """The recordings the run never used, in words (a recording no run needs tests nothing, or the wrong
        thing: a URL that changed, an answer for a call that no longer happens)."""
        out = [
            f"recorded exchange {i + 1} ({ex.request.method} {self._full(ex)}) was never requested"
            for i, (_, ex) in enumerate(self.exchanges)
            if i not in self.used
        ]
        first = len(self.ability_calls) + 1
        out += [f"ability answer {first + i} ({a.call}) was never asked for" for i, a in enumerate(self.abilities)]
        return out

    async def ability(self, name: str, args: Any) -> Any:
        self.ability_calls.append(name)
        self.ability_args.append(args)
        if self.replay_abilities:
            return self._replayed(name, args)
        if not self.abilities:
            raise Unrecorded(f"no recorded answer for ability {name} (call {len(self.ability_calls)})")
        answer = self.abilities.pop(0)
        if answer.call != name:
            raise Unrecorded(f"ability call {len(self.ability_calls)} is {name}, but the recording has {answer.call}")
        if answer.error is not None:
            raise HostError("ability", answer.error)
        return answer.result


def _asks_to_verify(result: Any) -> bool:
    """An ability answer that asks for a verification code (verify.treehole's `verification_required`)."""
    return isinstance(result, dict) and result.get("status") == "verification_required"


def _leaves(value: Any) -> list[str]:
    """The scalar values inside `value` (nested objects and lists), as text; nulls left out."""
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [] if value is None else [str(value)]


def _escaped(half: re.Match[str]) -> str:
    return f"\\u{ord(half.group()):04x}"
