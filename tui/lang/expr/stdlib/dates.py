"""Dates in Beijing time (+08:00, no daylight saving): every function takes ISO text, 'YYYY-MM-DD HH:mm',
'YYYY-MM-DD', 'M月D日' or epoch milliseconds, and returns ISO text."""

from __future__ import annotations

import calendar
import math
import re
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import CHARS_PER_EVALUATION, MAX_PATTERN, Run, cap_text
from tui.lang.expr.stdlib.registry import builtin, want_num, want_str
from tui.lang.expr.values import describe, is_num, num_to_str

G = "dates"
BEIJING = timezone(timedelta(hours=8), "Asia/Shanghai")
WEEKDAYS_ZH = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

_ISO = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?",
    re.ASCII,
)
_SLASH = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?", re.ASCII)
_CN = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号](?:\s*(\d{1,2})[:：](\d{2}))?", re.ASCII)
_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?", re.ASCII)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def now_dt(run: Run) -> datetime:
    """The run's `now` as a datetime in Beijing time."""
    return parse(run, run.now)


def parse(run: Run, x: Any, fname: str = "date") -> datetime:
    """Any accepted date form to an aware datetime in Beijing time."""
    if is_num(x):
        ms = want_num(x, fname)
        try:
            # whole milliseconds, truncated as JavaScript's TimeClip does (999.9999 is .999, not the next second),
            # added exactly (fromtimestamp(ms / 1000) rounds to the microsecond)
            return (_EPOCH + timedelta(milliseconds=math.trunc(ms))).astimezone(BEIJING)
        except (ValueError, OverflowError, OSError):
            # NaN, Infinity, and times outside the years 1-9999 that Python's datetime can hold
            raise EvalError(
                f"{fname}(): {num_to_str(ms)} is not a valid time in milliseconds (dates run from the year 1 to 9999)"
            ) from None
    if x.__class__ is not str:
        raise EvalError(
            f"{fname}() expects a date (ISO text, 'YYYY-MM-DD HH:mm', 'M月D日' or milliseconds), got {describe(x)}"
        )
    run.charge_scan(len(x))  # read (and copied by strip) in full, before the patterns fail or match
    s: str = x.strip()
    try:
        m = _ISO.fullmatch(s)
        if m:
            y, mo, d, hh, mi, ss, frac, tz = m.groups()
            micro = int((frac or "0")[:3].ljust(3, "0")) * 1000  # whole milliseconds, as JavaScript's Date keeps
            tzinfo = BEIJING
            if tz == "Z":
                tzinfo = UTC
            elif tz:
                sign = 1 if tz[0] == "+" else -1
                digits = tz[1:].replace(":", "")
                if int(digits[:2]) > 23 or int(digits[2:]) > 59:  # as JavaScript's Date: Invalid Date
                    raise EvalError(f"{fname}(): {s[:40]!r} has the offset {tz}; an offset is at most ±23:59")
                tzinfo = timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
            dt = valid_date(fname, s, int(y), int(mo), int(d), int(hh or 0), int(mi or 0), int(ss or 0), tzinfo)
            return dt.replace(microsecond=micro).astimezone(BEIJING)
        m = _SLASH.fullmatch(s)
        if m:
            y, mo, d, hh, mi, ss = m.groups()
            return valid_date(fname, s, int(y), int(mo), int(d), int(hh or 0), int(mi or 0), int(ss or 0))
        m = _CN.fullmatch(s)
        if m:
            y, mo, d, hh, mi = m.groups()
            year = int(y) if y else parse(run, run.now).year
            return valid_date(fname, s, year, int(mo), int(d), int(hh or 0), int(mi or 0))
        m = _TIME.fullmatch(s)
        if m:
            base = parse(run, run.now)
            hh, mi, ss = m.groups()
            return valid_date(fname, s, base.year, base.month, base.day, int(hh), int(mi), int(ss or 0))
    except OverflowError:  # a time near the year 1 or 9999 moved to Beijing time
        raise EvalError(f"{fname}(): {s[:40]!r} is not a time from the year 1 to 9999 in Beijing time") from None
    raise EvalError(f"{fname}(): cannot read {s[:40]!r} as a date")


