"""Fitting a conversation into the model's context window before each request.

Every request used to send the whole history: 17 KB at the first turn, 157 KB (about 39k tokens) after 220 — a
4k local model overflowed after a dozen turns, and every turn cost more. Now, when the request would not fit
in the window less the answer's `max_tokens` (and a margin for the estimate's error), in this order:

1. tool results older than the last `KEEP_TURNS` turns become a stub, oldest first
   (`[result of classrooms__free, 2 KB, kept in the UI]`): the student still sees them whole;
2. the oldest turns are left out, oldest first, and a summary says what they were (the student's questions
   and the tools used) — it goes into the system prompt, and the chat shows it as one collapsed line;
3. when the last turns alone are too big, results in them are stubbed too (never those of the turn running).

The system prompt, the plugins' instructions and the tools are always sent whole. A stubbed or left-out result
is no longer sent, so it no longer taints the conversation (taint is computed from what is sent: context.py).

Tokens are estimated, not counted: no tokenizer is shared by the providers, and the estimate errs high (a CJK
character as one token, other text four characters a token, plus a few tokens a message) so a request that
fits here fits the server's count.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

#: Turns (a student's message and what followed it) always sent whole when they fit.
KEEP_TURNS = 4
#: Turns are left out this many at a time (see `fit`).
LEAVE_STEP = 5
#: Share of the window left for the estimate's error.
MARGIN = 0.08
SUMMARY_CHARS = 1_500
QUESTION_CHARS = 80


def estimate_tokens(text: str) -> int:
    """Tokens `text` takes, estimated high: a CJK character (or other wide one) is one, other text 4 chars one."""
    wide = sum(1 for ch in text if ord(ch) >= 0x2E80)
    return wide + (len(text) - wide + 3) // 4


def message_tokens(message: dict[str, Any]) -> int:
    """A message as the API sends it (UI-only keys do not count)."""
    total = 4
    content = message.get("content")
    if isinstance(content, str):
        total += estimate_tokens(content)
    for call in message.get("tool_calls") or []:
        if isinstance(call, dict):
            fn = call.get("function") or {}
            total += 8 + estimate_tokens(str(fn.get("name", ""))) + estimate_tokens(str(fn.get("arguments", "")))
    reasoning = message.get("reasoning_content")
    if isinstance(reasoning, str):
        total += estimate_tokens(reasoning)
    return total


def tools_tokens(tools: list[dict[str, Any]]) -> int:
    return estimate_tokens(json.dumps(tools, ensure_ascii=False)) if tools else 0


def split_turns(messages: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Messages grouped by turn: each group starts at a user message (anything before the first one belongs to
    the first turn)."""
    turns: list[list[dict[str, Any]]] = []
    for m in messages:
        if m.get("role") == "user" or not turns:
            turns.append([])
        turns[-1].append(m)
    if len(turns) > 1 and not any(m.get("role") == "user" for m in turns[0]):
        turns[1] = turns[0] + turns[1]
        turns.pop(0)
    return turns


@dataclass
class Fitted:
    """What one request sends of the conversation."""

    messages: list[dict[str, Any]]
    """The stored messages to send (stubbed ones replaced), in order, with their `_ui`."""
    summary: str = ""
    """What the left-out turns were (empty when none were left out)."""
    left_out: int = 0
    """Turns left out (said by the summary)."""
    stubbed: int = 0
    tokens: int = 0
    """The estimate for the whole prompt (system, tools and messages)."""


def model_tool_name(tool_id: str) -> str:
    return tool_id.replace(".", "__", 1)


def stub(message: dict[str, Any]) -> dict[str, Any]:
    """A tool message whose result stays in the UI only."""
    raw = message.get("_ui")
    ui: dict[str, Any] = raw if isinstance(raw, dict) else {}
    name = model_tool_name(str(ui.get("tool") or "a tool"))
    size = len(str(message.get("content") or "").encode())
    shown = f"{size / 1024:.0f} KB" if size >= 1024 else f"{size} bytes"
    return {
        "role": "tool",
        "tool_call_id": message.get("tool_call_id"),
        "content": f"[result of {name}, {shown}, kept in the UI]",
        "_ui": {"tool": ui.get("tool", ""), "status": "stub"},
        "_id": message.get("_id"),
    }


