"""The app at a phone's width (about 43 columns: `pku-harness serve --phone`) and at a small terminal's: every
answer of an approval card, every control of 设置's sections and the chat's send button are on the screen, where a
finger or a click reaches them (an outsider on the phone page saw 拒绝 and the reason box off the screen, 设置's
theme select and permission columns cut, and 发送 taking 40% of the width)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.coordinate import Coordinate
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static, Switch

from tests.app.helpers import open_settings_section, until
from tests.app.test_chat_pane import ask, card_ready, chat_app
from tests.runtime.fake_openai import FakeOpenAI, call, calls
from tui.app.dialogs.prompts import ConfirmDialog
from tui.app.i18n import term
from tui.app.widgets.approval_card import ApprovalCard
from tui.app.widgets.settings_page import SettingsPage
from tui.app.widgets.tables import Table

PHONE = (43, 46)
SMALL = (80, 24)


@pytest.fixture
def fake() -> Iterator[tuple[FakeOpenAI, str]]:
    server = FakeOpenAI()
    with server.serve() as url:
        yield server, url


def reached(app: Any, widget: Widget) -> bool:
    """A click (a tap) at the widget's first cell lands on it: it is on the screen and nothing covers it."""
    region = widget.region
    if not region or not app.screen.region.contains_region(region):
        return False
    under, _ = app.screen.get_widget_at(region.x, region.y)
    return under is widget or widget in under.ancestors


@pytest.mark.parametrize("size", [PHONE, SMALL], ids=["phone", "small"])
@pytest.mark.parametrize(
    ("tool", "arguments", "locale"),
    [
        ("memory__remember", '{"text": "通知：关于2026-2027学年第二学期选课的通知"}', "zh"),
        ("wallet__recharge", '{"amountYuan": 50}', "zh"),  # money: three buttons and the reason, deny focused
        ("wallet__recharge", '{"amountYuan": 50}', "en"),  # the longest labels
    ],
    ids=["write", "money", "money-en"],
)
async def test_every_answer_of_an_approval_card_is_on_the_screen(
    tmp_path: Path, fake: tuple[FakeOpenAI, str], size: tuple[int, int], tool: str, arguments: str, locale: str
) -> None:
    server, url = fake
    server.add(calls(call(tool, arguments)))
    app = chat_app(tmp_path, url, locale)
    async with app.run_test(size=size) as pilot:
        await ask(pilot, app, "50" if locale == "en" else "记下来")
        await until(pilot, lambda: card_ready(app), 10)
        card = app.query_one(ApprovalCard)
        await until(pilot, lambda: reached(app, app.focused), 15)  # type: ignore[arg-type]
        choices: list[Widget] = [*card.query(Button), card.query_one("#reason", Input)]
        assert len(choices) == 4
        stacked = card.has_class("-stacked")
        if size == PHONE or locale == "zh":  # a phone stacks them; 80 columns hold the Chinese ones in a row
            assert stacked is (size == PHONE)
        # the stacked layout comes a frame after its class (a loaded machine measured the row's regions still)
        await until(pilot, lambda: all(card.region.contains_region(c.region) for c in choices), 15)
        for choice in choices:
            assert card.region.contains_region(choice.region), (choice.id, choice.region, card.region)
            choice.scroll_visible(animate=False)
            await until(pilot, lambda: reached(app, choice), 15)  # noqa: B023 (awaited here)
        if stacked:  # one under another, each the card's width
            assert len({c.region.y for c in choices}) == 4
            assert len({c.region.width for c in choices}) == 1
        # ←/→ walk the answers: each one focused is one on the screen
        for _ in choices:
            await pilot.press("right")
            focused = app.focused
            assert focused in choices
            await until(pilot, lambda f=focused: reached(app, f), 15)  # type: ignore[misc]  # scrolled to it
        # and a tap on the last one, the reason box, lands there
        reason = card.query_one("#reason", Input)
        reason.scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click(offset=(reason.region.x + 1, reason.region.y + 1))
        assert app.focused is reason
        assert Region(0, 0, *size).contains_region(reason.region)


