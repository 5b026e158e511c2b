"""`widget preview` while the author edits: each save is read, a file saved half-written is a problem with its line
and column (the last good render stays, marked), and fixing it renders anew. Files are written while the real app
runs; `saved()` does what the once-a-second look does, then waits for the preview to show it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.app.preview_plugins import (
    BAD_TEMPLATE,
    NOW,
    UNKNOWN_NAME,
    copy,
    edit,
    problems,
    rooms_data,
    saved,
    settled,
    shown,
)
from tui.app.preview import PreviewApp
from tui.app.preview_render import PreviewData
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from widgets_render.textual_render import WidgetFrame

LAST_GOOD = "这是上次成功的显示"


async def test_a_template_broken_on_save_is_listed_and_fixed_on_the_next(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    spec = folder / "widgets" / "overview.json"
    app = PreviewApp(folder, "overview", "small", rooms_data(tmp_path), now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert problems(app) == "✓ 没有问题" and "空闲教室  2 间" in shown(app)
        edit(spec, BAD_TEMPLATE)
        await saved(pilot, app)
        assert "widgets/overview.json" in problems(app) and "TEMPLATE_SYNTAX" in problems(app)
        assert "空闲教室  — 间" in shown(app)  # the spec still loads: rendered anew, the bad prop as —
        edit(spec, BAD_TEMPLATE[::-1])
        await saved(pilot, app)
        assert problems(app) == "✓ 没有问题" and "空闲教室  2 间" in shown(app)


@pytest.mark.parametrize("file", ["widgets/overview.json", "PLUGIN.md"])
async def test_a_half_written_save_keeps_the_last_good_render_until_it_is_fixed(tmp_path: Path, file: str) -> None:
    folder = copy(tmp_path)
    good = (folder / file).read_text("utf-8")
    app = PreviewApp(folder, "overview", "small", rooms_data(tmp_path), now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        (folder / file).write_text(good[: len(good) // 2], "utf-8")  # an editor's save, caught half-way
        await saved(pilot, app)
        (problem,) = [p for p in validate(DirectorySource(folder))[1] if p.file == file]
        assert problem.column is not None or "no closing '---'" in problem.message  # JSON: the line and the column
        assert f"{problem.where} · 错误" in problems(app)
        assert LAST_GOOD in shown(app) and f"现在读不出 {file}" in shown(app) and "空闲教室  2 间" in shown(app)
        assert app.query_one(WidgetFrame).has_class("-kept")
        (folder / file).write_text(good, "utf-8")
        await saved(pilot, app)
        assert problems(app) == "✓ 没有问题"
        assert LAST_GOOD not in shown(app) and not app.query_one(WidgetFrame).has_class("-kept")


async def test_a_tool_broken_while_running_keeps_showing_the_data_read_last(tmp_path: Path) -> None:
    """Its data source cannot run while the plugin has errors: the widget keeps the data it had, and says so."""
    folder = copy(tmp_path)
    app = PreviewApp(folder, "overview", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        before = shown(app)
        assert "201" in before  # from the plugin's recorded test
        edit(folder / "tools" / "free.yaml", UNKNOWN_NAME)
        await saved(pilot, app)
        assert "unknown name 'BUILDINGZ'" in problems(app) and "显示的是上次读到的数据" in problems(app)
        assert shown(app) == before
        edit(folder / "tools" / "free.yaml", UNKNOWN_NAME[::-1])
        await saved(pilot, app)
        assert problems(app) == "✓ 没有问题" and shown(app) == before


async def test_a_copy_of_a_builtin_runs_its_own_files(tmp_path: Path) -> None:
    """The copy has the built-in's id: its data source ran the built-in's tool and recordings, not the copy's."""
    folder = copy(tmp_path)
    recording = folder / "tests" / "free.yaml"
    recording.write_text(recording.read_text("utf-8").replace('"201"', '"999"').replace("'201'", "'999'"), "utf-8")
    assert "999" in recording.read_text("utf-8")
    app = PreviewApp(folder, "overview", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert "999" in shown(app) and "201" not in shown(app)


async def test_a_data_file_saved_broken_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    data = tmp_path / "data.json"
    data.write_text('{"buildings": [{"rooms": []}]}', "utf-8")  # no building at all is a render error (a `let` fails)
    app = PreviewApp(copy(tmp_path), "overview", "small", data, now=NOW)
    async with app.run_test(size=(110, 30)) as pilot:
        await settled(pilot, app)
        data.write_text('{"buildings": [', "utf-8")  # an editor's half-written save
        await saved(pilot, app)
        assert f"{data}:1:16 · 错误" in problems(app) and "not valid JSON" in problems(app)
        assert app.query(WidgetFrame)  # the widget still shows, on no data
        data.write_text(json.dumps({"buildings": [{"rooms": []}]}), "utf-8")
        await saved(pilot, app)
        assert problems(app) == "✓ 没有问题"


def cuts(raw: bytes) -> list[int]:
    """Where an editor's save can stop: early, half-way, inside a UTF-8 character, one byte short."""
    wide = next((i for i, b in enumerate(raw) if b >= 0xC0), len(raw) // 2)
    return sorted({3, len(raw) // 2, wide + 1, len(raw) - 1})


async def test_every_file_saved_at_any_point_is_shown_never_crashes(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    files = ["PLUGIN.md", "shared.yaml", "tools/free.yaml", "widgets/overview.json", "screens/search.json"]
    app = PreviewApp(folder, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        for file in files:
            raw = (folder / file).read_bytes()
            for cut in cuts(raw):
                (folder / file).write_bytes(raw[:cut])
                await saved(pilot, app)
                listed = problems(app)
                assert "预览内部出错" not in listed, (file, cut, listed)
                assert app.return_code is None and app.query(WidgetFrame), (file, cut)
            (folder / file).write_bytes(raw)
        await saved(pilot, app)
        assert problems(app) == "✓ 没有问题" and "-kept" not in app.query_one(WidgetFrame).classes


async def test_a_widget_added_while_running_is_shown(tmp_path: Path) -> None:
    """A name the plugin does not have yet: the list says so, and once the author adds it, it shows."""
    folder = copy(tmp_path)
    app = PreviewApp(folder, "second", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert "没有叫 second 的小组件或页面" in problems(app)
        (folder / "widgets" / "second.json").write_text((folder / "widgets" / "overview.json").read_text("utf-8"))
        edit(
            folder / "PLUGIN.md",
            (
                "  overview: widgets/overview.json\n",
                "  overview: widgets/overview.json\n  second: widgets/second.json\n",
            ),
        )
        await saved(pilot, app)
        assert "second ·" in shown(app) and "没有叫" not in problems(app)


@pytest.mark.parametrize("text", ["[]", '"overview"', "null", "1"])
async def test_a_spec_saved_as_json_that_is_not_an_object_is_a_problem(tmp_path: Path, text: str) -> None:
    folder = copy(tmp_path)
    (folder / "widgets" / "overview.json").write_text(text, "utf-8")
    (folder / "screens" / "search.json").write_text(text, "utf-8")
    for name in ("overview", "search"):
        app = PreviewApp(folder, name, now=NOW)
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(pilot, app)
            listed = problems(app)
            assert "预览内部出错" not in listed and f"{name}.json" in listed, listed
            assert app.return_code is None


async def test_a_bug_of_the_preview_itself_is_shown_and_the_next_save_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not the plugin's doing: said as the app's own bug (what and where), and the preview goes on."""
    folder = copy(tmp_path)
    real = PreviewData.widget

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("a bug")

    monkeypatch.setattr(PreviewData, "widget", broken)
    app = PreviewApp(folder, "overview", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert "预览内部出错" in problems(app) and "KeyError: 'a bug' (test_preview_reload.py:" in problems(app)
        monkeypatch.setattr(PreviewData, "widget", real)
        (folder / "widgets" / "overview.json").write_text((folder / "widgets" / "overview.json").read_text() + "\n")
        await saved(pilot, app)
        assert problems(app) == "✓ 没有问题" and app.query(WidgetFrame)
