"""The validated form of each plugin, kept between starts, so a start does not re-validate what is installed.

A plugin is validated when it is first loaded — at install, update or rollback, or the first start of a newer
app — and the `Plugin` the validator accepted is kept in `<data>/cache/plugins/`, one entry per plugin. A later
load (every start, every command-line process) uses the entry only when all of these hold:

- its HMAC checks with this database's own key (`app_settings.plugin_cache_key`, random, made at first use), so a
  truncated or corrupted entry, or one written for another database or by anyone without the key, is refused;
- it was made by the same validator: `validator_fingerprint()` hashes the source of the plugin language and
  the widget renderer, with Python's and pydantic's versions, so any change to a check re-validates (no version
  number to forget to raise);
- it was made for the same checks (`specs`) and the same plugin id;
- the plugin's files hash to what was validated: every file the validator read is read again at each load
  (strict UTF-8, 512 KB at most) and hashed (sha256). An edited or missing file — or a link to other content — is
  a miss, and the validator applies every rule again.

Then the entry is used: an installed plugin is registered with its id and its widget specs (from the signed
header) and its payload is unpickled when something first needs the document (`Kept.build`); the unpickler builds
nothing but the plugin document classes (no function, no other class: a forged payload cannot run code), and the
plugin must hold exactly the files just read. Any failure is a miss: the plugin is validated in full, as before the
cache, and the entry is rewritten. The cost of a hit at start is reading and hashing the plugin's files (~0.2 ms
a plugin; sha256 is ~1 GB/s); building it is ~0.4 ms more, against ~70-130 ms to validate it. A hit gives no
warnings: the validator gave them when the entry was made.
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import io
import json
import os
import pickle
import secrets
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, is_dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from tui.lang.documents.loader import Plugin
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import MAX_PLUGIN_BYTES, DirectorySource, MemorySource, SourceError, check_path
from tui.lang.documents.validator import validate
from tui.runtime.settings import read_setting, write_setting
from tui.runtime.store import Store

#: The first bytes of an entry; a new layout of entries gets a new line.
MAGIC = b"pku-harness plugin cache 1\n"
_MAC_BYTES = 32
#: The modules whose classes a payload may build (a plugin document is made of nothing else).
_PAYLOAD_MODULES = frozenset(
    {
        "tui.lang.documents.common",
        "tui.lang.documents.loader",
        "tui.lang.documents.manifest",
        "tui.lang.documents.tool",
        "tui.lang.documents.yamlsafe",
    }
)
KEY_SETTING = "plugin_cache_key"


@lru_cache(maxsize=1)
def validator_fingerprint() -> str:
    """What the validator's verdict depends on besides the plugin: the source of `tui.lang` and
    `widgets_render`, Python's version and pydantic's (computed once per process, ~6 ms)."""
    import pydantic

    import tui.lang
    import widgets_render

    h = hashlib.sha256(MAGIC + sys.version.encode() + pydantic.VERSION.encode())
    for package in (tui.lang, widgets_render):
        root = Path(next(iter(package.__path__)))
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            rel = path.relative_to(root).as_posix().encode()
            h.update(b"%d:%s" % (len(rel), rel))
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while plugins are loaded: unpickling builds thousands of objects a plugin, and
    the collections they set off (each one walking every object made so far) were 80% of a hit's time (1.9 ms
    against 0.4 ms a plugin). Loading makes no garbage cycles worth collecting; the collector runs again after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def files_digest(texts: dict[str, str]) -> str:
    """sha256 of a plugin's loaded files: each path and text, length-prefixed, in path order."""
    h = hashlib.sha256()
    for rel in sorted(texts):
        for part in (rel.encode(), texts[rel].encode()):
            h.update(len(part).to_bytes(8, "big") + part)
    return h.hexdigest()


def _texts(folder: Path, files: list[str]) -> dict[str, str] | None:
    """The files as the loader reads them (strict UTF-8, a BOM dropped), or None when one cannot be read.

    Plain reads: the path rules, the symbolic-link refusal and the size budget held when these files were
    validated, and a file that now differs in any byte (a link to other content included) makes the digest
    differ, so the entry is not used and the validator applies every rule again.
    """
    texts = {}
    try:
        for rel in files:
            with open(folder / check_path(rel), "rb") as f:
                texts[rel] = f.read(MAX_PLUGIN_BYTES + 1).decode("utf-8").removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError, SourceError):
        return None
    return texts


class _DocumentUnpickler(pickle.Unpickler):
    """Builds only the plugin document classes: a dataclass or pydantic model defined in one of their modules."""

    def find_class(self, module: str, name: str) -> Any:
        found = _document_class(module, name)
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not a plugin document class")
        return found


@lru_cache(maxsize=256)
def _document_class(module: str, name: str) -> type | None:
    """The class `module.name` when it is a dataclass or pydantic model defined there, in a document module."""
    if module not in _PAYLOAD_MODULES or not name.isidentifier():  # no dotted names: no attribute walks
        return None
    found = getattr(sys.modules.get(module), name, None)
    if not isinstance(found, type) or found.__module__ != module:
        return None
    return found if issubclass(found, BaseModel) or is_dataclass(found) else None


def _unpickle(payload: bytes, plugin_id: str, texts: dict[str, str]) -> Plugin | None:
    """The plugin a payload builds, when it is one and holds exactly these files; else None."""
    try:
        plugin = _DocumentUnpickler(io.BytesIO(payload)).load()
    except Exception:  # a payload that does not build is a miss, whatever it raises
        return None
    if not isinstance(plugin, Plugin) or plugin.files != texts or plugin.manifest.id != plugin_id:
        return None
    return plugin


