"""Notifications from checks: kept in the store (the app's notification centre), announced to listeners (the
app's toasts) and, where `notify-send` exists, to the desktop. Their text is shown, never given to the model: a
`Message` is kept with its key (`message.stored`), so the app says it in its language, and the desktop in the
student's chosen one."""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tui.runtime.audit import now_ms
from tui.runtime.message import Message, restored, say, stored
from tui.runtime.settings import AppSettings
from tui.runtime.store import Store
from widgets_render.safe_text import clean


@dataclass(frozen=True)
class Notice:
    """One notification."""

    id: int
    at_ms: int
    source: str
    """The check's id."""
    title: str
    message: str
    result: Any
    session: str | None
    """The conversation an assistant task wrote, to open it."""
    read: bool


class Notices:
    """The notification centre's store."""

    def __init__(self, store: Store, desktop: bool = True) -> None:
        self.store = store
        self.desktop = desktop
        self.listeners: list[Callable[[Notice], None]] = []

    def add(self, source: str, title: str, message: str, result: Any = None, session: str | None = None) -> Notice:
        """Store a notification and announce it."""
        # Third-party text: no control codes (a message's arguments are cleaned where it is shown, as said).
        title = clean(title)[:80]
        if not isinstance(message, Message) or len(message) > 1000:
            message = clean(message)[:1000]
        at = now_ms()
        with self.store.lock:
            cur = self.store.db.execute(
                "INSERT INTO notifications (at_ms, source, title, message, result, session) VALUES (?, ?, ?, ?, ?, ?)",
                (at, source, title, stored(message), json.dumps(result, ensure_ascii=False), session),
            )
        notice = Notice(int(cur.lastrowid or 0), at, source, title, message, result, session, False)
        for listener in self.listeners:
            listener(notice)
        if self.desktop:
            send_desktop(title, say(message, AppSettings(self.store).get("language"))[:1000])
        return notice

    def all(self, limit: int = 100) -> list[Notice]:
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT id, at_ms, source, title, message, result, session, read FROM notifications "
                "ORDER BY id DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [
            Notice(r[0], r[1], r[2], r[3], restored(r[4]), json.loads(r[5]) if r[5] else None, r[6], bool(r[7]))
            for r in rows
        ]

    def unread(self) -> int:
        with self.store.lock:
            return int(self.store.db.execute("SELECT count(*) FROM notifications WHERE read = 0").fetchone()[0])

    def mark_read(self, notice_id: int | None = None) -> None:
        """Mark one (or every) notification read."""
        with self.store.lock:
            if notice_id is None:
                self.store.db.execute("UPDATE notifications SET read = 1 WHERE read = 0")
            else:
                self.store.db.execute("UPDATE notifications SET read = 1 WHERE id = ?", (notice_id,))


def desktop_text(text: str) -> str:
    """Plugin text as notify-send shows it: cleaned, and `&`, `<`, `>` escaped, since notification servers read
    the body (some also the summary) as markup, where `<a href>` and `<img src>` would link or load a file."""
    return html.escape(clean(text), quote=False)


def send_desktop(title: str, message: str) -> bool:
    """A desktop notification through `notify-send`, where it exists (never fails the run). The texts come after
    `--`, so a title like `--icon=…` or `-u critical` is text, not an option."""
    binary = shutil.which("notify-send")
    if binary is None:
        return False
    argv = [binary, "--app-name=PKU harness", "--", desktop_text(title), desktop_text(message)]
    try:
        subprocess.run(argv, timeout=5, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return False
    return True
