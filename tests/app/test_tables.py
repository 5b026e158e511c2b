"""The app's tables speak the UI's language in their headers, and an empty table says so (还没有… / No … yet) under
its header instead of showing a bare header line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import DataTable, Static

from tests.app.helpers import open_settings_section, settle, until
from tui.app.app import make_app
from tui.app.dialogs.check import RunLogDialog
from tui.app.dialogs.notifications import NotificationCentre
from tui.app.widgets.result_view import result_view
from tui.app.widgets.tables import Table, fit_widths
from tui.runtime.scheduler.checks import Checks

NOW = "2026-11-30T12:00:00+08:00"
CJK = re.compile(r"[\u4e00-\u9fff]")
#: Every table of the app's own (plugin tables carry the plugin's headers).
TABLES = {"tools", "screens", "permissions", "reach", "audit", "installed", "checks", "campus-services"}


def headers(table: DataTable) -> list[str]:  # type: ignore[type-arg]
    return [str(column.label) for column in table.columns.values()]


def in_locale(label: str, locale: str) -> bool:
    """A Chinese header has Chinese in it; an English one has none and starts with a capital."""
    return bool(CJK.search(label)) if locale == "zh" else not CJK.search(label) and label[:1].isupper()


def empty_line(table: DataTable) -> str:  # type: ignore[type-arg]
    """The text on the line under the header, as drawn."""
    return table.render_line(table.header_height).text.strip()


@pytest.mark.parametrize("locale", ["zh", "en"])
async def test_every_tables_headers_are_in_the_ui_language(tmp_path: Path, locale: str) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    check = Checks(app.runtime.store).add("记住", "every 1h", tool="memory.remember", args={"text": "x"})
    async with app.run_test(size=(120, 40)) as pilot:
        for tab in ("3", "4"):
            await pilot.press(tab)
            await settle(pilot, app, 1)
        await until(pilot, lambda: {t.id for t in app.query(DataTable)} >= TABLES)
        tables = [t for t in app.query(DataTable) if t.id in TABLES]
        await app.push_screen(NotificationCentre(app.runtime.notices, locale))
        await settle(pilot, app, 1)
        tables.append(app.screen.query_one("#notices", DataTable))
        await app.push_screen(RunLogDialog(Checks(app.runtime.store), check, locale))
        await settle(pilot, app, 1)
        tables.append(app.screen.query_one("#run-log", DataTable))
        wrong = {t.id: h for t in tables for h in headers(t) if not in_locale(h, locale)}
        assert wrong == {}


@pytest.mark.parametrize(
    ("locale", "checks", "installed", "notices", "runs"),
    [
        ("zh", "还没有定时检查", "还没有从链接安装的插件", "还没有通知", "还没有运行过"),
        ("en", "No scheduled checks yet", "No plugins installed from links yet", "No notifications yet", "No runs yet"),
    ],
)
async def test_an_empty_table_says_so(
    tmp_path: Path, locale: str, checks: str, installed: str, notices: str, runs: str
) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings_section(pilot, app, "checks")
        assert empty_line(app.query_one("#checks", DataTable)).startswith(checks)
        await open_settings_section(pilot, app, "updates")
        assert empty_line(app.query_one("#installed", DataTable)).startswith(installed)
        await app.push_screen(NotificationCentre(app.runtime.notices, locale))
        await settle(pilot, app, 1)
        table = app.screen.query_one("#notices", DataTable)
        assert empty_line(table) == notices and table.region.height == 2  # the header and the line
        app.pop_screen()
        check = Checks(app.runtime.store).add("记住", "every 1h", tool="memory.remember", args={"text": "x"})
        await app.push_screen(RunLogDialog(Checks(app.runtime.store), check, locale))
        await settle(pilot, app, 1)
        assert empty_line(app.screen.query_one("#run-log", DataTable)) == runs


class OneTable(App[None]):
    def compose(self) -> ComposeResult:
        table = Table(empty="还没有调用", id="t")
        table.add_columns("时间", "工具")
        table.add_row("12:00", "wallet.cardBalance")
        yield table


async def test_a_table_that_empties_on_a_refresh_says_so_and_its_first_row_replaces_the_line() -> None:
    app = OneTable()
    async with app.run_test(size=(60, 10)) as pilot:
        table = app.query_one(Table)
        assert empty_line(table) == "12:00  wallet.cardBalance".replace("  ", " " * 2) or "12:00" in empty_line(table)
        table.clear()
        await pilot.pause()
        assert empty_line(table) == "还没有调用" and table.region.height == 2
        table.add_row("12:01", "classrooms.free")
        await pilot.pause()
        assert "classrooms.free" in empty_line(table) and "还没有" not in empty_line(table)


@pytest.mark.parametrize(("locale", "line"), [("zh", "结果是空的"), ("en", "The result is empty")])
def test_an_empty_tool_result_says_so(locale: str, line: str) -> None:
    for empty in ([], {"items": []}):
        view = result_view(empty, locale=locale)
        assert isinstance(view, Static) and str(view.render()) == line


class ResultApp(App[None]):
    """One tool result, shown as the tool form shows it."""

    def __init__(self, result: object, locale: str = "zh", width: int | None = None) -> None:
        super().__init__()
        self.result, self.locale, self.width = result, locale, width

    def compose(self) -> ComposeResult:
        yield result_view(self.result, locale=self.locale, width=self.width)


@pytest.mark.parametrize(("locale", "field"), [("zh", "字段"), ("en", "Field")])
async def test_one_record_is_a_table_of_fields_not_python_repr(locale: str, field: str) -> None:
    """Found by a new student: 余额's result was `{'balanceYuan': 23.5, 'frozen': False, 'note': None}`."""
    app = ResultApp({"balanceYuan": 23.5, "frozen": False, "note": None, "tags": ["a"]}, locale)
    async with app.run_test():
        view = app.query_one("#result", DataTable)
        assert headers(view)[0] == field
        cells = [[str(c) for c in view.get_row_at(i)] for i in range(view.row_count)]
        no = "否" if locale == "zh" else "no"  # in the app's words, not JSON's false
        assert cells == [["balanceYuan", "23.5"], ["frozen", no], ["note", ""], ["tags", "a"]]


