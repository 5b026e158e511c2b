"""A tool's result as a person reads it: a table for a list of records, a field/value table for one record, the
value's JSON text for anything else — never Python's repr (`True`, `None`, quotes a student has never seen).

Results nest (空闲教室: buildings, each with its rooms, each with its free periods). A nested list of records is
not squeezed into one cell as JSON text cut at the edge — a new student could not read a single room that way —
but spread out: a record's lists of records become tables of their own under the field/value table, and a
table's rows that hold a list of records become one row per inner record (the outer cells written once, on the
first of its rows). A list of plain values reads as `a, b, c`.

Columns share the width there is: a long cell wraps onto more lines of its row instead of running past the edge
(at 80 columns 空闲教室's period times were cut after the fifth). true/false and an empty list are said in the
app's words (是/否, 无).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from rich.cells import cell_len
from rich.text import Text
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Static

from tui.app.i18n import t
from tui.app.widgets.tables import MIN_COLUMN, fit_widths
from widgets_render.js_text import json_text
from widgets_render.simple_widgets import literal

#: Rows shown when a result is a list of objects; the rest is counted, not dropped silently.
RESULT_ROWS = 200

#: How many levels of lists of records are spread into rows (deeper ones are counted in their cell).
SPREAD_DEPTH = 3

#: The longest text one cell shows.
CELL_CHARS = 200


class ResultParts(Vertical):
    """A record's field table and the tables of its lists, one under the other, as tall as they are."""

    DEFAULT_CSS = """
    ResultParts { height: auto; }
    ResultParts > .result-part { margin-top: 1; }
    """


def result_view(
    result: Any,
    widget_id: str = "result",
    locale: str = "zh",
    width: int | None = None,
    titles: Mapping[str, str] | None = None,
) -> Widget:
    """A list of objects as a table (one column per key), one object as a table of its fields and values with a
    table for each of its lists of objects, an empty list as a sentence saying so, anything else as its JSON
    text. With `width` (the cells there are), the columns share it and long cells wrap; each key is shown by its
    title in `titles` (the tool's `resultTitles`), else as it is."""
    named = Titles(titles or {})
    rows = result.get("items") if isinstance(result, dict) and isinstance(result.get("items"), list) else result
    if rows == []:
        return Static(t("no_results", locale), markup=False, id=widget_id, classes="tone-muted")
    if _records(rows):
        return _table(rows, widget_id, locale, width, named)
    if isinstance(result, dict) and result:
        nested = {k: v for k, v in result.items() if _records(v)}
        fields = {k: v for k, v in result.items() if k not in nested}
        if not nested:
            return _fields(fields, widget_id, locale, width, named)
        parts: list[Widget] = [_fields(fields, None, locale, width, named)] if fields else []
        for key, inner in nested.items():
            parts.append(Static(literal(f"{named(key)} ({len(inner)})"), classes="result-part tone-accent"))
            parts.append(_table(inner, None, locale, width, named))
        return ResultParts(*parts, id=widget_id)
    text = json_text(result, indent=2)
    return Static(literal(text[:4000]), id=widget_id)


def fitting_width(container: Widget) -> int:
    """The cells a result's tables may use inside `container`: its content less room for its scroll bar and a
    table's own (either may appear once the result is in)."""
    return max(2 * MIN_COLUMN, container.content_region.width - 4)


