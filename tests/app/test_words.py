"""The words the app uses for the permission model and for times in lists.

An effect has one name everywhere a student meets it — the seed's 读取, 修改, 花钱, 公开 (000: "read(读取) …
write(修改) … money(花钱) … public(公开)"): the install review, the approval card, 设置's permission table and the
gate's reasons. Before, the same money tool was 涉及金钱 in one place, 金钱 in another and 花钱 in the docs."""

from __future__ import annotations

import pytest

from tui.app.dialogs.review import _effect
from tui.app.i18n import t, term
from tui.runtime.message import Message, say

SEED = {"read": "读取", "write": "修改", "money": "花钱", "public": "公开"}


@pytest.mark.parametrize("effect", sorted(SEED))
def test_every_place_names_an_effect_in_the_seeds_word(effect: str) -> None:
    word = SEED[effect]
    assert term(effect, "zh") == word  # approval card, audit
    assert _effect(effect, "zh") == word  # install and update review
    assert t(f"effect_{effect}", "zh") == word  # 设置's permission columns
    assert say(Message(f"effect_{effect}"), "zh") == word  # the gate's and the scheduler's reasons
    assert say(Message("why_ask", effect=Message(f"effect_{effect}")), "zh") == f"这个插件的{word}工具设为「先询问」"


@pytest.mark.parametrize("effect", sorted(SEED))
def test_english_names_an_effect_by_its_own_name(effect: str) -> None:
    assert term(effect, "en") == effect == _effect(effect, "en") == say(Message(f"effect_{effect}"), "en")
    assert t(f"effect_{effect}", "en") == effect.capitalize()  # a column heading


def test_a_moment_soon_reads_today_tomorrow_or_its_date() -> None:
    from tui.app.words import when_text

    now = 1_796_000_000_000  # 2026-11-30 08:53 in Beijing
    hour = 3_600_000
    assert when_text(now + 2 * hour, "zh", now) == "今天 10:53"
    assert when_text(now + 20 * hour, "en", now) == "tomorrow 04:53"
    assert when_text(now + 72 * hour, "zh", now) == "12-03 08:53"
    assert when_text(now + 400 * 24 * hour, "zh", now) == "2028-01-04 08:53"


def test_text_is_cut_by_cells_with_an_ellipsis() -> None:
    from tui.app.words import cut_cells

    assert cut_cells("校园卡余额低于 20 元", 14) == "校园卡余额低…"  # 12 cells and the ellipsis
    assert cut_cells("short", 14) == "short"
    assert cut_cells("exactly14cells", 14) == "exactly14cells"
