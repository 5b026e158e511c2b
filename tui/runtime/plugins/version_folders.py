"""The version folders the app writes under `<data>/plugins`, and the mark that says the app wrote them.

Every folder the app writes — a version's final folder and, from its first file, its `.staging-*` folder —
holds `.pku-harness-version`: the plugin id, the folder's own name and the id of the database that wrote it. The
app moves or removes only folders whose mark matches all three and their place (`<root>/<id>/<name>`), so a
plugin author's checkout under the same folder, a copy of a version folder somewhere else, or the folders of an
earlier database are never touched. Unreferenced folders go to `<root>/.trash/` first and are removed from there
after TRASH_DAYS. The loader reads only the files a manifest names, so the mark changes nothing a plugin sees
(nor its content hash, which covers exactly the loaded files).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tui.lang.documents.source import check_path

#: The mark's file name inside a version folder.
MARKER = ".pku-harness-version"
#: Where unreferenced version folders wait before they are removed.
TRASH = ".trash"
TRASH_DAYS = 14
_DAY_MS = 86_400_000


@dataclass(frozen=True)
class Mark:
    """What a version folder's mark says: whose version, the folder's own name, which database wrote it."""

    plugin: str
    name: str
    store: str | None


def folder_name(digest: str) -> str:
    """A version folder's name: the start of its content hash (`sha256-0123456789abcdef`)."""
    return digest.replace(":", "-")[:23]


def read_mark(folder: Path) -> Mark | None:
    """The folder's mark, or None (no mark, a link, or a file that is not one)."""
    path = folder / MARKER
    if folder.is_symlink() or path.is_symlink() or not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return Mark(str(raw["plugin"]), str(raw["name"]), raw.get("store"))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_mark(folder: Path, mark: Mark) -> None:
    """Write the mark (flushed to disk before anything else goes into the folder)."""
    text = json.dumps(
        {
            "plugin": mark.plugin,
            "name": mark.name,
            "store": mark.store,
            "note": "PKU harness wrote this folder; when no install names it, the app moves it to plugins/.trash",
        },
        ensure_ascii=False,
    )
    with open(folder / MARKER, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def ours(folder: Path, root: Path, store: str | None, any_store: bool = False) -> bool:
    """The app wrote `folder` for the database `store` (for any database with `any_store`) and it lies where
    it was written (`<root>/<plugin>/<name>`, or a staging folder beside it)."""
    if (store is None and not any_store) or folder.is_symlink() or not folder.is_dir():
        return False
    mark = read_mark(folder)
    if mark is None or (mark.store != store and not any_store):
        return False
    if folder.parent.parent.resolve() != root.resolve() or folder.parent.name != mark.plugin:
        return False
    return folder.name == mark.name or folder.name.startswith(".staging-")


def _same_files(folder: Path, files: dict[str, str]) -> bool:
    try:
        for rel, text in files.items():
            with open(folder / check_path(rel), encoding="utf-8", newline="") as f:
                if f.read() != text:
                    return False
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return True


def write_version(root: Path, plugin_id: str, files: dict[str, str], digest: str, store: str | None) -> Path:
    """Write a version's files; returns its final folder.

    The files go into a marked staging folder, are flushed, and the folder is renamed to its final name (a rename
    is atomic: a folder with a final name is always complete). A folder of that name this database wrote with the
    same files is reused; any other folder in the way is left alone and the version gets the next free name.
    """
    parent = root / plugin_id
    base = folder_name(digest)
    for n in range(1, 100):
        final = parent / (base if n == 1 else f"{base}-{n}")
        if not os.path.lexists(final):
            break
        if ours(final, root, store) and _same_files(final, files):
            return final
    else:
        raise OSError(f"{parent}: no free name for version {base}")
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=parent))
    try:
        write_mark(staging, Mark(plugin_id, final.name, store))
        for rel, text in files.items():
            target = staging / check_path(rel)  # paths were checked at load; checked again before writing
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
        os.rename(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)  # the staging folder was made just now, by this call
        raise
    return final


def candidates(root: Path, store: str | None) -> list[Path]:
    """Every folder under `root` the database `store` wrote (any database for None) that still lies where it
    was written."""
    if not root.is_dir():
        return []
    found = []
    for plugin_dir in sorted(root.iterdir()):
        if plugin_dir.name == TRASH or plugin_dir.is_symlink() or not plugin_dir.is_dir():
            continue
        found += [d for d in sorted(plugin_dir.iterdir()) if ours(d, root, store, any_store=store is None)]
    return found


def to_trash(folder: Path, root: Path, now_ms: int) -> Path:
    """Move a version folder into the trash (`<root>/.trash/<plugin>-<name>-<ms>`); returns its new place."""
    trash = root / TRASH
    trash.mkdir(exist_ok=True)
    target = trash / f"{folder.parent.name}-{folder.name.lstrip('.')}-{now_ms}"
    os.rename(folder, target)
    return target


def tidy(root: Path, store: str | None, now_ms: int, emptied: set[Path]) -> None:
    """Remove what cannot hold anything of value: trash entries this database put there more than TRASH_DAYS
    ago, empty staging folders (a crash before the mark was written) and the plugin folders in `emptied` (those
    the caller took version folders out of) once nothing is left in them."""
    trash = root / TRASH
    if trash.is_dir() and not trash.is_symlink():
        for entry in trash.iterdir():
            mark = read_mark(entry)
            stamp = entry.name.rpartition("-")[2]
            if mark is None or store is None or mark.store != store or not stamp.isdigit():
                continue
            if now_ms - int(stamp) > TRASH_DAYS * _DAY_MS and entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
    for plugin_dir in root.iterdir() if root.is_dir() else []:
        if plugin_dir.name == TRASH or plugin_dir.is_symlink() or not plugin_dir.is_dir():
            continue
        for staging in plugin_dir.glob(".staging-*"):
            with contextlib.suppress(OSError):
                staging.rmdir()  # only an empty folder can be removed this way
    for plugin_dir in emptied:
        with contextlib.suppress(OSError):
            plugin_dir.rmdir()  # fails, and keeps it, unless it is empty
