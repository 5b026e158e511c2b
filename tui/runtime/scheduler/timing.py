"""When a check runs: a five-field cron expression in Beijing time, or an interval like `every 30m`.

Beijing time is UTC+8 all year (no daylight saving), so a fixed offset is exact and the host's own time zone
never matters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from tui.runtime.message import Message

BEIJING = timezone(timedelta(hours=8), "Asia/Shanghai")
_INTERVAL = re.compile(r"^every\s+(\d+)\s*(m|min|mins|minutes?|h|hours?|d|days?)$", re.IGNORECASE)
_UNIT_S = {"m": 60, "h": 3600, "d": 86400}
MIN_INTERVAL_S = 60


@dataclass(frozen=True)
class Timing:
    """A parsed schedule."""

    text: str
    every_s: int | None = None
    cron: str | None = None

    @classmethod
    def parse(cls, text: str) -> Timing:
        """`every 30m` / `every 2h` / `every 1d`, or a cron expression like `30 7 * * 1-5`.

        Raises:
            ValueError: neither form; the message shows both.
        """
        from croniter import croniter

        clean = " ".join(str(text).split())
        match = _INTERVAL.match(clean)
        if match:
            seconds = int(match.group(1)) * _UNIT_S[match.group(2)[0].lower()]
            if seconds < MIN_INTERVAL_S:
                raise ValueError(Message("timing_too_often"))
            return cls(clean, every_s=seconds)
        if len(clean.split()) == 5 and croniter.is_valid(clean):
            return cls(clean, cron=clean)
        raise ValueError(Message("timing_bad", text=str(text)))

    def describe(self) -> Message:
        """The schedule as a person says it: "every 30 min", "weekdays at 08:00"; a cron expression that is not
        one of the everyday shapes is shown as written."""
        if self.every_s is not None:
            minutes = self.every_s // 60
            if minutes % 1440 == 0:
                days = minutes // 1440
                return Message("timing_every_day") if days == 1 else Message("timing_every_days", n=days)
            if minutes % 60 == 0:
                hours = minutes // 60
                return Message("timing_every_hour") if hours == 1 else Message("timing_every_hours", n=hours)
            return Message("timing_every_minutes", n=minutes)
        minute, hour, dom, month, dow = (self.cron or "").split()
        if not (minute.isdigit() and hour.isdigit() and dom == "*" and month == "*"):
            return Message("timing_cron", text=self.text)
        at = f"{int(hour):02d}:{int(minute):02d}"
        shapes = {"*": "timing_daily", "1-5": "timing_weekdays", "0,6": "timing_weekends", "6,0": "timing_weekends"}
        if dow in shapes:
            return Message(shapes[dow], at=at)
        if dow.isdigit() and int(dow) <= 7:
            return Message("timing_weekly", day=Message(f"weekday_{int(dow) % 7}"), at=at)
        return Message("timing_cron", text=self.text)

    def next_after(self, after_ms: int) -> int:
        """The first run time strictly after `after_ms` (Unix ms)."""
        if self.every_s is not None:
            return after_ms + self.every_s * 1000
        from croniter import croniter

        assert self.cron is not None
        start = datetime.fromtimestamp(after_ms / 1000, BEIJING)
        nxt = croniter(self.cron, start).get_next(datetime)
        return int(nxt.timestamp() * 1000)


def beijing(ms: int) -> str:
    """`YYYY-MM-DD HH:MM` in Beijing time, for lists and logs."""
    return datetime.fromtimestamp(ms / 1000, BEIJING).strftime("%Y-%m-%d %H:%M")
