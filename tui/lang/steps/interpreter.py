"""Runs a plugin tool: checks the input, runs the steps in order under the run limits, builds the result.

Every step kind of the seed table with language.md §9's details. The interpreter talks to the world only
through a `Host`; it enforces the network policy, the effect rules and every limit itself.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from tui.lang.documents.common import EFFECT_ORDER
from tui.lang.documents.loader import Plugin, Step, Tool
from tui.lang.documents.manifest import ABILITIES
from tui.lang.documents.tool import (
    AbilityStep,
    CacheStep,
    CallStep,
    CheckStep,
    EachStep,
    ExtractStep,
    IfStep,
    KvStep,
    PaginateStep,
    RequestStep,
    TryStep,
    ValueStep,
)
from tui.lang.expr import LangError, LimitError, beijing_now, compile_expression, from_json, render, stringify, to_json
from tui.lang.expr.secret import as_secret, open_for
from tui.lang.expr.stdlib.dates import parse as parse_date
from tui.lang.expr.values import to_json_measured, truthy
from tui.lang.host import Host, HostError, KvQuotaError, KvWrite
from tui.lang.steps import requests
from tui.lang.steps.errors import CAUSE_OF_KIND, ToolError
from tui.lang.steps.extract import run_extract
from tui.lang.steps.inputs import check_input
from tui.lang.steps.scope import HELPERS, base_scope
from tui.lang.steps.state import (
    DEADLINE_SECONDS,
    MAX_CALL_DEPTH,
    MAX_EACH_ITEMS,
    MAX_KV_KEY,
    MAX_RESULT_BYTES,
    MAX_STALE_MS,
    RunState,
)

Scope = dict[str, Any]
T = TypeVar("T")

Offload = Callable[[Callable[[], Any]], Awaitable[Any]]
"""Does a piece of plain computation elsewhere and awaits its answer: the app passes a pool of worker threads, so
evaluating a plugin's expressions never holds the app's event loop (threats.md T2)."""


@dataclass
class RunResult:
    """A finished run: the result as plain JSON, and what the host may want to know about it."""

    value: Any
    stale: bool = False
    """A cache step answered with a stored value after an error."""
    stale_since_ms: int | None = None
    """When stale: the time (epoch ms) the oldest stored value that answered was fetched."""
    truncated: bool = False
    """Paging stopped at its page limit."""
    steps: int = 0
    requests: int = 0
    evaluations: int = 0
    peak_in_flight: int = 0


def _lang_error(e: LangError) -> ToolError:
    # A deadline that passed inside an expression is a timeout, as it is between steps.
    kind = e.kind if e.kind in ("limit", "timeout") else "check" if e.title == "Plugin error" else "expression"
    return ToolError(kind, e.msg if kind == "check" else str(e))  # type: ignore[arg-type]


class Interpreter:
    """Runs the tools of one loaded plugin through one host."""

    def __init__(
        self,
        plugin: Plugin,
        host: Host,
        settings: dict[str, Any] | None = None,
        locale: str = "zh",
        offload: Offload | None = None,
    ) -> None:
        self.plugin = plugin
        self.host = host
        self.locale = locale
        self.offload = offload
        """Where the run's computation happens (the app: worker threads); None: right here, on the caller's loop."""
        defaults = {k: f.default for k, f in plugin.manifest.settings.items()}
        self.settings = {**defaults, **(settings or {})}
        self.network = tuple(plugin.manifest.network)
        self.campus = tuple(plugin.manifest.campus)

    async def run(
        self, tool_name: str, raw_input: Any, now: str | None = None, deadline_s: float = DEADLINE_SECONDS
    ) -> RunResult:
        """Run one tool from the outside (a user, the assistant, a widget, the scheduler).

        Args:
            tool_name: the tool's name in this plugin.
            raw_input: the input as JSON data (checked against the tool's fields first).
            now: Beijing time as ISO text (default: the clock).
            deadline_s: the run's time limit (60 s; tests shorten it).

        Raises:
            ToolError: the run failed; it names the tool, the step and where that step is written.
        """
        state = RunState.start(now or beijing_now(), self.locale, deadline_s)
        entry = self.plugin.tools.get(tool_name)
        if entry is not None:
            state.effect = entry.definition.effect
        value = await self.run_tool(tool_name, raw_input, state)
        await self.commit(tool_name, state)
        return RunResult(
            value,
            state.stale,
            state.stale_since_ms,
            state.truncated,
            state.steps,
            state.requests,
            state.expr.used,
            state.peak_in_flight,
        )

    async def commit(self, tool_name: str, state: RunState) -> None:
        """Write the run's KV changes, all together, now that it has succeeded (a failed, cancelled or timed-out
        run never gets here, so it leaves nothing behind).

        Raises:
            ToolError: kind 'limit': another run used the space since the last check; nothing was written.
        """
        if not state.kv:
            return
        try:
            await self.host.kv_commit(dict(state.kv))
        except KvQuotaError as e:
            tool = self.plugin.tools.get(tool_name)
            raise ToolError(
                "limit", f"{e}, after another run used the space; none of this run's KV changes were kept"
            ).locate(f"{self.plugin.manifest.id}.{tool_name}", None, tool.file if tool else None, None) from None
        except HostError as e:
            raise ToolError("network", str(e)) from None

    async def run_tool(self, tool_name: str, raw_input: Any, state: RunState) -> Any:
        """Run a tool inside a run (also for `call`): the result as plain JSON."""
        tool = self.plugin.tools.get(tool_name)
        qualified = f"{self.plugin.manifest.id}.{tool_name}"
        if tool is None:
            raise ToolError("input", f"{self.plugin.manifest.id} has no tool {tool_name!r}")
        try:
            try:
                input_value = check_input(tool.definition.input, raw_input)
            except ToolError as e:  # where the field that refused it is declared, not the tool's `return:`
                line = tool.line("input", e.field) if e.field else tool.line("input")
                raise e.locate(qualified, None, tool.file, line) from None
            constants = {**self.plugin.shared_constants, **tool.definition.constants}
            functions = {**self.plugin.shared_functions, **tool.definition.functions}
            scope = base_scope(input_value, constants, functions, self.settings, state.expr)
            value = await self.steps(tool, tool.steps, scope, state)
            if tool.definition.return_ is not None:
                state.check_deadline()
                value = await self.compute(state, lambda: self.eval(tool.definition.return_ or "", scope, state))
            return await self.compute(state, lambda: _result(value))
        except ToolError as e:
            raise e.locate(qualified, None, tool.file, tool.line("return")) from None
        except LangError as e:
            raise _lang_error(e).locate(qualified, None, tool.file, tool.line("return")) from None

    # -- helpers --------------------------------------------------------------------------------------
    async def compute(self, state: RunState, work: Callable[[], T]) -> T:
        """Do a piece of the run's plain computation (expressions, parsing, results): on the offload's worker
        thread when there is one, so that the caller's event loop stays free (threats.md T2). A run's pieces
        never overlap — `each` branches take turns — so its budgets are counted by one thread at a time."""
        if self.offload is None:
            return work()
        async with state.computing:
            answer: T = await self.offload(work)
            return answer

    async def aeval(self, source: str, scope: Scope, state: RunState) -> Any:
        """`eval`, as a piece of computation."""
        return await self.compute(state, lambda: self.eval(source, scope, state))

    def eval(self, source: str, scope: Scope, state: RunState) -> Any:
        try:
            return compile_expression(source, scope.get(HELPERS)).evaluate(scope, state.expr)
        except LangError as e:
            raise _lang_error(e) from None

    def render(self, template: Any, scope: Scope, state: RunState) -> Any:
        """Render a template, or the templates inside a list or mapping."""
        if isinstance(template, str):
            try:
                return render(template, scope, state.expr, scope.get(HELPERS))
            except LangError as e:
                raise _lang_error(e) from None
        if isinstance(template, list):
            return [self.render(t, scope, state) for t in template]
        if isinstance(template, dict):
            return {k: self.render(v, scope, state) for k, v in template.items()}
        return from_json(template)

    # -- steps ----------------------------------------------------------------------------------------
    async def steps(self, tool: Tool, steps: list[Step], scope: Scope, state: RunState) -> Any:
        """Run steps in order; `let` binds in `scope`. The value is the last step's value."""
        value: Any = None
        for step in steps:
            state.step()
            number = ".".join(str(p + 1) for p in step.path if isinstance(p, int))
            try:
                value = await self.step(tool, step, scope, state)
            except ToolError as e:
                raise e.locate(f"{self.plugin.manifest.id}.{tool.name}", number, step.file, step.line) from None
            except LangError as e:
                raise _lang_error(e).locate(
                    f"{self.plugin.manifest.id}.{tool.name}", number, step.file, step.line
                ) from None
            if step.model.let is not None:
                scope[step.model.let] = value
        return value

    async def step(self, tool: Tool, step: Step, scope: Scope, state: RunState) -> Any:
        m = step.model
        if isinstance(m, ValueStep):
            return await self.aeval(m.value, scope, state)
        if isinstance(m, RequestStep):
            return await self.request(m.request, m.as_, scope, state)
        if isinstance(m, EachStep):
            return await self.each(tool, step, m, scope, state)
        if isinstance(m, PaginateStep):
            return await self.paginate(m, scope, state)
        if isinstance(m, ExtractStep):
            extract = m.extract
            return await self.compute(
                state, lambda: run_extract(extract, self.eval(extract.from_, scope, state), m.limit, state.expr)
            )
        if isinstance(m, IfStep):
            branch = "then" if truthy(await self.aeval(m.if_, scope, state)) else "else"
            return await self.steps(tool, step.children.get(branch, []), dict(scope), state)
        if isinstance(m, CheckStep):
            value = await self.aeval(m.check, scope, state)
            if not truthy(value):
                message = await self.compute(state, lambda: self.render(m.error, scope, state))
                raise ToolError("check", message if isinstance(message, str) else stringify(message))
            return value
        if isinstance(m, TryStep):
            try:
                return await self.steps(tool, step.children.get("try", []), dict(scope), state)
            except ToolError as e:
                if e.final:
                    raise  # a refusal that ends the run: no catch may go on after it
                caught = dict(scope)
                caught["error"] = from_json(e.catch_value())
                return await self.steps(tool, step.children.get("catch", []), caught, state)
        if isinstance(m, KvStep):
            return await self.kv(m, scope, state)
        if isinstance(m, CacheStep):
            return await self.cache(tool, step, m, scope, state)
        if isinstance(m, CallStep):
            return await self.call(tool, m, scope, state)
        if isinstance(m, AbilityStep):
            return await self.ability(tool, m, scope, state)
        raise ToolError("expression", f"unknown step kind {step.kind}")

    async def request(self, spec: Any, as_: str, scope: Scope, state: RunState) -> Any:
        req = await self.compute(
            state,
            lambda: requests.build_request(spec, lambda t: self.render(t, scope, state), self.network, self.campus),
        )
        req = replace(req, effect=state.effect)
        response = await requests.send(req, self.host, state, self.network)
        return await self.compute(state, lambda: requests.read(response, as_, state))

    async def each(self, tool: Tool, step: Step, m: EachStep, scope: Scope, state: RunState) -> list[Any]:
        items = await self.aeval(m.each, scope, state)
        if not isinstance(items, list):
            raise ToolError("expression", "each must give a list")
        if len(items) > MAX_EACH_ITEMS:
            raise ToolError("limit", f"each over {len(items)} items; the limit is {MAX_EACH_ITEMS}")
        gate = asyncio.Semaphore(m.concurrency)
        results: list[Any] = [None] * len(items)

        async def one(i: int, item: Any) -> None:
            async with gate:
                local = {**scope, "item": item, "index": float(i)}
                if m.request is not None:
                    results[i] = await self.request(m.request, m.as_, local, state)
                elif m.value is not None:
                    results[i] = await self.aeval(m.value, local, state)
                else:
                    results[i] = await self.steps(tool, step.children.get("steps", []), local, state)

        if m.concurrency == 1:
            for i, item in enumerate(items):
                await one(i, item)
        else:
            try:
                async with asyncio.TaskGroup() as group:  # the first failure cancels the rest
                    for i, item in enumerate(items):
                        group.create_task(one(i, item))
            except BaseExceptionGroup as group_error:
                # The group wraps what failed; steps and catch blocks expect the failure itself.
                raise _first_error(group_error) from None
        return results

    async def paginate(self, m: PaginateStep, scope: Scope, state: RunState) -> list[Any]:
        p = m.paginate
        out: list[Any] = []
        cursor: Any = None
        seen: list[Any] = []
        for page in range(p.max):
            local = {**scope, "cursor": cursor}
            res = await self.request(p.request, p.as_, local, state)
            local["res"] = res
            items = await self.aeval(p.items, local, state)
            if items is not None:
                if not isinstance(items, list):
                    raise ToolError("expression", "paginate items must give a list")
                out.extend(items)
                state.expr.charge_items(len(out))
            nxt = await self.aeval(p.next, local, state)
            if nxt is None:
                return out
            if any(_same(nxt, s) for s in seen):
                return out  # the same cursor again would loop for ever
            seen.append(nxt)
            cursor = nxt
            if page == p.max - 1:
                state.truncated = True
        return out

    async def kv(self, m: KvStep, scope: Scope, state: RunState) -> Any:
        key = await self._key(m.key, scope, state, "kv")
        if m.kv == "get":
            return from_json(await self._kv_read(key, state))
        if m.kv == "delete":
            await self._kv_write(key, KvWrite(deleted=True), state)
            return None
        value = await self.aeval(m.value or "null", scope, state)
        stored = await self.compute(state, lambda: to_json(value, f"kv value {key!r}"))
        await self._kv_write(key, KvWrite(stored, m.ttl), state)
        return value

    async def _kv_read(self, key: str, state: RunState) -> Any:
        """The value as this run sees it: its own pending change first, else the store's."""
        pending = state.kv.get(key)
        if pending is not None:
            return None if pending.deleted else pending.value
        try:
            return await self.host.kv_get(key)
        except HostError as e:
            raise ToolError("network", str(e)) from None

    async def _kv_write(self, key: str, write: KvWrite, state: RunState) -> None:
        """Keep a change for the end of the run; with it, the run's changes must fit the quota now, so a quota
        error is met (and can be caught) at the step that causes it, and the change is not kept."""
        try:
            async with state.kv_lock:
                if not write.deleted:
                    await self.host.kv_check({**state.kv, key: write})
                state.kv[key] = write
        except KvQuotaError as e:
            raise ToolError("limit", str(e)) from None
        except HostError as e:
            raise ToolError("network", str(e)) from None

    async def _key(self, template: str, scope: Scope, state: RunState, what: str) -> str:
        key = await self.compute(state, lambda: self.render(template, scope, state))
        if not isinstance(key, str) or not key:
            raise ToolError("expression", f"a {what} key must be non-empty text")
        if len(key) > MAX_KV_KEY:
            raise ToolError("limit", f"a {what} key is {len(key)} characters; the limit is {MAX_KV_KEY}")
        return key

    async def cache(self, tool: Tool, step: Step, m: CacheStep, scope: Scope, state: RunState) -> Any:
        key = await self._key(m.cache.key, scope, state, "cache")
        now_ms = parse_date(state.expr, state.expr.now).timestamp() * 1000
        stored = await self._kv_read(key, state)
        fresh = isinstance(stored, dict) and "v" in stored and isinstance(stored.get("t"), int | float)
        if fresh and now_ms - stored["t"] < m.cache.ttl:
            return from_json(stored["v"])
        try:
            value = await self.steps(tool, step.children.get("steps", []), dict(scope), state)
        except ToolError as e:
            if m.cache.staleOnError and fresh and not e.final and now_ms - stored["t"] < MAX_STALE_MS:
                state.stale = True
                # the oldest stored value answering decides how old the result is ("2 天前", not "刚刚")
                since = int(stored["t"])
                state.stale_since_ms = since if state.stale_since_ms is None else min(state.stale_since_ms, since)
                return from_json(stored["v"])
            raise
        # With staleOnError the entry must outlive its freshness, so the store keeps it without a TTL.
        ttl = None if m.cache.staleOnError else m.cache.ttl
        entry = await self.compute(state, lambda: {"v": to_json(value, "cached value"), "t": int(now_ms)})
        await self._kv_write(key, KvWrite(entry, ttl), state)
        return value

    async def call(self, tool: Tool, m: CallStep, scope: Scope, state: RunState) -> Any:
        callee = self.plugin.tools.get(m.call)
        if callee is None:
            raise ToolError("input", f"call: no tool {m.call!r} in this plugin")
        if EFFECT_ORDER[callee.definition.effect] > EFFECT_ORDER[tool.definition.effect]:
            raise ToolError(
                "input", f"a {tool.definition.effect} tool cannot call {m.call} ({callee.definition.effect})"
            )
        if m.call in state.call_stack or len(state.call_stack) >= MAX_CALL_DEPTH:
            raise ToolError(
                "limit", f"calls nest deeper than {MAX_CALL_DEPTH} or loop ({' → '.join(state.call_stack)})"
            )
        args = await self.compute(state, lambda: to_json(self.eval(m.input, scope, state), "call input"))
        state.call_stack.append(m.call)
        try:
            return from_json(await self.run_tool(m.call, args, state))
        finally:
            state.call_stack.pop()

    async def ability(self, tool: Tool, m: AbilityStep, scope: Scope, state: RunState) -> Any:
        group, _, op = m.ability.partition(".")
        effect = ABILITIES.get(group, {}).get(op)
        if effect is None:
            raise ToolError("ability", f"there is no host ability {m.ability}")
        if group not in self.plugin.manifest.abilities:
            raise ToolError("ability", f"ability group {group!r} is not declared in the manifest's abilities")
        if group == "verify" and "treehole" not in self.campus:
            raise ToolError("ability", f"{m.ability} needs treehole in the manifest's campus list")
        if EFFECT_ORDER[effect] > EFFECT_ORDER[tool.definition.effect]:
            raise ToolError("ability", f"a {tool.definition.effect} tool cannot use {m.ability} ({effect})")
        # A secret (otp.code) is opened only as a verify.* ability's `code`; anywhere else to_json refuses it.
        args = await self.compute(
            state, lambda: to_json(open_for(m.ability, self.eval(m.args, scope, state)), "ability args")
        )
        state.check_deadline()
        try:
            async with asyncio.timeout(state.remaining()):
                result = await self.host.ability(m.ability, args)
        except TimeoutError:
            raise ToolError("timeout", f"{m.ability} did not answer within the run's time") from None
        except HostError as e:
            # Kind 'ability' for a catch; for the person at the app, a network failure or a missing login inside the
            # ability stays what it is (an ability's own refusal is the plugin's, unless the host said otherwise).
            cause = e.cause or (CAUSE_OF_KIND.get(e.kind) if e.kind != "ability" else None)
            raise ToolError("ability", str(e), e.status, e.final, cause, e.service) from None  # type: ignore[arg-type]
        return as_secret(m.ability, from_json(result))


