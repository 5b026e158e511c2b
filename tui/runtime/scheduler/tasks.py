"""Scheduled assistant tasks: the prompt goes through the chat loop as the `scheduler` caller, with only read
tools offered; any other call the model asks for is refused by the gate and reported. The answer becomes a
notification and a conversation the student can open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.runtime.chat.agent import Agent, AgentEvent
from tui.runtime.chat.client import ModelClient
from tui.runtime.chat.history import ChatHistory
from tui.runtime.chat.providers import load_config, load_key
from tui.runtime.message import Message, message_of
from tui.runtime.scheduler.checks import Check
from tui.runtime.scheduler.runner import TaskRunner

if TYPE_CHECKING:
    from tui.runtime.runtime import Runtime


def task_runner(runtime: Runtime, client: ModelClient | None = None) -> TaskRunner | None:
    """Runs tasks with the student's model (or `client`); None when no model is set up."""
    if client is None:
        config = load_config(runtime.store)
        if config is None:
            return None
        client = ModelClient(config, load_key(config.provider))
    model = client

    async def run(check: Check) -> tuple[str, str, str | None]:
        history = ChatHistory(runtime.store)
        cid = history.start(f"⏰ {check.title}")

        async def quiet(event: AgentEvent) -> None:
            return None

        agent = Agent(runtime, model, history, quiet)
        agent.actor = "scheduler"
        result = await agent.send(cid, str(check.prompt))
        refused = [c for c in result.calls if c.status in ("refused", "declined")]
        if result.error is not None:
            return "error", message_of(result.error), cid
        answer = (result.answer or "").strip() or Message("task_no_answer")
        if refused:
            # The run log says which calls were refused and why (the gate's audit rows say it too).
            reasons = [Message("task_refused_call", tool=c.tool_id, reason=c.message) for c in refused]
            return "refused", Message("task_refused", answer=answer, calls=reasons), cid
        return "ok", answer, cid

    return run
