"""The demo model: a small offline responder so that `--demo` shows the assistant without any model set up.

It stands where a model server would (`complete(messages, tools, emit)`, like `ModelClient`), so everything
else is real: the agent loop, the gate and its approval cards, taint, the tools answering from the plugins'
recordings. It reads the conversation as a model would — the student's last message, or the tool results that
came back — and answers by rules (`demo_rules.py`): which tool a question needs, and how to say a result; asked
for a plugin, it writes one through the draft tools (`demo_writer.py`). It
streams its answers a few characters at a time and says that it is the demo model. A configured model always
wins (`open_client`).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

from tui.runtime.chat.accumulator import ToolCall
from tui.runtime.chat.client import Completion, Emit, ModelClient, StreamEvent
from tui.runtime.chat.demo_rules import answer_for, language, plan_for
from tui.runtime.chat.demo_writer import after_writing, plan_writing
from tui.runtime.chat.providers import ModelConfig, load_config, load_key, with_overrides
from tui.runtime.store import Store

DEMO_CONFIG = ModelConfig("demo", "offline", "demo")
"""What 设置 → 模型 and the CLI name while the demo model answers."""
#: Characters per streamed chunk, and the pause between chunks (a model's pace; tests set it to 0).
CHUNK = 3
PAUSE_S = 0.012


class DemoModel:
    """Answers like a model server, offline (module docstring)."""

    def __init__(self, pause_s: float = PAUSE_S, locale: str = "zh") -> None:
        self.config = DEMO_CONFIG
        self.pause_s = pause_s
        self.locale = locale
        """The app's language: the answer's, when the student's message has no words to tell (a code)."""

    async def close(self) -> None:
        """Nothing to close (the same call as `ModelClient.close`)."""

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], emit: Emit) -> Completion:
        """The next step of the conversation: tool calls, or an answer streamed through `emit`."""
        offered = {str(t.get("function", {}).get("name")) for t in tools}
        lang = language(messages, self.locale)
        if messages and messages[-1].get("role") == "tool":
            plan = after_writing(messages, lang) or plan_for(messages, offered, self.locale)
        else:
            plan = plan_writing(messages, offered, lang) or plan_for(messages, offered, self.locale)
        out = Completion()
        if plan.calls:
            out.tool_calls = [
                ToolCall(f"demo_{uuid.uuid4().hex[:8]}", name, json.dumps(args, ensure_ascii=False), args)
                for name, args in plan.calls
            ]
            out.finish_reason = "tool_calls"
            if plan.text:
                out.content = plan.text
                await self._stream(plan.text, emit)
        else:
            out.content = plan.text or answer_for(messages, self.locale)
            out.finish_reason = "stop"
            await self._stream(out.content, emit)
        # No usage: the demo spends no tokens, and a made-up count would only be noise under each answer.
        return out

    async def _stream(self, text: str, emit: Emit) -> None:
        for i in range(0, len(text), CHUNK):
            await emit(StreamEvent("text", text[i : i + CHUNK]))
            await asyncio.sleep(self.pause_s)


def open_client(
    store: Store,
    demo: bool,
    base_url: str | None = None,
    model: str | None = None,
    api_key_env: str | None = None,
    provider: str | None = None,
    locale: str = "zh",
) -> ModelClient | DemoModel | None:
    """The model that answers: the configured one (with this run's overrides), else in demo mode the demo
    model, else None (nothing can answer: the caller says how to set one up)."""
    config = with_overrides(load_config(store), base_url, model, provider)
    if config is not None:
        return ModelClient(config, load_key(config.provider, api_key_env))
    return DemoModel(locale=locale) if demo else None
