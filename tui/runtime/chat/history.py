"""Conversations in the one store: list, find, resume, delete, export to Markdown.

A message is kept whole, as the JSON the model API uses (`role`, `content`, `tool_calls`, `tool_call_id`,
`reasoning_content`), plus `_ui`: what only the student sees (a tool's full result, its status and duration,
token usage). Keys starting with `_` never go to the model.

The words of each message are also kept in a full-text index (`search.py`), written in the same transaction as
the message, so a search never finds a message that is gone nor misses one that was stored.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tui.runtime.audit import now_ms
from tui.runtime.chat import search
from tui.runtime.message import Message
from tui.runtime.store import Store
from tui.runtime.store_faults import GuardedConnection

TITLE_CHARS = 40
#: Tool statuses an export names in the reader's language.
STATUSES = ("ok", "error", "refused", "declined")


@dataclass(frozen=True)
class Conversation:
    """A conversation as lists show it; `snippet` is the text a search found in it (None for a listing, or when
    the title itself holds every word searched for)."""

    id: str
    title: str
    created_ms: int
    updated_ms: int
    snippet: str | None = None


def for_model(message: dict[str, Any]) -> dict[str, Any]:
    """The message as the model API takes it (UI-only keys removed)."""
    return {k: v for k, v in message.items() if not k.startswith("_")}


@contextlib.contextmanager
def _writing(store: Store) -> Iterator[GuardedConnection]:
    """The store's lock and one transaction around what the block writes: all of it is stored, or none."""
    with store.lock:
        db = store.db
        if db.in_transaction:  # part of a caller's transaction
            yield db
            return
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite may have rolled back itself (a full disk)
                db.execute("ROLLBACK")
            raise


class ChatHistory:
    """Conversations and their messages."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._indexed: bool | None = None

    @property
    def indexed(self) -> bool:
        """The messages' words are in a full-text index this SQLite can use (else a search reads the messages)."""
        if self._indexed is None:
            with self.store.lock:
                self._indexed = search.index_usable(self.store.db)
        return self._indexed

    @staticmethod
    def first_title(first_text: str) -> str:
        """The title a conversation starts with: its first message, on one line, cut to `TITLE_CHARS`."""
        return " ".join(first_text.split())[:TITLE_CHARS] or "…"

    def start(self, first_text: str) -> str:
        """A new conversation titled after its first message; returns its id."""
        cid = "c-" + uuid.uuid4().hex[:12]
        title = self.first_title(first_text)
        now = now_ms()
        with self.store.lock:
            self.store.db.execute(
                "INSERT INTO chat_sessions (id, title, created_ms, updated_ms) VALUES (?, ?, ?, ?)",
                (cid, title, now, now),
            )
        return cid

    def retitle(self, cid: str, title: str, was: str) -> bool:
        """Title the conversation `title` if it is still titled `was` (a title made while the student renamed
        it does not overwrite theirs); True when it changed."""
        with _writing(self.store) as db:
            changed = db.execute("UPDATE chat_sessions SET title = ? WHERE id = ? AND title = ?", (title, cid, was))
            return changed.rowcount == 1

    def conversations(self) -> list[Conversation]:
        """Newest first."""
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT id, title, created_ms, updated_ms FROM chat_sessions ORDER BY updated_ms DESC, id"
            ).fetchall()
        return [Conversation(*r) for r in rows]

    def find(self, cid: str) -> Conversation | None:
        """The conversation with this id, or None."""
        with self.store.lock:
            row = self.store.db.execute(
                "SELECT id, title, created_ms, updated_ms FROM chat_sessions WHERE id = ?", (cid,)
            ).fetchone()
        return Conversation(*row) if row else None

    def search(self, query: str, limit: int | None = None) -> list[Conversation]:
        """The conversations whose title, or one of whose messages, holds every word of `query` (newest first),
        each with the text found (`snippet`); every conversation when `query` has no words."""
        if not search.words(query):
            return self.conversations()[:limit]
        with self.store.lock:
            found = search.hits(self.store.db, query, self.indexed)
            titled = search.titled(self.store.db, query)
        out = []
        for c in self.conversations():
            if c.id not in found and c.id not in titled:
                continue
            text = found.get(c.id)
            # A title that shows every word needs no second line (it is the first question, usually the hit).
            shown = None if text is None or search.holds_all(c.title, query) else search.snippet(text, query)
            out.append(Conversation(c.id, c.title, c.created_ms, c.updated_ms, shown))
        return out[:limit]

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
        with _writing(self.store) as db:
            cur = db.execute(
                "INSERT INTO chat_messages (session, at_ms, role, content) VALUES (?, ?, ?, ?)",
                (cid, now, str(message.get("role", "")), body),
            )
            row_id = int(cur.lastrowid or 0)
            if self.indexed:
                search.add(db, row_id, message)
            db.execute("UPDATE chat_sessions SET updated_ms = ? WHERE id = ?", (now, cid))
        return row_id

    def truncate_from(self, cid: str, row_id: int) -> None:
        """Forget a message and everything after it (edit and resend, retry)."""
        with _writing(self.store) as db:
            if self.indexed:
                search.remove(db, cid, row_id)
            db.execute("DELETE FROM chat_messages WHERE session = ? AND id >= ?", (cid, row_id))

    def delete(self, cid: str) -> None:
        """Delete the conversation and its messages."""
        with _writing(self.store) as db:
            if self.indexed:
                search.remove(db, cid)
            db.execute("DELETE FROM chat_messages WHERE session = ?", (cid,))
            db.execute("DELETE FROM chat_sessions WHERE id = ?", (cid,))

    def export_markdown(self, cid: str, locale: str = "en") -> str:
        """The conversation as Markdown, in `locale`'s words: the student's messages, the answers, each tool call
        with its arguments and what came of it."""
        found = self.find(cid)
        title = found.title if found is not None else cid
        you, assistant = Message("export_you").text(locale), Message("export_assistant").text(locale)
        lines = [f"# {title}", ""]
        for m in self.messages(cid):
            role = m.get("role")
            if role == "user":
                lines += [f"**{you}:** {m.get('content', '')}", ""]
            elif role == "assistant":
                if m.get("content"):
                    lines += [f"**{assistant}:** {m['content']}", ""]
                for call in m.get("tool_calls") or []:
                    fn = call.get("function", {})
                    said = Message("export_call", name=fn.get("name"), arguments=fn.get("arguments") or "{}")
                    lines += [f"- {said.text(locale)}"]
            elif role == "tool":
                ui = m.get("_ui") or {}
                shown = json.dumps(ui.get("result"), ensure_ascii=False) if "result" in ui else m.get("content", "")
                status = str(ui.get("status", "ok"))
                word = Message(f"export_status_{status}").text(locale) if status in STATUSES else status
                lines += [f"  - {word}: `{str(shown)[:2000]}`", ""]
        return "\n".join(lines).rstrip() + "\n"
