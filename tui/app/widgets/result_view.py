"""A tool's result as a person reads it: a table for a list of records, a field/value table for one record, the
value's JSON text for anything else — never Python's repr (`True`, `None`, quotes a student has never seen)."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.widgets import DataTable, Static

from tui.app.i18n import t
from widgets_render.textual_render import literal

#: Rows shown when a result is a list of objects; the rest is counted, not dropped silently.
RESULT_ROWS = 200


def result_view(result: Any, widget_id: str = "result", locale: str = "zh") -> DataTable[Text] | Static:
    """A list of objects as a table (one column per key), one object as a table of its fields and values, an
    empty list as a sentence saying so, anything else as its JSON text."""
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
    if isinstance(result, dict) and result:
        record: DataTable[Text] = DataTable(zebra_stripes=True, classes="gen-table", id=widget_id)
        record.add_columns(literal(t("result_field", locale)), literal(t("result_value", locale)))
        for key, value in list(result.items())[:RESULT_ROWS]:
            record.add_row(literal(str(key)), literal(_cell(value)))
        return record
    text = json.dumps(result, ensure_ascii=False, indent=2)
    return Static(literal(text[:4000]), id=widget_id)


def _cell(value: Any) -> str:
    """One table cell's text: text as is, anything structured as compact JSON (shown through `literal()`)."""
    text = value if isinstance(value, str) else "" if value is None else json.dumps(value, ensure_ascii=False)
    return text[:200]
