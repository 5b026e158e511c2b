"""What a JavaScript author found trying the language with only the README and the reference (issue 20,
second round): each finding pinned by the value node gives, or by the message the author should see.
"""

from __future__ import annotations

import pytest

from tests.lang.expr.helpers import NOW, raw
from tui.lang.expr import Run, compile_expression, from_json

# --- replacement text: named groups and two-digit group numbers (node's values) ------------------------------

#: replacement → ('x-y'.replace(/(?<a>x)-(y)/, r), 'x'.replace(/(x)/, r), 'x'.replace('x', r)) in node
REPLACEMENTS = {
    "$01": ("x", "x", "$01"),
    "$012": ("x2", "x2", "$012"),
    "$00": ("$00", "$00", "$00"),
    "$0": ("$0", "$0", "$0"),
    "$05": ("$05", "$05", "$05"),
    "$10": ("x0", "x0", "$10"),
    "$1$2": ("xy", "x$2", "$1$2"),
    "$<a>": ("x", "$<a>", "$<a>"),
    "$<b>": ("", "$<b>", "$<b>"),
    "$<zz>": ("", "$<zz>", "$<zz>"),
    "$<a": ("$<a", "$<a", "$<a"),
    "$<>": ("", "$<>", "$<>"),
    "$$<a>": ("$<a>", "$<a>", "$<a>"),
    "$<a>$<b>": ("x", "$<a>$<b>", "$<a>$<b>"),
}


@pytest.mark.parametrize("repl", sorted(REPLACEMENTS))
def test_replacement_text_reads_group_numbers_and_names_as_javascript(repl: str) -> None:
    named, numbered, plain = REPLACEMENTS[repl]
    assert raw("'x-y'.replace(regex('(?<a>x)-(y)'), r)", r=repl) == named
    assert raw("'x'.replace(regex('(x)'), r)", r=repl) == numbered
    assert raw("'x'.replace('x', r)", r=repl) == plain


def test_a_named_group_swaps_parts() -> None:
    src = r"'x-y'.replace(regex('(?<first>\w)-(?<second>\w)'), '$<second>-$<first>')"
    assert raw(src) == "y-x"
    assert raw("'x'.replace(regex('(?<a>x)|(?<b>z)'), '[$<b>]')") == "[]"  # a group that took no part: ''


# --- costs ---------------------------------------------------------------------------------------------------


def used(src: str, **names: object) -> int:
    run = Run(NOW)
    compile_expression(src).evaluate(from_json(names), run)
    return run.used


def test_spreading_an_object_costs_what_merge_and_a_list_spread_cost() -> None:
    obj = {f"k{i}": i for i in range(1600)}
    spread = used("({...o})", o=obj)
    assert spread == used("[...a]", a=list(range(1600)))  # one per 16 keys, as §8 says (was one per key)
    assert abs(spread - used("merge(o)", o=obj)) <= 2
    assert spread < 200
    # the usual JavaScript way of building an object key by key fits the budget at a realistic size
    assert used("range(N).reduce((acc, x) => ({...acc, [x]: 1}), {})", N=1000) < 40_000
