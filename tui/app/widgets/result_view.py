"""A tool's result as a person reads it: a table for a list of records, a JSON tree for anything else."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.widgets import DataTable, Pretty, Static

from tui.app.i18n import t
from widgets_render.textual_render import literal

#: Rows shown when a result is a list of objects; the rest is counted, not dropped silently.
RESULT_ROWS = 200


def result_view(result: Any, widget_id: str = "result", locale: str = "zh") -> DataTable[Text] | Pretty | Static:
    """A list of flat objects as a table (one column per key), an empty list as a sentence saying so, anything
    else as a JSON tree."""
    rows = result.get("items") if isinstance(result, dict) and isinstance(result.get("items"), list) else result
    if rows == []:
        return Static(t("no_results", locale), markup=False, id=widget_id, classes="tone-muted")
    if isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows):
        keys: list[str] = []
        for row in rows[:RESULT_ROWS]:
            keys.extend(k for k in row if k not in keys)
        table: DataTable[Text] = DataTable(zebra_stripes=True, classes="gen-table", id=widget_id)
        table.add_columns(*map(literal, keys))
        for row in rows[:RESULT_ROWS]:
            table.add_row(*[literal(_cell(row.get(k))) for k in keys])
        if len(rows) > RESULT_ROWS:
            table.add_row(literal(f"+{len(rows) - RESULT_ROWS}"), *[literal("")] * (len(keys) - 1))
        return table
    return Pretty(result, id=widget_id)


def _cell(value: Any) -> str:
    """One table cell's text: text as is, anything structured as compact JSON (shown through `literal()`)."""
    text = value if isinstance(value, str) else "" if value is None else json.dumps(value, ensure_ascii=False)
    return text[:200]
