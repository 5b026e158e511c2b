"""Built-in plugins update from their official links (issue 22 item 9, seed 003), against the fake GitHub: a fixed
parser in a newer official version applies with a notice and runs; a wider scope waits for approval; rollback goes
back through the fetched versions to the built-in copy; auto-update off is respected; an app whose built-in copy
is newer than the fetched one runs its own; a copy without the official mark is refused; a fetched built-in
plugin loads from the start-up cache; the demo runs the built-in copies."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.runtime.fake_github import FakeGitHub
from tui.runtime.builtin import builtin_folders
from tui.runtime.plugins.builtin_updates import builtin_link, newer, version_key
from tui.runtime.plugins.fetch import PluginFetcher
from tui.runtime.plugins.installer import Installer, InstallError
from tui.runtime.runtime import Runtime

SHIPPED = next(f for f in builtin_folders() if f.name == "shuttle")
MANIFEST = (SHIPPED / "PLUGIN.md").read_text(encoding="utf-8")
SHARED = (SHIPPED / "shared.yaml").read_text(encoding="utf-8")
OLD_TIMES = "燕园→万柳: { weekday: ['07:20', '08:40', '12:10', '17:30', '21:40']"
NEW_TIMES = "燕园→万柳: { weekday: ['07:20', '08:40', '12:10', '17:30', '21:40', '22:50']"
NOW = "2026-11-30T09:00:00+08:00"  # a Monday: the weekday timetable


def shuttle(version: str, network: str = "", fixed: bool = True) -> dict[str, dict[str, str]]:
    """The official shuttle plugin at `version`: its timetable fixed (one more bus), a domain added if asked."""
    manifest = MANIFEST.replace("version: 1.0.0", f"version: {version}")
    if network:
        manifest = manifest.replace("icon: bus\n", f"icon: bus\nnetwork: [{network}]\n")
    shared = SHARED.replace(OLD_TIMES, NEW_TIMES) if fixed else SHARED
    return {"shuttle": {"PLUGIN.md": manifest, "shared.yaml": shared}}


@pytest.fixture
def github() -> FakeGitHub:
    gh = FakeGitHub()
    gh.publish_builtins()
    return gh


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    yield rt
    rt.close()


def installer(runtime: Runtime, github: FakeGitHub) -> Installer:
    return Installer(runtime, PluginFetcher(transport=github.transport()))


def version(runtime: Runtime) -> str:
    return runtime.registry.plugins["shuttle"].plugin.manifest.version


async def times_to_wanliu(runtime: Runtime) -> list[str]:
    outcome = await runtime.gate.call("shuttle.timetable", {"to": "万柳"}, now=NOW)
    assert outcome.status == "ok", outcome.message
    return list(outcome.result["times"])


def test_versions_compare_by_semantic_versioning() -> None:
    ordered = ["0.9.9", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0", "1.0.1", "1.10.0"]
    assert sorted(reversed(ordered), key=version_key) == ordered
    assert newer("1.10.0", "1.9.0") and not newer("1.0.0+build.7", "1.0.0") and newer("1.0.0", "not a version")
    assert builtin_link("shuttle") == "https://github.com/pkuinfo/pku-harness-plugins/tree/main/plugins/shuttle"


async def test_a_fixed_parser_in_a_newer_official_version_applies_with_a_notice_and_runs(
    runtime: Runtime, github: FakeGitHub
) -> None:
    inst = installer(runtime, github)
    assert await times_to_wanliu(runtime) == ["07:20", "08:40", "12:10", "17:30", "21:40"]
    assert inst.check("shuttle").status == "same"  # the link serves the shipped copy: nothing to do
    assert inst.installs.get("shuttle") is None  # and nothing was written for it

    github.publish_builtins(shuttle("1.1.0"))
    outcome = inst.check("shuttle")
    assert (outcome.status, outcome.version, str(outcome.message)) == ("applied", "1.1.0", "shuttle updated to 1.1.0")
    assert outcome.review is not None and not outcome.review.needs_approval
    assert version(runtime) == "1.1.0" and runtime.registry.plugins["shuttle"].official
    assert await times_to_wanliu(runtime) == ["07:20", "08:40", "12:10", "17:30", "21:40", "22:50"]
    record = inst.installs.get("shuttle")
    assert record is not None and record.source == builtin_link("shuttle") and record.official
    assert record.current.commit == github.repos["pkuinfo", "pku-harness-plugins"].refs["main"]
    assert record.previous is not None and record.previous.builtin and record.previous.version == "1.0.0"
    assert runtime.folders["shuttle"] == Path(record.current.dir) != SHIPPED
    assert inst.check("shuttle").status == "same"


def test_a_wider_scope_waits_for_approval_with_the_built_in_copy_running(runtime: Runtime, github: FakeGitHub) -> None:
    inst = installer(runtime, github)
    github.publish_builtins(shuttle("1.1.0", network="bus.pku.edu.cn"))
    outcome = inst.check("shuttle")
    assert outcome.status == "paused" and outcome.review is not None
    assert outcome.review.added_network == ["bus.pku.edu.cn"]
    assert version(runtime) == "1.0.0" and runtime.folders["shuttle"] == SHIPPED  # the built-in copy runs
    assert inst.check("shuttle").status == "waiting"
    assert inst.pending_review("shuttle") == outcome.review
    inst.accept("shuttle")
    assert version(runtime) == "1.1.0"
    assert runtime.registry.plugins["shuttle"].plugin.manifest.network == ["bus.pku.edu.cn"]


def test_rollback_twice_reaches_the_built_in_copy_and_the_versions_left_are_not_reapplied(
    runtime: Runtime, github: FakeGitHub
) -> None:
    inst = installer(runtime, github)
    for v in ("1.1.0", "1.2.0"):
        github.publish_builtins(shuttle(v, fixed=v == "1.2.0"))
        assert inst.check("shuttle").status == "applied"
    runtime.grants.set("shuttle", "read", "deny")  # the student's choice outlives the rollbacks
    assert inst.rollback("shuttle").current.version == "1.1.0" and version(runtime) == "1.1.0"
    record = inst.rollback("shuttle")
    assert record.current.builtin and record.previous is None
    assert version(runtime) == "1.0.0" and runtime.folders["shuttle"] == SHIPPED
    assert runtime.grants.mode("shuttle", "read", True, None) == "deny"
    with pytest.raises(InstallError, match="already runs the copy built into the app"):
        inst.rollback("shuttle")
    assert inst.check("shuttle").status == "declined"  # 1.2.0, which the first rollback left
    github.publish_builtins(shuttle("1.3.0"))
    assert inst.check("shuttle").status == "applied"  # a newer fix comes through again


def test_auto_update_off_is_respected_and_a_manual_check_still_works(runtime: Runtime, github: FakeGitHub) -> None:
    inst = installer(runtime, github)
    github.publish_builtins(shuttle("1.1.0"))
    inst.set_auto_update("shuttle", False)
    record = inst.installs.get("shuttle")
    assert record is not None and not record.auto_update and record.current.builtin  # kept before any update
    github.requests.clear()
    outcomes = inst.check_due(1_800_000_000_000)
    assert len(outcomes) == 6 and "shuttle" not in {o.plugin_id for o in outcomes}
    assert "shuttle" not in {o.plugin_id for o in inst.check_open()}  # opening the plugins page neither
    assert not [r for r in github.requests if "plugins/shuttle" in r]  # never fetched
    assert version(runtime) == "1.0.0"
    assert inst.check("shuttle").status == "applied" and version(runtime) == "1.1.0"  # asked for by the student


def test_an_automatic_round_asks_only_where_the_official_branch_points_while_it_has_not_moved(
    runtime: Runtime, github: FakeGitHub
) -> None:
    inst = installer(runtime, github)
    assert [o.status for o in inst.check_open()] == ["same"] * 7
    github.requests.clear()
    assert inst.check_open() == []  # nothing moved: one API call, no plugin fetched
    assert github.requests == ["api/repos/pkuinfo/pku-harness-plugins/commits/main"]
    assert [o.status for o in inst.check_all(auto_only=False)] == ["same"] * 7  # asked for: every one is fetched
    github.publish_builtins(shuttle("1.1.0"))
    assert [(o.plugin_id, o.status) for o in inst.check_open() if o.status != "same"] == [("shuttle", "applied")]
    inst.set_auto_update("wallet", False)
    assert len(inst.check_open()) == 6  # another set of plugins: checked once more
    github.requests.clear()
    assert inst.check_open() == [] and len(github.requests) == 1

    github.override["/repos/pkuinfo/pku-harness-plugins/commits/main"] = lambda: (500, {}, b"")
    outcomes = inst.check_open()  # the branch cannot be read: every plugin is checked, and says why it failed
    assert len(outcomes) == 6 and {o.status for o in outcomes} == {"error"}
    del github.override["/repos/pkuinfo/pku-harness-plugins/commits/main"]
    assert inst.check_open() == []  # the last round that went through still holds


def test_a_newer_app_whose_built_in_copy_is_newer_runs_its_own(
    tmp_path: Path, github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tmp_path / "app" / "shuttle"
    shutil.copytree(SHIPPED, shipped)
    monkeypatch.setattr("tui.runtime.runtime.builtin_folders", lambda: [shipped])
    db = tmp_path / "data" / "db.sqlite3"
    db.parent.mkdir()
    rt = Runtime.open(db)
    github.publish_builtins(shuttle("1.1.0"))
    assert installer(rt, github).check("shuttle").status == "applied" and version(rt) == "1.1.0"
    rt.close()

    (shipped / "PLUGIN.md").write_text(MANIFEST.replace("version: 1.0.0", "version: 1.2.0"), encoding="utf-8")
    rt = Runtime.open(db)  # the app was updated: its own copy (1.2.0) is newer than the fetched 1.1.0
    try:
        assert version(rt) == "1.2.0" and rt.folders["shuttle"] == shipped
        inst = installer(rt, github)
        assert inst.in_use(inst.record("shuttle")).builtin
        assert inst.check("shuttle").status == "same"  # the link's 1.1.0 is older than the floor: never applied
        with pytest.raises(InstallError, match="already runs the copy built into the app"):
            inst.rollback("shuttle")  # the stale 1.1.0 is no place to go back to
        github.publish_builtins(shuttle("1.3.0"))
        assert inst.check("shuttle").status == "applied" and version(rt) == "1.3.0"
        record = inst.installs.get("shuttle")
        assert record is not None and record.previous is not None and record.previous.builtin
        assert inst.rollback("shuttle").current.builtin and version(rt) == "1.2.0"
    finally:
        rt.close()


def test_a_fetched_copy_without_the_official_mark_is_refused(runtime: Runtime, github: FakeGitHub) -> None:
    repo = github.repos["pkuinfo", "pku-harness-plugins"]
    files = {k: v.decode() for k, v in repo.commits[repo.refs["main"]].items()}
    update = shuttle("9.0.0", network="evil.example.com")["shuttle"]
    files.update({f"plugins/shuttle/{k}": v for k, v in update.items()})
    fork = github.push_fork("pkuinfo", "pku-harness-plugins", files)  # served through the official repository
    github.override["/repos/pkuinfo/pku-harness-plugins/commits/main"] = lambda: (200, {}, fork.encode())
    outcome = installer(runtime, github).check("shuttle")
    assert outcome.status == "error" and outcome.message.key == "update_not_official", outcome.message  # type: ignore[attr-defined]
    assert version(runtime) == "1.0.0" and runtime.installs.get("shuttle") is None


def test_a_fetched_built_in_plugin_loads_from_the_start_up_cache(tmp_path: Path, github: FakeGitHub) -> None:
    db = tmp_path / "db.sqlite3"
    rt = Runtime.open(db)
    github.publish_builtins(shuttle("1.1.0"))
    assert installer(rt, github).check("shuttle").status == "applied"
    rt.close()
    rt = Runtime.open(db)
    try:
        assert rt.plugin_cache.validations == 0 and rt.plugin_cache.hits == 8  # 7 built-in copies + the fetched one
        assert version(rt) == "1.1.0" and rt.folders["shuttle"] != SHIPPED
    finally:
        rt.close()
    demo = Runtime.open(db, demo=True)  # the demo answers from the recordings beside the built-in copy
    try:
        assert version(demo) == "1.0.0" and demo.folders["shuttle"] == SHIPPED
    finally:
        demo.close()
