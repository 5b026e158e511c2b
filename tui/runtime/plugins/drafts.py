"""Plugin drafts: plugin folders the student (or the assistant, for the student) is still writing.

A draft is `<data dir>/drafts/<id>/`, a plugin folder like any other: nothing in it runs until it is installed
through the normal install review (or, one read tool at a time, through the assistant's `draftRun`). Its files
keep the rules an install keeps (`tui.lang.documents.source`): relative paths with `/`, no `.`/`..`, no absolute
path, drive or URL, no symbolic link anywhere on the way, UTF-8 text, 512 KB for the whole folder — plus the
kinds of file a plugin folder holds (`ALLOWED_SUFFIXES`). A write goes to a temporary file in the same folder,
flushed, then renamed over the old one: a crash leaves the old file or the new one, never half of either.

Draft ids follow the plugin-id rule; the ids of the app's own tools and of its built-in plugins are refused
(installing such a draft would be refused anyway).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from tui.lang.documents.loader import MANIFEST_FILE
from tui.lang.documents.manifest import id_refusal
from tui.lang.documents.source import MAX_PLUGIN_BYTES, DirectorySource, SourceError, check_path
from tui.runtime.message import Message

#: The kinds of file a plugin folder holds: its manifest and docs, tools and tests, specs, recorded responses.
ALLOWED_SUFFIXES = (".md", ".yaml", ".yml", ".json", ".html", ".txt")
#: Ids a draft may not take beyond the manifest's own reserved ones (the installer's list: its host plugins).
_HOST_IDS = frozenset({"memory", "scheduler", "dashboard", "plugins"})


class DraftError(Exception):
    """A draft operation refused or failed; the message (a `Message`) names the draft and the file."""


@dataclass(frozen=True)
class DraftFile:
    """One file of a draft."""

    path: str
    bytes: int


@dataclass(frozen=True)
class DraftInfo:
    """A draft as the list shows it."""

    id: str
    files: int
    bytes: int
    modified_ms: int
    """The newest change of any of its files (or of the folder, when it is empty)."""
    name: str | None
    """The manifest's `name` when PLUGIN.md reads as one, else None."""


@dataclass(frozen=True)
class Written:
    """What one write did."""

    path: str
    previous: str | None
    """The file's text before (None: it is new)."""
    bytes: int
    total: int
    """The whole draft's bytes after the write."""
    created: bool
    """The draft itself was new."""


