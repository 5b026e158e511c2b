"""What can go wrong with the database file, said in one sentence: `StoreError`, and the checks made before
SQLite is allowed to touch a file.

Every fault of the store — a damaged or truncated file, a folder where the file should be, a file made by a newer
app, a read-only data folder, a full disk — reaches the caller as a `StoreError` whose text names the file and
what to do. The command line and the app print that sentence and exit; nobody sees a traceback. Faults that show
up later, on any statement, are translated by the connection itself (`GuardedConnection`), so no service of the
runtime needs its own handling.
"""

from __future__ import annotations

import os
import sqlite3
import struct
from collections.abc import Iterable
from pathlib import Path
from typing import Any

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_MAGIC = b"SQLite format 3\x00"

#: What to do when the data folder cannot be used as it is (the same advice in every sentence).
ELSEWHERE = "or set PKU_HARNESS_DATA to another folder"

#: Below this much free space the store is opened for reading only: SQLite could not even make its index file,
#: and a command that reads should still work on a full disk.
MIN_FREE_BYTES = 1024 * 1024


class StoreError(Exception):
    """The database cannot be used: `str(e)` is one sentence that names the file and says what to do."""

    def __init__(self, path: str | Path, message: str) -> None:
        super().__init__(message)
        self.path = str(path)


def damaged(path: str | Path, detail: str) -> StoreError:
    file = Path(path)
    copies = sorted(file.parent.glob(f"{file.name}.before-v*.bak")) if file.parent.is_dir() else []
    # Only name copies that are there: advice to restore a file that does not exist is no advice.
    restore = f", or put back the copy made before the last upgrade ({copies[-1].name})" if copies else ""
    return StoreError(
        path, f"{path} is damaged ({detail}) and was left as it is: move it away to start with a new one{restore}"
    )


def newer(path: str | Path, version: int, known: int) -> StoreError:
    return StoreError(
        path,
        f"{path} was made by a newer PKU harness (schema v{version}; this one knows up to v{known}): update the "
        f"app {ELSEWHERE}",
    )


def full(path: str | Path) -> StoreError:
    return StoreError(path, f"{path} cannot be written: the disk is full; free some space and try again")


def free_bytes(folder: str | Path) -> int:
    """Bytes the app may still write on the disk holding `folder` (a huge number when that cannot be told)."""
    import shutil

    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 1 << 62


def read_only(path: str | Path, what: str) -> StoreError:
    return StoreError(path, f"{path} is read-only: {what}; make it and its folder writable {ELSEWHERE}")


def probe_header(path: Path, known: int, wal_exists: bool) -> None:
    """Check a file before SQLite opens it: a folder, a foreign or damaged header, a truncated file, a newer
    schema. Only reads the first 100 bytes and the file's size, so a refused file is never changed.

    Args:
        path: the database file (it exists).
        known: the newest schema version this app knows.
        wal_exists: a `-wal` file lies beside it (the header may be stale: pages can still be in the log).

    Raises:
        StoreError: the file must not be opened.
    """
    if path.is_dir():
        raise StoreError(path, f"{path} is a folder, not the app's database: move it away {ELSEWHERE}")
    with open(path, "rb") as f:
        header = f.read(100)
    size = path.stat().st_size
    if size == 0:
        return  # SQLite's own empty database: it gets the schema like a new file
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise damaged(path, "it is not an SQLite database: the header is wrong")
    (raw_page,) = struct.unpack(">H", header[16:18])
    page = 65536 if raw_page == 1 else raw_page
    if page < 512 or page & (page - 1):
        raise damaged(path, f"the header names a page size of {raw_page}")
    (change,) = struct.unpack(">I", header[24:28])
    (pages,) = struct.unpack(">I", header[28:32])
    (valid_for,) = struct.unpack(">I", header[92:96])
    if not wal_exists and (size % page or (valid_for == change and size < pages * page)):
        # With no log beside it the file alone is the database: SQLite would read the missing end as empty pages.
        raise damaged(path, f"it is truncated: {size:,} bytes of {pages * page:,}")
    (version,) = struct.unpack(">i", header[60:64])
    if version > known:
        raise newer(path, version, known)


def check_opened(db: sqlite3.Connection, path: str, known: int, thorough: bool) -> int:
    """The checks made through SQLite before anything is written: the schema version (the log may hold a newer
    one than the header) and, when `thorough`, `PRAGMA quick_check` (every page read once). Returns the version.

    Raises:
        StoreError: the file is damaged or newer than this app.
    """
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > known:
            raise newer(path, version, known)
        if thorough:
            problems = [str(r[0]) for r in db.execute("PRAGMA quick_check(3)").fetchall()]
            if problems != ["ok"]:
                raise damaged(path, "; ".join(problems)[:300])
    except sqlite3.Error as e:
        fault = translate(e, path)
        raise fault if isinstance(fault, StoreError) else damaged(path, str(e)) from None
    return version


