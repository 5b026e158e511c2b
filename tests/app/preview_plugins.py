"""Plugin folders for the widget preview's tests: copies of official plugins written to a test's tmp_path, edited
as an author edits them, and what the running preview shows of them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.app.helpers import until
from tui.app.preview import PreviewApp, ProblemsPanel

BUILTIN = Path(__file__).resolve().parents[2] / "plugins_builtin"
NOW = "2026-11-30T12:00:00+08:00"
#: A tool expression that names a constant that is not there (the validator's "unknown name").
UNKNOWN_NAME = ('value: "input.building ? [canonical(input.building)] : BUILDINGS"', 'value: "BUILDINGZ"')
#: A widget template that does not parse (TEMPLATE_SYNTAX).
BAD_TEMPLATE = ('"value": "${rooms.length}"', '"value": "${rooms.length +}"')


def copy(tmp_path: Path, plugin: str = "classrooms") -> Path:
    """A copy of an official plugin an author can edit (same folder name, so the title is the same)."""
    folder = tmp_path / plugin
    shutil.copytree(BUILTIN / plugin, folder)
    return folder


def edit(file: Path, change: tuple[str, str]) -> None:
    """Replace text in a file as an editor saves it; the text must be there (a test that edits nothing lies)."""
    text = file.read_text("utf-8")
    assert change[0] in text, f"{change[0]!r} is not in {file}"
    file.write_text(text.replace(*change), "utf-8")


def broken(tmp_path: Path) -> Path:
    """classrooms with a tool expression and a widget template the validator refuses."""
    folder = copy(tmp_path)
    edit(folder / "tools" / "free.yaml", UNKNOWN_NAME)
    edit(folder / "widgets" / "overview.json", BAD_TEMPLATE)
    return folder


def rooms_data(tmp_path: Path) -> Path:
    """A --data file for classrooms' overview: one building, rooms 101 and 102."""
    data = tmp_path / "data.json"
    rooms = [{"room": "101", "free": ["1-2"]}, {"room": "102", "free": ["3-4"]}]
    data.write_text(json.dumps({"buildings": [{"building": "二教", "rooms": rooms}]}, ensure_ascii=False), "utf-8")
    return data


def problems(app: PreviewApp) -> str:
    """The problems list as its text."""
    return app.query_one(ProblemsPanel).text()


def shown(app: PreviewApp) -> str:
    """Every text of the widgets' side: labels, notices and what the widgets and screens show."""
    return "\n".join(str(s.render()) for s in app.query("#widgets Static"))


async def settled(pilot: Any, app: PreviewApp) -> None:
    """Wait for the preview to show what its files say now."""
    await until(pilot, lambda: app.settled, seconds=20)
    await pilot.pause(0.05)


async def saved(pilot: Any, app: PreviewApp) -> None:
    """What the once-a-second look does after a save, then wait for the preview to show it."""
    await app.check_files()
    await settled(pilot, app)
