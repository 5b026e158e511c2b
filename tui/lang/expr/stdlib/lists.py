"""List functions: map, filter, reduce, slicing, flattening and building (language.md §4)."""

from __future__ import annotations

import math
from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import MAX_ITEMS, Run
from tui.lang.expr.ops import eq
from tui.lang.expr.stdlib.calling import first_true, results, stretches, with_list
from tui.lang.expr.stdlib.measured import join_text
from tui.lang.expr.stdlib.registry import ABSENT, bad, builtin, want_fn, want_int, want_list, want_num, want_str
from tui.lang.expr.values import MAX_DEPTH, Closure, is_num, to_str, truthy

G = "lists"


@builtin(
    G,
    "Length of a list or a string, or the number of an object's keys.",
    ("len([1, 2, 3])", 3),
    ("len('北大')", 2),
    ("len({ a: 1 })", 1),
)
def len_(run: Run, x: Any) -> float:
    c = x.__class__
    if c is list or c is str or c is dict:
        return float(len(x))
    raise bad("len", "a list, text or an object", x)


@builtin(G, "A new list of `fn(item, index)` for each item.", ("[1, 2].map(x => x * 10)", [10, 20]))
def map_(run: Run, items: Any, fn: Any) -> list[Any]:
    return results(run, want_fn(fn, "map"), want_list(items, "map"))


@builtin(G, "The items for which `fn(item, index)` is truthy.", ("[1, 2, 3].filter(x => x > 1)", [2, 3]))
def filter_(run: Run, items: Any, fn: Any) -> list[Any]:
    lst, clo = want_list(items, "filter"), want_fn(fn, "filter")
    if clo.nparams >= 2:
        keep = results(run, clo, lst)
        return [x for x, k in zip(lst, keep, strict=True) if k is True or (k is not False and truthy(k))]
    # The hot path of most plugins: one evaluation per call, charged up front; the kept items are part of
    # that pass. No index, no per-item budget check (see calling.results).
    n = len(lst)
    run.charge(n)
    f = clo.fn
    out: list[Any] = []
    for i, end in stretches(run, n, clo.cost - 1):
        part = lst[i:end] if i or end < n else lst
        out.extend([x for x in part if (k := f(x)) is True or (k is not False and truthy(k))])
        run.check()  # nested builtins may have spent more than the body's own cost
    return out


@builtin(G, "The first item for which `fn` is truthy, or null.", ("[1, 5, 7].find(x => x > 4)", 5))
def find(run: Run, items: Any, fn: Any) -> Any:
    lst = want_list(items, "find")
    i = first_true(run, want_fn(fn, "find"), lst)
    return lst[i] if i >= 0 else None


@builtin(G, "Index of the first item for which `fn` is truthy, or -1.", ("[1, 5, 7].findIndex(x => x > 4)", 1))
def findIndex(run: Run, items: Any, fn: Any) -> float:
    return float(first_true(run, want_fn(fn, "findIndex"), want_list(items, "findIndex")))


@builtin(G, "True when `fn` is truthy for some item.", ("[1, 5].some(x => x > 4)", True))
def some(run: Run, items: Any, fn: Any) -> bool:
    return first_true(run, want_fn(fn, "some"), want_list(items, "some")) >= 0


@builtin(G, "True when `fn` is truthy for every item (true for an empty list).", ("[1, 5].every(x => x > 0)", True))
def every(run: Run, items: Any, fn: Any) -> bool:
    lst, clo = want_list(items, "every"), want_fn(fn, "every")
    f, two = with_list(clo, lst), clo.nparams >= 2
    for i, x in enumerate(lst):
        run.used += 1
        if not truthy(f(x, float(i)) if two else f(x)):
            run.check()
            return False
        if run.used > run.stop:
            run.over()
    return True


