"""`widget preview`: one widget alone, its problems beside it, re-rendered when a file is saved."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.app.helpers import until
from tui.app.preview import PreviewApp
from widgets_render.textual_render import WidgetFrame

NOW = "2026-11-30T12:00:00+08:00"


async def test_preview_renders_from_a_data_file_and_rerenders_on_save(tmp_path: Path) -> None:
    folder = tmp_path / "classrooms"
    shutil.copytree("plugins_builtin/classrooms", folder)
    data = tmp_path / "data.json"
    data.write_text(
        json.dumps({"buildings": [{"building": "二教", "rooms": [{"room": "101", "free": ["1-2"]}]}]}), "utf-8"
    )
    app = PreviewApp(folder, "overview", "small", data, now=NOW)
    async with app.run_test(size=(110, 30)) as pilot:
        await until(pilot, lambda: app.query(WidgetFrame))
        frame = app.query_one(WidgetFrame)
        assert not frame.has_class("-error")
        assert str(app.query_one("#problems", Static).render()) == "✓ 没有问题"  # one language: the preview's own
        spec = folder / "widgets" / "overview.json"
        broken = json.loads(spec.read_text("utf-8"))
        broken["body"]["children"][0]["value"] = "${rooms.length +}"
        spec.write_text(json.dumps(broken, ensure_ascii=False), "utf-8")
        await app.check_files()  # what the once-a-second poll does
        await until(pilot, lambda: "TEMPLATE_SYNTAX" in str(app.query_one("#problems", Static).render()))
        problems = str(app.query_one("#problems", Static).render())
        assert "TEMPLATE_SYNTAX" in problems and "widgets/overview.json" in problems
        assert app.query_one(WidgetFrame).query(Static)  # the widget still shows (the prop falls back to —)


async def test_preview_of_all_widgets_with_recorded_data() -> None:
    app = PreviewApp(Path("plugins_builtin/canteen"), now=NOW)
    async with app.run_test(size=(110, 30)) as pilot:
        await until(pilot, lambda: app.query(WidgetFrame))
        frames = list(app.query(WidgetFrame))
        assert len(frames) == 1 and not frames[0].has_class("-error")


async def test_a_data_file_saved_broken_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    data = tmp_path / "data.json"
    data.write_text('{"buildings": []}', "utf-8")
    app = PreviewApp(Path("plugins_builtin/classrooms"), "overview", "small", data, now=NOW)
    async with app.run_test(size=(110, 30)) as pilot:
        await until(pilot, lambda: app.query(WidgetFrame))
        data.write_text('{"buildings": [', "utf-8")  # an editor's half-written save
        await app.check_files()
        await until(pilot, lambda: "data.json" in str(app.query_one("#problems", Static).render()))
        assert "line 1 column 16" in str(app.query_one("#problems", Static).render())
        assert app.query(WidgetFrame)  # the widget still shows, on no data


@pytest.mark.parametrize(("size", "beside"), [((120, 40), True), ((80, 24), False)])
async def test_the_problems_are_on_screen_beside_or_below_the_widgets(size: tuple[int, int], beside: bool) -> None:
    """The widgets' scroll took the whole width and pushed the problems off screen (x=120, 2 wide, 0 high)."""
    app = PreviewApp(Path("plugins_builtin/canteen"), now=NOW)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: app.query(WidgetFrame))
        problems = app.query_one("#problems", Static).region
        frame = app.query_one(WidgetFrame).region
        assert problems.width >= 30 and problems.height >= 3
        assert problems.right <= size[0] and problems.bottom <= size[1] - 1  # above the footer
        assert not problems.overlaps(frame)
        assert (problems.x >= frame.right) if beside else (problems.y >= frame.bottom)
