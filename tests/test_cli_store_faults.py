"""Store faults through the real command line, in a fresh process (issue 15 item 5).

Each fault ends the command with exit code 3 and one line on stderr that names the file and what to do — no
traceback — and leaves the data folder as it was. A read-only data folder still serves the reading commands.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.runtime.test_store_faults import a_folder, garbage, listing, newer, truncated
from tui.runtime.store import MIGRATIONS

SHOWCASE = Path(__file__).parent / "fixtures" / "plugins" / "showcase"
DB = "pku-harness.sqlite3"

BIG_PLUGIN = {
    "PLUGIN.md": "---\nspec: 1\nid: big\nname: 大\ndescription: Writes a big value.\nversion: 1.0.0\nauthor: tests\n"
    "network: []\ntools:\n  write: tools/write.yaml\n---\nA test plugin.\n",
    "tools/write.yaml": "title: 写\ndescription: Writes a big KV value.\neffect: read\nsteps:\n  - kv: set\n"
    "    key: big\n    value: \"'x'.repeat(200000)\"\nreturn: \"'done'\"\n",
}


def cli(data: Path, *args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    """`pku-harness ARGS` in a new process on the data folder `data` (`prelude` runs first, in that process)."""
    command = [sys.executable, "-c", f"{prelude}\nfrom tui.cli.main import main\nmain()", *args]
    env = {**os.environ, "PKU_HARNESS_DATA": str(data)}
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def one_sentence(done: subprocess.CompletedProcess[str], path: Path, words: str) -> None:
    assert done.returncode == 3, (done.returncode, done.stdout, done.stderr)
    err = done.stderr.strip()
    assert "Traceback" not in err and "\n" not in err, err
    assert err.startswith("Error: ") and str(path) in err and words in err, err


def write_plugin(folder: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


@contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """Make `folder` read-only for the app: its permission bits, or (for root, whom they do not stop) a read-only
    bind mount; skips the test when neither can be had."""
    if os.geteuid() != 0:
        files = [folder, *folder.iterdir()]
        modes = {p: p.stat().st_mode for p in files}
        for p in files:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("root without a read-only mount: permission bits do not stop root")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder), str(folder)], check=True, capture_output=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (garbage, "is damaged (it is not an SQLite database"),
        (truncated, "is damaged (it is truncated"),
        (a_folder, "is a folder, not the app's database"),
        (newer, f"was made by a newer PKU harness (schema v{len(MIGRATIONS) + 5}"),
    ],
)
def test_a_bad_database_is_one_line_exit_3_and_left_as_it_was(tmp_path: Path, make: object, words: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    make(data / DB)  # type: ignore[operator]
    before = listing(data)
    one_sentence(cli(data, "tools", "list"), data / DB, words)
    assert listing(data) == before  # the same bytes; no -wal, -shm or .bak beside it


def test_the_app_does_not_start_on_a_newer_database(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    newer(data / DB)
    before = listing(data)
    one_sentence(cli(data), data / DB, "update the app or set PKU_HARNESS_DATA to another folder")
    assert listing(data) == before


def test_a_read_only_data_folder_still_serves_the_reading_commands(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert cli(data, "permissions", "set", "canteen", "write", "deny").returncode == 0
    before = listing(data)
    assert set(before) == {DB, "cache"}  # the database and the built-in plugins' checked form (plugin_cache.py)
    with read_only_folder(data):
        for args in (
            ("tools", "list", "--with", str(SHOWCASE)),
            ("permissions", "list"),
            ("audit",),
            ("plugins", "list"),
            ("scheduler", "list"),
            ("status",),
        ):
            done = cli(data, *args)
            assert done.returncode == 0, (args, done.stderr)
            assert "Traceback" not in done.stderr
        assert "canteen: read=allow  write=deny*" in cli(data, "permissions", "list").stdout  # the grant is read
        refused = cli(data, "tools", "call", "showcase.echo", '{"text": "a"}', "--with", str(SHOWCASE))
        one_sentence(refused, data / DB, "is read-only: running a tool needs to record it in the audit log")
        assert refused.stdout == ""  # refused before it ran
        one_sentence(cli(data, "permissions", "set", "canteen", "read", "deny"), data / DB, "is read-only")
        one_sentence(cli(data), data / DB, "is read-only: the app needs to write to it")
        assert listing(data) == before


CAP_PAGES = """
import tui.runtime.store as store
opened = store.Store.__init__
def capped(self, *args, **kwargs):
    opened(self, *args, **kwargs)
    (pages,) = self.db.execute("PRAGMA page_count").fetchone()
    self.db.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk holds two pages more, no more
store.Store.__init__ = capped
"""


def test_a_disk_that_fills_during_a_run_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    data = tmp_path / "data"
    plugin = write_plugin(tmp_path / "big", BIG_PLUGIN)
    assert cli(data, "tools", "list").returncode == 0
    done = cli(data, "tools", "call", "big.write", "--with", str(plugin), prelude=CAP_PAGES)
    one_sentence(done, data / DB, "cannot be written: the disk is full; free some space and try again")
    db = sqlite3.connect(data / DB)
    assert db.execute("SELECT count(*) FROM plugin_kv").fetchone() == (0,)
    db.close()


@contextmanager
def small_disk(folder: Path, size: str) -> Iterator[None]:
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("no tmpfs mount here (needs root)")
    try:
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_full_disk_serves_the_reading_commands_and_refuses_writes(tmp_path: Path) -> None:
    """A real full disk (a small tmpfs): SQLite could not even make its index file, so the store is read-only."""
    disk = tmp_path / "disk"
    plugin = write_plugin(tmp_path / "big", BIG_PLUGIN)
    with small_disk(disk, "2m"):
        data = disk / "data"
        assert cli(data, "permissions", "set", "canteen", "write", "deny").returncode == 0
        fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:  # fill the disk to its last byte
                os.write(fd, b"\0" * 65536)
        except OSError:
            pass
        finally:
            os.close(fd)
        before = listing(data)
        listed = cli(data, "permissions", "list")
        assert listed.returncode == 0 and "write=deny*" in listed.stdout
        done = cli(data, "tools", "call", "big.write", "--with", str(plugin))
        one_sentence(done, data / DB, "cannot be written: the disk is full; free some space and try again")
        assert listing(data) == before
