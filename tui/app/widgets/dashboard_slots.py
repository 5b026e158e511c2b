"""What the dashboard holds: its slots (a plugin's widget at the size the student chose), the default layout, how
often a widget ticks, and how old stale data is said to be."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tui.app.i18n import t
from tui.lang.documents.common import parse_duration
from tui.runtime.runtime import Runtime


@dataclass(frozen=True)
class Slot:
    """One widget on the dashboard."""

    plugin_id: str
    name: str
    spec: dict[str, Any]
    size: str | None = None
    """The size the student chose (None: the widget's default)."""

    @property
    def file(self) -> str:
        return f"{self.plugin_id}/widgets/{self.name}.json"

    @property
    def id(self) -> str:
        return f"{self.plugin_id}/{self.name}"

    @property
    def sizes(self) -> list[str]:
        declared = self.spec.get("sizes")
        return [s for s in declared if s in ("small", "medium", "large")] if isinstance(declared, list) else ["medium"]


def available(runtime: Runtime) -> list[Slot]:
    """Every widget of every installed plugin, plugins in id order (the default layout)."""
    out = []
    for pid, inst in sorted(runtime.registry.plugins.items()):
        for name, spec in inst.widgets.items():  # not `inst.plugin`: a plugin kept for later stays so
            out.append(Slot(pid, name, spec))
    return out


def slots(runtime: Runtime) -> list[Slot]:
    """The widgets the student keeps on the dashboard, in their order and sizes."""
    every = {s.id: s for s in available(runtime)}
    placed = runtime.layout.placed(list(every))
    return [Slot(every[p.id].plugin_id, every[p.id].name, every[p.id].spec, p.size) for p in placed]


#: genui §2.6: a first load that has not answered by then becomes the LOAD_TIMEOUT error card.
LOAD_TIMEOUT_S = 15.0
#: genui §2.6: ticks are at least this far apart.
TICK_FLOOR_S = 30.0


def tick_seconds(spec: dict[str, Any]) -> float | None:
    """The widget's `refresh.every` in seconds, clamped to the floor; None when it does not tick."""
    refresh = spec.get("refresh")
    every = refresh.get("every") if isinstance(refresh, dict) else None
    if every is None:
        return None
    try:
        return max(TICK_FLOOR_S, parse_duration(every) / 1000)
    except ValueError:
        return None


def ago(ms: int, locale: str) -> str:
    """A compact age for the stale mark: '12 分钟前' / '12 min ago'."""
    minutes = ms // 60_000
    if minutes < 1:
        return t("age_now", locale)
    if minutes < 60:
        return t("age_minutes", locale).format(n=minutes)
    hours = minutes // 60
    if hours < 24:
        return t("age_hours", locale).format(n=hours)
    return t("age_days", locale).format(n=hours // 24)
