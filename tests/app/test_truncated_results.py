"""A result cut short at its page limit is said to be so (issue 18 item 6): under the tool form's result, on the
command line, and to the model."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tests.app.helpers import until
from tests.app.language_walk import screen_text
from tui.app.app import make_app
from tui.app.screens.tool_form import ToolFormScreen
from tui.cli.main import cli

FLAKY = Path(__file__).resolve().parents[1] / "fixtures" / "plugins" / "flaky"
NOW = "2026-11-30T12:00:00+08:00"


async def test_the_tool_form_says_the_result_is_not_whole(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, extra=[FLAKY])
    async with app.run_test(size=(100, 30)) as pilot:
        tool = app.runtime.registry.find("flaky.manyPages")
        assert tool is not None
        app.push_screen(ToolFormScreen(app.runtime, tool, app.locale, app.now, run=True))
        await until(pilot, lambda: "102" in screen_text(app), 10)
        # the note is drawn after the rows: wait for it rather than read the frame the rows arrived in
        await until(pilot, lambda: "结果不完整：分页到了上限就停了，还有更多。" in screen_text(app), 5)
        outcome = await app.runtime.gate.call("flaky.manyPages", {}, actor="agent")
        assert outcome.truncated and "[truncated: paging stopped at its page limit" in outcome.model_text


async def test_a_whole_result_says_nothing_of_the_kind(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, extra=[FLAKY])
    async with app.run_test(size=(100, 30)) as pilot:
        tool = app.runtime.registry.find("flaky.emptyRooms")
        assert tool is not None
        app.push_screen(ToolFormScreen(app.runtime, tool, app.locale, app.now, run=True))
        await until(pilot, lambda: isinstance(app.screen, ToolFormScreen) and app.screen.last_ok is not None, 10)
        assert "结果不完整" not in screen_text(app) and "之前保存" not in screen_text(app)


def test_tools_call_prints_it() -> None:
    result = CliRunner().invoke(cli, ["tools", "call", "flaky.manyPages", "--demo", "--with", str(FLAKY)])
    assert result.exit_code == 0 and '"room": "102"' in result.stdout
    assert "(truncated: paging stopped at its page limit; there is more)" in result.stderr