def valid_date(
    fname: str, s: str, y: int, mo: int, d: int, hh: int = 0, mi: int = 0, ss: int = 0, tz: Any = BEIJING
) -> datetime:
    """The datetime of these parts, or an error saying in the language's words which part does not exist."""
    reason = ""
    if not 1 <= y <= 9999:
        reason = "dates run from the year 1 to 9999"
    elif not 1 <= mo <= 12:
        reason = f"there is no month {mo}"
    elif not 1 <= d <= (days := calendar.monthrange(y, mo)[1]):
        reason = f"{y:04d}-{mo:02d} has {days} days"
    elif hh > 23 or mi > 59 or ss > 59:
        reason = "hours run to 23, minutes and seconds to 59"
    if reason:
        raise EvalError(f"{fname}(): {s[:40]!r} is not a valid date: {reason}")
    return datetime(y, mo, d, hh, mi, ss, tzinfo=tz)


def iso(dt: datetime) -> str:
    """ISO text in Beijing time: '2026-11-30T08:00:00+08:00' (milliseconds only when present)."""
    dt = dt.astimezone(BEIJING)
    # Not strftime: glibc prints year 68 as '68', and ISO text needs four digits.
    base = f"{dt.year:04d}-{dt.month:02d}-{dt.day:02d}T{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d}"
    if dt.microsecond:
        base += f".{dt.microsecond // 1000:03d}"
    return base + "+08:00"


#: The documented tokens only: a lone `m` or `s` is text ('D days' is '1 days', not '1 day0').
_FORMAT = re.compile(r"\[([^\]]*)\]|YYYY|dddd|ddd|MM|DD|HH|mm|ss|M|D|H")
#: Each token as a str.format field over (year, month, day, hour, minute, second, weekday, short weekday),
#: with the most characters it can write.
_FIELDS = {
    "YYYY": ("{0:04d}", 4), "MM": ("{1:02d}", 2), "M": ("{1}", 2), "DD": ("{2:02d}", 2), "D": ("{2}", 2),
    "HH": ("{3:02d}", 2), "H": ("{3}", 2), "mm": ("{4:02d}", 2), "ss": ("{5:02d}", 2),
    "dddd": ("{6}", 9), "ddd": ("{7}", 3),
}  # fmt: skip
#: Formats of at most MAX_PATTERN characters turned into str.format templates, shared by all runs (formats
#: are pure), bounded; a longer one is kept by its run only.
_LAYOUTS: dict[str, tuple[str, int]] = {}
_LAYOUTS_MAX = 1024


def layout(fmt: str) -> tuple[str, int]:
    """A formatDate format as a str.format template and the most characters it can write: made once, then
    every date is one C-level format() call (the token table used to be looked up in Python per token)."""
    hit = _LAYOUTS.get(fmt)
    if hit is not None:
        return hit
    parts: list[str] = []
    most = 0
    last = 0
    for m in _FORMAT.finditer(fmt):
        text = fmt[last : m.start()]
        literal = m.group(1)
        field, width = (None, 0) if literal is not None else _FIELDS[m.group(0)]
        text += literal or ""
        parts.append(text.replace("{", "{{").replace("}", "}}"))
        most += len(text) + width
        if field:
            parts.append(field)
        last = m.end()
    parts.append(fmt[last:].replace("{", "{{").replace("}", "}}"))
    most += len(fmt) - last
    hit = ("".join(parts), most)
    if len(fmt) <= MAX_PATTERN:
        if len(_LAYOUTS) >= _LAYOUTS_MAX:
            _LAYOUTS.clear()
        _LAYOUTS[fmt] = hit
    return hit


def format_dt(dt: datetime, fmt: str, locale: str, template: str | None = None) -> str:
    """Format with YYYY MM M DD D HH H mm ss dddd (星期一) ddd (周一); [text] is kept as is."""
    wd = dt.weekday()
    long_name = (WEEKDAYS_EN if locale == "en" else WEEKDAYS_ZH)[wd]
    short = WEEKDAYS_EN[wd][:3] if locale == "en" else "周" + WEEKDAYS_ZH[wd][2]
    t = layout(fmt)[0] if template is None else template
    return t.format(dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, long_name, short)


_PARSE_TOKENS = {"YYYY": r"(?P<Y>\d{4})", "MM": r"(?P<M>\d{2})", "M": r"(?P<M>\d{1,2})", "DD": r"(?P<D>\d{2})",
                 "D": r"(?P<D>\d{1,2})", "HH": r"(?P<H>\d{2})", "H": r"(?P<H>\d{1,2})", "mm": r"(?P<m>\d{2})",
                 "ss": r"(?P<s>\d{2})"}  # fmt: skip
