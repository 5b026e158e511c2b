"""What the model is sent, and what that means for the next call: the conversation as model messages with every
tool call answered, and the turn's taint and sources derived from those same messages.

Taint belongs to the conversation, not to a turn object (issue 15 item 16): a tool message whose result was
untrusted, or that carries a plugin's error text (threats.md P6, I4), is marked in its `_ui` (`taint`: the tool
id; `_ui` never goes to the model). At the start of every round the agent derives the turn from the messages it
sends, so a new user turn, a retry (Ctrl+R removes the last answer, then runs the turn again) or a resumed
conversation is tainted exactly while the text is still among them — and when older messages are one day left
out of what is sent, their taint ends with them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tui.runtime.chat.history import for_model
from tui.runtime.gate import Turn
from tui.runtime.message import Message, from_json
from tui.runtime.registry import ToolInfo

#: The reply the model is sent for a call that has none in the history (the app stopped while it ran).
UNANSWERED = json.dumps(
    {"error": "no result was recorded for this call (the app stopped while it ran); it may or may not have run"}
)


def tool_ui(tool_id: str, status: str, taints: bool) -> dict[str, Any]:
    """The `_ui` keys that say where a tool message came from and whether it taints the conversation."""
    return {"tool": tool_id, "status": status, "taint": tool_id if taints else None}


def tool_message(ui: dict[str, Any]) -> str:
    """What a tool call's record says went wrong: the `Message` it kept (`said`), so a conversation opened later
    speaks the app's language, else the text as it was stored."""
    try:
        said = from_json(ui.get("said"))
    except ValueError:
        said = None
    return said if isinstance(said, Message) else str(ui.get("message", ""))


def _taint(ui: dict[str, Any], find: Callable[[str], ToolInfo | None]) -> str | None:
    if "taint" in ui:
        return str(ui["taint"]) if ui["taint"] else None
    # A message stored before the flag existed: an error text, or a result of a tool that is untrusted now.
    tool_id = str(ui.get("tool", ""))
    tool = find(tool_id) if tool_id else None
    if ui.get("status") == "error" or (tool is not None and tool.untrusted and ui.get("status") == "ok"):
        return tool_id or "an earlier tool"
    return None


def context_turn(cid: str, messages: list[dict[str, Any]], find: Callable[[str], ToolInfo | None]) -> Turn:
    """The turn as these messages (the ones the model is sent) make it: taint, its sources, the plugins whose
    results are in them, and what the student wrote."""
    turn = Turn(session_id=cid)
    said = []
    for m in messages:
        if m.get("role") == "user" and isinstance(m.get("content"), str):
            said.append(m["content"])
        if m.get("role") != "tool":
            continue
        raw = m.get("_ui")
        ui: dict[str, Any] = raw if isinstance(raw, dict) else {}
        source = _taint(ui, find)
        if source is not None:
            turn.tainted = True
            if source not in turn.taint_sources:
                turn.taint_sources.append(source)
        tool = find(str(ui.get("tool", ""))) if ui.get("tool") else None
        if tool is not None and ui.get("status") in ("ok", "error") and tool.plugin_id not in turn.plugins_seen:
            turn.plugins_seen.append(tool.plugin_id)
    turn.student_text = "\n".join(said)
    return turn


def model_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored messages as the model API takes them, each assistant tool call followed by its reply.

    Model servers refuse a history with a `tool_call_id` left unanswered (and a tool message without its call),
    so a conversation the app stopped in the middle of a call — killed, or from before every call was answered
    — would otherwise fail every later request. The missing reply is filled in here, never stored.
    """
    out: list[dict[str, Any]] = []
    pending: list[str] = []

    def close() -> None:
        out.extend({"role": "tool", "tool_call_id": call_id, "content": UNANSWERED} for call_id in pending)
        pending.clear()

    for m in messages:
        if m.get("role") == "tool":
            call_id = str(m.get("tool_call_id"))
            if call_id in pending:
                pending.remove(call_id)
                out.append(for_model(m))
            continue  # a reply whose call is gone would be refused
        close()
        sent = for_model(m)
        if sent.get("role") == "assistant" and sent.get("content") is None:
            # A call without text is stored as null (as servers send it); llama-cpp-python's server refuses null
            # in a request (HTTP 500, "Input should be a valid string": scripts/real_model_check.sh), "" passes
            # everywhere.
            sent["content"] = ""
        out.append(sent)
        if m.get("role") == "assistant":
            pending.extend(str(c.get("id")) for c in m.get("tool_calls") or [] if isinstance(c, dict))
    close()
    return out