@builtin(
    G,
    "Folds the list: `fn(acc, item, index)`, starting from `init` (or the first item).",
    ("[1, 2, 3].reduce((a, b) => a + b, 0)", 6),
    min_args=2,
    max_args=3,
)
def reduce(run: Run, items: Any, fn: Any, *init: Any) -> Any:
    lst, clo = want_list(items, "reduce"), want_fn(fn, "reduce")
    start = 0
    if init:
        acc = init[0]
    else:
        if not lst:
            raise EvalError("reduce() of an empty list needs a starting value")
        acc, start = lst[0], 1
    f, three, four = clo.fn, clo.nparams >= 3, clo.nparams >= 4
    for i in range(start, len(lst)):
        run.used += 1
        # (acc, item, index, list) as JavaScript passes them, to an arrow that declares them
        acc = f(acc, lst[i], float(i), lst) if four else f(acc, lst[i], float(i)) if three else f(acc, lst[i])
        if run.used > run.stop:
            run.over()
    return acc


def same_value_zero(a: Any, b: Any) -> bool:
    """Equality for includes/indexOf: like === but NaN matches NaN, and a list, object or function matches
    only itself (JavaScript compares references: `[row].includes(row)` is true), never an error."""
    ca, cb = a.__class__, b.__class__
    if ca in (list, dict) or cb in (list, dict) or ca is Closure or cb is Closure:
        return a is b
    if is_num(a) and is_num(b) and a != a and b != b:
        return True
    try:
        return eq(a, b)
    except EvalError:
        return False


@builtin(
    G,
    "True when a list holds the value (or a text holds the substring).",
    ("[1, 2].includes(2)", True),
    ("'北京大学'.includes('大学')", True),
    min_args=2,
    max_args=3,
)
def includes(run: Run, hay: Any, needle: Any, *start: Any) -> bool:
    if hay.__class__ is str:
        s = hay
        sub = _text_arg(needle, "includes")
        i = text_start(start[0], len(s)) if start else 0
        run.charge_scan(len(s))
        return sub in s[i:]
    lst = want_list(hay, "includes")
    i = _clamp_index(start[0], len(lst)) if start else 0
    run.charge(len(lst))  # one comparison in Python per item
    return any(same_value_zero(x, needle) for x in lst[i:])


def _text_arg(v: Any, fname: str) -> str:
    if v.__class__ in (list, dict) or v.__class__ is Closure:
        raise bad(fname, "text to search for", v)
    return to_str(v)


def _clamp_index(v: Any, n: int) -> int:
    """Where Array.prototype.indexOf and includes start: a negative index counts from the end."""
    i = want_int(v, "index")
    return max(0, n + i) if i < 0 else min(i, n)


def text_start(v: Any, n: int) -> int:
    """Where String.prototype.indexOf and includes start: the position clamped to the text (a negative one is 0,
    not counted from the end as for a list)."""
    return min(max(want_int(v, "index"), 0), n)


@builtin(
    G,
    "Position of a value in a list (or of a substring in a text), or -1.",
    ("[3, 1, 2].indexOf(2)", 2),
    ("'hello'.indexOf('l')", 2),
    min_args=2,
    max_args=3,
)
def indexOf(run: Run, hay: Any, needle: Any, *start: Any) -> float:
    if hay.__class__ is str:
        s: str = hay
        run.charge_scan(len(s))
        return float(s.find(_text_arg(needle, "indexOf"), text_start(start[0], len(s)) if start else 0))
    lst = want_list(hay, "indexOf")
    run.charge(len(lst))  # one comparison in Python per item
    for i in range(_clamp_index(start[0], len(lst)) if start else 0, len(lst)):
        x = lst[i]
        if x == x and same_value_zero(x, needle):  # strict equality: NaN is never found
            return float(i)
    return -1.0


@builtin(
    G,
    "The items as text with `sep` between (default ','); null items give ''.",
    ("[1, null, 2].join('-')", "1--2"),
    ("['a', 'b'].join()", "a,b"),
)
def join(run: Run, items: Any, sep: Any = ",") -> str:
    lst = want_list(items, "join")
    s = sep if sep.__class__ is str else to_str(sep)  # join(null) joins with 'null', as in JavaScript
    return join_text(run, lst, s)


