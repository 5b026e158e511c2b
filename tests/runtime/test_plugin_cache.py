"""The validated form of plugins kept between starts (plugin_cache.py): a hit does not validate, anything that
changed — a file, the validator, the entry itself — validates again, and no entry is trusted that this database
did not sign or that would build anything but a plugin document."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tui.runtime.plugin_cache as plugin_cache
from tests.runtime.plugin_folder import tool, write_plugin
from tui.lang.documents.loader import Plugin
from tui.runtime.plugin_cache import MAGIC, PluginCache
from tui.runtime.plugins.installer import Installer
from tui.runtime.runtime import Runtime
from tui.runtime.store import Store

STEPS = "  - value: \"'hello'\"\n"


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The folders the cache sent to the real validator, in order."""
    seen: list[str] = []
    real = plugin_cache.validate

    def counting(source: Any, specs: bool = True) -> Any:
        seen.append(Path(source.describe()).name)
        return real(source, specs=specs)

    monkeypatch.setattr(plugin_cache, "validate", counting)
    return seen


@pytest.fixture
def data(tmp_path: Path) -> Iterator[Path]:
    """A data folder with one installed community plugin, `notes`, installed from a local folder."""
    db = tmp_path / "data" / "db.sqlite3"
    rt = Runtime.open(db)
    folder = write_plugin(tmp_path / "src", "notes", {"hello": tool(STEPS)})
    installer = Installer(rt)
    installer.install(installer.prepare(str(folder)))
    rt.close()
    yield db


def installed_folder(db: Path) -> Path:
    return next((db.parent / "plugins" / "notes").glob("sha256-*"))


def entries(db: Path) -> list[Path]:
    return sorted((db.parent / "cache" / "plugins").glob("*.entry"))


def notes_entry(db: Path) -> Path:
    """The entry of the installed plugin (the only one whose header names it)."""
    return next(e for e in entries(db) if b'"id": "notes"' in e.read_bytes()[:4096])


def test_a_second_start_validates_nothing_and_loads_the_same_plugins(data: Path, validations: list[str]) -> None:
    first = Runtime.open(data)  # install validated `notes`; the built-ins are validated at this first start
    first_tools = [t.id for t in first.registry.tools()]
    first.close()
    validations.clear()
    rt = Runtime.open(data)
    try:
        assert validations == []
        assert rt.plugin_cache.validations == 0 and rt.plugin_cache.hits == len(rt.registry.plugins) == 8
        assert [t.id for t in rt.registry.tools()] == first_tools
        assert rt.registry.plugins["notes"].plugin.tools["hello"].definition.effect == "read"
    finally:
        rt.close()


def test_install_validates_and_keeps_the_entry_so_the_next_start_hits(tmp_path: Path, validations: list[str]) -> None:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    validations.clear()
    installer = Installer(rt)
    installer.install(installer.prepare(str(write_plugin(tmp_path / "src", "notes", {"hello": tool(STEPS)}))))
    assert validations == [installed_folder(tmp_path / "db.sqlite3").name]  # at install, by the cache
    rt.close()
    validations.clear()
    again = Runtime.open(tmp_path / "db.sqlite3")
    assert validations == [] and "notes" in again.registry.plugins
    again.close()


def test_a_changed_file_is_validated_again_and_its_new_content_used(data: Path, validations: list[str]) -> None:
    Runtime.open(data).close()
    tool_file = installed_folder(data) / "tools" / "hello.yaml"
    tool_file.write_text(tool(STEPS).replace("title: T", "title: Changed"), encoding="utf-8")
    validations.clear()
    rt = Runtime.open(data)
    assert validations == [installed_folder(data).name]  # only the plugin whose file changed
    assert rt.registry.find("notes.hello").title == "Changed"  # type: ignore[union-attr]
    rt.close()


def test_a_changed_file_that_no_longer_validates_is_refused_not_taken_from_the_cache(
    data: Path, validations: list[str]
) -> None:
    Runtime.open(data).close()
    (installed_folder(data) / "tools" / "hello.yaml").write_text(tool(STEPS, effect="sometimes"), encoding="utf-8")
    rt = Runtime.open(data)
    assert "notes" not in rt.registry.plugins and "does not validate" in rt.load_errors[0]
    rt.close()


def test_a_new_validator_validates_everything_again(data: Path, validations: list[str]) -> None:
    store = Store(data)
    key = PluginCache.for_store(store).key
    folder = installed_folder(data)
    same = PluginCache(data.parent / "cache" / "plugins", key)
    assert same.load("installed", "notes", folder)[0] is not None and same.hits == 1
    other = PluginCache(data.parent / "cache" / "plugins", key, fingerprint="a validator with one more check")
    validations.clear()
    plugin, _ = other.load("installed", "notes", folder)
    assert plugin is not None and validations == [folder.name] and other.hits == 0
    store.close()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda b: b[: len(b) // 2], id="truncated"),
        pytest.param(lambda b: b[:-40] + bytes(40), id="payload zeroed"),
        pytest.param(lambda b: b[:-1] + bytes([b[-1] ^ 1]), id="one bit"),
        pytest.param(lambda b: b"", id="empty"),
        pytest.param(lambda b: b.replace(b'"specs": true', b'"specs": false'), id="header edited"),
    ],
)
def test_a_damaged_entry_falls_back_to_validating(data: Path, validations: list[str], damage: Any) -> None:
    Runtime.open(data).close()
    entry = notes_entry(data)
    entry.write_bytes(damage(entry.read_bytes()))
    validations.clear()
    rt = Runtime.open(data)
    assert validations == [installed_folder(data).name] and "notes" in rt.registry.plugins
    rt.close()
    validations.clear()
    Runtime.open(data).close()
    assert validations == []  # the entry was written anew


