"""The store: migrations, and a database that survives concurrent writers and a killed process."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tui.runtime.kv import SqliteKv
from tui.runtime.store import MIGRATIONS, Store


def test_a_new_file_gets_every_table_and_the_latest_version(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    tables = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {
        "plugin_kv",
        "grants",
        "audit",
        "todos",
        "timetable",
        "schedules",
        "memory",
        "chat_messages",
        "installed_plugins",
    } <= tables
    assert store.version == len(MIGRATIONS)
    store.close()
    assert Store(tmp_path / "db.sqlite3").version == len(MIGRATIONS)  # reopening migrates nothing twice


WRITER = textwrap.dedent("""
    import sys
    from tui.runtime.kv import SqliteKv
    kv = SqliteKv.open(sys.argv[1])
    tag = sys.argv[2]
    i = 0
    while True:
        kv.set("p", "shared", {"writer": tag, "i": i, "pad": "x" * 2000})
        kv.set("p", f"{tag}-{i % 20}", {"i": i})
        i += 1
""")


def test_concurrent_writers_and_kill_9_leave_a_sound_database(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    Store(path).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag]) for tag in ("a", "b")]
    try:
        time.sleep(1.5)
    finally:
        for p in procs:
            p.kill()  # SIGKILL, mid-write
            p.wait()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    kv = SqliteKv.open(path)
    value = kv.get("p", "shared")
    assert value is not None and value["pad"] == "x" * 2000 and value["writer"] in ("a", "b")  # never torn
    assert kv.used("p") <= kv.quota


OPENER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from tui.runtime.runtime import Runtime
    Path(sys.argv[3]).touch()  # imported: ready
    go = Path(sys.argv[2])
    while not go.exists():
        time.sleep(0.001)
    Runtime.open(Path(sys.argv[1]), locale="zh").close()
""")


def test_apps_opening_a_new_database_at_once_all_start(tmp_path: Path) -> None:
    """Three apps on a first start at once (tabs of `pku-harness serve`): each creates, checks and migrates the
    same new file. Without the folder's lock (tui/runtime/store_lock.py) one in a few such starts failed: a
    migration applied twice, or SQLite's lock held past its wait."""
    for round_ in range(3):
        folder = tmp_path / f"round{round_}"
        path, go = folder / "data" / "pku-harness.sqlite3", folder / "go"
        folder.mkdir()
        ready = [folder / f"ready{i}" for i in range(3)]
        argv = [sys.executable, "-c", OPENER, str(path), str(go)]
        procs = [subprocess.Popen([*argv, str(r)], stderr=subprocess.PIPE, text=True) for r in ready]
        deadline = time.monotonic() + 60
        while not all(r.exists() for r in ready) and time.monotonic() < deadline:
            time.sleep(0.01)
        go.touch()
        errors = [p.communicate(timeout=120)[1] for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], errors
        assert Store(path).version == len(MIGRATIONS)
