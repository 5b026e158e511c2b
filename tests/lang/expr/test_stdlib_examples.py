"""Every standard-library function has at least one example, and every example gives its documented value."""

from __future__ import annotations

from typing import Any

import pytest

from tui.lang.expr import FUNCTIONS, UserError
from tui.lang.expr.stdlib.registry import Builtin

from .helpers import ev

# The functions language.md §4 lists; the registry must have each one (names are final).
SPEC_NAMES = """
len map filter find findIndex some every reduce includes indexOf join slice concat flat flatMap reverse at first
last take drop chunk uniq uniqBy sortBy groupBy keyBy countBy sum avg min max range zip compact
keys values entries fromEntries pick omit merge get has equals
trim trimStart trimEnd lower upper toLowerCase toUpperCase split replace replaceAll startsWith endsWith padStart
padEnd repeat substring charAt indexOf lastIndexOf includes slice concat at str
test match matchAll regex
num int round floor ceil abs clamp toFixed isNumber
today date formatDate addDays addHours addMinutes diffMinutes diffDays weekday startOfDay
url query encodeURIComponent decodeURIComponent parseUrl
json stringify
html select first text htmlText attr tableRows
relTime pct type coalesce error
""".split()

EXAMPLES = [(b.name, src, want) for b in FUNCTIONS.values() for src, want in b.examples]


def test_every_spec_function_is_registered() -> None:
    missing = sorted(set(SPEC_NAMES) - set(FUNCTIONS))
    assert not missing


@pytest.mark.parametrize("builtin", FUNCTIONS.values(), ids=lambda b: b.name)
def test_every_function_has_a_doc_line_and_an_example(builtin: Builtin) -> None:
    assert builtin.doc.strip()
    assert builtin.examples, f"{builtin.name} has no example"


@pytest.mark.parametrize(("name", "src", "want"), EXAMPLES, ids=[f"{n}: {s}" for n, s, _ in EXAMPLES])
def test_example(name: str, src: str, want: Any) -> None:
    if name == "error":
        with pytest.raises(UserError, match="boom"):
            ev(src)
        return
    assert ev(src) == want
