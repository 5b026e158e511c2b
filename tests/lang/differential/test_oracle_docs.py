"""The oracle against the docs: every example of docs/PLUGIN-LANGUAGE.md §5's tables, run by oracle.mjs alone,
gives the documented value.

The oracle's library is written from those tables' sentences; this keeps it honest about them. The HTML
functions are left out (node has no DOM; the generator does not call them) and so are relTime() (it speaks
the app's language) and error() (it has no value).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from . import render as R
from .from_engine import parse
from .lab import Lab
from .outcomes import Canon
from .pools import NOW

DOCS = Path(__file__).resolve().parents[3] / "docs" / "PLUGIN-LANGUAGE.md"
SKIP = {"html", "select", "text", "htmlText", "attr", "tableRows", "relTime", "error"}


def library_examples() -> list[tuple[str, str, Any]]:
    """(function, expression, documented value) for every example of the generated library tables."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("<!-- generated:library -->") : text.index("<!-- end:library -->")]
    out = []
    for line in table.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        name = re.match(r"`(\w+)", cells[0])
        assert name is not None
        for example in cells[2].split("<br>"):
            m = re.fullmatch(r"`(.+)` → `(.+)`", example.strip())
            if m is None or name[1] in SKIP:
                continue
            expr, value = (part.replace("\\|", "|") for part in m.groups())
            if any(re.search(rf"\b{s}\(", expr) for s in SKIP):
                continue
            out.append((name[1], expr, json.loads(value)))
    return out


EXAMPLES = library_examples()


def plain(c: Canon) -> Any:
    """A canonical value as the docs print it (JSON: whole numbers without a fraction, -0 as 0)."""
    match c:
        case ("null",):
            return None
        case ("bool", b):
            return b
        case ("num", r):
            x = float(r)
            return int(x) if math.isfinite(x) and x == int(x) else x
        case ("str", s):
            return s
        case ("arr", items):
            return [plain(x) for x in items]
        case ("obj", pairs):
            return {k: plain(x) for k, x in pairs}
    return f"<{c[0]}>"


def test_the_docs_have_examples_to_check() -> None:
    assert len(EXAMPLES) > 100
    assert len({name for name, _, _ in EXAMPLES}) > 80


@pytest.mark.parametrize(("name", "expr", "value"), EXAMPLES, ids=[f"{n}:{e}" for n, e, _ in EXAMPLES])
def test_the_oracle_gives_the_documented_value(lab: Lab, name: str, expr: str, value: Any) -> None:
    # Cooked: the docs write patterns as the language reads them ('\d+' is \d+, §10 row 1).
    js = lab.oracle.run(R.js(parse(expr), cooked=True), {"now": NOW})
    assert js.kind == "value", f"{expr}: the oracle gives {js.error}"
    got = plain(js.value)  # type: ignore[arg-type]
    assert got == value and json.dumps(got) == json.dumps(value), f"{expr}: the oracle gives {got!r}"