def _slice_bounds(n: int, start: Any, end: Any) -> tuple[int, int]:
    def norm(v: Any, default: int) -> int:
        if v is ABSENT:
            return default
        i = want_int(v, "slice")
        return max(0, n + i) if i < 0 else min(i, n)

    return norm(start, 0), norm(end, n)


@builtin(
    G,
    "Part of a list or text from `start` up to (not including) `end`; negatives count from the end.",
    ("[1, 2, 3].slice(1)", [2, 3]),
    ("'Hello'.slice(0, -1)", "Hell"),
    ("'Hello'.slice(-3)", "llo"),
)
def slice_(run: Run, x: Any, start: Any = ABSENT, end: Any = ABSENT) -> Any:
    if x.__class__ is str:
        a, b = _slice_bounds(len(x), start, end)
        run.charge_scan(b - a)  # a copy of that many characters
        return x[a:b]
    if x.__class__ is list:
        a, b = _slice_bounds(len(x), start, end)
        run.charge_items(max(0, b - a))
        return x[a:b]
    raise bad("slice", "a list or text", x)


@builtin(
    G,
    "A list with more items (lists are spread one level), or texts joined.",
    ("[1].concat([2, 3], 4)", [1, 2, 3, 4]),
    ("'a'.concat('b', 1)", "ab1"),
    max_args=None,
)
def concat(run: Run, x: Any, *more: Any) -> Any:
    if x.__class__ is str:
        parts = [x] + [to_str(m) if m.__class__ is not str else m for m in more]
        run.charge_text(sum(len(p) for p in parts))
        return "".join(parts)
    lst = want_list(x, "concat")
    n = len(lst) + sum(len(m) if m.__class__ is list else 1 for m in more)
    run.charge_items(n)
    out = list(lst)
    for m in more:
        if m.__class__ is list:
            out.extend(m)
        else:
            out.append(m)
    return out


def _flatten(run: Run, lst: list[Any], depth: float, level: int, out: list[Any]) -> None:
    if level > MAX_DEPTH:
        raise LimitError(f"nesting depth {MAX_DEPTH} exceeded")
    run.charge(len(lst))  # item by item, before the visit: a list of many empty lists is charged as it is walked
    for x in lst:
        if x.__class__ is list and depth >= 1:
            _flatten(run, x, depth - 1, level + 1, out)
        else:
            out.append(x)
            if len(out) > MAX_ITEMS:
                raise LimitError(f"list of more than {MAX_ITEMS:,} items")


@builtin(
    G,
    "Nested lists flattened `depth` levels (default 1).",
    ("[[1, 2], [3, [4]]].flat()", [1, 2, 3, [4]]),
    ("[[1, [2, [3]]]].flat(5)", [1, 2, 3]),
)
def flat(run: Run, items: Any, depth: Any = 1.0) -> list[Any]:
    d = want_num(depth, "flat")
    out: list[Any] = []
    _flatten(run, want_list(items, "flat"), d, 0, out)
    return out


@builtin(G, "map, then flatten one level.", ("[1, 2].flatMap(x => [x, x * 10])", [1, 10, 2, 20]))
def flatMap(run: Run, items: Any, fn: Any) -> list[Any]:
    mapped = results(run, want_fn(fn, "flatMap"), want_list(items, "flatMap"))
    # The calls paid for `mapped`; what is left is copying the lists they gave, in bulk.
    run.charge_items(sum(len(m) if m.__class__ is list else 1 for m in mapped))
    out: list[Any] = []
    for m in mapped:
        if m.__class__ is list:
            out.extend(m)
        else:
            out.append(m)
    return out


@builtin(G, "A reversed copy (nothing is changed in place).", ("[1, 2, 3].reverse()", [3, 2, 1]))
def reverse(run: Run, items: Any) -> list[Any]:
    lst = want_list(items, "reverse")
    run.charge_items(len(lst))
    return lst[::-1]


@builtin(
    G,
    "The item at an index; negative indexes count from the end.",
    ("[1, 2, 3].at(-1)", 3),
    ("'abc'.at(0)", "a"),
)
def at(run: Run, x: Any, index: Any) -> Any:
    if x.__class__ is not list and x.__class__ is not str:
        raise bad("at", "a list or text", x)
    i = want_int(index, "at")
    n = len(x)
    if i < 0:
        i += n
    return x[i] if 0 <= i < n else None