def _records(value: Any) -> TypeGuard[list[dict[str, Any]]]:
    """A non-empty list whose every item is an object: what reads as a table."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


class Titles:
    """A result key as a person reads it: its title, else the key; a spread key (`rooms.room`) by its last part's
    title."""

    def __init__(self, titles: Mapping[str, str]) -> None:
        self.titles = titles

    def __call__(self, key: str) -> str:
        if key in self.titles:
            return self.titles[key]
        last = key.rsplit(".", 1)[-1]
        return self.titles.get(last, key)


def _fields(
    record: dict[str, Any], widget_id: str | None, locale: str, width: int | None, named: Titles
) -> DataTable[Text]:
    """One record as a table of its fields and values."""
    header = [t("result_field", locale), t("result_value", locale)]
    cells = [[named(str(key)), _cell(value, locale)] for key, value in list(record.items())[:RESULT_ROWS]]
    return _fitted(header, cells, widget_id, width)


def _table(
    rows: list[dict[str, Any]], widget_id: str | None, locale: str, width: int | None, named: Titles
) -> DataTable[Text]:
    """A list of records as one table, its inner lists of records spread into rows."""
    keys, spread = spread_rows(rows)
    cells = [[_cell(row.get(k), locale) for k in keys] for row in spread[:RESULT_ROWS]]
    if len(spread) > RESULT_ROWS:
        cells.append([f"+{len(spread) - RESULT_ROWS}", *[""] * (len(keys) - 1)])
    return _fitted([named(k) for k in keys], cells, widget_id, width)


def _fitted(header: list[str], cells: list[list[str]], widget_id: str | None, width: int | None) -> DataTable[Text]:
    """A table whose columns share `width`: each as wide as its text when they fit, else the widest ones narrowed
    alike and their cells wrapped, each row as tall as its tallest cell."""
    natural = [max([cell_len(h), *(cell_len(row[i]) for row in cells)]) for i, h in enumerate(header)]
    widths = fit_widths(natural, width) if width is not None else natural
    table: DataTable[Text] = DataTable(zebra_stripes=True, classes="gen-table", id=widget_id)
    for label, column_width in zip(header, widths, strict=True):
        table.add_column(literal(label), width=column_width)
    for row in cells:
        table.add_row(*map(literal, row), height=None)
    return table


def spread_rows(rows: list[dict[str, Any]], depth: int = 0) -> tuple[list[str], list[dict[str, Any]]]:
    """The columns and rows of a table of records: the first key that holds a list of records (in any row) is
    replaced by that list's own columns, one row per inner record; the outer cells are written on the first of
    them only, and an outer record whose list is empty keeps one row. An inner key that repeats an outer one is
    named `outer.inner`."""
    keys: list[str] = []
    for row in rows[:RESULT_ROWS]:
        keys.extend(k for k in row if k not in keys)
    inner_key = next((k for k in keys if any(_records(r.get(k)) for r in rows)), None) if depth < SPREAD_DEPTH else None
    if inner_key is None:
        return keys, rows
    inner_rows = [row for r in rows if _records(r.get(inner_key)) for row in r[inner_key]]
    inner_keys, _ = spread_rows(inner_rows, depth + 1)
    if not inner_keys:  # lists of empty objects: nothing to spread
        return keys, rows
    named = {k: f"{inner_key}.{k}" if k in keys else k for k in inner_keys}
    out: list[dict[str, Any]] = []
    for row in rows:
        outer = {k: v for k, v in row.items() if k != inner_key}
        value = row.get(inner_key)
        if not _records(value):
            # an empty list says 无 in its first column; anything else that is not records is shown as it is
            out.append({**outer, **({} if value is None else {named[inner_keys[0]]: value})})
            continue
        _, spread = spread_rows(value, depth + 1)
        for i, inner in enumerate(spread):
            out.append({**(outer if i == 0 else {}), **{named.get(k, k): v for k, v in inner.items()}})
    at = keys.index(inner_key)
    return [*keys[:at], *named.values(), *keys[at + 1 :]], out


def _cell(value: Any, locale: str) -> str:
    """One table cell's text: text as is, a list of plain values as `a, b, c` (an empty one as 无), an object as
    `key: value, …`, a list of records counted, true/false as 是/否, numbers as JSON writes them (shown through
    `literal()`)."""
    if isinstance(value, str):
        text = value
    elif value is None:
        text = ""
    elif isinstance(value, bool):
        text = t("yes_value" if value else "no_value", locale)
    elif value == [] or value == {}:
        text = t("none", locale)
    elif isinstance(value, list):
        text = f"[{len(value)}]" if _records(value) else ", ".join(_cell(v, locale) for v in value)
    elif isinstance(value, dict):
        text = ", ".join(f"{k}: {_cell(v, locale)}" for k, v in value.items())
    else:
        text = json_text(value)
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 1] + "…"


def arguments_text(arguments: Any) -> str:
    """A tool call's arguments as a person reads them on the approval card: JSON, except that a text holding
    lines (a draft file's `content`) is written out as its lines, indented under its key, instead of one JSON
    string full of `\\n` (an outsider could not read the PLUGIN.md they were asked to allow)."""
    if not (isinstance(arguments, dict) and any(isinstance(v, str) and "\n" in v for v in arguments.values())):
        return json_text(arguments, indent=2)
    out = []
    for key, value in arguments.items():
        if isinstance(value, str) and "\n" in value:
            out.append(f"{key}:")
            out += [f"  {line}" for line in value.rstrip("\n").split("\n")]
        else:
            out.append(f"{key}: {json_text(value)}")
    return "\n".join(out)
