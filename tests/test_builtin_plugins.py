"""Every official plugin in plugins_builtin/ validates and passes its recorded tests (issue #5)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.lang.testing.runner import run_tests
from tui.runtime.runtime import builtin_folders, recorded_test_files

FOLDERS = builtin_folders()


def test_the_official_plugins_are_packaged() -> None:
    assert {f.name for f in FOLDERS} == {
        "classrooms",
        "campus-events",
        "grades",
        "canteen",
        "shuttle",
        "notices",
        "wallet",
    }


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_official_plugin_validates_and_its_recordings_pass(folder: Path) -> None:
    plugin, problems = validate(DirectorySource(folder))
    assert plugin is not None, [str(p) for p in problems]
    assert problems == [], [str(p) for p in problems]  # official plugins have no warnings either
    assert plugin.manifest.id == folder.name
    assert (folder / "README.md").is_file()
    m = plugin.manifest
    assert m.i18n and m.i18n.en and m.i18n.en.name and m.i18n.en.description and m.i18n.en.instructions
    assert set(m.i18n.en.tools) == set(plugin.tools), "every tool has an English title and summary"
    assert plugin.widgets, "every official plugin has a dashboard widget"
    files = recorded_test_files(folder)
    results, test_problems = run_tests(plugin, DirectorySource(folder), files)
    assert test_problems == []
    failed = [r.line() for r in results if not r.passed or r.warnings]
    assert not failed, "\n".join(failed)  # nor a recording that no run uses
    assert len(results) >= 5


def test_replaying_every_official_plugin_takes_under_3_seconds() -> None:
    # CPU time, as every bound of work in the suite: the wall time of a loaded CI machine says nothing of it
    t0 = time.process_time()
    count = 0
    for folder in FOLDERS:
        plugin, _ = validate(DirectorySource(folder))
        assert plugin is not None
        results, _ = run_tests(plugin, DirectorySource(folder), recorded_test_files(folder))
        count += len(results)
    elapsed = time.process_time() - t0
    assert count >= 5 * len(FOLDERS)
    assert elapsed < 3.0, f"{count} cases took {elapsed:.2f} s"
