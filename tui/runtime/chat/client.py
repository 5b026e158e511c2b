"""One chat completion from an OpenAI-compatible server through the official `openai` SDK, streamed.

The SDK's own retries are off: waiting is something the student sees (a 429's Retry-After counts down in the
chat), so this module retries itself — 429 and 503 after Retry-After (at most 60 s, three times), other 5xx twice
with a short backoff. Errors become a `ModelError` whose `kind` the UI maps to an action (fix the key, top up,
check the model name, wait). Every request says how long the answer may be (`max_tokens`); a server that sends
no usage (llama.cpp) gets an estimate, marked as one. The SDK takes half a second to import, so it is imported
on the first request, never at start-up — on a worker thread, so the screen (the spinner saying the assistant
works) keeps moving.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from tui.runtime.chat.accumulator import ToolCall, ToolCallAccumulator
from tui.runtime.chat.context_window import estimate_tokens, message_tokens, tools_tokens
from tui.runtime.chat.providers import ModelConfig
from tui.runtime.message import Message

ErrorKind = Literal["auth", "balance", "model", "rate", "server", "timeout", "network", "dropped", "bad_request"]

#: The longest Retry-After the app waits for by itself; longer ones are shown and left to the student.
MAX_WAIT_S = 60.0
RATE_RETRIES = 3
SERVER_RETRIES = 2


class ModelError(Exception):
    """A request that failed; `kind` says what the student can do about it."""

    def __init__(self, kind: ErrorKind, message: str, status: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.retry_after = retry_after


@dataclass
class Usage:
    prompt: int = 0
    completion: int = 0
    total: int = 0
    estimated: bool = False
    """The server said nothing: these are the app's estimate (shown with ≈)."""


@dataclass
class Completion:
    """What the model said in one request."""

    content: str = ""
    reasoning: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    usage: Usage | None = None


@dataclass(frozen=True)
class StreamEvent:
    """Something to show while a request runs: text, reasoning, or a wait before a retry."""

    kind: Literal["text", "reasoning", "wait"]
    text: str = ""
    seconds: float = 0.0


Emit = Callable[[StreamEvent], Awaitable[None]]


class Model(Protocol):
    """What answers the agent: a model server (`ModelClient`) or the offline demo model (`demo_model.py`)."""

    config: ModelConfig

    async def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], emit: Emit
    ) -> Completion: ...  # fmt: skip

    async def close(self) -> None: ...


