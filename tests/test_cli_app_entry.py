"""The commands that start a Textual app (`pku-harness`, `--demo`, `widget preview`): what they check before the
app starts, what they leave behind and how they exit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tui.app.preview import PreviewApp
from tui.cli.main import cli

CLASSROOMS = str(Path(__file__).resolve().parent.parent / "plugins_builtin" / "classrooms")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The apps whose `run` was called (none is really run)."""
    apps: list[Any] = []
    monkeypatch.setattr(PreviewApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"buildings": [\n  {"building": "二教",}\n]}', ":2:21: not valid JSON: Expecting property name"),
        ("", ":1:1: not valid JSON: Expecting value"),
        ("\xff\xfe", " is not UTF-8 text (byte 1)"),
    ],
)
def test_widget_preview_refuses_a_data_file_that_is_not_json(
    tmp_path: Path, started: list[Any], text: str, where: str
) -> None:
    data = tmp_path / "data.json"
    data.write_bytes(text.encode("latin-1") if text.startswith("\xff") else text.encode())
    code, _, err = invoke("widget", "preview", CLASSROOMS, "overview", "--data", str(data))
    assert code == 2 and f"{data}{where}" in " ".join(err.split()) and "Traceback" not in err
    assert started == []  # refused before the app starts


def test_widget_preview_starts_with_a_good_data_file(tmp_path: Path, started: list[Any]) -> None:
    data = tmp_path / "data.json"
    data.write_text('{"buildings": []}', "utf-8")
    code, _, err = invoke("widget", "preview", CLASSROOMS, "overview", "--data", str(data))
    assert code == 0, err
    assert len(started) == 1
