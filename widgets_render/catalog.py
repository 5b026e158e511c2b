"""The genui v1 vocabulary as plain constants: the renderer needs these, not the pydantic models in spec.py
(building those models costs ~130 ms, which the app's start-up should not pay)."""

from __future__ import annotations

#: The verbs an action may use (genui.md §2.5).
ACTION_VERBS = ("invoke", "open", "openUrl", "refresh", "set", "ask")

#: The 22 component types (genui.md §2.4).
COMPONENTS = (
    "column",
    "row",
    "grid",
    "card",
    "divider",
    "text",
    "stat",
    "badge",
    "kv",
    "notice",
    "image",
    "list",
    "table",
    "progress",
    "sparkline",
    "bars",
    "countdown",
    "time",
    "button",
    "field",
    "form",
    "tabs",
)