#: A parse format read piece by piece: `[literal]`, a run of one letter (a token, or text), any other character.
_PARSE_PIECE = re.compile(r"\[([^\]]*)\]|([A-Za-z])\2*|.", re.DOTALL)
#: Runs of letters that are tokens of formatDate or of other date libraries but cannot be read here: named in the
#: error rather than taken as text the input then does not match.
_NOT_PARSED = re.compile(r"Y{1,3}|Y{5,}|M{3,}|D{3,}|H{3,}|m{3,}|s{3,}|d{3,4}|h+|A|S+")


def parse_with(run: Run, s: str, fmt: str) -> datetime:
    """Parse `s` by a format made of the formatDate tokens.

    Parts the format does not give are filled as dayjs does: date parts larger than the largest one given come from
    `now` in Beijing (the year of 'MM-DD', the date of 'H:mm'), smaller ones are the first (the 1st of 'YYYY-MM'),
    and the time is 0 where not given."""
    pattern = _format_pattern(run, fmt)
    run.charge_scan(len(s))
    m = pattern.fullmatch(s.strip())
    if not m:
        raise EvalError(f"date(): {s[:40]!r} does not match the format {fmt!r}")
    g = m.groupdict()
    base = now_dt(run)
    year, month, day = g.get("Y"), g.get("M"), g.get("D")
    return valid_date(
        "date",
        s,
        int(year or base.year),
        int(month or (1 if year else base.month)),
        int(day or (1 if year or month else base.day)),
        int(g.get("H") or 0),
        int(g.get("m") or 0),
        int(g.get("s") or 0),
    )


def _format_pattern(run: Run, fmt: str) -> re.Pattern[str]:
    """The pattern a date format reads with, compiled once per run and charged like a regex() pattern."""
    hit: re.Pattern[str] | None = run.formats.get(fmt)
    if hit is not None:
        return hit
    if len(fmt) > MAX_PATTERN:
        raise LimitError(f"date(): a format is at most {MAX_PATTERN:,} characters, not {len(fmt):,}")
    run.charge(1 + len(fmt))
    pattern = ""
    for piece in _PARSE_PIECE.finditer(fmt):
        literal, token = piece.group(1), piece.group(0)
        if literal is not None:
            pattern += re.escape(literal)
        elif token in _PARSE_TOKENS:
            if f"(?P<{token[0]}>" in pattern:
                raise EvalError(f"date(): format {fmt!r} repeats {token}")
            pattern += _PARSE_TOKENS[token]
        elif _NOT_PARSED.fullmatch(token):
            raise EvalError(
                f"date(): the format token {token!r} cannot be read; a format that reads a date has YYYY MM M DD D"
                " HH H mm ss and [text] (other letters are text)"
            )
        else:
            pattern += re.escape(token)
    compiled = re.compile(pattern)
    run.formats[fmt] = compiled
    return compiled


@builtin(
    G,
    "ISO text in Beijing time from any date form, or from text read by `fmt` (YYYY MM M DD D HH H mm ss, [text]; "
    "missing parts from `now`).",
    ("date('2026-11-30 08:00')", "2026-11-30T08:00:00+08:00"),
    ("date('30/11/2026', 'DD/MM/YYYY')", "2026-11-30T00:00:00+08:00"),
    ("date(0)", "1970-01-01T08:00:00+08:00"),
)
def date(run: Run, x: Any, fmt: Any = None) -> str:
    if fmt is not None:
        return iso(parse_with(run, want_str(x, "date"), want_str(fmt, "date")))
    return iso(parse(run, x))


@builtin(G, "Today's date in Beijing, 'YYYY-MM-DD' (the date part of `now`).", ("today()", "2026-11-30"))
def today(run: Run) -> str:
    return iso(now_dt(run))[:10]