def summarise(turns: list[list[dict[str, Any]]]) -> str:
    """The left-out turns in a few lines: the student's questions (latest kept when too many) and the tools
    used. Only the student's words and tool names: no tool result, so nothing untrusted is carried on."""
    questions, tools = [], []
    for turn in turns:
        for m in turn:
            if m.get("role") == "user" and isinstance(m.get("content"), str):
                q = " ".join(m["content"].split())
                questions.append(q if len(q) <= QUESTION_CHARS else q[: QUESTION_CHARS - 1] + "…")
            raw = m.get("_ui")
            if m.get("role") == "tool" and isinstance(raw, dict) and raw.get("tool"):
                name = model_tool_name(str(raw["tool"]))
                if name not in tools:
                    tools.append(name)
    head = f"{len(turns)} earlier turns of this conversation are not included. The student asked, in order:"
    lines = [f"- {q}" for q in questions]
    tail = f"Tools used then: {', '.join(tools)}." if tools else ""
    while lines and len("\n".join([head, *lines, tail])) > SUMMARY_CHARS:
        lines.pop(0)  # the latest questions say most about what comes next
        if lines and lines[0] != "- …":
            lines[0] = "- …"
    return "\n".join(x for x in [head, *lines, tail] if x)


def fit(system: str, tools: list[dict[str, Any]], stored: list[dict[str, Any]], window: int, answer: int) -> Fitted:
    """The conversation as one request can hold it (module docstring). `stored` are the messages as kept."""
    budget = int(window * (1 - MARGIN)) - answer
    fixed = estimate_tokens(system) + tools_tokens(tools) + 4
    turns = [list(turn) for turn in split_turns(stored)]
    sizes = [[message_tokens(m) for m in turn] for turn in turns]
    total = fixed + sum(map(sum, sizes))
    out = Fitted(messages=stored, tokens=total)
    if total <= budget:
        return out
    old = max(0, len(turns) - KEEP_TURNS)
    stubbed = [[message_tokens(stub(m)) if _result(m) else size for m, size in zip(turn, row, strict=True)]
               for turn, row in zip(turns[:old], sizes[:old], strict=True)]  # fmt: skip
    every_stub = total - sum(map(sum, sizes[:old])) + sum(map(sum, stubbed))
    if every_stub <= budget:  # stubs are enough: as few as needed, oldest first
        for i in range(old):
            for j, m in enumerate(turns[i]):
                if total > budget and _result(m):
                    total += stubbed[i][j] - sizes[i][j]
                    turns[i][j] = stub(m)
                    out.stubbed += 1
        out.messages = [m for turn in turns for m in turn]
        out.tokens = total
        return out
    # Every old result a stub, and the oldest turns left out (the summary in their place). Decided on the stubbed
    # sizes, which do not change once a turn is old: what is left out only grows as the conversation does.
    for i in range(old):
        for j, m in enumerate(turns[i]):
            if _result(m):
                turns[i][j] = stub(m)
                out.stubbed += 1
        sizes[i] = stubbed[i]
    total = every_stub
    first = 0
    while first < len(turns) - 1 and total + (estimate_tokens(summarise(turns[:first])) if first else 0) > budget:
        total -= sum(sizes[first])
        first += 1
    # In steps of LEAVE_STEP turns: what is sent then starts the same way for several turns (a provider's prompt
    # cache keeps working, and the chat's note changes rarely), at the cost of a few turns more.
    first = min(len(turns) - 1, -(-first // LEAVE_STEP) * LEAVE_STEP)
    total = fixed + sum(sum(row) for row in sizes[first:])
    out.summary = summarise(turns[:first])
    out.left_out = first
    total += estimate_tokens(out.summary)
    if total > budget:  # the last turns alone are too big: their results go too (never the running turn's)
        for i in range(first, len(turns) - 1):
            for j, m in enumerate(turns[i]):
                if total > budget and _result(m):
                    short = stub(m)
                    total += message_tokens(short) - sizes[i][j]
                    turns[i][j] = short
                    out.stubbed += 1
    out.messages = [m for turn in turns[first:] for m in turn]
    out.tokens = total
    return out


def _result(m: dict[str, Any]) -> bool:
    """A tool result still sent whole."""
    ui = m.get("_ui")
    return m.get("role") == "tool" and not (isinstance(ui, dict) and ui.get("status") == "stub")
