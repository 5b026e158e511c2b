"""`widget preview` of a screen that requires params (issue 21): `--params` opens it as a row's action would;
without them the preview says which params it needs instead of showing a failed data source; and a source that
fails leaves out the components that show it, as the app's screen does, instead of drawing them as `— ⚠`."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from tests.app.preview_plugins import NOW, problems, settled, shown
from tui.app.preview import PreviewApp
from tui.cli.main import cli

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "lectures"


async def test_params_open_the_screen_as_a_row_would() -> None:
    app = PreviewApp(EXAMPLE, "detail", now=NOW, params={"id": "102"})
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        text = shown(app)
        assert "大语言模型的推理" in text and "信息科学技术学院" in text
        assert problems(app) == "✓ 没有问题"


async def test_a_screen_without_the_params_it_needs_says_which() -> None:
    app = PreviewApp(EXAMPLE, "detail", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        said = problems(app)
        assert "页面 detail 需要参数 id，没有给出" in said
        assert """--params '{"id": "…"}'""" in said
        assert "读取失败" not in said  # not a failed data source: the source that reads `params.id` did not run
        assert "— ⚠" not in shown(app)


async def test_a_source_that_fails_leaves_out_what_shows_it_as_the_app_does() -> None:
    app = PreviewApp(EXAMPLE, "detail", now=NOW, params={"id": "999"})  # no recording answers lecture 999
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        assert "数据源 lecture 读取失败" in problems(app)
        text = shown(app)
        assert "⚠" not in text  # the title, the pairs and the abstract read it: left out, not drawn as `— ⚠`
        assert "detail · 页面" in text


def test_params_that_are_not_a_json_object_are_refused_before_the_app_starts(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["widget", "preview", str(EXAMPLE), "detail", "--params", "[1]"])
    assert result.exit_code == 2 and "--params must be a JSON object" in result.stderr
    bad = tmp_path / "p.json"
    bad.write_text('{"id": ', "utf-8")
    result = CliRunner().invoke(cli, ["widget", "preview", str(EXAMPLE), "detail", "--params", f"@{bad}"])
    assert result.exit_code == 2 and f"{bad}:1:8: not valid JSON" in result.stderr


async def test_a_template_that_fails_on_the_data_is_listed_apart_from_validation_problems(tmp_path: Path) -> None:
    """A misspelt field validates (the data's shape is not known) but fails at render time: it showed ⚠ while the
    problems said "✓ 没有问题", with no way to see why."""
    folder = tmp_path / "lectures"
    shutil.copytree(EXAMPLE, folder)
    spec = folder / "widgets" / "next.json"
    spec.write_text(spec.read_text("utf-8").replace("formatDate(item.start,", "formatDate(item.strat,"), "utf-8")
    app = PreviewApp(folder, "next", "medium", now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, app)
        said = problems(app)
        assert said.startswith("0 个错误，0 个警告\n渲染时 ") and "✓" not in said
        assert "widgets/next.json:28:50 · 渲染出错" in said
        assert "formatDate" in said and "/body/item/children/0/text" in said