def translate(error: sqlite3.Error, path: str, refusal: str | None = None) -> BaseException:
    """The StoreError for a fault of the file or the disk; any other error (a constraint, a bad statement — the
    app's own bug) is returned as it is. `refusal` is the sentence for a write to a store opened read-only."""
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    if name == "SQLITE_FULL" or "database or disk is full" in text:
        return full(path)
    if name.startswith("SQLITE_READONLY") or "readonly database" in text:
        return StoreError(path, refusal) if refusal else read_only(path, "this needs to write to it")
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return damaged(path, text)
    if name.startswith("SQLITE_IOERR"):
        if free_bytes(Path(path).parent) < MIN_FREE_BYTES:
            return full(path)
        return StoreError(path, f"{path} could not be read or written ({text}); check the disk and try again")
    if name.startswith("SQLITE_CANTOPEN"):
        return StoreError(path, f"{path} cannot be opened ({text}); check that its folder exists and is readable")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return StoreError(path, f"{path} is held by another PKU harness process for too long; try again")
    return error


def os_fault(error: OSError, path: str | Path) -> StoreError | None:
    """The StoreError for a read-only, forbidden or full data folder met outside SQLite (making the folder,
    writing a copy or a plugin's files); None for any other OS error."""
    import errno

    where = error.filename or path
    if error.errno == errno.EROFS:
        return read_only(where, "it is on a read-only file system")
    if error.errno in (errno.EACCES, errno.EPERM):
        return StoreError(where, f"{where} cannot be used: permission denied; make it writable {ELSEWHERE}")
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return full(where)
    return None


class GuardedCursor(sqlite3.Cursor):
    """A cursor whose faults of the file or the disk are `StoreError`s."""

    store_path = ""
    refusal: str | None = None

    def execute(self, sql: str, parameters: Any = (), /) -> GuardedCursor:
        try:
            super().execute(sql, parameters)
        except sqlite3.Error as e:
            raise translate(e, self.store_path, self.refusal) from None
        return self

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> GuardedCursor:
        try:
            super().executemany(sql, parameters)
        except sqlite3.Error as e:
            raise translate(e, self.store_path, self.refusal) from None
        return self

    def fetchone(self) -> Any:
        try:
            return super().fetchone()
        except sqlite3.Error as e:
            raise translate(e, self.store_path, self.refusal) from None

    def fetchall(self) -> list[Any]:
        try:
            return super().fetchall()
        except sqlite3.Error as e:
            raise translate(e, self.store_path, self.refusal) from None

    def fetchmany(self, size: int | None = 1) -> list[Any]:
        try:
            return super().fetchmany(size if size is not None else self.arraysize)
        except sqlite3.Error as e:
            raise translate(e, self.store_path, self.refusal) from None

    def __next__(self) -> Any:
        try:
            return super().__next__()
        except sqlite3.Error as e:
            raise translate(e, self.store_path, self.refusal) from None


class GuardedConnection(sqlite3.Connection):
    """The store's connection: `execute` and `cursor` hand out `GuardedCursor`s, so every service of the runtime
    gets a StoreError for a full disk or a damaged page without handling SQLite itself."""

    store_path = ""
    refusal: str | None = None
    """The sentence for a write when the store was opened read-only (why it was)."""

    def cursor(self, factory: Any = None) -> Any:
        cur = super().cursor(factory or GuardedCursor)
        cur.store_path, cur.refusal = self.store_path, self.refusal
        return cur

    def execute(self, sql: str, parameters: Any = (), /) -> GuardedCursor:
        cur: GuardedCursor = self.cursor()
        return cur.execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> GuardedCursor:
        cur: GuardedCursor = self.cursor()
        return cur.executemany(sql, parameters)


def connect(path: str, mode: str = "rw") -> GuardedConnection:
    """A guarded connection (autocommit, shared across the runtime's threads behind the store's lock).

    Args:
        path: the database file, or `:memory:`.
        mode: `rw` (created when missing), `ro` (read-only, through the log beside it) or `immutable` (read-only,
            the file alone: no log or index file is created, for a file nobody writes and no `-wal` beside it).
    """
    target, uri = path, False
    if mode != "rw":
        target, uri = (
            Path(path).absolute().as_uri() + ("?mode=ro&immutable=1" if mode == "immutable" else "?mode=ro"),
            True,
        )
    try:
        db = sqlite3.connect(
            target, isolation_level=None, check_same_thread=False, timeout=10.0, uri=uri, factory=GuardedConnection
        )
    except sqlite3.Error as e:
        raise translate(e, path) from None
    db.store_path = path
    return db


def side_files(path: str) -> list[str]:
    """The files SQLite keeps beside a database (log, index, rollback journal) that exist now."""
    return [p for p in (f"{path}-wal", f"{path}-shm", f"{path}-journal") if os.path.exists(p)]