@builtin(
    G,
    "A date as text by a format: YYYY MM M DD D HH H mm ss, dddd (星期一), ddd (周一), [literal].",
    ("formatDate('2026-11-30 17:05', 'YYYY-MM-DD HH:mm')", "2026-11-30 17:05"),
    ("formatDate('2026-12-02', 'M月D日 dddd')", "12月2日 星期三"),
)
def formatDate(run: Run, d: Any, fmt: Any) -> str:
    f = want_str(fmt, "formatDate")
    made = run.formats.get(("formatDate", f))
    if made is None:
        # Read token by token in Python once per run (short ones shared by all runs): charged like a
        # pattern, before it is read.
        run.charge(1 + len(f))
        run.formats["formatDate", f] = made = layout(f)
    template, most = made
    run.charge(most // CHARS_PER_EVALUATION)  # the text it can write, before it is written
    out = format_dt(parse(run, d, "formatDate"), f, run.locale, template)
    cap_text(len(out))  # the bound above can pass the limit where the text does not ('dddd' in Chinese)
    return out


def _shift(run: Run, d: Any, n: Any, unit: str, fname: str) -> str:
    amount = want_num(n, fname)
    if not math.isfinite(amount):  # JavaScript: an Invalid Date
        raise EvalError(f"{fname}(): cannot add {num_to_str(amount)} {unit}; the amount must be a finite number")
    if abs(amount) > 1e7:
        raise EvalError(f"{fname}(): {num_to_str(amount)} {unit} is out of range (at most 10,000,000)")
    try:
        return iso(parse(run, d, fname) + timedelta(**{unit: amount}))
    except OverflowError:
        raise EvalError(f"{fname}(): the date is out of range") from None


@builtin(
    G,
    "The date `n` days later (negative: earlier).",
    ("addDays('2026-11-30', 2)", "2026-12-02T00:00:00+08:00"),
)
def addDays(run: Run, d: Any, n: Any) -> str:
    return _shift(run, d, n, "days", "addDays")


@builtin(G, "The time `n` hours later.", ("addHours('2026-11-30 23:00', 2)", "2026-12-01T01:00:00+08:00"))
def addHours(run: Run, d: Any, n: Any) -> str:
    return _shift(run, d, n, "hours", "addHours")


@builtin(G, "The time `n` minutes later.", ("addMinutes('2026-11-30 08:00', 90)", "2026-11-30T09:30:00+08:00"))
def addMinutes(run: Run, d: Any, n: Any) -> str:
    return _shift(run, d, n, "minutes", "addMinutes")


@builtin(
    G,
    "Minutes from `b` to `a` (a - b), with a fraction for seconds (floor() for whole minutes).",
    ("diffMinutes('2026-11-30 18:00', '2026-11-30 17:05')", 55),
    ("diffMinutes('2026-11-30 18:00:30', '2026-11-30 18:00')", 0.5),
)
def diffMinutes(run: Run, a: Any, b: Any) -> float:
    gap = parse(run, a, "diffMinutes") - parse(run, b, "diffMinutes")
    # whole milliseconds, as JavaScript subtracts two Dates, then one division: total_seconds() / 60 adds a
    # rounding of its own (-599.9979500000001 for -599.99795)
    return (gap // timedelta(milliseconds=1)) / 60_000


@builtin(G, "Calendar days from `b` to `a` in Beijing.", ("diffDays('2026-12-01 00:10', '2026-11-30 23:50')", 1))
def diffDays(run: Run, a: Any, b: Any) -> float:
    return float((parse(run, a, "diffDays").date() - parse(run, b, "diffDays").date()).days)


@builtin(G, "Day of the week, 1 = Monday … 7 = Sunday.", ("weekday('2026-11-30')", 1))
def weekday(run: Run, d: Any) -> float:
    return float(parse(run, d, "weekday").isoweekday())


@builtin(G, "Midnight at the start of that day.", ("startOfDay('2026-11-30 17:05')", "2026-11-30T00:00:00+08:00"))
def startOfDay(run: Run, d: Any) -> str:
    return iso(parse(run, d, "startOfDay").replace(hour=0, minute=0, second=0, microsecond=0))


@builtin(
    "ui",
    "How long ago (or until) a time is, in the app's language: '3 分钟前' / '3 min ago'.",
    ("relTime(addMinutes(now, -3))", "3 分钟前"),
    ("relTime(addDays(now, 2))", "2 天后"),
)
def relTime(run: Run, d: Any) -> str:
    secs = (now_dt(run) - parse(run, d, "relTime")).total_seconds()
    past = secs >= 0
    s = abs(secs)
    en = run.locale == "en"
    if s < 60:
        return "just now" if en else "刚刚"
    for size, zh, en_unit in ((86400, "天", "d"), (3600, "小时", "h"), (60, "分钟", "min")):
        if s >= size:
            n = int(s // size)
            if en:
                unit = {"d": "day" if n == 1 else "days"}.get(en_unit, en_unit)
                return f"{n} {unit} ago" if past else f"in {n} {unit}"
            return f"{n} {zh}{'前' if past else '后'}"
    raise AssertionError("unreachable")
