"""The two tables stay true: each documented entry's example behaves as documented, and each PENDING entry's
own example still disagrees the way the entry says (when the engine is fixed, this fails: delete the entry).

Checking PENDING entries by their own minimal example is deterministic, so a fixed bug is noticed at once
and never through a flaky count; the on-demand run also warns about entries no generated case met.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from . import harness
from . import render as R
from .documented import DOCUMENTED, Entry
from .from_engine import parse
from .lab import Finding, Lab
from .outcomes import Verdict
from .pending import PENDING
from .pools import NOW

DOCS = Path(__file__).resolve().parents[3] / "docs" / "PLUGIN-LANGUAGE.md"


def run_example(lab: Lab, entry: Entry) -> Finding:
    return lab.check(parse(entry.example), {**entry.context, "now": NOW})


@pytest.mark.parametrize("entry", DOCUMENTED, ids=lambda e: e.name)
def test_a_documented_example_behaves_as_documented(lab: Lab, entry: Entry) -> None:
    f = run_example(lab, entry)
    if entry.row:
        # A documented refusal: both sides refuse, the oracle naming the rule; or an entry that explains it.
        assert (f.verdict is Verdict.BOTH_REFUSE and f.js.row == entry.row) or harness.label(f, lab) == entry.name, (
            f.describe()
        )
    elif entry.test is None and entry.change is None:
        assert f.verdict.agrees, f"the oracle implements this row, so it must agree:\n{f.describe()}"
    else:
        assert harness.label(f, lab) == entry.name, f.describe()


@pytest.mark.parametrize("entry", PENDING, ids=lambda e: e.name)
def test_a_pending_example_still_disagrees(lab: Lab, entry: Entry) -> None:
    f = run_example(lab, entry)
    assert not f.verdict.agrees, (
        f"PENDING entry {entry.name!r} no longer disagrees: the engine was fixed, delete the entry.\n{f.describe()}"
    )
    assert harness.label(f, lab) == entry.name, (
        f"PENDING entry {entry.name!r}: its example is now explained otherwise ({harness.label(f, lab)!r}); "
        f"update the entry.\n{f.describe()}"
    )
    assert entry.crash == (f.verdict is Verdict.CRASH), f"crash=... of {entry.name!r} is wrong:\n{f.describe()}"


def section_10_rows() -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## 10. Differences from JavaScript") :]
    section = section[: section.index("\n# ")]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| JavaScript")]
    return [re.split(r"(?<!\\)\|", row)[1].strip() for row in rows]


def test_every_row_of_section_10_has_an_entry() -> None:
    rows = section_10_rows()
    assert len(rows) == 19
    wheres = [e.where for e in DOCUMENTED if e.where.startswith("§10")]
    for row in rows:
        assert any(row in where for where in wheres), f"§10 row {row!r} has no entry in documented.py"
    assert len(wheres) == len(rows)


def test_entries_have_unique_names_and_parse() -> None:
    names = [e.name for e in DOCUMENTED + PENDING]
    assert len(names) == len(set(names))
    for e in DOCUMENTED + PENDING:
        assert R.lang(parse(e.example)), e.name
