"""The app at a phone's width (about 43 columns: `pku-harness serve --phone`) and at a small terminal's: every
answer of an approval card, every control of 设置's sections and the chat's send button are on the screen, where a
finger or a click reaches them (an outsider on the phone page saw 拒绝 and the reason box off the screen, 设置's
theme select and permission columns cut, and 发送 taking 40% of the width)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button, Input

from tests.app.helpers import until
from tests.app.test_chat_pane import ask, card_ready, chat_app
from tests.runtime.fake_openai import FakeOpenAI, call, calls
from tui.app.widgets.approval_card import ApprovalCard

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
        await until(pilot, lambda: reached(app, app.focused), 5)  # type: ignore[arg-type]
        choices: list[Widget] = [*card.query(Button), card.query_one("#reason", Input)]
        assert len(choices) == 4
        stacked = card.has_class("-stacked")
        if size == PHONE or locale == "zh":  # a phone stacks them; 80 columns hold the Chinese ones in a row
            assert stacked is (size == PHONE)
        for choice in choices:
            assert card.region.contains_region(choice.region), (choice.id, choice.region, card.region)
            choice.scroll_visible(animate=False)
            await until(pilot, lambda: reached(app, choice), 5)  # noqa: B023 (awaited here)
        if stacked:  # one under another, each the card's width
            assert len({c.region.y for c in choices}) == 4
            assert len({c.region.width for c in choices}) == 1
        # ←/→ walk the answers: each one focused is one on the screen
        for _ in choices:
            await pilot.press("right")
            focused = app.focused
            assert focused in choices
            await until(pilot, lambda f=focused: reached(app, f), 5)  # type: ignore[misc]  # scrolled to it
        # and a tap on the last one, the reason box, lands there
        reason = card.query_one("#reason", Input)
        reason.scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click(offset=(reason.region.x + 1, reason.region.y + 1))
        assert app.focused is reason
        assert Region(0, 0, *size).contains_region(reason.region)