@dataclass(frozen=True)
class Kept:
    """An entry that held when the plugin was loaded: its widgets (from the signed header) at once, its document
    when `build` is first called (from the payload read then, never read again)."""

    plugin_id: str
    widgets: dict[str, Any]
    payload: bytes
    texts: dict[str, str]
    """The files as they were checked against the entry."""
    specs: bool

    def build(self) -> Plugin:
        """The plugin document; validated from the checked files if the payload does not build (it always does
        for an entry this app signed with this validator's code)."""
        with collector_paused():  # see `collector_paused`: `tools list` builds every plugin in a row
            plugin = _unpickle(self.payload, self.plugin_id, self.texts)
        if plugin is None:
            plugin, problems = validate(MemorySource(dict(self.texts), self.plugin_id), specs=self.specs)
            if plugin is None:
                raise RuntimeError(f"{self.plugin_id} no longer validates: {problems[:1]}")
        return plugin


class PluginCache:
    """Validated plugins by id, in `folder` (None: nothing is kept, every load validates), signed with `key`."""

    def __init__(self, folder: Path | None, key: bytes | None, fingerprint: str | None = None) -> None:
        self.folder = folder if key is not None else None
        self.key = key or b""
        self._fingerprint = fingerprint
        self.hits = 0
        self.validations = 0
        """How many loads validated in full (a miss, or no cache)."""

    @classmethod
    def for_store(cls, store: Store) -> PluginCache:
        """The cache beside the store's database (none for a store in memory, or a read-only one without a key)."""
        if store.path == ":memory:":
            return cls(None, None)
        key = read_setting(store, KEY_SETTING)
        if not isinstance(key, str) or len(key) != 64:
            if store.read_only:
                return cls(None, None)
            key = secrets.token_hex(32)
            try:
                write_setting(store, KEY_SETTING, key)
            except sqlite3.Error:  # a full disk: the app starts, validating as before the cache
                return cls(None, None)
        return cls(Path(store.path).parent / "cache" / "plugins", bytes.fromhex(key))

    @property
    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = validator_fingerprint()
        return self._fingerprint

    def load(self, kind: str, plugin_id: str, folder: Path, specs: bool = True) -> tuple[Plugin | None, list[Problem]]:
        """The plugin in `folder` (expected to be `plugin_id`), from its entry when the entry holds, else
        validated (and kept): as `validate()` returns it. `kind` keeps built-in and installed entries apart."""
        kept = self.kept(kind, plugin_id, folder, specs)
        plugin = _unpickle(kept.payload, plugin_id, kept.texts) if kept is not None else None
        if plugin is not None:
            return plugin, []
        return self.validated(kind, plugin_id, folder, specs)

    def validated(
        self, kind: str, plugin_id: str, folder: Path, specs: bool = True
    ) -> tuple[Plugin | None, list[Problem]]:
        """Validate the folder in full, as `validate()` does, and keep the plugin it gives (when it is `plugin_id`)."""
        self.validations += 1
        plugin, problems = validate(DirectorySource(folder), specs=specs)
        if plugin is not None and plugin.manifest.id == plugin_id and self.folder is not None:
            self._write(self._path(kind, plugin_id), plugin, specs)
        return plugin, problems

    def kept(self, kind: str, plugin_id: str, folder: Path, specs: bool = True) -> Kept | None:
        """The plugin's entry when it holds (signed by this database, made by this validator with these checks for
        this plugin, from exactly the files in `folder` now), its document not built yet; else None."""
        if self.folder is None:
            return None
        try:
            data = self._path(kind, plugin_id).read_bytes()
        except OSError:
            return None
        head = len(MAGIC) + _MAC_BYTES
        body = data[head:]
        mac = hmac.new(self.key, body, hashlib.sha256).digest()
        if not data.startswith(MAGIC) or not hmac.compare_digest(mac, data[len(MAGIC) : head]) or len(body) < 4:
            return None
        size = int.from_bytes(body[:4], "big")
        try:
            header = json.loads(body[4 : 4 + size])
            files, widgets, digest = [str(f) for f in header["files"]], dict(header["widgets"]), header["digest"]
            made = (header["fingerprint"], header["id"], header["specs"])
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
        if made != (self.fingerprint, plugin_id, specs):
            return None  # another validator, other checks or another plugin
        texts = _texts(folder, files)
        if texts is None or files_digest(texts) != digest:
            return None
        self.hits += 1
        return Kept(plugin_id, widgets, body[4 + size :], texts, specs)

    def _path(self, kind: str, plugin_id: str) -> Path:
        assert self.folder is not None
        name = hashlib.sha256(f"{kind}\0{plugin_id}".encode()).hexdigest()[:32]  # any id makes a safe file name
        return self.folder / f"{name}.entry"

    def _write(self, path: Path, plugin: Plugin, specs: bool) -> None:
        header = {
            "fingerprint": self.fingerprint,
            "id": plugin.manifest.id,
            "specs": specs,
            "digest": files_digest(plugin.files),
            "files": sorted(plugin.files),
            "widgets": plugin.widgets,
        }
        try:
            head = json.dumps(header, ensure_ascii=False, allow_nan=False).encode()
        except ValueError:
            return
        try:
            payload = pickle.dumps(plugin, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # a plugin that cannot be kept is validated at every load, as before the cache
            return
        body = len(head).to_bytes(4, "big") + head + payload
        data = MAGIC + hmac.new(self.key, body, hashlib.sha256).digest() + body
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(prefix=".entry-", dir=path.parent)
        except OSError:
            return  # a read-only disk: the cache is an optimisation only
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)  # a reader sees the old entry or the new one, never half of one
        except OSError:
            Path(tmp).unlink(missing_ok=True)  # a full disk: the next load validates again
