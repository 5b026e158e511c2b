"""A schedule is shown as a person says it, in the app's language (a new student read `every 30m` in the
Chinese checks list)."""

from __future__ import annotations

import pytest

from tui.runtime.message import say
from tui.runtime.scheduler.timing import Timing


@pytest.mark.parametrize(
    ("text", "zh", "en"),
    [
        ("every 30m", "每 30 分钟", "every 30 min"),
        ("every 60 minutes", "每小时", "every hour"),
        ("every 2h", "每 2 小时", "every 2 h"),
        ("every 1d", "每天", "every day"),
        ("every 3 days", "每 3 天", "every 3 days"),
        ("30 7 * * *", "每天 07:30", "daily at 07:30"),
        ("0 8 * * 1-5", "工作日 08:00", "weekdays at 08:00"),
        ("0 10 * * 0,6", "周末 10:00", "weekends at 10:00"),
        ("0 9 * * 1", "每周一 09:00", "Mondays at 09:00"),
        ("0 9 * * 7", "每周日 09:00", "Sundays at 09:00"),
        ("*/15 8-18 * * 1-5", "cron */15 8-18 * * 1-5（北京时间）", "cron */15 8-18 * * 1-5 (Beijing time)"),
        ("0 8 1 * *", "cron 0 8 1 * *（北京时间）", "cron 0 8 1 * * (Beijing time)"),
    ],
)
def test_a_schedule_in_words(text: str, zh: str, en: str) -> None:
    words = Timing.parse(text).describe()
    assert say(words, "zh") == zh and say(words, "en") == en