@builtin(G, "The last item, or null.", ("last([1, 2, 3])", 3))
def last(run: Run, items: Any) -> Any:
    lst = want_list(items, "last")
    return lst[-1] if lst else None


@builtin(G, "The first `n` items.", ("take([1, 2, 3], 2)", [1, 2]))
def take(run: Run, items: Any, n: Any) -> list[Any]:
    lst = want_list(items, "take")
    k = max(0, want_int(n, "take"))
    run.charge_items(min(k, len(lst)))
    return lst[:k]


@builtin(G, "All but the first `n` items.", ("drop([1, 2, 3], 1)", [2, 3]))
def drop(run: Run, items: Any, n: Any) -> list[Any]:
    lst = want_list(items, "drop")
    k = max(0, want_int(n, "drop"))
    run.charge_items(max(0, len(lst) - k))
    return lst[k:]


@builtin(G, "The items in lists of `size`.", ("chunk([1, 2, 3, 4, 5], 2)", [[1, 2], [3, 4], [5]]))
def chunk(run: Run, items: Any, size: Any) -> list[Any]:
    lst = want_list(items, "chunk")
    k = want_int(size, "chunk")
    if k < 1:
        raise EvalError("chunk() size must be at least 1")
    run.charge_items(len(lst))  # the items are copied in bulk, the chunks made one by one
    run.charge(-(-len(lst) // k))
    return [lst[i : i + k] for i in range(0, len(lst), k)]


@builtin(
    G,
    "Numbers from `start` (default 0) up to, not including, `end`, by `step`.",
    ("range(3)", [0, 1, 2]),
    ("range(1, 7, 2)", [1, 3, 5]),
)
def range_(run: Run, a: Any, b: Any = None, step: Any = 1.0) -> list[Any]:
    if (
        b is None
        and step.__class__ is float
        and step == 1
        and a.__class__ is float
        and 0 <= a <= MAX_ITEMS
        and a.is_integer()
    ):
        run.charge_items(int(a))  # range(n), the common form: the same list as below without its checks
        return list(map(float, range(int(a))))
    start, end = (0.0, want_num(a, "range")) if b is None else (want_num(a, "range"), want_num(b, "range"))
    st = want_num(step, "range")
    if st == 0 or st != st:
        raise EvalError("range() step cannot be 0")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise EvalError("range() needs finite numbers")
    span = (end - start) / st
    if not math.isfinite(span):
        raise LimitError(f"range() of more than {MAX_ITEMS:,} items")
    n = max(0, math.ceil(span))
    run.charge_items(n)
    if start.is_integer() and st.is_integer() and abs(start) + n * abs(st) < 2**53 and math.copysign(1, start) > 0:
        # Whole numbers below 2**53 are exact doubles, so this is the same list, made in C (3x faster); a start
        # of -0 keeps the arithmetic below, which gives -0 first when the step is negative, as JavaScript does.
        a, step = int(start), int(st)
        return list(map(float, range(a, a + n * step, step)))
    return [start + i * st for i in range(n)]


@builtin(
    G,
    "Lists of the items at the same index; shorter lists give null.",
    ("zip([1, 2], ['a', 'b'])", [[1, "a"], [2, "b"]]),
    min_args=0,
    max_args=None,
)
def zip_(run: Run, *lists: Any) -> list[Any]:
    ls = [want_list(x, "zip") for x in lists]
    n = max((len(x) for x in ls), default=0)
    run.charge_items(n * len(ls))
    run.charge(n)  # a list made in Python per index
    return [[x[i] if i < len(x) else None for x in ls] for i in range(n)]


@builtin(G, "The items that are truthy.", ("compact([0, 1, null, '', 'a', false])", [1, "a"]))
def compact(run: Run, items: Any) -> list[Any]:
    lst = want_list(items, "compact")
    run.charge(len(lst))  # truthy() in Python per item
    return [x for x in lst if truthy(x)]


__all__ = ["same_value_zero", "want_str"]
