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

#: Components only a screen may hold: a widget only shows data (the validator's SCREEN_ONLY).
SCREEN_ONLY_COMPONENTS = ("field", "form", "tabs")

#: Names every template of a widget or a screen sees (beside `let` names, shared constants and functions).
TEMPLATE_NAMES = ("data", "sources", "meta", "now", "today", "size", "locale", "constants", "settings")

#: Names only a screen's templates see.
SCREEN_NAMES = ("params", "state")

#: Names a per-item prop sees (a list's `item`, a table's `columns`, a row's `template` …), plus its `as` name.
ITEM_NAMES = ("item", "index")
