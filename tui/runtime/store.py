"""The app's one SQLite database (architecture.md rule 5), with versioned migrations.

Tables: plugin KV, permission grants, the audit log, todos, timetable, schedules, memory, chat history and
installed plugins. Secrets never live here (they are in keyring). One connection, shared by the services of
the runtime behind a lock; WAL so readers do not wait for a writer and a killed process leaves no torn value.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

#: Each migration moves the schema from version N-1 to N; never edit one that has shipped, add another.
MIGRATIONS: list[str] = [
    # 1: the first schema
    """
    CREATE TABLE plugin_kv (
        plugin TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, size INTEGER NOT NULL, expires_ms INTEGER,
        PRIMARY KEY (plugin, key)
    ) WITHOUT ROWID;
    CREATE TABLE grants (
        plugin TEXT NOT NULL, effect TEXT NOT NULL, mode TEXT NOT NULL CHECK (mode IN ('allow', 'ask', 'deny')),
        changed_ms INTEGER NOT NULL, PRIMARY KEY (plugin, effect)
    ) WITHOUT ROWID;
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms INTEGER NOT NULL, tool TEXT NOT NULL, actor TEXT NOT NULL,
        effect TEXT NOT NULL, mode TEXT NOT NULL, decision TEXT NOT NULL, duration_ms INTEGER NOT NULL,
        outcome TEXT NOT NULL, detail TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE todos (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, due TEXT, done INTEGER NOT NULL DEFAULT 0, source TEXT,
        created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL
    );
    CREATE TABLE timetable (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, weekday INTEGER NOT NULL, start TEXT NOT NULL, end TEXT NOT NULL,
        place TEXT, weeks TEXT, source TEXT, updated_ms INTEGER NOT NULL
    );
    CREATE TABLE schedules (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, cron TEXT NOT NULL, kind TEXT NOT NULL, spec TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL
    );
    CREATE TABLE memory (
        id TEXT PRIMARY KEY, text TEXT NOT NULL, created_ms INTEGER NOT NULL
    );
    CREATE TABLE chat_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT NOT NULL, at_ms INTEGER NOT NULL, role TEXT NOT NULL,
        content TEXT NOT NULL
    );
    CREATE INDEX chat_by_session ON chat_messages (session, id);
    CREATE TABLE installed_plugins (
        id TEXT PRIMARY KEY, source TEXT NOT NULL, version TEXT NOT NULL, content_hash TEXT NOT NULL,
        official INTEGER NOT NULL, auto_update INTEGER NOT NULL DEFAULT 1, previous TEXT,
        installed_ms INTEGER NOT NULL
    );
    """,
    # 2: the dashboard's cache of data sources (last good value, when it was fetched)
    """
    CREATE TABLE data_cache (
        plugin TEXT NOT NULL, source TEXT NOT NULL, value TEXT NOT NULL, fetched_ms INTEGER NOT NULL,
        PRIMARY KEY (plugin, source)
    ) WITHOUT ROWID;
    """,
    # 3: the student's app settings (language, theme), one JSON value per key
    """
    CREATE TABLE app_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    """,
    # 4: installed plugins' version folders, the commit they came from, a paused update, a declined one
    """
    ALTER TABLE installed_plugins ADD COLUMN commit_sha TEXT;
    ALTER TABLE installed_plugins ADD COLUMN dir TEXT NOT NULL DEFAULT '';
    ALTER TABLE installed_plugins ADD COLUMN pending TEXT;
    ALTER TABLE installed_plugins ADD COLUMN declined_hash TEXT;
    ALTER TABLE installed_plugins ADD COLUMN checked_ms INTEGER;
    """,
    # 5: conversations with the assistant (their messages are rows of chat_messages, one JSON message each)
    """
    CREATE TABLE chat_sessions (
        id TEXT PRIMARY KEY, title TEXT NOT NULL, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
    """,
    # 6: scheduled checks run by themselves: when next, what they saw last, a lease; their run log; notifications
    """
    ALTER TABLE schedules ADD COLUMN next_ms INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE schedules ADD COLUMN last_ms INTEGER;
    ALTER TABLE schedules ADD COLUMN last_result TEXT;
    ALTER TABLE schedules ADD COLUMN last_error TEXT;
    ALTER TABLE schedules ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE schedules ADD COLUMN lease_until_ms INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE schedule_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT, schedule TEXT NOT NULL, at_ms INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL, outcome TEXT NOT NULL, detail TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX runs_by_schedule ON schedule_runs (schedule, id);
    CREATE TABLE notifications (
        id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms INTEGER NOT NULL, source TEXT NOT NULL, title TEXT NOT NULL,
        message TEXT NOT NULL, result TEXT, session TEXT, read INTEGER NOT NULL DEFAULT 0
    );
    """,
    # 7: an assistant task a plugin created waits for the student's approval before its first run (issue 15);
    # the ones already stored from a plugin (not the student's own: `user`, or `scheduler` for the assistant's
    # host tool the student approved) wait too
    """
    ALTER TABLE schedules ADD COLUMN awaiting_approval INTEGER NOT NULL DEFAULT 0;
    UPDATE schedules SET awaiting_approval = 1 WHERE kind = 'prompt'
        AND coalesce(json_extract(spec, '$.source'), 'user') NOT IN ('user', 'scheduler');
    """,
]


def default_path() -> Path:
    """The database in the platformdirs data directory (PKU_HARNESS_DATA overrides the directory)."""
    import os

    from platformdirs import user_data_dir

    base = Path(os.environ.get("PKU_HARNESS_DATA") or user_data_dir("pku-harness"))
    base.mkdir(parents=True, exist_ok=True)
    return base / "pku-harness.sqlite3"


class Store:
    """The database: migrated on open; services share its connection and lock."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = str(path if path is not None else default_path())
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)  # `--data-dir` may name a new folder
        self.lock = threading.RLock()
        """Serialises use of the one connection across worker threads."""
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.migrate()

    @property
    def version(self) -> int:
        """The schema version in the file."""
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def migrate(self) -> None:
        """Apply every migration the file has not seen, each in its own transaction."""
        with self.lock:
            for number, sql in enumerate(MIGRATIONS, start=1):
                if self.version >= number:
                    continue
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in sql.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version = {number}")
                    self.db.execute("COMMIT")
                except BaseException:
                    self.db.execute("ROLLBACK")
                    raise

    def close(self) -> None:
        """Close the connection."""
        self.db.close()