class Drafts:
    """The drafts under one folder. `builtin_ids` is read at each check (the runtime fills it as it starts)."""

    def __init__(self, root: Path, builtin_ids: Collection[str] = ()) -> None:
        self.root = root
        self.builtin_ids = builtin_ids

    # ---- ids and paths ------------------------------------------------------------------------------------

    def check_id(self, draft: object) -> str:
        """`draft` if it can name a draft.

        Raises:
            DraftError: not the plugin-id form, or an id of the app's own tools or built-in plugins.
        """
        if not isinstance(draft, str):
            raise DraftError(Message("draft_id_form", id=str(draft)))
        refused = id_refusal(draft)
        if refused == "form":
            raise DraftError(Message("draft_id_form", id=draft))
        if refused == "mcp":
            raise DraftError(Message("draft_id_mcp", id=draft))
        if refused == "reserved" or draft in _HOST_IDS:
            raise DraftError(Message("draft_id_reserved", id=draft))
        if draft in self.builtin_ids:
            raise DraftError(Message("draft_id_builtin", id=draft))
        return draft

    def folder(self, draft: str) -> Path:
        """An existing draft's folder.

        Raises:
            DraftError: a bad id, no such draft, or a folder that is a symbolic link.
        """
        folder = self.root / self.check_id(draft)
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise DraftError(Message("draft_not_folder", draft=draft))
        if not folder.is_dir():
            raise DraftError(Message("draft_missing", draft=draft))
        return folder

    def check_file(self, draft: str, path: object) -> str:
        """`path` if a draft may hold a file there (the install rules, and an allowed kind of file).

        Raises:
            DraftError: naming the draft, the path and the rule it breaks.
        """
        try:
            checked = check_path(path)
        except SourceError as e:
            raise DraftError(Message("draft_bad_path", draft=draft, path=str(path), why=str(e))) from None
        if not checked.lower().endswith(ALLOWED_SUFFIXES):
            kinds = " ".join(ALLOWED_SUFFIXES)
            raise DraftError(Message("draft_bad_kind", draft=draft, path=checked, kinds=kinds))
        return checked

    def _no_links(self, folder: Path, draft: str, path: str) -> None:
        """Refuse a path that is, or passes through, a symbolic link (someone made one in the folder)."""
        current = folder
        for part in path.split("/"):
            current = current / part
            if current.is_symlink():
                raise DraftError(Message("draft_symlink", draft=draft, path=path))

    # ---- the drafts -----------------------------------------------------------------------------------------

    def new(self, draft: str, name: str | None = None, author: str = "me") -> Path:
        """Make a draft with a minimal PLUGIN.md that validates.

        Raises:
            DraftError: a bad id, or a draft of that id exists.
        """
        self.check_id(draft)
        folder = self.root / draft
        if os.path.lexists(folder):
            raise DraftError(Message("draft_exists", draft=draft))
        folder.mkdir(parents=True)
        self.write(draft, MANIFEST_FILE, starter(draft, name or draft, author))
        return folder

    def exists(self, draft: str) -> bool:
        try:
            self.folder(draft)
        except DraftError:
            return False
        return True

    def all(self) -> list[DraftInfo]:
        """Every draft, by id (folders whose name is no draft id, and links, are left out)."""
        if not self.root.is_dir():
            return []
        out = []
        for entry in sorted(self.root.iterdir()):
            if entry.name.startswith(".") or entry.is_symlink() or not entry.is_dir():
                continue
            try:
                self.check_id(entry.name)
            except DraftError:
                continue
            files = self.files(entry.name)
            stamps = [(entry / f.path).stat().st_mtime for f in files] or [entry.stat().st_mtime]
            out.append(
                DraftInfo(
                    entry.name,
                    len(files),
                    sum(f.bytes for f in files),
                    int(max(stamps) * 1000),
                    _name(entry),
                )
            )
        return out

    def files(self, draft: str) -> list[DraftFile]:
        """The draft's files with their sizes, by path (links and temporary files are left out)."""
        folder = self.folder(draft)
        out = []
        for dirpath, dirnames, filenames in os.walk(folder):  # os.walk does not follow links to folders
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and not Path(dirpath, d).is_symlink())
            for name in sorted(filenames):
                full = Path(dirpath, name)
                st = full.lstat()
                if name.startswith(".") or not stat.S_ISREG(st.st_mode):
                    continue
                out.append(DraftFile(full.relative_to(folder).as_posix(), st.st_size))
        return out

    def read(self, draft: str, path: str) -> str:
        """One file's text.

        Raises:
            DraftError: a bad path, no such file, a link, not UTF-8 or too big.
        """
        folder = self.folder(draft)
        rel = self.check_file(draft, path)
        try:
            data = DirectorySource(folder).read_bytes(rel)
        except SourceError as e:
            if e.code == "FILE_MISSING":
                raise DraftError(Message("draft_file_missing", draft=draft, path=rel)) from None
            raise DraftError(Message("draft_file_unreadable", draft=draft, path=rel, why=str(e))) from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise DraftError(Message("draft_not_utf8", draft=draft, path=rel)) from None

    def write(self, draft: str, path: str, content: str) -> Written:
        """Create or replace one file (the draft too, when it is new), atomically.

        Raises:
            DraftError: a bad id or path, a link on the way, or the draft would pass 512 KB.
        """
        self.check_id(draft)
        rel = self.check_file(draft, path)
        folder = self.root / draft
        created = not os.path.lexists(folder)
        if created:
            folder.mkdir(parents=True)
        folder = self.folder(draft)
        self._no_links(folder, draft, rel)
        target = folder / rel
        if target.exists() and not target.is_file():
            raise DraftError(Message("draft_not_file", draft=draft, path=rel))
        previous = self.read(draft, rel) if target.exists() else None
        data = content.encode("utf-8")
        others = sum(f.bytes for f in self.files(draft) if f.path != rel)
        if others + len(data) > MAX_PLUGIN_BYTES:
            raise DraftError(
                Message("draft_too_big", draft=draft, path=rel, total=others + len(data), kb=MAX_PLUGIN_BYTES // 1024)
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(target, data)
        return Written(rel, previous, len(data), others + len(data), created)

    def remove(self, draft: str, path: str) -> None:
        """Remove one file (and the folders it leaves empty).

        Raises:
            DraftError: a bad path, or no such file.
        """
        folder = self.folder(draft)
        rel = self.check_file(draft, path)
        self._no_links(folder, draft, rel)
        target = folder / rel
        if not target.is_file():
            raise DraftError(Message("draft_file_missing", draft=draft, path=rel))
        target.unlink()
        parent = target.parent
        while parent != folder:
            with contextlib.suppress(OSError):
                parent.rmdir()  # only an empty folder goes
            parent = parent.parent

    def discard(self, draft: str) -> None:
        """Remove the whole draft.

        Raises:
            DraftError: a bad id, or no such draft.
        """
        shutil.rmtree(self.folder(draft))


def _atomic_write(target: Path, data: bytes) -> None:
    """Write to a temporary file beside `target`, flush it to disk, then rename it over `target`."""
    fd, temp = tempfile.mkstemp(prefix=".writing-", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _name(folder: Path) -> str | None:
    """The manifest's name, when PLUGIN.md reads as a manifest with a text `name` (a draft may be half written)."""
    from tui.lang.documents.loader import split_frontmatter
    from tui.lang.documents.yamlsafe import load_yaml

    try:
        text = DirectorySource(folder).read_bytes(MANIFEST_FILE).decode("utf-8")
    except (SourceError, UnicodeDecodeError):
        return None
    parts = split_frontmatter(text)
    if parts is None:
        return None
    located, _ = load_yaml(parts[0], MANIFEST_FILE)
    data = located.data if located is not None else None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None


def starter(plugin_id: str, name: str, author: str) -> str:
    """The PLUGIN.md a new draft starts with: every required field, no tools yet, a line for the assistant."""
    return (
        "---\n"
        "spec: 1\n"
        f"id: {plugin_id}\n"
        f"name: {_yaml_text(name)}\n"
        "description: A plugin being written.\n"
        "version: 0.1.0\n"
        f"author: {_yaml_text(author)}\n"
        "---\n"
        "Describe here, for the assistant, when to use this plugin's tools.\n"
    )


def _yaml_text(text: str) -> str:
    """Text as a YAML double-quoted scalar (a name may hold `:` or `#`)."""
    import json

    return json.dumps(text, ensure_ascii=False)
