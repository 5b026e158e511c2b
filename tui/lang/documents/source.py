"""Reading the files of a plugin: only paths the manifest names, only inside the folder, 512 KB at most.

A plugin can come from a local folder, from the app's own package data or from files fetched for an install;
each is a `PluginSource`. The rules on paths are the same for all of them, so a plugin that validates locally
installs from any static host (the app never lists a folder).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote

#: Most bytes a plugin may have loaded, all files together.
MAX_PLUGIN_BYTES = 512 * 1024


class SourceError(Exception):
    """A file cannot be read: its path breaks a rule, it is missing, not UTF-8 or over the budget."""

    def __init__(
        self, *args: object, code: str = "FILE_UNREADABLE", inside: tuple[str, int, int] | None = None
    ) -> None:
        super().__init__(*args)
        self.code = code
        """The problem code (`FILE_MISSING`, `PATH_UNSAFE`, `PLUGIN_TOO_LARGE` …)."""
        self.inside = inside
        """(file, line, column) when the problem is in the file's own text (a byte that is not UTF-8): it is
        reported there rather than where the file is named."""


class FileTooBig(SourceError):
    """A file is bigger than its reader allows; `size` is its size in bytes."""

    def __init__(self, message: str, size: int) -> None:
        super().__init__(message, code="PLUGIN_TOO_LARGE")
        self.size = size


class PluginSource(Protocol):
    """Where a plugin's files come from."""

    def read_bytes(self, relpath: str) -> bytes:
        """The bytes of one file, by a path already checked with `check_path`.

        Raises:
            SourceError: the file is missing or cannot be read.
        """
        ...

    def describe(self) -> str:
        """Where this is, for messages (`./plugins/classrooms`)."""
        ...


def check_path(path: object) -> str:
    """Return `path` if it is a safe relative file path, else raise SourceError saying which rule it breaks.

    Rules: text; relative (no leading `/`, no drive like `C:`, no URL); `/` as the separator (no `\\`); no `.`
    or `..` segment, no empty segment — also after percent-decoding, however many times; no control
    characters.
    """
    if not isinstance(path, str) or not path.strip():
        raise SourceError("a file path must be non-empty text", code="PATH_UNSAFE")
    seen = {path}
    decoded = path
    while True:  # `%252e%252e` decodes twice to `..`
        nxt = unquote(decoded)
        if nxt in seen:
            break
        seen.add(nxt)
        decoded = nxt
    for p in seen:
        if any(ord(c) < 32 or ord(c) == 127 for c in p):
            raise SourceError(f"path {path!r} contains control characters", code="PATH_UNSAFE")
        if "\\" in p:
            raise SourceError(f"path {path!r} contains a backslash: use / between folders", code="PATH_UNSAFE")
        if p.startswith("/"):
            raise SourceError(f"path {path!r} is absolute: write it relative to the plugin folder", code="PATH_UNSAFE")
        first = p.split("/", 1)[0]
        if ":" in first:
            raise SourceError(
                f"path {path!r} names a drive or a URL: write it relative to the plugin folder", code="PATH_UNSAFE"
            )
        for seg in p.split("/"):
            if seg == "..":
                raise SourceError(f"path {path!r} leaves the plugin folder ('..' is not allowed)", code="PATH_UNSAFE")
            if seg in ("", "."):
                raise SourceError(f"path {path!r} has an empty or '.' segment", code="PATH_UNSAFE")
    return path


class DirectorySource:
    """A plugin folder on disk. Symbolic links are refused anywhere on the path inside the folder."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def describe(self) -> str:
        return str(self.root)

    def read_bytes(self, relpath: str, max_bytes: int = MAX_PLUGIN_BYTES) -> bytes:
        """The bytes of one file, refused over `max_bytes` (recorded tests' fixtures are allowed more)."""
        check_path(relpath)
        current = self.root
        for part in relpath.split("/"):
            current = current / part
            try:
                st = os.lstat(current)
            except FileNotFoundError:
                raise SourceError(f"{relpath} does not exist", code="FILE_MISSING") from None
            except OSError as e:
                raise SourceError(f"{relpath} cannot be read ({e.strerror})") from None
            if stat.S_ISLNK(st.st_mode):
                raise SourceError(
                    f"{relpath} is (or passes through) a symbolic link, which is not allowed", code="FILE_SYMLINK"
                )
        if not stat.S_ISREG(st.st_mode):
            raise SourceError(f"{relpath} is not a regular file")
        if st.st_size > max_bytes:
            raise FileTooBig(f"{relpath} is {st.st_size:,} bytes; a whole plugin may load {max_bytes:,}", st.st_size)
        try:
            with open(current, "rb") as f:
                return f.read(max_bytes + 1)
        except OSError as e:
            raise SourceError(f"{relpath} cannot be read ({e.strerror})") from None


class MemorySource:
    """A plugin held in memory (fetched for an install, or built by a test)."""

    def __init__(self, files: dict[str, bytes | str], name: str = "<memory>") -> None:
        self.files = {k: v.encode() if isinstance(v, str) else v for k, v in files.items()}
        self.name = name

    def describe(self) -> str:
        return self.name

    def read_bytes(self, relpath: str) -> bytes:
        check_path(relpath)
        try:
            return self.files[relpath]
        except KeyError:
            raise SourceError(f"{relpath} does not exist", code="FILE_MISSING") from None


class BudgetedReader:
    """Reads text files from a source, counting bytes against the 512 KB plugin budget, each file once."""

    def __init__(self, source: PluginSource, limit: int = MAX_PLUGIN_BYTES) -> None:
        self.source = source
        self.limit = limit
        self.used = 0
        self.texts: dict[str, str] = {}
        """Every file read so far, by path (the install step hashes exactly these)."""

    def read_text(self, relpath: str) -> str:
        """The file as text: strict UTF-8 (a BOM is dropped), within the budget.

        Raises:
            SourceError: any rule broken; the message names the file.
        """
        if relpath in self.texts:
            return self.texts[relpath]
        data = self.source.read_bytes(check_path(relpath))
        self.used += len(data)
        if self.used > self.limit:
            raise SourceError(
                f"loading {relpath} passes the {self.limit // 1024} KB limit for a whole plugin",
                code="PLUGIN_TOO_LARGE",
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            line_start = data.rfind(b"\n", 0, e.start) + 1
            column = len(data[line_start : e.start].decode("utf-8", "replace")) + 1
            raise SourceError(
                f"{relpath} is not UTF-8 text (byte {e.start}, line {line})",
                code="FILE_NOT_UTF8",
                inside=(relpath, line, column),
            ) from None
        text = text.removeprefix("\ufeff")
        self.texts[relpath] = text
        return text