class ModelClient:
    """Requests to one configured model."""

    def __init__(self, config: ModelConfig, api_key: str | None, timeout_s: float = 120.0) -> None:
        self.config = config
        self.api_key = api_key
        self.timeout_s = timeout_s
        self._client: Any = None
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How waits happen (tests make them instant)."""

    def _sdk(self) -> Any:
        if self._client is None:
            from openai import AsyncOpenAI

            self._client = AsyncOpenAI(
                api_key=self.api_key or "not-needed",  # local servers accept any key; the SDK insists on one
                base_url=self.config.base_url,
                max_retries=0,
                timeout=self.timeout_s,
            )
        return self._client

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], emit: Emit) -> Completion:
        """One completion, retried as the module docstring says.

        Raises:
            ModelError: what failed, mapped for the student.
        """
        rate_tries = server_tries = 0
        while True:
            try:
                return await self._once(messages, tools, emit)
            except ModelError as e:
                wait = e.retry_after if e.retry_after is not None else 2.0 * (rate_tries + 1)
                if e.kind == "rate" and wait <= MAX_WAIT_S and rate_tries < RATE_RETRIES:
                    rate_tries += 1
                    await self._wait(wait, emit)
                    continue
                if e.kind == "server" and server_tries < SERVER_RETRIES:
                    server_tries += 1
                    await self._wait(float(server_tries), emit)
                    continue
                raise

    async def _wait(self, seconds: float, emit: Emit) -> None:
        left = max(0.0, seconds)
        while left > 0:
            await emit(StreamEvent("wait", seconds=left))
            step = min(1.0, left)
            await self.sleep(step)
            left -= step
        await emit(StreamEvent("wait", seconds=0.0))

    async def _once(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], emit: Emit) -> Completion:
        if "openai" not in sys.modules:
            await asyncio.to_thread(importlib.import_module, "openai")
        import openai

        stream = self.config.preset.stream_tools or not tools
        # The conversation and the tools go in `extra_body`, which the SDK sends as given: passed as `messages`
        # and `tools` it first walks them against its TypedDicts (`_transform_recursive`), a no-op for these
        # types that cost ~60 ms a request at turn 200 and made a long chat's turns 1.5x slower (bench_chat.py).
        body: dict[str, Any] = {"messages": messages}
        request: dict[str, Any] = {
            "model": self.config.model,
            "messages": [],
            "stream": stream,
            "max_tokens": self.config.answer_tokens,
            "extra_body": body,
        }
        if tools:
            body["tools"] = tools
            if self.config.preset.tool_choice:
                request["tool_choice"] = self.config.preset.tool_choice
        if stream:
            request["stream_options"] = {"include_usage": True}
        started = time.monotonic()
        out = Completion()
        acc = ToolCallAccumulator()
        try:
            response = await self._sdk().chat.completions.create(**request)
            if not stream:
                whole = _whole(response)
                if whole.reasoning:
                    await emit(StreamEvent("reasoning", whole.reasoning))
                if whole.content:
                    await emit(StreamEvent("text", whole.content))
                return _estimated(whole, messages, tools)
            received = False
            async for chunk in response:
                received = True
                _usage(chunk, out)
                for choice in getattr(chunk, "choices", None) or []:
                    delta = choice.delta
                    if choice.finish_reason:
                        out.finish_reason = choice.finish_reason
                    if delta is None:
                        continue
                    reasoning = getattr(delta, "reasoning_content", None) or getattr(delta, "reasoning", None)
                    if isinstance(reasoning, str) and reasoning:
                        out.reasoning += reasoning
                        await emit(StreamEvent("reasoning", reasoning))
                    if delta.content:
                        out.content += delta.content
                        await emit(StreamEvent("text", delta.content))
                    for call in delta.tool_calls or []:
                        acc.feed(call)
            if not received:
                raise ModelError("dropped", Message("model_dropped_empty"))
        except openai.APIStatusError as e:
            raise _status_error(e) from None
        except openai.APITimeoutError:
            raise ModelError("timeout", Message("model_timeout", seconds=f"{time.monotonic() - started:.0f}")) from None
        except openai.APIConnectionError as e:
            kind: ErrorKind = "dropped" if out.content or acc else "network"
            cause = str(e.__cause__ or e)
            raise ModelError(kind, Message("model_connect", url=self.config.base_url, cause=cause)) from None
        except openai.APIError as e:  # a malformed stream, an error event inside the stream
            raise ModelError("dropped", Message("model_stream_broke", cause=str(e))) from None
        out.tool_calls = acc.finish()
        return _estimated(out, messages, tools)


def _estimated(out: Completion, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Completion:
    """The completion with usage: the server's, or an estimate when it sent none."""
    if out.usage is None:
        prompt = sum(message_tokens(m) for m in messages) + tools_tokens(tools)
        answer = estimate_tokens(out.content) + estimate_tokens(out.reasoning)
        answer += sum(estimate_tokens(c.name) + estimate_tokens(c.arguments_text or "") for c in out.tool_calls)
        out.usage = Usage(prompt, answer, prompt + answer, estimated=True)
    return out


def _usage(chunk: Any, out: Completion) -> None:
    usage = getattr(chunk, "usage", None)
    if usage is not None:
        out.usage = Usage(
            int(getattr(usage, "prompt_tokens", 0) or 0),
            int(getattr(usage, "completion_tokens", 0) or 0),
            int(getattr(usage, "total_tokens", 0) or 0),
        )


def _whole(response: Any) -> Completion:
    out = Completion()
    _usage(response, out)
    choice = (response.choices or [None])[0]
    if choice is None:
        return out
    message = choice.message
    out.finish_reason = choice.finish_reason
    out.content = message.content or ""
    reasoning = getattr(message, "reasoning_content", None) or getattr(message, "reasoning", None)
    out.reasoning = reasoning if isinstance(reasoning, str) else ""
    acc = ToolCallAccumulator()
    for index, call in enumerate(message.tool_calls or []):
        function = {"name": call.function.name, "arguments": call.function.arguments}
        acc.feed({"index": index, "id": call.id, "function": function})
    out.tool_calls = acc.finish()
    return out


def _status_error(e: Any) -> ModelError:
    status = int(getattr(e, "status_code", 0) or 0)
    body = getattr(e, "message", str(e))
    retry_after = None
    headers = getattr(getattr(e, "response", None), "headers", None) or {}
    raw = headers.get("retry-after") if hasattr(headers, "get") else None
    if raw is not None:
        try:
            retry_after = max(0.0, float(raw))
        except ValueError:
            retry_after = None
    if status in (401, 403):
        return ModelError("auth", Message("model_auth", status=status, body=body), status)
    if status == 402:
        return ModelError("balance", Message("model_balance", body=body), status)
    if status == 404:
        return ModelError("model", Message("model_unknown", body=body), status)
    if status in (429, 503):
        return ModelError("rate", Message("model_busy", status=status, body=body), status, retry_after)
    if status >= 500:
        return ModelError("server", Message("model_failed", status=status, body=body), status)
    return ModelError("bad_request", Message("model_refused", status=status, body=body), status)
