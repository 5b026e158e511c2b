"""SteadySelect: a select whose first value arrives before its label is composed shows it, instead of crashing.

Textual's own `SelectCurrent.update` asks for its `#label` child at once; under load (the language switch
recomposes the whole shell) a select's mount handler ran before that child was composed and the app died with
`NoMatches: '#label'` (seen in a full test run).
"""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.css.query import NoMatches
from textual.widgets import Static
from textual.widgets._select import SelectCurrent

from widgets_render.steady_select import SteadySelect, _SteadyCurrent


def test_textuals_own_box_crashes_when_updated_before_its_label_exists() -> None:
    """The race, reproduced without timing: an update before compose."""
    with pytest.raises(NoMatches):
        SelectCurrent("选择").update("中文")


async def test_the_steady_box_keeps_an_early_value_and_shows_it_once_composed() -> None:
    box = _SteadyCurrent("选择")
    box.update("中文")  # before compose: kept, no error
    assert box.label == "中文" and box.has_value

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield box

    async with Host().run_test() as pilot:
        await pilot.pause()
        assert str(box.query_one("#label", Static).render()) == "中文"


async def test_a_steady_select_shows_its_value_and_reports_changes() -> None:
    changes: list[object] = []

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield SteadySelect([("中文", "zh"), ("English", "en")], value="zh", allow_blank=False, id="language")

        def on_select_changed(self, event: SteadySelect.Changed) -> None:
            changes.append(event.value)

    app = Host()
    async with app.run_test() as pilot:
        select = app.query_one("#language", SteadySelect)
        await pilot.pause()
        assert str(select.query_one("#label", Static).render()) == "中文"
        select.value = "en"
        await pilot.pause()
        assert str(select.query_one("#label", Static).render()) == "English"
    assert changes[-1] == "en"
