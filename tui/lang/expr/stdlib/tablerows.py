"""tableRows: an HTML table as rows, with rowspan and colspan expanded into every slot they cover."""

from __future__ import annotations

from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import MAX_ITEMS, Run

#: The HTML spec's own caps on spans; more is read as the cap.
MAX_ROWSPAN = 65_534
MAX_COLSPAN = 1_000
#: Most slots an expanded table may have (threats.md L9: a 65 M-cell grid is an error, not a hang).
MAX_CELLS = MAX_ITEMS
#: Most header rows `{ headerRows: n }` may name (campus tables have two, rarely three).
MAX_HEADER_ROWS = 10


def _span(value: str | None, cap: int) -> int:
    try:
        n = int((value or "1").strip())
    except ValueError:
        return 1
    return min(max(n, 0), cap)


def table_rows(run: Run, table: Any, mode: str, text_of: Any, header_rows: int = 1) -> list[Any]:
    """Rows of `table` (a selectolax node): 'plain' lists of texts, 'header' objects keyed by the first
    `header_rows` rows, 'cells' grid records."""
    trs = []
    for child in table.iter():
        if child.tag == "tr":
            trs.append(child)
        elif child.tag in ("thead", "tbody", "tfoot"):
            trs.extend(c for c in child.iter() if c.tag == "tr")
    nrows = len(trs)
    slots: dict[tuple[int, int], int] = {}
    cells: list[tuple[str, int, int, int, int]] = []
    width = 0
    for r, tr in enumerate(trs):
        c = 0
        for td in tr.iter():
            if td.tag not in ("td", "th"):
                continue
            while (r, c) in slots:
                c += 1
            attrs = td.attributes
            rs = _span(attrs.get("rowspan"), MAX_ROWSPAN)
            rs = nrows - r if rs == 0 else min(rs, nrows - r)  # rowspan=0: to the end of the table
            cs = max(1, _span(attrs.get("colspan"), MAX_COLSPAN))
            if len(slots) + rs * cs > MAX_CELLS:
                raise LimitError(f"tableRows(): the expanded table has more than {MAX_CELLS:,} cells")
            idx = len(cells)
            cells.append((text_of(td), r, c, rs, cs))
            for dr in range(rs):
                for dc in range(cs):
                    slots.setdefault((r + dr, c + dc), idx)
            c += cs
            width = max(width, c)
        # Plain and header rows are padded to the widest row: rows × width only grows, so a table whose
        # padded grid is already too big is refused here, before the rest of it is read.
        if mode != "cells" and (r + 1) * width > MAX_CELLS:
            raise LimitError(f"tableRows(): the expanded table has more than {MAX_CELLS:,} cells")
    # The grid built is rows × width (one wide cell can make it far bigger than the cells written), and
    # every row was visited.
    run.charge(nrows + (len(slots) if mode == "cells" else nrows * width))

    def text_at(r: int, c: int) -> str | None:
        i = slots.get((r, c))
        return None if i is None else cells[i][0]

    if mode == "cells":
        grid = []
        for r in range(nrows):
            row = []
            for c in range(width):
                i = slots.get((r, c))
                if i is None:
                    continue
                t, _r0, _c0, rs, cs = cells[i]
                row.append(
                    {
                        "text": t,
                        "row": float(r),
                        "col": float(c),
                        "rowspan": float(rs),
                        "colspan": float(cs),
                        "id": float(i),
                    }
                )
            grid.append(row)
        return grid
    if mode == "header":
        if not trs:
            return []
        keys = _header_keys([_column_title(text_at, header_rows, c) for c in range(width)])
        return [{keys[c]: text_at(r, c) for c in range(width)} for r in range(header_rows, nrows)]
    return [[text_at(r, c) for c in range(width)] for r in range(nrows)]


def _column_title(text_at: Any, rows: int, c: int) -> str | None:
    """Column `c`'s title from the first `rows` rows, top to bottom: the texts joined by a space, empty ones and a
    repeat of the one above left out — so a cell spanning two header rows (rowspan) counts once, and a group
    cell over several columns (colspan) comes first in each: 出版 + 社 → '出版 社'."""
    parts: list[str] = []
    for r in range(rows):
        text = text_at(r, c)
        if text and (not parts or parts[-1] != text):
            parts.append(text)
    return " ".join(parts) or None


def _header_keys(names: list[str | None]) -> list[str]:
    """Header texts as keys: an empty one becomes col1, col2 …; a repeated one gets _2, _3 …."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        key = name or f"col{i + 1}"
        if key in seen:
            seen[key] += 1
            key = f"{key}_{seen[key]}"
        else:
            seen[key] = 1
        out.append(key)
    return out


def table_mode(options: Any) -> tuple[str, int]:
    """'plain', 'header' or 'cells' from the options object, and how many rows make the header."""
    if options is None:
        return "plain", 0
    if options.__class__ is not dict:
        raise EvalError("tableRows() options must be an object like { header: true } or { cells: true }")
    opts: dict[str, Any] = options
    unknown = set(opts) - {"header", "headerRows", "cells"}
    if unknown:
        raise EvalError(f"tableRows(): unknown option {sorted(unknown)[0]!r} (use header, headerRows or cells)")
    rows = _header_rows(opts.get("headerRows"))
    header = bool(opts.get("header")) or rows is not None
    if header and opts.get("cells"):
        raise EvalError("tableRows(): choose one of { header: true } and { cells: true }")
    if opts.get("cells"):
        return "cells", 0
    return ("header", rows or 1) if header else ("plain", 0)


def _header_rows(value: Any) -> int | None:
    """`headerRows`: a whole number from 1 to MAX_HEADER_ROWS, or None when not given."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or value != value
        or value != int(value)
        or not 1 <= value <= MAX_HEADER_ROWS
    ):
        raise EvalError(f"tableRows(): headerRows must be a whole number from 1 to {MAX_HEADER_ROWS}")
    return int(value)
