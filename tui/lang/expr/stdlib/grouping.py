"""Grouping and ordering lists: uniq, uniqBy, sortBy, groupBy, keyBy, countBy."""

from __future__ import annotations

from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import Run
from tui.lang.expr.stdlib.calling import keys_of
from tui.lang.expr.stdlib.registry import builtin, want_list, want_num
from tui.lang.expr.values import MAX_DEPTH, Closure, describe, to_str, type_of

G = "lists"


def _hash_key(run: Run, x: Any, depth: int = 0) -> Any:
    """A hashable stand-in for `x` that is equal exactly when the values are deeply equal: object keys in any
    order ({a, b} is {b, a}), NaN equal to NaN but not to null, 0 equal to -0, true never equal to 1."""
    c = x.__class__
    if c is list or c is dict:
        if depth > MAX_DEPTH:
            raise LimitError(f"nesting depth {MAX_DEPTH} exceeded")
        run.charge(1 + len(x))  # one per item visited, before the visit
        if c is list:
            return ("l", tuple(_hash_key(run, v, depth + 1) for v in x))
        return ("o", frozenset((k, _hash_key(run, v, depth + 1)) for k, v in x.items()))
    if c is float or c is int:
        return ("n", "NaN" if x != x else want_num(x, "uniq"))
    if c is Closure:
        return ("f", id(x))
    return (type_of(x), x)


@builtin(
    G,
    "The items without repeats (deep equality for lists and objects), first one kept.",
    ("uniq([1, 1, 2, '1'])", [1, 2, "1"]),
)
def uniq(run: Run, items: Any) -> list[Any]:
    lst = want_list(items, "uniq")
    run.charge(len(lst))  # a key made and looked up in Python per item
    seen: set[object] = set()
    out = []
    for x in lst:
        k = _hash_key(run, x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


@builtin(
    G,
    "The items whose key (a function or a field name) was not seen before.",
    ("uniqBy([{ a: 1 }, { a: 1 }, { a: 2 }], 'a').length", 2),
)
def uniqBy(run: Run, items: Any, key: Any) -> list[Any]:
    lst = want_list(items, "uniqBy")
    ks = keys_of(run, key, lst, "uniqBy")
    seen: set[object] = set()
    out = []
    for x, k in zip(lst, ks, strict=True):
        hk = _hash_key(run, k)
        if hk not in seen:
            seen.add(hk)
            out.append(x)
    return out


def _by_rank(ks: list[Any]) -> tuple[list[int], list[int], list[int], list[int]]:
    """Indexes of the numbers, texts, booleans and missing keys (null, NaN), each in input order."""
    nums: list[int] = []
    texts: list[int] = []
    bools: list[int] = []
    missing: list[int] = []
    for i, k in enumerate(ks):
        c = k.__class__
        if c is float or c is int:
            (nums if k == k else missing).append(i)
        elif c is str:
            texts.append(i)
        elif c is bool:
            bools.append(i)
        elif k is None:
            missing.append(i)
        else:
            raise EvalError(f"sortBy() keys must be numbers, text, booleans or null, got {describe(k)}")
    return nums, texts, bools, missing


@builtin(
    G,
    "A sorted copy, stable; numbers numerically, texts by code point, null last; 'desc' reverses.",
    ("sortBy([{ n: 2 }, { n: 1 }], 'n').map(x => x.n)", [1, 2]),
    ("sortBy([3, 1, 2], x => x, 'desc')", [3, 2, 1]),
)
def sortBy(run: Run, items: Any, key: Any, order: Any = "asc") -> list[Any]:
    lst = want_list(items, "sortBy")
    if order not in ("asc", "desc"):
        raise EvalError("sortBy() order must be 'asc' or 'desc'")
    ks = keys_of(run, key, lst, "sortBy")
    # The keys were the pass over the items; ordering and copying them is C work, charged like a copy.
    run.charge_items(len(lst))
    nums, texts, bools, missing = _by_rank(ks)
    # Each kind is sorted by itself, so Python compares plain floats or texts (several times faster than
    # (rank, key) tuples). Numbers, then texts, then booleans; 'desc' reverses that order and each sort,
    # and Python's reverse sort keeps equal keys in input order, as the ascending one does.
    desc = order == "desc"
    groups = (bools, texts, nums) if desc else (nums, texts, bools)
    ordered: list[int] = []
    for g in groups:
        ordered.extend(sorted(g, key=ks.__getitem__, reverse=desc))
    ordered.extend(missing)
    return list(map(lst.__getitem__, ordered))


def _group_key(k: Any) -> str:
    if k.__class__ in (list, dict) or k.__class__ is Closure:
        raise EvalError(f"group keys must be text, numbers, booleans or null, got {describe(k)}")
    return to_str(k)


@builtin(
    G,
    "An object from each key (as text) to the list of its items, keys in first-seen order.",
    ("groupBy([1, 2, 3], x => x % 2 == 0 ? 'even' : 'odd')", {"odd": [1, 3], "even": [2]}),
)
def groupBy(run: Run, items: Any, key: Any) -> dict[str, Any]:
    lst = want_list(items, "groupBy")
    out: dict[str, list[Any]] = {}
    for x, k in zip(lst, keys_of(run, key, lst, "groupBy"), strict=True):
        out.setdefault(_group_key(k), []).append(x)
    return out


@builtin(
    G,
    "An object from each key to its (last) item.",
    ("keyBy([{ id: 'a', n: 1 }], 'id')", {"a": {"id": "a", "n": 1}}),
)
def keyBy(run: Run, items: Any, key: Any) -> dict[str, Any]:
    lst = want_list(items, "keyBy")
    return {_group_key(k): x for x, k in zip(lst, keys_of(run, key, lst, "keyBy"), strict=True)}


@builtin(
    G,
    "An object from each key to how many items have it.",
    ("countBy(['a', 'b', 'a'], x => x)", {"a": 2, "b": 1}),
)
def countBy(run: Run, items: Any, key: Any) -> dict[str, Any]:
    lst = want_list(items, "countBy")
    out: dict[str, float] = {}
    for k in keys_of(run, key, lst, "countBy"):
        gk = _group_key(k)
        out[gk] = out.get(gk, 0.0) + 1.0
    return out
