"""设置 as a section list and the chosen section (issue 16 item 10): the keyboard moves between sections and into
them, the content shown is the section chosen, and it still fits at 80×24."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import ContentSwitcher, DataTable, OptionList, Select

from tests.app.helpers import settle, until
from tui.app.app import PkuHarnessApp, make_app
from tui.app.widgets.settings_page import SECTIONS

NOW = "2026-11-30T12:00:00+08:00"


def shown(app: PkuHarnessApp) -> str:
    """The section whose content is on screen (and the only one)."""
    switcher = app.query_one("#settings-content", ContentSwitcher)
    visible = [child.id for child in switcher.children if child.display]
    assert visible == [switcher.current]
    return str(switcher.current).removeprefix("section-")


async def open_settings(pilot: object, app: PkuHarnessApp) -> OptionList:
    await pilot.press("4")  # type: ignore[attr-defined]
    await until(pilot, lambda: bool(app.query("#settings-sections")))
    sections = app.query_one("#settings-sections", OptionList)
    await until(pilot, lambda: sections.has_focus)
    return sections


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_section_list_moves_between_sections_by_keyboard(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=size) as pilot:
        sections = await open_settings(pilot, app)
        labels = [str(sections.get_option_at_index(i).prompt) for i in range(sections.option_count)]
        assert labels == ["外观", "提醒", "模型", "校园账号", "远程登录", "定时检查", "权限", "插件设置",
                          "可访问范围", "更新", "审计"]  # fmt: skip
        assert shown(app) == "appearance" and app.query_one("#language", Select).region.width > 0
        await pilot.press("down")
        assert shown(app) == "alerts" and sections.has_focus  # ↓ shows the section, the list keeps the focus
        await pilot.press("down")
        assert shown(app) == "model"
        await pilot.press("down", "down", "down", "down")
        assert shown(app) == "permissions"
        permissions = app.query_one("#permissions", DataTable)
        assert not permissions.has_focus
        await pilot.press("enter")
        assert permissions.has_focus  # Enter goes into the section
        await pilot.press("escape")
        assert sections.has_focus and shown(app) == "permissions"  # Esc comes back, on the same section
        await pilot.press("down")
        assert shown(app) == "plugin-settings"  # beside the permissions
        await pilot.press("down")
        assert shown(app) == "reach"
        await pilot.press("right")
        assert app.query_one("#reach", DataTable).has_focus  # → goes in too
        await pilot.press("escape", *["up"] * 8)
        assert shown(app) == "appearance"
        await pilot.press("tab")
        assert app.query_one("#language", Select).has_focus  # and Tab
        await pilot.press("escape", "end")
        assert shown(app) == "audit"
        # the list and the content side by side, inside the terminal, the content wider than the list
        nav, content = app.query_one("#settings-nav").region, app.query_one("#settings-content").region
        assert nav.right <= content.x and content.right <= size[0] and content.width > nav.width
        assert app.query_one("#audit", DataTable).region.width > 0


async def test_every_section_shows_its_own_content(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    inside = {"appearance": "#theme", "alerts": "#attention-bell", "model": "#model-provider",
              "campus": "#campus-services", "remote": "#remote-table", "checks": "#checks",
              "permissions": "#permissions", "reach": "#reach",
              "updates": "#auto-update-all", "audit": "#audit"}  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings(pilot, app)
        for i, (key, _, _) in enumerate(SECTIONS):
            if i:
                await pilot.press("down")
            await settle(pilot, app, 1)
            assert shown(app) == key
            for other, selector in inside.items():  # its own widget is on screen, the others' are not
                region = app.query_one(selector).region
                assert (region.width > 0) is (other == key), (key, other)


async def test_a_language_switch_stays_in_settings(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings(pilot, app)
        app.query_one("#language", Select).value = "en"

        # The locale is set before the shell is rebuilt: wait for the rebuilt list, not only for the locale (under
        # load the old, Chinese list was read).
        def rebuilt() -> bool:
            found = app.query("#settings-sections")
            return app.locale == "en" and bool(found) and found.first(OptionList).option_count > 6

        await until(pilot, rebuilt)

        def english() -> bool:
            # asked afresh each time: the list found first may be the old one, about to be replaced (and between
            # the two there is none: CI saw NoMatches here)
            found = app.query("#settings-sections")
            sections = found.first(OptionList) if found else None
            return (
                sections is not None
                and sections.option_count > 9
                and str(sections.get_option_at_index(9).prompt) == "Updates"
            )

        await until(pilot, english, 10)
        await until(pilot, lambda: app.query_one("#settings-content", ContentSwitcher).current is not None)
        assert shown(app) == "appearance"


async def test_a_mode_cycled_to_a_longer_word_is_shown_whole(tmp_path: Path) -> None:
    """Found by a new student: Enter on a permission cycled it to 不能执行, shown cut as 不能执 (the column kept
    the width of the words it was built with)."""
    from rich.text import Text

    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings(pilot, app)
        await pilot.press(*["down"] * 6, "enter")
        table = app.query_one("#permissions", DataTable)
        assert table.has_focus and shown(app) == "permissions"
        await pilot.press("right")  # onto the 读取 mode of the first plugin
        for _ in range(3):  # through allow, ask and deny, whichever it starts on
            await pilot.press("enter")
            await settle(pilot, app)
            if app.screen is not app.screen_stack[0]:
                await pilot.press("enter")  # loosening asks first: yes
                await settle(pilot, app)
            cell = table.get_cell_at(table.cursor_coordinate)
            words = cell.plain if isinstance(cell, Text) else str(cell)
            column = table.ordered_columns[table.cursor_coordinate.column]
            assert column.get_render_width(table) - 2 * table.cell_padding >= Text(words).cell_len, words


async def test_the_section_list_highlights_its_first_section_by_itself() -> None:
    """The page's own mount handler set the highlight with `query_one(SectionList)`; when the language switch
    rebuilt the shell it ran with the list already gone (NoMatches, seen in a full run). The list does it now."""
    from textual.app import App, ComposeResult
    from textual.widgets.option_list import Option

    from tui.app.widgets.settings_page import SectionList

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield SectionList(Option("外观", id="a"), Option("插件", id="b"), id="sections")
            yield SectionList(id="empty")  # nothing to highlight: no error

    app = Host()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.query_one("#sections", SectionList).highlighted == 0
        assert app.query_one("#empty", SectionList).highlighted is None


async def test_r_in_settings_reads_the_audit_log_again(tmp_path: Path) -> None:
    """Found by a new student: 审计 kept its rows while calls went on; the footer's r refreshed the widgets behind."""
    from tests.app.helpers import open_settings_section

    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings_section(pilot, app, "audit")
        audit = app.query_one("#audit", DataTable)
        before = audit.row_count
        await app.runtime.gate.call("memory.list", {}, actor="user")  # no widget calls it
        assert "memory.list" not in [str(audit.get_row_at(i)[1]) for i in range(audit.row_count)]
        await pilot.press("r")
        await until(pilot, lambda: audit.row_count > before and str(audit.get_row_at(0)[1]) == "memory.list")
