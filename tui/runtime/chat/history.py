"""Conversations in the one store: list, resume, delete, export to Markdown.

A message is kept whole, as the JSON the model API uses (`role`, `content`, `tool_calls`, `tool_call_id`,
`reasoning_content`), plus `_ui`: what only the student sees (a tool's full result, its status and duration,
token usage). Keys starting with `_` never go to the model.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from tui.runtime.audit import now_ms
from tui.runtime.store import Store

TITLE_CHARS = 40


@dataclass(frozen=True)
class Conversation:
    id: str
    title: str
    created_ms: int
    updated_ms: int


def for_model(message: dict[str, Any]) -> dict[str, Any]:
    """The message as the model API takes it (UI-only keys removed)."""
    return {k: v for k, v in message.items() if not k.startswith("_")}


class ChatHistory:
    """Conversations and their messages."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def start(self, first_text: str) -> str:
        """A new conversation titled after its first message; returns its id."""
        cid = "c-" + uuid.uuid4().hex[:12]
        title = " ".join(first_text.split())[:TITLE_CHARS] or "…"
        now = now_ms()
        with self.store.lock:
            self.store.db.execute(
                "INSERT INTO chat_sessions (id, title, created_ms, updated_ms) VALUES (?, ?, ?, ?)",
                (cid, title, now, now),
            )
        return cid

    def conversations(self) -> list[Conversation]:
        """Newest first."""
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT id, title, created_ms, updated_ms FROM chat_sessions ORDER BY updated_ms DESC, id"
            ).fetchall()
        return [Conversation(*r) for r in rows]

    def messages(self, cid: str) -> list[dict[str, Any]]:
        """The conversation's messages in order, each with `_id` (its row, for edit and retry)."""
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT id, content FROM chat_messages WHERE session = ? ORDER BY id", (cid,)
            ).fetchall()
        out = []
        for row_id, content in rows:
            try:
                message = json.loads(content)
            except ValueError:
                continue  # a damaged row loses one message, never the conversation
            if isinstance(message, dict):
                message["_id"] = row_id
                out.append(message)
        return out

    def append(self, cid: str, message: dict[str, Any]) -> int:
        """Store a message; returns its row id."""
        body = json.dumps({k: v for k, v in message.items() if k != "_id"}, ensure_ascii=False)
        now = now_ms()
        with self.store.lock:
            cur = self.store.db.execute(
                "INSERT INTO chat_messages (session, at_ms, role, content) VALUES (?, ?, ?, ?)",
                (cid, now, str(message.get("role", "")), body),
            )
            self.store.db.execute("UPDATE chat_sessions SET updated_ms = ? WHERE id = ?", (now, cid))
        return int(cur.lastrowid or 0)

    def truncate_from(self, cid: str, row_id: int) -> None:
        """Forget a message and everything after it (edit and resend, retry)."""
        with self.store.lock:
            self.store.db.execute("DELETE FROM chat_messages WHERE session = ? AND id >= ?", (cid, row_id))

    def delete(self, cid: str) -> None:
        with self.store.lock:
            self.store.db.execute("DELETE FROM chat_messages WHERE session = ?", (cid,))
            self.store.db.execute("DELETE FROM chat_sessions WHERE id = ?", (cid,))

    def export_markdown(self, cid: str) -> str:
        """The conversation as Markdown: the student's words, the answers, and each tool call with its result."""
        title = next((c.title for c in self.conversations() if c.id == cid), cid)
        lines = [f"# {title}", ""]
        for m in self.messages(cid):
            role = m.get("role")
            if role == "user":
                lines += [f"**You:** {m.get('content', '')}", ""]
            elif role == "assistant":
                if m.get("content"):
                    lines += [f"**Assistant:** {m['content']}", ""]
                for call in m.get("tool_calls") or []:
                    fn = call.get("function", {})
                    lines += [f"- tool `{fn.get('name')}` with `{fn.get('arguments') or '{}'}`"]
            elif role == "tool":
                ui = m.get("_ui") or {}
                shown = json.dumps(ui.get("result"), ensure_ascii=False) if "result" in ui else m.get("content", "")
                lines += [f"  - {ui.get('status', 'done')}: `{str(shown)[:2000]}`", ""]
        return "\n".join(lines).rstrip() + "\n"
