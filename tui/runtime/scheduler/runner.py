"""Runs due checks: claim (one runner per check, across processes), run the read tool as the `scheduler` caller
(or the assistant task through the chat loop with only read tools), judge the condition over `result` and
`previous`, log the run, notify. Nothing a check returns is ever given to the model as instructions."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tui.lang.expr import LangError, Run, beijing_now, compile_text_template, evaluate, from_json, to_text
from tui.lang.expr.values import truthy
from tui.runtime.audit import now_ms
from tui.runtime.message import Message, message_of
from tui.runtime.scheduler.checks import WAITING, Check, Checks
from tui.runtime.scheduler.notices import Notices

if TYPE_CHECKING:
    from tui.runtime.runtime import Runtime

TaskRunner = Callable[[Check], Awaitable[tuple[str, str, str | None]]]
"""Runs an assistant task: (outcome, answer or reason, conversation id)."""


@dataclass(frozen=True)
class RunReport:
    """What one run did (the CLI prints these)."""

    check: str
    title: str
    outcome: str
    detail: str


class Scheduler:
    """Runs the checks that are due."""

    def __init__(
        self,
        runtime: Runtime,
        notices: Notices,
        tasks: TaskRunner | None = None,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self.runtime = runtime
        self.checks = Checks(runtime.store)
        self.notices = notices
        self.tasks = tasks
        self.clock = clock

    async def run_due(self) -> list[RunReport]:
        """Run every due check once (whatever it missed while nothing ran), each by one runner only."""
        reports = []
        for check in self.checks.due(self.clock()):
            if not self.checks.claim(check.id, self.clock()):
                continue  # another runner (the app, or a timer's run-due) has it
            reports.append(await self.run(check))
        return reports

    async def run_now(self, check_id: str) -> RunReport | None:
        """Run one check now because the student asked (设置 → 定时检查 → 立即运行); None when it is gone, waits
        for approval or another runner has it at this moment. Its next run is counted from now."""
        check = self.checks.get(check_id)
        if check is None or not self.checks.claim_now(check_id, self.clock()):
            return None
        return await self.run(check)

    async def run(self, check: Check) -> RunReport:
        """Run one (claimed) check and record it; a plugin's assistant task the student has not approved is skipped
        (it is never due, so this only guards a direct call)."""
        if check.awaiting_approval:
            return RunReport(check.id, check.title, "waiting", WAITING)
        started = time.monotonic()
        try:
            if check.kind == "prompt":
                outcome, detail, result, session = await self._task(check)
            else:
                outcome, detail, result = await self._check(check)
                session = None
        except Exception as e:  # a check must never take the runner down; the log says what broke
            outcome, detail, result, session = (
                "error",
                Message("about", what=type(e).__name__, detail=message_of(e)),
                None,
                None,
            )
        at = self.clock()
        self.checks.finish(check, at, int((time.monotonic() - started) * 1000), outcome, detail, result)
        if outcome == "met" or (check.kind == "prompt" and outcome in ("ok", "refused") and session):
            self.notices.add(check.id, check.title, detail, result, session)
        return RunReport(check.id, check.title, outcome, detail)

    async def _check(self, check: Check) -> tuple[str, str, Any]:
        tool = self.runtime.registry.find(check.tool or "")
        if tool is None and (check.tool or "").startswith("mcp-"):
            found = await self.runtime.remote.lookup(check.tool or "")  # its server connects when first needed
            if isinstance(found, str):  # down, or changed and waiting for the student's review
                return "refused", found, None
            tool = found
        if tool is None:
            return "error", Message("run_no_tool", tool=check.tool), None
        source = self.runtime.sources.find(tool.id, check.args)
        if source is not None and self.runtime.gate.verdict(tool, "scheduler").verdict == "run":
            # The dashboard's cache is shared: a fresh value is used as is, a refetch refreshes it for both.
            try:
                value = await self.runtime.sources.read(source.id, actor="scheduler", now=beijing_now())
            except RuntimeError as e:
                return "error", message_of(e), None
            if value.stale:
                return "error", value.error or Message("run_refresh_failed"), None
            result = value.value
        else:
            outcome = await self.runtime.gate.call(tool.id, check.args, actor="scheduler", now=beijing_now())
            if outcome.status in ("refused", "declined"):
                return "refused", outcome.message, None
            if outcome.status != "ok":
                return "error", outcome.message, None
            result = outcome.result
        context = {"result": from_json(result), "previous": from_json(check.last_result)}
        if check.condition:
            try:
                met = truthy(evaluate(check.condition, context, Run(beijing_now())))
            except LangError as e:
                return "error", Message("run_condition_failed", error=str(e)), result
            if not met:
                return "ok", Message("run_condition_not_met"), result
        return "met", self._message(check, context), result

    @staticmethod
    def _message(check: Check, context: dict[str, Any]) -> str:
        if check.message:
            try:
                # Text for a person: a field the result lacks is left out, never the word "null".
                return to_text(compile_text_template(check.message).evaluate(context, Run(beijing_now())))
            except LangError as e:
                return Message("run_template_failed", title=check.title, error=str(e))
        return Message("run_met" if check.condition else "run_updated", title=check.title)

    async def _task(self, check: Check) -> tuple[str, str, Any, str | None]:
        if self.tasks is None:
            return "error", Message("run_no_model"), None, None
        outcome, text, session = await self.tasks(check)
        return outcome, text, None, session
