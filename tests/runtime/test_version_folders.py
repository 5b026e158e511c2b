"""Start-up and uninstall touch only the version folders the app marked for this database (issue 15 item 4).

An author's checkout under `<data>/plugins/`, the folders of an earlier database, a copy of a version folder
elsewhere and anything beside an installed plugin stay byte for byte; unreferenced folders the app wrote are moved
to `plugins/.trash`, never deleted at once.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import tui.runtime.plugins.version_folders as vf
from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.runtime.plugins.fetch import PluginFetcher
from tui.runtime.plugins.installer import Installer
from tui.runtime.registry import Registry
from tui.runtime.runtime import Runtime
from tui.runtime.store import Store

TREE = "https://github.com/someone/campus-plugins/tree/main/plugins/notes"
OTHER = "https://github.com/someone/other-plugin"

AUTHOR_FILES = {
    "x/PLUGIN.md": "---\nspec: 1\nid: x\n---\nmy plugin, not installed\n",
    "x/tools/list.yaml": "title: mine\n",
    "x/tools/notes.txt": "half-written idea\n",
    "x/sha256-0123456789abcdef/PLUGIN.md": "a folder that only looks like a version\n",
    "README.md": "my checkout of campus plugins\n",
}


@pytest.fixture
def github() -> FakeGitHub:
    gh = FakeGitHub()
    gh.push("someone", "campus-plugins", plugin_files(), prefix="plugins/notes/")
    gh.push("someone", "other-plugin", plugin_files(pid="other"))
    return gh


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def runtime(data: Path) -> Iterator[Runtime]:
    rt = Runtime.open(data / "pku-harness.sqlite3")
    yield rt
    rt.close()


def install(runtime: Runtime, github: FakeGitHub, link: str = TREE) -> Path:
    inst = Installer(runtime, PluginFetcher(transport=github.transport()))
    return Path(inst.install(inst.prepare(link)).current.dir)


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def author_checkout(root: Path) -> dict[str, bytes]:
    for rel, text in AUTHOR_FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return tree(root)


def tools_list(data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PKU_HARNESS_DATA": str(data)}
    command = [sys.executable, "-m", "tui.cli.main", "tools", "list"]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def test_tools_list_on_an_authors_plugins_folder_leaves_every_file(data: Path) -> None:
    """The probe's scenario: PKU_HARNESS_DATA on a folder that already has plugins/x/tools/ (a new database)."""
    before = author_checkout(data / "plugins")
    done = tools_list(data)
    assert done.returncode == 0, done.stderr
    assert tree(data / "plugins") == before


def test_with_plugins_installed_an_authors_files_beside_them_stay_too(
    runtime: Runtime, github: FakeGitHub, data: Path
) -> None:
    """With a row in the install table the sweep does run: it still touches only marked folders."""
    installed = install(runtime, github)
    before = author_checkout(data / "plugins")
    runtime.close()
    done = tools_list(data)
    assert done.returncode == 0, done.stderr
    assert tree(data / "plugins") == before  # the author's files and the installed version, byte for byte
    assert installed.is_dir() and not (data / "plugins" / ".trash").exists()


def test_a_recreated_database_moves_nothing(
    runtime: Runtime, github: FakeGitHub, data: Path, caplog: pytest.LogCaptureFixture
) -> None:
    install(runtime, github)
    install(runtime, github, OTHER)
    runtime.close()
    before = tree(data / "plugins")
    (data / "pku-harness.sqlite3").unlink()  # a new, empty database beside the old folders
    with caplog.at_level(logging.WARNING, logger="tui.runtime.plugins.installs"):
        again = Runtime.open(data / "pku-harness.sqlite3")
    assert tree(data / "plugins") == before
    assert "holds 2 version folder(s) the app wrote, but no plugin is installed" in caplog.text
    # Once it has an install of its own, the earlier database's folders are still not its to move.
    install(again, github)
    again.close()
    again = Runtime.open(data / "pku-harness.sqlite3")
    try:
        after = tree(data / "plugins")
        assert {k: v for k, v in after.items() if k in before} == before
        [notes] = again.installs.all()
        assert Path(notes.current.dir).name.endswith("-2")  # the old folder was another database's: not reused
    finally:
        again.close()


