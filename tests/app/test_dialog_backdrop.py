"""Every dialog keeps the screen behind it visible, dimmed: the student sees where the question comes from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.segment import Segment
from textual._compositor import visible_screen_stack
from textual.screen import ModalScreen

from tests.app.helpers import settle
from tui.app.app import make_app
from tui.app.dialogs.check import RunLogDialog
from tui.app.dialogs.conversation_search import ConversationSearch
from tui.app.dialogs.notifications import NotificationCentre
from tui.app.dialogs.prompts import ChooseDialog, CodePrompt, ConfirmDialog
from tui.app.dialogs.review import InstallReviewDialog
from tui.app.samples import SAMPLE_INSTALL
from tui.runtime.chat.history import ChatHistory
from tui.runtime.scheduler.checks import Checks

NOW = "2026-11-30T12:00:00+08:00"


def cells(app: Any) -> list[list[tuple[str, Any]]]:
    """What the compositor draws: every cell's character and its colour, the screens behind included."""
    visible_screen_stack.set(app._background_screens)
    rows = []
    for strip in app.screen._compositor.render_strips():
        row: list[tuple[str, Any]] = []
        for segment in Segment.split_and_crop_lines([*strip], strip.cell_length, pad=False).__next__():
            for char in segment.text:
                row.append((char, segment.style.color if segment.style else None))
        rows.append(row)
    return rows


def dialogs(app: Any) -> list[ModalScreen[Any]]:
    check = Checks(app.runtime.store).add("记住", "every 1h", tool="memory.remember", args={"text": "x"}, now=0)
    return [
        ConfirmDialog("删除？", "zh"),
        ChooseDialog("选一个", ["甲", "乙"]),
        CodePrompt("验证码", "zh"),
        NotificationCentre(app.runtime.notices, "zh"),
        RunLogDialog(Checks(app.runtime.store), check, "zh"),
        InstallReviewDialog(SAMPLE_INSTALL, "zh"),
        ConversationSearch(ChatHistory(app.runtime.store), "zh"),
    ]


@pytest.mark.parametrize("index", range(7))
async def test_a_dialogs_backdrop_shows_the_screen_behind_dimmed(tmp_path: Path, index: int) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        before = cells(app)
        row = 1  # the tab bar: 首页 助手 插件 设置, outside every dialog
        x = next(i for i, (char, _) in enumerate(before[row]) if char == "首")
        await app.push_screen(dialogs(app)[index])
        await settle(pilot, app)
        after = cells(app)
        char, dimmed = after[row][x]
        assert char == "首", "the screen behind the dialog is hidden"
        bright = before[row][x][1]
        assert dimmed is not None and bright is not None
        # blended towards the (dark) background: the text behind is still there, only darker
        assert sum(dimmed.get_truecolor()) < sum(bright.get_truecolor())
