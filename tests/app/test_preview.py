"""`widget preview`: a plugin's widgets (or one of its screens) alone, every validation problem of the plugin beside
them, the data from `--data` or the plugin's recordings, the clock pinned by `--now`, in the preview's language.
Each test drives the real app with the pilot on a real plugin folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.app.preview_plugins import (
    BUILTIN,
    NOW,
    broken,
    copy,
    edit,
    problems,
    rooms_data,
    settled,
    shown,
)
from tui.app.preview import PreviewApp, ProblemsPanel
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from widgets_render.textual_render import GenButton, WidgetFrame

CJK = re.compile(r"[\u4e00-\u9fff]")


# -- every problem, beside the widget -----------------------------------------------------------------------


@pytest.mark.parametrize("with_data", [False, True], ids=["recorded data", "--data"])
async def test_every_validation_problem_is_listed_beside_the_widget(tmp_path: Path, with_data: bool) -> None:
    """It crashed (PluginLoadError) on a plugin with a problem; with --data it said '✓ 没有问题'."""
    folder = broken(tmp_path)
    _, expected = validate(DirectorySource(folder))
    assert len(expected) >= 2
    app = PreviewApp(folder, "overview", "medium", rooms_data(tmp_path) if with_data else None, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        listed = problems(app)
        for problem in expected:
            assert problem.where in listed
            assert problem.message.split("\n")[0].split("; ")[0] in listed
        assert f"{len(expected)} 个错误" in listed and "没有问题" not in listed
        frame = app.query_one(WidgetFrame)
        panel = app.query_one(ProblemsPanel)
        assert panel.region.x >= frame.region.right  # beside the widget, not instead of it
        if with_data:
            assert "101" in shown(app)  # the data file's rooms, through the broken template's fallback
        else:
            assert "没有运行它的数据源" in listed  # a plugin with errors does not run: the preview says so


async def test_a_manifest_that_does_not_parse_is_a_problem_with_line_and_column(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    edit(folder / "PLUGIN.md", ("network: [portal.pku.edu.cn]", "network: [portal.pku.edu.cn"))
    (problem,) = validate(DirectorySource(folder))[1]
    assert problem.line is not None and problem.column is not None
    app = PreviewApp(folder, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert f"PLUGIN.md:{problem.line}:{problem.column} · 错误" in problems(app)
        assert "not valid YAML" in problems(app)
        assert not app.query(WidgetFrame)  # nothing loaded, nothing rendered — and nothing crashed
        assert "PLUGIN.md 现在读不出" in shown(app)
        assert app.return_code is None


async def test_a_long_list_of_problems_scrolls() -> None:
    """The list was one Static cut at the bottom of the screen: the problems below it could not be read."""
    app = PreviewApp(BUILTIN / "classrooms", now=NOW)
    async with app.run_test(size=(120, 16)) as pilot:
        await settled(pilot, app)
        panel = app.query_one(ProblemsPanel)
        from tui.app.preview_reading import Finding

        await panel.show([Finding(f"tools/t{i}.yaml:{i}", "error", f"problem {i}") for i in range(40)])
        await pilot.pause(0.05)
        assert panel.max_scroll_y > 0
        panel.scroll_end(animate=False)
        await pilot.pause(0.05)
        assert panel.scroll_y == panel.max_scroll_y


# -- names: widgets, screens, and names that are not there ------------------------------------------------


@pytest.mark.parametrize("name", ["nope", "screen:overview", "widget:search"])
async def test_a_name_that_is_not_there_lists_the_widgets_and_screens(name: str) -> None:
    app = PreviewApp(BUILTIN / "classrooms", name, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        listed = problems(app)
        assert f"没有叫 {name} 的小组件或页面" in listed  # as it was asked for
        assert "小组件：overview" in listed and "页面：search" in listed
        assert "没有问题" not in listed and "1 个错误" in listed
        assert not app.query(WidgetFrame) and f"没有叫 {name} 的小组件或页面\n小组件：overview" in shown(app)


@pytest.mark.parametrize("name", ["timetable", "screen:timetable"])
async def test_a_screen_is_previewed_by_its_name_on_its_recorded_data(name: str) -> None:
    app = PreviewApp(BUILTIN / "shuttle", name, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert app.query(".preview-screen") and not app.query(WidgetFrame)
        text = shown(app)
        assert "timetable · 页面" in text
        assert "燕园 → 昌平校区（工作日）" in text and "07:30" in text  # its tool source, run on the recordings
        assert problems(app) == "✓ 没有问题"


async def test_a_screens_form_shows_and_its_button_says_actions_run_in_the_app() -> None:
    app = PreviewApp(BUILTIN / "classrooms", "search", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert "教学楼" in shown(app)  # a form field labelled from its tool's input
        await pilot.click(GenButton)
        await pilot.pause(0.05)
        assert any("预览不运行页面的操作" in str(n.message) for n in app._notifications)
        assert app.return_code is None


async def test_without_a_name_every_widget_shows() -> None:
    app = PreviewApp(BUILTIN / "canteen", now=NOW)
    async with app.run_test(size=(110, 30)) as pilot:
        await settled(pilot, app)
        frames = list(app.query(WidgetFrame))
        assert len(frames) == 1 and not frames[0].has_class("-error")
        assert problems(app) == "✓ 没有问题"


# -- data and the clock ---------------------------------------------------------------------------------------


async def test_a_data_file_is_the_widgets_data(tmp_path: Path) -> None:
    app = PreviewApp(BUILTIN / "classrooms", "overview", "small", rooms_data(tmp_path), now=NOW)
    async with app.run_test(size=(110, 30)) as pilot:
        await settled(pilot, app)
        assert "空闲教室  2 间" in shown(app)
        assert problems(app) == "✓ 没有问题"


async def test_a_failing_data_source_is_an_error_card_and_a_problem(tmp_path: Path) -> None:
    """A source the recordings cannot answer: the widget shows the card the dashboard would, the list says why."""
    folder = copy(tmp_path)
    (folder / "tests" / "free.yaml").unlink()  # no recording: the demo host answers no request
    app = PreviewApp(folder, "overview", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert app.query_one(WidgetFrame).has_class("-error")
        assert "数据源 overview 读取失败" in problems(app)


@pytest.mark.parametrize(
    ("now", "next_bus"),
    [("2026-11-30T08:00:00+08:00", "12:00 发车"), ("2026-11-30T13:00:00+08:00", "17:10 发车")],
)
async def test_now_pins_the_clock(now: str, next_bus: str) -> None:
    """The next shuttle and the countdown to it are computed from the pinned time, the same on every run."""
    app = PreviewApp(BUILTIN / "shuttle", "next", "medium", now=now)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        text = shown(app)
        assert next_bus in text
        assert ("4 小时 0 分钟后" if now.endswith("08:00:00+08:00") else "4 小时 10 分钟后") in text


# -- one language; plugin text as written ------------------------------------------------------------------


async def test_english_is_english_throughout(tmp_path: Path) -> None:
    app = PreviewApp(broken(tmp_path), "nope", locale="en", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        listed = problems(app)
        assert "No widget or screen is named nope" in listed and "Widgets: overview" in listed
        assert "Errors: 3, warnings: 0" in listed and " · error" in listed
        assert not CJK.search(listed), listed  # the validator's messages and the names hold no Chinese
        assert app.title == "Widget preview · classrooms"


async def test_plugin_text_is_shown_as_written_never_as_markup(tmp_path: Path) -> None:
    """A name and an expression holding markup (`[/]` raises when read as markup; `[@click=…]` would run)."""
    folder = copy(tmp_path)
    edit(folder / "tools" / "free.yaml", ('value: "input.building ?', "value: \"'[/]' + [b]x[/b] ?"))
    name = "[@click=app.quit]w[/]"
    app = PreviewApp(folder, name, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        listed = problems(app)
        assert f"没有叫 {name} 的小组件或页面" in listed
        assert "'[/]' + [b]x[/b]" in listed  # the expression's excerpt, as written
        assert app.return_code is None


def test_a_problem_message_splits_into_message_and_hint() -> None:
    from tui.app.preview import excerpt
    from tui.app.preview_reading import finding
    from tui.lang.documents.problems import Problem

    long = "x" * 50 + " +"
    found = finding(Problem("tools/a.yaml", 3, f"value: the expression ends too early\n{long}\n{' ' * 52}^"))
    assert (found.where, found.message) == ("tools/a.yaml:3", "value: the expression ends too early")
    lines = excerpt(found.hint).split("\n")
    assert lines[0].startswith("…") and lines[0].endswith(" +")  # cut around the caret, which still points at it
    assert lines[1].index("^") == len(lines[0])  # past the end, as the whole line's caret was (it ends early)
    named = finding(Problem("a.yaml", 1, "value: unknown name 'X'; bound here: a, b", column=4))
    assert (named.where, named.message, named.hint) == ("a.yaml:1:4", "value: unknown name 'X'", "bound here: a, b")


@pytest.mark.parametrize(("size", "beside"), [((120, 40), True), ((80, 24), False)])
async def test_the_problems_are_on_screen_beside_or_below_the_widgets(size: tuple[int, int], beside: bool) -> None:
    """The widgets' scroll took the whole width and pushed the problems off screen (x=120, 2 wide, 0 high)."""
    app = PreviewApp(BUILTIN / "canteen", now=NOW)
    async with app.run_test(size=size) as pilot:
        await settled(pilot, app)
        problems_region = app.query_one(ProblemsPanel).region
        frame = app.query_one(WidgetFrame).region
        assert problems_region.width >= 30 and problems_region.height >= 3
        assert problems_region.right <= size[0] and problems_region.bottom <= size[1] - 1  # above the footer
        assert not problems_region.overlaps(frame)
        assert (problems_region.x >= frame.right) if beside else (problems_region.y >= frame.bottom)


def test_the_data_file_problem_names_its_line_and_column(tmp_path: Path) -> None:
    from tui.app.preview_reading import read_data

    data = tmp_path / "data.json"
    data.write_text('{"a": [1,\n  2,,]}', "utf-8")
    value, problem = read_data(data)
    assert value is None and problem is not None
    assert problem.where == f"{data}:2:5" and problem.message.startswith("not valid JSON")
