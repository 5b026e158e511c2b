"""The app's one SQLite database (architecture.md rule 5), with versioned migrations.

Tables: plugin KV, permission grants, the audit log, todos, timetable, schedules, memory, chat history,
installed plugins and the remote tools the student approved. Secrets never live here (they are in keyring). One
connection, shared by the services of the runtime behind a lock; WAL so readers do not wait for a writer and a
killed process leaves no torn value.

Opening never changes a file it refuses: the header is read first (a folder, a foreign or truncated file, a
newer schema), then the file is checked through a read-only connection (`user_version`, `PRAGMA quick_check`),
and only then is it opened for writing, copied (before a migration) and migrated. A data folder the app may not
write is opened read-only: reading commands work, and the first write is a `StoreError`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

from tui.runtime.chat.search import create_index
from tui.runtime.store_faults import (
    ELSEWHERE,
    MIN_FREE_BYTES,
    GuardedConnection,
    StoreError,
    check_opened,
    connect,
    free_bytes,
    full,
    os_fault,
    probe_header,
    read_only,
    side_files,
    translate,
)
from tui.runtime.store_lock import opening

#: A migration: SQL statements, or a step in Python given the connection (for one SQL alone cannot write).
Migration = str | Callable[[sqlite3.Connection], None]

#: Each migration moves the schema from version N-1 to N; never edit one that has shipped, add another.
MIGRATIONS: list[Migration] = [
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
    # 8: this database's own id: the version folders it writes carry it, so another database never sweeps them
    """
    INSERT OR IGNORE INTO app_settings (key, value) VALUES ('store_id', '"' || lower(hex(randomblob(16))) || '"');
    """,
    # 9: the search over earlier conversations: a full-text index (FTS5, trigram) of the words of each message,
    # filled from the messages already stored; none on an SQLite without FTS5 (chat/search.py)
    create_index,
    # 10: an audit row made while an author's dev origins were in force names them (dev_origins.py)
    """
    ALTER TABLE audit ADD COLUMN dev TEXT NOT NULL DEFAULT '';
    """,
    # 11: the tools of remote plugins' MCP servers the student approved: each one's pin (the hash of its name,
    # description, schemas and annotations) and the effect the student chose for it (issue 22)
    """
    CREATE TABLE remote_tools (
        plugin TEXT NOT NULL, tool TEXT NOT NULL, pin TEXT NOT NULL,
        effect TEXT NOT NULL CHECK (effect IN ('read', 'write', 'money', 'public')), approved_ms INTEGER NOT NULL,
        PRIMARY KEY (plugin, tool)
    ) WITHOUT ROWID;
    """,
]

#: How many copies made before a migration are kept beside the database (the newest ones).
KEEP_BACKUPS = 3

#: Files up to this size get `PRAGMA quick_check` at every open (it reads every page: about 1 ms a megabyte, 30
#: ms for a year of heavy use); a larger one gets it before a migration only, and the header's O(1) checks
#: (which catch truncation) always.
QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024


def default_path() -> Path:
    """The database in the platformdirs data directory (PKU_HARNESS_DATA overrides the directory)."""
    from platformdirs import user_data_dir

    base = Path(os.environ.get("PKU_HARNESS_DATA") or user_data_dir("pku-harness"))
    return base / "pku-harness.sqlite3"


class Store:
    """The database: checked, then migrated on open; services share its connection and lock.

    Raises:
        StoreError: the file is damaged, newer than this app, cannot be created, or the disk is full (the
            message names the file and what to do; the file is left as it was).
    """

    def __init__(self, path: str | Path | None = None, read_only: bool | None = None) -> None:
        """Open (or create) the database at `path`; `read_only` True opens it for reading even when it could be
        written, None (the default) opens it read-only only when the file or its folder cannot be written."""
        self.path = str(path if path is not None else default_path())
        self.lock = threading.RLock()
        """Serialises use of the one connection across worker threads."""
        self.read_only = False
        """Opened for reading only (a read-only data folder or file, a full disk): every write is a StoreError."""
        self.refusal: str | None = None
        """Why a write is refused when that is not a read-only file (a full disk)."""
        if self.path == ":memory:":
            self.db = connect(self.path)
            self._migrate_new()
            return
        self.db = self._open(bool(read_only))

    # -- opening --------------------------------------------------------------------------------------
    def _open(self, want_read_only: bool) -> GuardedConnection:
        file = Path(self.path)
        folder = file.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)  # `--data-dir` may name a new folder
        except OSError as e:
            raise os_fault(e, folder) or StoreError(
                folder, f"{folder} cannot be made ({e.strerror}) {ELSEWHERE}"
            ) from None
        if want_read_only:
            return self._open_file(file, want_read_only)
        with opening(folder):  # one process at a time creates, checks and migrates it
            return self._open_file(file, want_read_only)

    def _open_file(self, file: Path, want_read_only: bool) -> GuardedConnection:
        folder = file.parent
        if not os.path.lexists(file):
            if want_read_only or not os.access(folder, os.W_OK):
                raise StoreError(
                    file,
                    f"{file} does not exist and cannot be made: {folder} is read-only; make it writable {ELSEWHERE}",
                )
            if free_bytes(folder) < MIN_FREE_BYTES:
                raise full(file)
            return self._create(file)
        wal = os.path.exists(f"{file}-wal")
        try:
            probe_header(file, len(MIGRATIONS), wal)
        except OSError as e:
            raise StoreError(file, f"{file} cannot be read ({e.strerror}); check its permissions {ELSEWHERE}") from None
        writable = os.access(file, os.W_OK) and os.access(folder, os.W_OK)
        if wal and not os.path.exists(f"{file}-shm") and not os.access(folder, os.W_OK):
            raise read_only(file, "its log (-wal) can only be read with an index file (-shm) SQLite cannot make there")
        # The check reads through a read-only connection: it never creates a log or index file, never checkpoints.
        probe = connect(self.path, "ro" if wal else "immutable")
        try:
            version = self._check(probe, file)
        except StoreError:
            probe.close()
            if wal or not os.path.exists(f"{file}-wal"):
                raise
            # Another process opened it while the file alone was read: judge it again through its log.
            probe = connect(self.path, "ro")
            try:
                version = self._check(probe, file)
            except BaseException:
                probe.close()
                raise
        # On a full disk SQLite could not make its index file: reading commands still work, read-only.
        disk_full = writable and not want_read_only and free_bytes(folder) < MIN_FREE_BYTES
        if want_read_only or not writable or disk_full:
            if version < len(MIGRATIONS):
                probe.close()
                if disk_full:
                    raise full(file)
                raise read_only(file, f"it holds schema v{version} and this app must upgrade it to v{len(MIGRATIONS)}")
            self.read_only = True
            self.refusal = probe.refusal = str(full(file)) if disk_full else None
            return probe
        probe.close()
        self.db = connect(self.path)
        backup = None
        try:
            if version < len(MIGRATIONS) and file.stat().st_size > 0:
                backup = self.backup(f"{file}.before-v{version + 1}.bak")
            self._pragmas()
            self.migrate()
        except BaseException:
            try:
                unchanged = self.version == version
            except StoreError:
                unchanged = False
            self.db.close()
            if backup is not None and unchanged:
                backup.unlink(missing_ok=True)  # no step went through: the copy says nothing new
            raise
        return self.db

    def _check(self, probe: GuardedConnection, file: Path) -> int:
        """The schema version, after the integrity check (always before a migration changes the file)."""
        small = file.stat().st_size <= QUICK_CHECK_MAX_BYTES
        version = check_opened(probe, self.path, len(MIGRATIONS), thorough=small)
        if not small and version < len(MIGRATIONS):
            check_opened(probe, self.path, len(MIGRATIONS), thorough=True)
        return version

    def _create(self, file: Path) -> GuardedConnection:
        self.db = connect(self.path)
        try:
            self._migrate_new()
        except BaseException:
            # A new database that could not be made (a full disk) leaves nothing behind.
            self.db.close()
            for p in (str(file), *side_files(str(file))):
                with contextlib.suppress(OSError):
                    os.unlink(p)
            raise
        return self.db

    def _migrate_new(self) -> None:
        self._pragmas()
        self.migrate()

    def _pragmas(self) -> None:
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")

    def backup(self, target: str | Path) -> Path:
        """Copy the database to `target` (SQLite's backup API: a consistent copy while it is open), written
        under a temporary name and renamed, so a copy with its final name is always whole; older copies beyond
        the newest KEEP_BACKUPS are removed.

        Raises:
            StoreError: the copy cannot be written (a full disk); nothing is left of it.
        """
        final = Path(target)
        partial = final.with_name(final.name + ".partial")
        try:
            partial.unlink(missing_ok=True)  # a copy an interrupted upgrade left half-written
            out = sqlite3.connect(partial)
            try:
                self.db.backup(out)
            finally:
                out.close()
            with open(partial, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(partial, final)
        except (sqlite3.Error, OSError) as e:
            with contextlib.suppress(OSError):
                partial.unlink()
            fault = translate(e, str(final)) if isinstance(e, sqlite3.Error) else os_fault(e, final)
            if isinstance(fault, StoreError):
                raise fault from None
            raise StoreError(
                final, f"{final} (a copy of the database before its upgrade) cannot be written: {e}"
            ) from None
        copies = sorted(final.parent.glob(f"{Path(self.path).name}.before-v*.bak"), key=lambda p: p.stat().st_mtime)
        for old in copies[:-KEEP_BACKUPS]:
            with contextlib.suppress(OSError):
                old.unlink()
        return final

    # -- use ------------------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """The schema version in the file."""
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    @property
    def identity(self) -> str | None:
        """This database's own id (made by migration 8), or None when it has none."""
        with self.lock:
            row = self.db.execute("SELECT value FROM app_settings WHERE key = 'store_id'").fetchone()
        return str(row[0]).strip('"') if row else None

    def check_writable(self, what: str) -> None:
        """Refuse up front something that will need to write, when the store was opened read-only.

        Raises:
            StoreError: the store is read-only (the sentence says what could not be done).
        """
        if self.read_only:
            raise StoreError(self.path, self.refusal) if self.refusal else read_only(self.path, what)

    def migrate(self) -> None:
        """Apply every migration the file has not seen, each in its own transaction. The version is read again
        once the write lock is held: another process (a second tab of `pku-harness serve` on a first start) may
        have applied the step while this one waited for it."""
        with self.lock:
            for number, step in enumerate(MIGRATIONS, start=1):
                if self.version >= number:
                    continue
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    if self.version >= number:
                        self.db.execute("COMMIT")
                        continue
                    if callable(step):
                        step(self.db)
                    else:
                        for statement in step.split(";"):
                            if statement.strip():
                                self.db.execute(statement)
                    self.db.execute(f"PRAGMA user_version = {number}")
                    self.db.execute("COMMIT")
                except BaseException:
                    if self.db.in_transaction:  # SQLite may have rolled back itself (a full disk)
                        self.db.execute("ROLLBACK")
                    raise

    def close(self) -> None:
        """Close the connection."""
        self.db.close()
