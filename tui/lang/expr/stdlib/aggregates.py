"""Aggregates over lists: sum, avg, min, max (with an optional key function)."""

from __future__ import annotations

import math
from typing import Any

from tui.lang.expr.limits import Run
from tui.lang.expr.stdlib.calling import check_field_exists, keys_of
from tui.lang.expr.stdlib.registry import builtin, want_list, want_num

G = "lists"


def _numbers(run: Run, items: Any, key: Any, fname: str) -> list[Any]:
    lst = want_list(items, fname)
    vals = keys_of(run, key, lst, fname) if key is not None else lst
    if key is None:
        run.charge(len(lst))  # each item checked in Python
    elif None in vals:  # about to be refused: say so when no item has a field of that name (a typo)
        check_field_exists(run, key, lst, fname)
    return vals


@builtin(
    G,
    "The sum of the numbers (or of `fn(item)`); 0 for an empty list.",
    ("sum([1, 2, 3])", 6),
    ("sum([{ n: 2 }, { n: 3 }], x => x.n)", 5),
)
def sum_(run: Run, items: Any, key: Any = None) -> float:
    total = 0.0
    for v in _numbers(run, items, key, "sum"):
        total += want_num(v, "sum")
    return total


@builtin(G, "The mean of the numbers; null for an empty list.", ("avg([1, 2])", 1.5))
def avg(run: Run, items: Any, key: Any = None) -> float | None:
    vals = _numbers(run, items, key, "avg")
    if not vals:
        return None
    total = 0.0
    for v in vals:  # left to right, as JavaScript adds (Python 3.12's sum() compensates: another last bit)
        total += want_num(v, "avg")
    return total / len(vals)


def _extreme(run: Run, items: Any, key: Any, fname: str, pick: Any) -> Any:
    vals = _numbers(run, items, key, fname)
    if not vals:
        return None
    if all(v.__class__ is str for v in vals):
        return pick(vals)
    nums = [want_num(v, fname) for v in vals]
    if any(x != x for x in nums):
        return math.nan
    best = pick(nums)
    if best == 0:  # Math.min/Math.max order -0 below +0; Python's min/max keep whichever zero came first
        signs = {math.copysign(1.0, x) for x in nums if x == 0}
        best = math.copysign(0.0, pick(signs))
    return best


@builtin(G, "The smallest number (or text); null for an empty list.", ("min([3, 1, 2])", 1))
def min_(run: Run, items: Any, key: Any = None) -> Any:
    return _extreme(run, items, key, "min", min)


@builtin(
    G,
    "The largest number (or text); null for an empty list.",
    ("max([3, 1, 2])", 3),
    ("max(['2026-01-02', '2026-03-01'])", "2026-03-01"),
)
def max_(run: Run, items: Any, key: Any = None) -> Any:
    return _extreme(run, items, key, "max", max)