def test_an_unreferenced_folder_of_this_database_goes_to_the_trash(runtime: Runtime, github: FakeGitHub) -> None:
    """A crash between the rename and the row: the written folder is moved, with its mark, not deleted."""
    install(runtime, github, OTHER)
    files = {"PLUGIN.md": "x", "tools/list.yaml": "y"}
    orphan = runtime.installs.write_version("notes", files, "sha256:feedface")
    assert vf.read_mark(orphan) == vf.Mark("notes", orphan.name, runtime.store.identity)
    moved = runtime.installs.sweep()
    assert moved == [orphan] and not orphan.exists() and not orphan.parent.exists()
    [trashed] = (runtime.installs.root / ".trash").iterdir()
    assert trashed.name.startswith(f"notes-{orphan.name}-") and (trashed / "PLUGIN.md").read_text() == "x"


def test_trash_entries_go_after_some_days_and_only_marked_ones(runtime: Runtime, github: FakeGitHub) -> None:
    install(runtime, github, OTHER)
    root = runtime.installs.root
    old = runtime.installs.write_version("notes", {"PLUGIN.md": "old"}, "sha256:0ld")
    vf.to_trash(old, root, 1_000)
    recent = runtime.installs.write_version("notes", {"PLUGIN.md": "new"}, "sha256:new")
    (root / ".trash" / "mine-1000").mkdir()  # unmarked: the app did not put it there
    (root / ".trash" / "mine-1000" / "keep.txt").write_text("mine")
    runtime.installs.sweep()  # moves `recent`, removes the 50-year-old entry
    names = sorted(p.name for p in (root / ".trash").iterdir())
    assert names[0] == "mine-1000" and len(names) == 2 and names[1].startswith(f"notes-{recent.name}-")


def test_a_marked_copy_somewhere_else_is_not_touched(runtime: Runtime, github: FakeGitHub) -> None:
    installed = install(runtime, github, OTHER)
    shutil.copytree(installed, runtime.installs.root / "x" / "tools" / "copy")  # its mark names another place
    shutil.copytree(installed, runtime.installs.root / "x" / installed.name)  # … another plugin
    before = tree(runtime.installs.root / "x")
    assert runtime.installs.sweep() == []
    assert tree(runtime.installs.root / "x") == before


def test_uninstall_leaves_unmarked_siblings(runtime: Runtime, github: FakeGitHub) -> None:
    installed = install(runtime, github)
    plugin_dir = installed.parent
    (plugin_dir / "my-notes.txt").write_text("mine")
    (plugin_dir / "checkout").mkdir()
    (plugin_dir / "checkout" / "PLUGIN.md").write_text("mine too")
    Installer(runtime, PluginFetcher(transport=github.transport())).remove("notes")
    assert not installed.exists()
    assert tree(plugin_dir) == {"my-notes.txt": b"mine", "checkout/PLUGIN.md": b"mine too"}


def test_uninstall_of_the_last_version_removes_the_empty_plugin_folder(runtime: Runtime, github: FakeGitHub) -> None:
    installed = install(runtime, github)
    Installer(runtime, PluginFetcher(transport=github.transport())).remove("notes")
    assert not installed.parent.exists()


def test_a_folder_written_before_marks_existed_keeps_working_and_is_adopted(
    runtime: Runtime, github: FakeGitHub, data: Path
) -> None:
    installed = install(runtime, github)
    (installed / vf.MARKER).unlink()  # as the app wrote it before this change
    runtime.close()
    again = Runtime.open(data / "pku-harness.sqlite3")
    try:
        assert again.registry.find("notes.list") is not None and again.load_errors == []
        mark = json.loads((installed / vf.MARKER).read_text())
        assert (mark["plugin"], mark["name"], mark["store"]) == ("notes", installed.name, again.store.identity)
    finally:
        again.close()


def test_a_read_only_store_sweeps_nothing(runtime: Runtime, github: FakeGitHub, data: Path) -> None:
    install(runtime, github, OTHER)
    runtime.installs.write_version("notes", {"PLUGIN.md": "x"}, "sha256:feedface")
    runtime.close()
    before = tree(data / "plugins")
    reader = Runtime(Store(data / "pku-harness.sqlite3", read_only=True), Registry())
    assert reader.installs.sweep() == [] and tree(data / "plugins") == before
    reader.close()


def test_a_store_in_memory_leaves_no_plugin_folder_behind() -> None:
    """A `:memory:` database's plugin folder is a temporary one; it goes with the store (the suite had left
    1,324 of them in /tmp)."""
    import gc

    from tui.runtime.runtime import plugins_root

    store = Store(":memory:")
    folder = plugins_root(store)
    (folder / "notes").mkdir()
    assert folder.is_dir()
    store.close()
    del store
    gc.collect()
    assert not folder.exists()