@pytest.mark.parametrize("locale", ["zh", "en"])
async def test_settings_sections_fit_a_phone(tmp_path: Path, locale: str) -> None:
    """外观, 提醒 and 权限 at 43 columns: the section list goes over the section, and every control of these is on
    the screen; 权限's every column shows, and a tap on 公开 changes that mode."""
    app = chat_app(tmp_path, None, locale)
    async with app.run_test(size=PHONE) as pilot:
        screen = Region(0, 0, *PHONE)
        await open_settings_section(pilot, app, "appearance")
        page = app.query_one(SettingsPage)
        assert page.has_class("-phone")
        for select in ("#language", "#theme"):
            assert reached(app, app.query_one(select, Select)), select  # the theme was off the screen

        await open_settings_section(pilot, app, "alerts")
        for row in app.query("#section-alerts .switch-row"):
            switch, label = row.query_one(Switch), row.query_one(Static)
            assert reached(app, switch) and screen.contains_region(label.region)
            lines = Text(str(label.render())).wrap(app.console, label.content_size.width)
            assert len(lines) <= label.content_size.height, (str(label.render()), label.content_size)  # not cut

        await open_settings_section(pilot, app, "permissions")
        table = app.query_one("#permissions", Table)
        await until(pilot, lambda: table.virtual_size.width <= table.scrollable_content_region.width)
        assert screen.contains_region(table.region)
        first = str(table.get_row_at(0)[0])
        assert table.get_cell_at(Coordinate(0, 4)).plain == term("ask", locale)
        await tap_cell(pilot, table, Coordinate(0, 4))  # 公开 of the first plugin: a tap puts the cursor there
        await until(pilot, lambda: table.cursor_coordinate == Coordinate(0, 4))
        await tap_cell(pilot, table, Coordinate(0, 4))  # and a second one changes it: ask → deny
        await until(pilot, lambda: table.get_cell_at(Coordinate(0, 4)).plain == term("deny", locale))
        assert str(table.get_row_at(0)[0]) == first
        # by keys too: → to 公开's column, Enter cycles it on (deny → allow asks first; Esc keeps deny)
        table.focus()
        table.cursor_coordinate = Coordinate(0, 0)
        await pilot.press(*["right"] * 4, "enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmDialog))
        # the longer word still leaves every column on the screen
        await until(pilot, lambda: table.virtual_size.width <= table.scrollable_content_region.width)
        for column in range(len(table.columns)):
            cell = cell_on_screen(table, Coordinate(0, column))
            assert screen.contains_region(cell), (column, cell)


def cell_on_screen(table: Table, at: Coordinate) -> Region:
    """Where a table's cell is on the screen."""
    cell = table._get_cell_region(at)
    x = table.content_region.x + cell.x - int(table.scroll_x)
    y = table.content_region.y + cell.y - int(table.scroll_y)  # the header's line is in the cell's region
    return Region(x, y, cell.width, cell.height)


async def tap_cell(pilot: Any, table: Table, at: Coordinate) -> None:
    """A click (a finger) on a table's cell."""
    cell = cell_on_screen(table, at)
    await pilot.click(offset=(cell.x + 1, cell.y))


async def test_the_send_button_is_compact_on_a_phone(tmp_path: Path) -> None:
    """发送 beside the message box: at a phone's width as wide as its word, the box gets the rest."""
    for size, most in ((PHONE, 0.25), (SMALL, 0.25)):
        app = chat_app(tmp_path / str(size[0]), None)
        async with app.run_test(size=size) as pilot:
            await pilot.press("2")
            await until(pilot, lambda: app.query("#send") and app.query_one("#send").region)  # noqa: B023
            send, box = app.query_one("#send", Button), app.query_one("#chat-input")
            assert send.region.width <= size[0] * most, send.region
            assert reached(app, send) and box.region.width >= size[0] - send.region.width - 2
