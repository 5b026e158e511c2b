"""A tool's generated form runs every input type (issue 18 items 7 and 8): a list typed comma by comma, an object as
JSON (a parse error said at its field), a boolean as a switch; each box's hint says how to fill it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Input, Switch

from tests.app.helpers import until
from tests.app.language_walk import screen_text
from tui.app.app import PkuHarnessApp, make_app
from tui.app.screens.tool_form import ToolFormScreen

FLAKY = Path(__file__).resolve().parents[1] / "fixtures" / "plugins" / "flaky"
NOW = "2026-11-30T12:00:00+08:00"


async def pick_form(pilot: Any, app: PkuHarnessApp) -> ToolFormScreen:
    tool = app.runtime.registry.find("flaky.pick")
    assert tool is not None
    app.push_screen(ToolFormScreen(app.runtime, tool, app.locale, app.now))
    # every box, not the first one: on a loaded machine the form was read while its later fields still mounted
    await until(
        pilot, lambda: isinstance(app.screen, ToolFormScreen) and {"rooms", "filter"} <= set(boxes(app.screen)), 10
    )
    assert isinstance(app.screen, ToolFormScreen)
    return app.screen


def boxes(form: ToolFormScreen) -> dict[str, Input]:
    return {str(box.name): box for box in form.query("Input.gen-input").results(Input)}


async def test_a_list_an_object_and_a_switch_are_sent_as_their_types(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, extra=[FLAKY])
    async with app.run_test(size=(100, 36)) as pilot:
        form = await pick_form(pilot, app)
        fields = boxes(form)
        assert fields["rooms"].placeholder == "用逗号隔开，如 a, b，必填"
        assert fields["filter"].placeholder == 'JSON 对象，如 {"a": 1}，可不填'
        fields["rooms"].value = "101，102"  # a full-width comma, as a Chinese keyboard types it
        fields["filter"].value = '{"floor": 1}'
        form.query_one(Switch).value = True
        fields["rooms"].focus()
        await pilot.press("enter")
        await until(pilot, lambda: form.last_ok is not None, 10)
        assert form.last_ok.result == {"rooms": ["101", "102"], "filter": {"floor": 1}, "quiet": True}


async def test_json_that_does_not_parse_is_said_at_its_field(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, extra=[FLAKY])
    async with app.run_test(size=(100, 36)) as pilot:
        form = await pick_form(pilot, app)
        fields = boxes(form)
        fields["rooms"].value = "101"
        fields["filter"].value = "{floor: 1"
        fields["rooms"].focus()
        await pilot.press("enter")
        await until(pilot, lambda: "条件要填 JSON（第 1 行第 2 列不对）" in screen_text(app), 10)
        assert boxes(form)["filter"].has_class("-invalid") and not boxes(form)["rooms"].has_class("-invalid")
        assert app.focused is boxes(form)["filter"]  # the focus goes to what has to be put right
        assert not [e for e in app.runtime.audit.recent(5) if e.tool == "flaky.pick"]  # nothing was sent
