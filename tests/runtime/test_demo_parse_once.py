"""`--demo` answers every tool run from the plugin's recordings: each recorded test file is parsed once per content
in a process, however many runs build a host and however many installed plugins the dashboard cycles through."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tui.lang.testing.demo as demo
from tui.lang.documents.source import BudgetedReader, DirectorySource
from tui.runtime.runtime import recorded_test_files

NOW = "2026-11-30T12:00:00+08:00"
LECTURES = Path(__file__).resolve().parents[2] / "examples" / "lectures"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The recorded test files the demo sent to the real parser, in order (a fresh cache for the test)."""
    seen: list[str] = []
    real = demo.parse_test_file

    def counting(text: str, path: str) -> Any:
        seen.append(path)
        return real(text, path)

    monkeypatch.setattr(demo, "parse_test_file", counting)
    monkeypatch.setattr(demo, "_parsed_files", type(demo._parsed_files)())
    return seen


def test_a_plugins_recordings_are_parsed_once_for_every_run(parses: list[str]) -> None:
    files = recorded_test_files(LECTURES)
    hosts = [demo.demo_host(DirectorySource(LECTURES), files, NOW) for _ in range(5)]
    assert sorted(parses) == sorted(files) and len(files) == 4
    assert all(h.exchanges == hosts[0].exchanges and h.exchanges for h in hosts)  # every host answers alike


def test_an_edited_recording_is_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    folder = tmp_path / "lectures"
    (folder / "tests").mkdir(parents=True)
    recording = (LECTURES / "tests" / "reminders.yaml").read_text(encoding="utf-8")
    (folder / "tests" / "reminders.yaml").write_text(recording, encoding="utf-8")
    demo.demo_host(DirectorySource(folder), ["tests/reminders.yaml"], NOW)
    (folder / "tests" / "reminders.yaml").write_text(recording.replace("别的待办", "另一个待办"), encoding="utf-8")
    host = demo.demo_host(DirectorySource(folder), ["tests/reminders.yaml"], NOW)
    assert parses == ["tests/reminders.yaml", "tests/reminders.yaml"]
    assert "另一个待办" in str(host.abilities)


def test_more_recordings_than_the_old_cache_held_are_each_parsed_once_over_two_rounds(
    tmp_path: Path, parses: list[str]
) -> None:
    """The dashboard refreshes installed plugins in turn: with 300 files an LRU of 256 evicted each one just
    before it was needed again, and every refresh parsed everything."""
    folder = tmp_path / "many"
    (folder / "tests").mkdir(parents=True)
    files = []
    for i in range(300):
        files.append(f"tests/t{i:03d}.yaml")
        (folder / files[-1]).write_text(f"tool: t{i}\ncases:\n  - name: c\n    expect: {i}\n", encoding="utf-8")
    for _ in range(2):
        for path in files:
            assert demo.recorded_file(BudgetedReader(DirectorySource(folder)), path) is not None
    assert len(parses) == 300