def _result(value: Any) -> Any:
    """The run's value as the JSON result, within the 1 MB limit.

    The size is json.dumps's (C) of the plain result, corrected for numbers JavaScript writes otherwise:
    the same bytes stringify would write, without writing them in Python (3.4x json.dumps). Texts bigger
    than four times the limit are refused from their length first, as stringify did while writing.
    """
    # first: a function or node in the result is named by its path
    result, chars, more = to_json_measured(value, "result")
    text = "" if chars > _TEXT_LIMIT else json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    if chars > _TEXT_LIMIT or len(text) + more > _TEXT_LIMIT:
        raise LimitError(f"JSON text over the {_TEXT_LIMIT:,}-character limit")
    size = len(text.encode()) + more
    if size > MAX_RESULT_BYTES:
        raise ToolError("limit", f"the result is {size:,} bytes; the limit is 1 MB")
    return result


_TEXT_LIMIT = MAX_RESULT_BYTES * 4


def _first_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first leaf of an exception group (a ToolError before anything else)."""
    leaves: list[BaseException] = []
    stack: list[BaseException] = [group]
    while stack:
        e = stack.pop(0)
        if isinstance(e, BaseExceptionGroup):
            stack[:0] = list(e.exceptions)
        else:
            leaves.append(e)
    return next((e for e in leaves if isinstance(e, ToolError)), leaves[0])


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and bool(a == b)
