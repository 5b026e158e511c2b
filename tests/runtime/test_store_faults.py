"""The store's faults are one sentence naming the file, and a refused file is never changed (issue 15 item 5).

A damaged, truncated or newer file, a folder in its place, a full disk and a read-only store each give a
StoreError; the file's bytes stay as they were and no log, index or copy appears beside it. Migrating an existing
file first keeps a copy of it.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from tests.runtime.test_host_plugins import SHOWCASE
from tui.lang.host import KV_QUOTA_BYTES
from tui.runtime.kv import SqliteKv
from tui.runtime.registry import Registry
from tui.runtime.runtime import Runtime
from tui.runtime.store import KEEP_BACKUPS, MIGRATIONS, Store
from tui.runtime.store_faults import StoreError


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: (p.read_bytes() if p.is_file() else b"<dir>") for p in sorted(folder.iterdir())}


def made_store(path: Path, upto: int = len(MIGRATIONS)) -> None:
    """A database as the app at schema `upto` leaves it (closed cleanly: no log beside it)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    for number, step in enumerate(MIGRATIONS[:upto], start=1):
        if callable(step):
            step(db)
        else:
            db.executescript(step)
        db.execute(f"PRAGMA user_version = {number}")
    db.execute("INSERT INTO memory VALUES ('m1', '住 45 楼', 1)")
    db.close()


def garbage(path: Path) -> None:
    path.write_bytes(b"not a database, just text\n" * 200)


def truncated(path: Path) -> None:
    made_store(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def truncated_at_a_page(path: Path) -> None:
    made_store(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 4096])


def a_folder(path: Path) -> None:
    path.mkdir()
    (path / "keep.txt").write_text("mine")


def newer(path: Path) -> None:
    made_store(path)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    db.close()


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (garbage, "is damaged (it is not an SQLite database"),
        (truncated, "is damaged (it is truncated"),
        (truncated_at_a_page, "is damaged (it is truncated"),
        (a_folder, "is a folder, not the app's database"),
        (newer, f"was made by a newer PKU harness (schema v{len(MIGRATIONS) + 5}"),
    ],
)
def test_a_bad_file_is_one_sentence_and_is_left_as_it_was(tmp_path: Path, make: object, words: str) -> None:
    path = tmp_path / "pku-harness.sqlite3"
    make(path)  # type: ignore[operator]
    before = listing(tmp_path)
    with pytest.raises(StoreError) as caught:
        Store(path)
    message = str(caught.value)
    assert str(path) in message and words in message and "\n" not in message
    assert "PKU_HARNESS_DATA" in message or "move it away" in message  # it says what to do
    assert listing(tmp_path) == before  # same bytes, and no -wal, -shm or copy appeared


def test_a_newer_version_only_in_the_log_is_refused_too(tmp_path: Path) -> None:
    """The header can be stale while another process keeps the newer schema in its log: SQLite's answer counts."""
    path = tmp_path / "pku-harness.sqlite3"
    made_store(path)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")  # committed to the log, not the file
    try:
        before = listing(tmp_path)
        assert set(before) == {path.name, f"{path.name}-wal", f"{path.name}-shm"}
        with pytest.raises(StoreError, match="made by a newer PKU harness"):
            Store(path)
        after = listing(tmp_path)
        # The index (-shm) is shared memory every reader marks; the database and its log are unchanged.
        assert set(after) == set(before) and after[path.name] == before[path.name]
        assert after[f"{path.name}-wal"] == before[f"{path.name}-wal"]
    finally:
        writer.close()


def test_a_damaged_page_is_found_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "pku-harness.sqlite3"
    made_store(path)
    kv = SqliteKv.open(path)
    for i in range(50):
        kv.set("p", f"k{i}", "x" * 3000)
    kv.close()
    data = bytearray(path.read_bytes())
    data[4096 : 4096 + 64] = b"\xff" * 64  # scribble over page 2's b-tree header
    path.write_bytes(bytes(data))
    before = listing(tmp_path)
    with pytest.raises(StoreError, match="is damaged"):
        Store(path)
    assert listing(tmp_path) == before


def test_migrating_an_existing_file_keeps_a_copy_of_it_first(tmp_path: Path) -> None:
    path = tmp_path / "pku-harness.sqlite3"
    made_store(path, upto=len(MIGRATIONS) - 1)
    store = Store(path)
    assert store.version == len(MIGRATIONS)
    store.close()
    copy = tmp_path / f"pku-harness.sqlite3.before-v{len(MIGRATIONS)}.bak"
    old = sqlite3.connect(copy)
    assert old.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS) - 1,)
    assert old.execute("SELECT text FROM memory").fetchall() == [("住 45 楼",)]
    old.close()
    assert not list(tmp_path.glob("*.partial"))
    Store(path).close()  # nothing to migrate: no new copy
    assert len(list(tmp_path.glob("*.bak"))) == 1


def test_only_the_newest_copies_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "pku-harness.sqlite3"
    store = Store(path)
    for n in range(KEEP_BACKUPS + 3):
        copy = store.backup(tmp_path / f"pku-harness.sqlite3.before-v{n + 2}.bak")
        os.utime(copy, (1_000_000 + n, 1_000_000 + n))
    store.close()
    kept = sorted(p.name for p in tmp_path.glob("*.bak"))
    assert kept == [f"pku-harness.sqlite3.before-v{n + 2}.bak" for n in range(3, KEEP_BACKUPS + 3)]