def test_an_entry_signed_by_another_database_is_not_trusted(data: Path, tmp_path: Path, validations: list[str]) -> None:
    Runtime.open(data).close()
    other = Store(tmp_path / "other" / "db.sqlite3")
    stranger = PluginCache(data.parent / "cache" / "plugins", PluginCache.for_store(other).key)
    other.close()
    validations.clear()
    plugin, _ = stranger.load("installed", "notes", installed_folder(data))
    assert plugin is not None and validations == [installed_folder(data).name]


class Planted:
    """A payload that would create a file if it were ever unpickled with the standard unpickler."""

    def __init__(self, target: Path) -> None:
        self.target = target

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.mkdir, (str(self.target),))


def replace_payload(db: Path, new_payload: Any) -> None:
    """Give the plugin's entry another payload (`new_payload(old payload bytes)`), signed with the database's own
    key: what someone who could read the database could write."""
    entry = notes_entry(db)
    body = entry.read_bytes()[len(MAGIC) + 32 :]
    size = int.from_bytes(body[:4], "big")
    forged = body[: 4 + size] + new_payload(body[4 + size :])  # the header and the files still match
    store = Store(db)
    key = PluginCache.for_store(store).key
    store.close()
    entry.write_bytes(MAGIC + hmac.new(key, forged, hashlib.sha256).digest() + forged)


def test_a_signed_entry_that_would_build_anything_but_a_plugin_builds_nothing(
    data: Path, tmp_path: Path, validations: list[str]
) -> None:
    Runtime.open(data).close()
    marker = tmp_path / "ran"
    replace_payload(data, lambda _: pickle.dumps(Planted(marker)))
    validations.clear()
    rt = Runtime.open(data)
    assert validations == []  # the entry's header and files hold: the document is built when first needed
    assert "hello" in rt.registry.plugins["notes"].plugin.tools  # built now: from the checked files instead
    assert not marker.exists()  # os.mkdir was refused, not called
    assert validations == ["notes"]
    rt.close()


def test_an_entry_whose_plugin_disagrees_with_the_files_is_not_used(data: Path, validations: list[str]) -> None:
    """Even signed, an entry is used only for the files it was made from: its plugin must hold exactly them."""
    Runtime.open(data).close()

    def edited(payload: bytes) -> bytes:
        plugin: Plugin = pickle.loads(payload)
        plugin.files = {**plugin.files, "tools/hello.yaml": "something else"}
        return pickle.dumps(plugin)

    replace_payload(data, edited)
    validations.clear()
    rt = Runtime.open(data)
    assert rt.registry.plugins["notes"].plugin.files["tools/hello.yaml"] != "something else"
    assert validations == ["notes"]
    rt.close()


def test_entries_name_their_files_and_validator_but_hold_no_path_of_the_machine(data: Path) -> None:
    Runtime.open(data).close()
    raw = notes_entry(data).read_bytes()
    body = raw[len(MAGIC) + 32 :]
    header = json.loads(body[4 : 4 + int.from_bytes(body[:4], "big")])
    assert header["files"] == ["PLUGIN.md", "tools/hello.yaml"] and header["id"] == "notes" and header["specs"]
    assert str(data.parent) not in header["files"][0] and len(header["fingerprint"]) == 64


def test_a_store_in_memory_keeps_nothing_and_validates_every_load(validations: list[str]) -> None:
    rt = Runtime.open(":memory:")
    assert rt.plugin_cache.folder is None and rt.plugin_cache.hits == 0
    assert rt.plugin_cache.validations == len(rt.registry.plugins) == 7
    rt.close()


def test_a_start_builds_an_installed_plugin_only_when_something_needs_it(data: Path) -> None:
    Runtime.open(data).close()
    rt = Runtime.open(data)
    try:
        notes = rt.registry.plugins["notes"]
        assert notes._plugin is None and notes.widgets == {}  # listed, its widgets known, its document not built
        assert [s.id for s in rt.sources.list("wallet")] and notes._plugin is None  # another plugin's sources
        assert rt.registry.find("wallet.cardBalance") is not None and notes._plugin is None
        assert rt.registry.find("notes.hello") is not None and notes._plugin is not None  # built for its tool
        assert notes.plugin.manifest.id == "notes" and notes.plugin is notes.plugin  # once
    finally:
        rt.close()
