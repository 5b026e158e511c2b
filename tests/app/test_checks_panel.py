"""设置 → 定时检查 keeps its place and asks before it deletes: the row cursor stays on the chosen check across the
background refreshes, and 删除 names the check and waits for a yes (no keeps it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from tests.app.helpers import open_settings_section, until
from tui.app.app import make_app
from tui.app.dialogs.prompts import ChooseDialog, ConfirmDialog
from tui.app.i18n import t
from tui.app.widgets.checks_panel import ChecksPanel
from tui.runtime.scheduler.checks import Checks

NOW = "2026-11-30T12:00:00+08:00"
SIZE = (120, 40)


def selected(table: DataTable) -> str:  # type: ignore[type-arg]
    return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)


async def test_the_cursor_stays_on_the_chosen_check_across_refreshes(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    checks = Checks(app.runtime.store)
    made = [checks.add(f"检查 {i}", "every 1h", tool="memory.remember", args={"text": "x"}) for i in range(4)]
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_section(pilot, app, "checks")
        table = app.query_one("#checks", DataTable)
        table.focus()
        await pilot.press("down", "down")
        chosen = selected(table)
        assert chosen == made[2].id
        checks.add("新来的", "every 1m", tool="memory.remember", args={"text": "y"})  # a row more, elsewhere
        app.query_one(ChecksPanel).fill()  # what every background round does
        await pilot.pause()
        assert table.row_count == 5
        assert selected(table) == chosen
        checks.remove(chosen)  # gone (removed elsewhere): the cursor stays in the table, on a row that exists
        app.query_one(ChecksPanel).fill()
        await pilot.pause()
        assert table.row_count == 4 and 0 <= table.cursor_row < 4


async def test_remove_asks_first_and_no_keeps_the_check(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    checks = Checks(app.runtime.store)
    check = checks.add("图书馆座位", "every 1h", tool="memory.remember", args={"text": "x"})
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_section(pilot, app, "checks")
        table = app.query_one("#checks", DataTable)
        table.focus()
        for answer in ("n", "y"):
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
            await pilot.press("down", "down", "down", "enter")  # 立即运行, 详情和运行记录, 暂停, 删除
            await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
            question = " ".join(str(s.render()) for s in app.screen.query(Static))
            assert "图书馆座位" in question
            await pilot.press(answer)
            await until(pilot, lambda: not isinstance(app.screen, ConfirmDialog))
            await app.workers.wait_for_complete()
            if answer == "n":
                assert checks.get(check.id) is not None and table.row_count == 1
        assert checks.get(check.id) is None
        await until(pilot, lambda: table.row_count == 0)


@pytest.mark.parametrize("locale", ["zh", "en"])
async def test_at_80_columns_the_state_and_the_next_run_are_in_sight(tmp_path: Path, locale: str) -> None:
    """At 80×24 the list was wider than its pane: 下次运行 showed "2026-12-02" and the state was off screen."""
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    checks = Checks(app.runtime.store)
    checks.add("校园卡余额低于 20 元的时候提醒我", "every 1h", tool="wallet.cardBalance", args={})
    async with app.run_test(size=(80, 24)) as pilot:
        await open_settings_section(pilot, app, "checks")
        table = app.query_one("#checks", DataTable)
        await pilot.pause()
        headers = [str(c.label) for c in table.columns.values()]
        assert headers[2:] == ([t("state", locale), t("next_run", locale)])  # what it runs: in Enter's dialog
        assert table.virtual_size.width <= table.scrollable_content_region.width  # nothing to scroll sideways
        title, _, state, next_run = (str(c) for c in table.get_row_at(0))
        assert title.endswith("…") and state == t("not_run_yet", locale)
        assert re.fullmatch(rf"({t('today', locale)}|{t('tomorrow', locale)}) \d\d:\d\d", next_run), next_run
        await pilot.resize_terminal(120, 40)  # wide again: the tool's column and the whole title come back
        await until(pilot, lambda: len(table.columns) == 5)
        assert str(table.get_row_at(0)[0]) == "校园卡余额低于 20 元的时候提醒我"