def test_a_full_disk_is_a_store_error_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "pku-harness.sqlite3"
    kv = SqliteKv.open(path, quota=10 * KV_QUOTA_BYTES)
    kv.set("p", "small", 1)
    (pages,) = kv.store.db.execute("PRAGMA page_count").fetchone()
    kv.store.db.execute(f"PRAGMA max_page_count = {pages}")  # the disk holds not one page more
    with pytest.raises(StoreError) as caught:
        kv.set("p", "big", "x" * 200_000)
    assert str(caught.value) == f"{path} cannot be written: the disk is full; free some space and try again"
    assert kv.get("p", "big") is None and kv.get("p", "small") == 1
    kv.close()


def test_a_read_only_store_reads_and_refuses_writes_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "pku-harness.sqlite3"
    made_store(path)
    before = listing(tmp_path)
    store = Store(path, read_only=True)
    assert store.read_only and store.db.execute("SELECT text FROM memory").fetchone() == ("住 45 楼",)
    with pytest.raises(StoreError, match=r"pku-harness\.sqlite3 is read-only: this needs to write to it"):
        store.db.execute("INSERT INTO memory VALUES ('m2', 'x', 2)")
    store.close()
    assert listing(tmp_path) == before  # immutable read: no log or index file was made


def test_a_read_only_store_that_needs_an_upgrade_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "pku-harness.sqlite3"
    made_store(path, upto=len(MIGRATIONS) - 1)
    with pytest.raises(StoreError, match=f"is read-only: it holds schema v{len(MIGRATIONS) - 1}"):
        Store(path, read_only=True)


def test_the_gate_refuses_a_tool_call_on_a_read_only_store_before_running_it(tmp_path: Path) -> None:
    """The audit row could not be written after the run, so nothing runs (and nothing is sent)."""
    path = tmp_path / "pku-harness.sqlite3"
    made_store(path)
    runtime = Runtime(Store(path, read_only=True), Registry())
    runtime.add_folder(SHOWCASE, official=False)
    opened: list[str] = []
    real = runtime.host_for

    def counting(installed: object) -> object:
        opened.append("host")
        return real(installed)  # type: ignore[arg-type]

    runtime.gate.hosts = counting  # type: ignore[assignment]
    with pytest.raises(StoreError, match="is read-only: running a tool needs to record it in the audit log"):
        asyncio.run(runtime.gate.call("showcase.echo", {"text": "a", "times": 1}))
    assert opened == []
    runtime.close()


def test_a_new_database_that_cannot_be_made_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "data" / "pku-harness.sqlite3"
    with pytest.raises(StoreError, match="does not exist and cannot be made"):
        Store(path, read_only=True)
    assert not path.exists()


def test_a_large_file_skips_the_page_by_page_check_at_open_but_not_before_a_migration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above QUICK_CHECK_MAX_BYTES the open costs O(1) (the header catches truncation); a migration still reads
    every page first, so a damaged file is never copied and upgraded."""
    import tui.runtime.store as store_module

    path = tmp_path / "pku-harness.sqlite3"
    made_store(path, upto=len(MIGRATIONS) - 1)
    data = bytearray(path.read_bytes())
    data[4096 : 4096 + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    monkeypatch.setattr(store_module, "QUICK_CHECK_MAX_BYTES", 0)
    before = listing(tmp_path)
    with pytest.raises(StoreError, match="is damaged"):
        Store(path)  # it needs its last migration: checked page by page first
    assert listing(tmp_path) == before
    fine = tmp_path / "fine.sqlite3"
    made_store(fine)
    checks: list[str] = []
    monkeypatch.setattr(
        store_module, "check_opened", lambda db, p, known, thorough: checks.append(str(thorough)) or len(MIGRATIONS)
    )
    Store(fine).close()
    assert checks == ["False"]


def test_a_migration_that_meets_a_full_disk_leaves_the_file_and_no_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tui.runtime.store as store_module

    path = tmp_path / "pku-harness.sqlite3"
    made_store(path)
    before = listing(tmp_path)
    grow = "CREATE TABLE big (x BLOB); INSERT INTO big VALUES (randomblob(200000));"
    monkeypatch.setattr(store_module, "MIGRATIONS", [*MIGRATIONS, grow])
    pragmas = Store._pragmas

    def capped(self: Store) -> None:
        pragmas(self)
        (pages,) = self.db.execute("PRAGMA page_count").fetchone()
        self.db.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(Store, "_pragmas", capped)
    with pytest.raises(StoreError, match="cannot be written: the disk is full"):
        Store(path)
    assert listing(tmp_path) == before  # rolled back, and the copy made before it is gone again


def test_a_damaged_file_names_a_copy_to_put_back_only_when_there_is_one(tmp_path: Path) -> None:
    path = tmp_path / "pku-harness.sqlite3"
    garbage(path)
    with pytest.raises(StoreError) as none:
        Store(path)
    assert ".bak" not in str(none.value) and "move it away to start with a new one" in str(none.value)
    (tmp_path / "pku-harness.sqlite3.before-v7.bak").write_bytes(b"a copy")
    with pytest.raises(StoreError) as one:
        Store(path)
    assert "put back the copy made before the last upgrade (pku-harness.sqlite3.before-v7.bak)" in str(one.value)
