"""Updates: the same hash does nothing, a same-scope change applies with its text diff, every kind of wider scope
pauses with the old version running, declining is remembered, rollback restores files and (never looser) modes,
and uninstalling removes what the plugin kept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.runtime.plugins.fetch import PluginFetcher
from tui.runtime.plugins.installer import CHECK_EVERY_MS, Installer, InstallError
from tui.runtime.runtime import Runtime

TREE = "https://github.com/someone/campus-plugins/tree/main/plugins/notes"
BASE: dict[str, Any] = {"tools": {"add": {"title": "记一条", "effect": "write", "userOnly": True}}}


@pytest.fixture
def github() -> FakeGitHub:
    gh = FakeGitHub()
    gh.push("someone", "campus-plugins", plugin_files(**BASE), prefix="plugins/notes/")
    return gh


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    yield rt
    rt.close()


@pytest.fixture
def inst(runtime: Runtime, github: FakeGitHub) -> Installer:
    i = Installer(runtime, PluginFetcher(transport=github.transport()))
    i.install(i.prepare(TREE))
    return i


def publish(github: FakeGitHub, **changes: Any) -> None:
    github.push("someone", "campus-plugins", plugin_files(**{**BASE, **changes}), prefix="plugins/notes/")


def test_the_same_content_does_nothing(inst: Installer, github: FakeGitHub) -> None:
    before = inst.installs.get("notes")
    outcome = inst.check("notes")
    assert outcome.status == "same" and inst.installs.get("notes").current == before.current  # type: ignore[union-attr]


def test_a_same_scope_change_applies_at_once_and_shows_the_changed_texts(
    inst: Installer, runtime: Runtime, github: FakeGitHub
) -> None:
    publish(github, version="1.3.0", description="Lists every note, newest first.", instructions="Be brief.")
    outcome = inst.check("notes")
    assert (outcome.status, outcome.version) == ("applied", "1.3.0")
    assert outcome.review is not None and not outcome.review.needs_approval and outcome.review.changes_texts
    change = outcome.review.texts[0]
    assert (change.tool, change.what, change.new) == ("list", "description", "Lists every note, newest first.")
    assert outcome.review.instructions is not None and outcome.review.instructions[1].strip() == "Be brief."
    assert runtime.registry.plugins["notes"].plugin.manifest.version == "1.3.0"
    record = inst.installs.get("notes")
    assert record is not None and record.previous is not None and record.previous.version == "1.0.0"


WIDER: dict[str, dict[str, Any]] = {
    "campus service": {"campus": ("card",)},
    "domain": {"network": ("api.example.com", "files.example.com")},
    "domain to wildcard": {"network": ("*.example.com",)},
    "ability": {"abilities": ("todos",)},
    "new write tool": {"tools": {**BASE["tools"], "share": {"effect": "public"}}},
    "stronger effect": {"tools": {"add": {"title": "记一条", "effect": "money", "userOnly": True}}},
    "userOnly removed": {"tools": {"add": {"title": "记一条", "effect": "write"}}},
    "untrusted removed": {"tools": {**BASE["tools"], "feed": {"untrusted": False}}},
    "defaultModes loosened": {"default_modes": "{ read: allow }"},
    "remote mcp changed": {"remote": "https://mcp.example.com/v2"},
}


@pytest.mark.parametrize("kind", list(WIDER))
def test_every_wider_scope_pauses_the_update_and_the_old_version_keeps_running(
    kind: str, runtime: Runtime, github: FakeGitHub, tmp_path: Path
) -> None:
    start: dict[str, Any] = {}
    if kind == "untrusted removed":
        start = {"tools": {**BASE["tools"], "feed": {"untrusted": True}}}
    if kind == "defaultModes loosened":
        start = {"default_modes": "{ read: ask }"}
    if kind == "remote mcp changed":
        start = {"remote": "https://mcp.example.com/v1"}
    publish(github, **start)
    inst = Installer(runtime, PluginFetcher(transport=github.transport()))
    inst.install(inst.prepare(TREE))
    publish(github, **{**start, "version": "2.0.0", **WIDER[kind]})
    outcome = inst.check("notes")
    assert outcome.status == "paused", outcome
    assert outcome.review is not None and outcome.review.needs_approval
    assert runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.0"  # the old one keeps running
    record = inst.installs.get("notes")
    assert record is not None and record.pending is not None and record.pending.version == "2.0.0"
    assert inst.pending_review("notes") == outcome.review  # the dialog's review, rebuilt from the staged files


def test_a_narrower_domain_is_not_a_wider_scope(inst: Installer, github: FakeGitHub, runtime: Runtime) -> None:
    inst.installs.delete("notes")
    runtime.forget_plugin("notes")
    publish(github, network=("*.example.com",))
    inst.install(inst.prepare(TREE))
    publish(github, version="1.1.0", network=("api.example.com",))
    assert inst.check("notes").status == "applied"


def test_accepting_applies_and_declining_is_remembered(inst: Installer, github: FakeGitHub, runtime: Runtime) -> None:
    publish(github, version="2.0.0", campus=("card",))
    assert inst.check("notes").status == "paused"
    inst.decline("notes")
    assert inst.check("notes").status == "declined"  # the same update is not asked about again
    assert runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.0"
    publish(github, version="2.0.1", campus=("card",))
    assert inst.check("notes").status == "paused"  # a newer one is
    assert inst.accept("notes").status == "applied"
    assert runtime.registry.plugins["notes"].plugin.manifest.campus == ["card"]
    with pytest.raises(InstallError, match="no update waiting"):
        inst.accept("notes")


def test_a_network_error_halfway_through_an_update_leaves_the_old_version(
    inst: Installer, github: FakeGitHub, runtime: Runtime
) -> None:
    publish(github, version="1.1.0", description="New text.")
    sha = github.repos["someone", "campus-plugins"].refs["main"]

    def broken() -> tuple[int, dict[str, str], bytes]:
        raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")

    github.override[f"/someone/campus-plugins/{sha}/plugins/notes/tools/list.yaml"] = broken
    outcome = inst.check("notes")
    assert outcome.status == "error" and "peer closed" in outcome.message
    assert runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.0"
    assert inst.installs.get("notes").current.version == "1.0.0"  # type: ignore[union-attr]


def test_rollback_restores_the_old_files_and_modes_never_looser(
    inst: Installer, github: FakeGitHub, runtime: Runtime
) -> None:
    runtime.grants.set("notes", "read", "ask")  # the student's choices under 1.0.0
    old_dir = inst.installs.get("notes").current.dir  # type: ignore[union-attr]
    publish(github, version="1.1.0", description="New text.")
    assert inst.check("notes").status == "applied"
    runtime.grants.set("notes", "read", "allow")  # looser after the update …
    runtime.grants.set("notes", "write", "deny")  # … and stricter
    record = inst.rollback("notes")
    assert record.current.version == "1.0.0" and record.current.dir == old_dir
    assert (Path(old_dir) / "tools" / "list.yaml").read_text(encoding="utf-8").count("Lists notes.") == 1
    assert runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.0"
    assert runtime.grants.mode("notes", "read", False, None) == "ask"  # the old mode, not the looser one
    assert runtime.grants.mode("notes", "write", False, None) == "deny"  # the stricter one stays
    assert inst.check("notes").status == "declined"  # the rolled-back version is not re-applied
    with pytest.raises(InstallError, match="no previous version"):
        inst.rollback("notes")


def test_uninstall_removes_files_grants_kv_and_cache(inst: Installer, runtime: Runtime) -> None:
    runtime.grants.set("notes", "write", "allow")
    runtime.kv.set("notes", "k", "v")
    folder = Path(inst.installs.get("notes").current.dir)  # type: ignore[union-attr]
    inst.remove("notes")
    assert inst.installs.get("notes") is None and "notes" not in runtime.registry.plugins
    assert runtime.grants.chosen() == {} and runtime.kv.get("notes", "k") is None and not folder.exists()
    with pytest.raises(InstallError, match="built into the app and cannot be removed"):
        inst.remove("wallet")  # a built-in plugin rolls back to its built-in copy instead
    with pytest.raises(InstallError, match="neither an installed plugin nor a built-in one"):
        inst.remove("nothing-here")


def test_the_automatic_check_runs_at_most_once_a_day_and_obeys_the_switches(
    inst: Installer, github: FakeGitHub
) -> None:
    github.publish_builtins()  # the official copies, as shipped: nothing newer for the built-in plugins
    publish(github, version="1.1.0", description="New text.")
    day = 1_800_000_000_000
    inst.set_auto_update("notes", False)
    checked = inst.check_due(day)
    assert [o.status for o in checked] == ["same"] * 7  # the built-in ones only: this plugin's auto-update is off
    inst.set_auto_update("notes", True)
    assert inst.check_due(day + 1) == []  # already checked today
    outcomes = inst.check_due(day + CHECK_EVERY_MS)
    assert [(o.plugin_id, o.status) for o in outcomes if o.status != "same"] == [("notes", "applied")]
    inst.set_auto_update(None, False)
    publish(github, version="1.2.0", description="Newer text.")
    assert inst.check_due(day + 3 * CHECK_EVERY_MS) == [] and inst.check_open() == []
    assert inst.check("notes", apply=False).status == "available"  # a manual check still sees it