async def test_nested_lists_of_records_are_spread_into_rows_not_cut_json() -> None:
    """Found by a new student: 空闲教室's form showed `buildings` as one JSON text cut at the screen's edge, so not
    one room could be read. Each list of records is a table; inner lists of records are rows of it."""
    result = {
        "day": "今天",
        "periodTimes": ["08:00-08:50", "09:00-09:50"],
        "buildings": [
            {"building": "二教", "rooms": [{"room": "203", "seats": 90, "free": ["1-2", "5-6"]}, {"room": "305"}]},
            {"building": "理教", "rooms": []},
        ],
    }
    app = ResultApp(result)
    async with app.run_test(size=(100, 30)):
        fields, rooms = app.query_one("#result").query(DataTable)
        cells = [[str(c) for c in fields.get_row_at(i)] for i in range(fields.row_count)]
        assert cells == [["day", "今天"], ["periodTimes", "08:00-08:50, 09:00-09:50"]]
        assert [str(c.label) for c in rooms.columns.values()] == ["building", "room", "seats", "free"]
        rows = [[str(c) for c in rooms.get_row_at(i)] for i in range(rooms.row_count)]
        assert rows == [["二教", "203", "90", "1-2, 5-6"], ["", "305", "", ""], ["理教", "无", "", ""]]  # not blank
        assert "buildings (2)" in [str(s.render()) for s in app.query(".result-part")]
        assert all(t.region.height >= t.row_count + 1 for t in (fields, rooms))  # drawn whole, not clipped


@pytest.mark.parametrize("width", [80, 160])
async def test_long_cells_wrap_inside_the_width_there_is(width: int) -> None:
    """Found by a new student at 80 and 160 columns: 空闲教室's period times ran past the screen's edge and were cut.
    The columns share the width; a long cell wraps onto more lines of its row."""
    times = [f"{h:02d}:00-{h:02d}:50" for h in range(8, 22)]
    rows = [{"room": "203", "note": "一间很长的说明，" * 12, "times": times}]
    app = ResultApp({"periodTimes": times, "rooms": rows}, width=width - 4)
    async with app.run_test(size=(width, 50)) as pilot:
        await pilot.pause()
        for table in app.query(DataTable):
            drawn = sum(column.get_render_width(table) for column in table.columns.values())
            assert drawn <= width - 4, (drawn, width)
            assert table.virtual_size.width <= table.size.width  # nothing to scroll sideways: nothing cut
        fields = app.query(DataTable).first()
        assert fields.rows[next(iter(fields.rows))].height > 1  # the period times wrapped
        assert str(fields.get_row_at(0)[1]) == ", ".join(times)  # whole, not cut


def test_column_widths_share_the_room_by_narrowing_the_widest() -> None:
    assert fit_widths([5, 10], 40) == [5, 10]  # they fit: as they are
    assert fit_widths([5, 100, 60], 60) == [5, 24, 24]  # 60 less 6 of padding: the two wide ones cut alike
    assert fit_widths([30, 30, 30, 30, 30, 30, 30, 30], 40) == [8] * 8  # never under 8 (the table scrolls)


async def test_a_bare_value_is_its_json_text() -> None:
    app = ResultApp([1, True, None])
    async with app.run_test():
        text = str(app.query_one("#result", Static).render())
        assert "true" in text and "True" not in text and "null" in text


async def test_the_cursor_of_a_table_in_a_scrolling_pane_stays_in_sight(tmp_path: Path) -> None:
    """Found by a new student at 80×24: ↓ in 插件's tools table moved the cursor below the screen (the pane did
    not follow), and Enter opened a row they could not see."""
    from textual.containers import ScrollableContainer

    app = make_app(demo=True, data_dir=tmp_path, now="2026-11-30T12:00:00+08:00")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: bool(app.query("#tools")))
        tools = app.query_one("#tools", DataTable)
        tools.focus()
        pane = next(a for a in tools.ancestors if isinstance(a, ScrollableContainer))
        for presses in (22, -22):
            for _ in range(abs(presses)):
                await pilot.press("down" if presses > 0 else "up")
            await pilot.pause()
            row_y = tools.region.y + tools.header_height + tools.cursor_row - int(tools.scroll_y)
            assert pane.region.y <= row_y < pane.region.bottom, (tools.cursor_row, row_y, pane.region)


WALLET_REACH = [("zh", ["校园卡", "以你的身份打开校园网页"]), ("en", ["Campus card", "Open campus pages as you"])]


@pytest.mark.parametrize(("locale", "wallet"), WALLET_REACH)
async def test_what_a_plugin_reaches_is_in_words_not_ids(tmp_path: Path, locale: str, wallet: list[str]) -> None:
    """A new student read `card` and `campusPage` in 设置 → 权限范围."""
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings_section(pilot, app, "reach")
        table = app.query_one("#reach", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        name = app.runtime.registry.plugin_name("wallet")
        row = next(r for r in rows if r[0] == name)
        assert row[1] == wallet[0] and row[3] == wallet[1]
        ids = {"card", "verify", "campusPage", "treehole"}
        assert not [c for r in rows for c in r[1::2] for part in c.split("、") if part in ids]
