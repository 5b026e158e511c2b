"""Words a student reads for things the app keeps as ids or codes.

What a plugin may reach: campus services by their names, app abilities by what they do — the manifest's ids
(`card`, `verify`, `campusPage`) are for plugin authors; the install review and 设置 → 权限范围 showed them as
they were. When a check runs: "每 30 分钟", "工作日 08:00", not `every 30m` or `0 8 * * 1-5`."""

from __future__ import annotations

import time
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from rich.cells import cell_len

from tui.app.i18n import STRINGS, t
from tui.lang.expr.values import to_str
from tui.runtime.campus.services import SERVICES
from tui.runtime.field_rules import refused
from tui.runtime.message import say
from tui.runtime.registry import ToolInfo
from tui.runtime.scheduler.timing import BEIJING, Timing
from widgets_render.js_text import json_text


def campus_names(services: Iterable[str], locale: str) -> list[str]:
    """Each campus service by its name in `locale` (an unknown id as written)."""
    return [SERVICES[s].title_for(locale) if s in SERVICES else s for s in services]


def ability_names(abilities: Iterable[str], locale: str) -> list[str]:
    """Each app ability by what it lets the plugin do, in `locale` (an unknown id as written)."""
    return [t(f"ability_{a}", locale) if f"ability_{a}" in STRINGS else a for a in abilities]


def reach_words(kind: str, values: Iterable[str], locale: str) -> list[str]:
    """`values` of a manifest's `campus`, `network` or `abilities`, as a student reads them (sites as written)."""
    if kind == "campus":
        return campus_names(values, locale)
    if kind == "abilities":
        return ability_names(values, locale)
    return list(values)


def listed(words: Iterable[str], locale: str) -> str:
    """Words in a row, with the locale's separator (、 in Chinese, a comma in English)."""
    return ("、" if locale == "zh" else ", ").join(words)


def colon(locale: str) -> str:
    """What follows a label: a full-width colon in Chinese, ": " in English."""
    return "：" if locale == "zh" else ": "


def input_words(args: dict[str, Any], tool: ToolInfo | None, locale: str) -> str:
    """A tool's input as its form shows it: each field by its label, an enum value by its title ("哪天：今天"),
    other values as text; not `day = "today"` (a new check showed the tool's input as code)."""
    labels = tool.labels if tool else {}
    titles = tool.value_titles if tool else {}
    shown = []
    for name, value in args.items():
        text = titles.get(name, {}).get(to_str(value)) if not isinstance(value, (dict, list)) else None
        if text is None:
            text = value if isinstance(value, str) else json_text(value)
        shown.append(f"{labels.get(name, name)}{colon(locale)}{text}")
    return listed(shown, locale)


def refusals(tool: ToolInfo | None, fields: Iterable[str], locale: str) -> str:
    """What each refused input field takes, by its label ("节次要填 1 到 12 之间的整数；最少座位要填不小于 1 的整数"),
    in place of "输入有误": the checker's words name the key and are for the author; '' when the tool is unknown."""
    if tool is None:
        return ""
    said = [
        say(refused(tool.labels.get(name, name), tool.input[name], tool.value_titles.get(name)), locale)
        for name in fields
        if name in tool.input
    ]
    return ("；" if locale == "zh" else "; ").join(said)


def schedule_text(timing: str, locale: str) -> str:
    """A stored schedule as the student reads it ("每 30 分钟", "工作日 08:00"); one that no longer parses, as
    written."""
    try:
        return say(Timing.parse(timing).describe(), locale)
    except ValueError:
        return timing


def when_text(ms: int, locale: str, now_ms: int | None = None) -> str:
    """A moment soon, short, in Beijing time: "今天 13:00", "明天 08:00", else "12-05 08:00" (another year: with
    it). Lists are read at 80 columns, where "2026-12-02 08:00" was cut to its date."""
    at = datetime.fromtimestamp(ms / 1000, BEIJING)
    today = datetime.fromtimestamp((time.time() * 1000 if now_ms is None else now_ms) / 1000, BEIJING).date()
    clock = at.strftime("%H:%M")
    days = (at.date() - today).days
    if days in (0, 1):
        return f"{t('today' if days == 0 else 'tomorrow', locale)} {clock}"
    return at.strftime("%m-%d %H:%M" if at.year == today.year else "%Y-%m-%d %H:%M")


def cut_cells(text: str, width: int) -> str:
    """`text` in at most `width` terminal cells, ending with … when it was cut (a Chinese character is two)."""
    if cell_len(text) <= width:
        return text
    kept, used = [], 1
    for char in text:
        used += cell_len(char)
        if used > width:
            break
        kept.append(char)
    return "".join(kept) + "…"


__all__ = ["ability_names", "campus_names", "colon", "cut_cells", "listed", "reach_words", "schedule_text", "when_text"]
