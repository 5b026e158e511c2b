"""Object functions: keys, values, entries, pick, omit, merge, get, has, equals."""

from __future__ import annotations

from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import Run
from tui.lang.expr.ops import index_of_key, prop_key
from tui.lang.expr.stdlib.registry import bad, builtin, want_dict, want_list
from tui.lang.expr.values import MAX_DEPTH, Closure, is_num, js_order

G = "objects"


@builtin(
    G,
    "The object's keys: array-index keys ('0', '42') first, ascending, then the others in insertion order.",
    ("keys({ a: 1, b: 2 })", ["a", "b"]),
    ("keys({ b: 1, 10: 2, 9: 3 })", ["9", "10", "b"]),
)
def keys(run: Run, obj: Any) -> list[Any]:
    d = want_dict(obj, "keys")
    run.charge_copy(len(d))
    return list(js_order(d))


@builtin(G, "The object's values, in key order.", ("values({ a: 1, b: 2 })", [1, 2]))
def values(run: Run, obj: Any) -> list[Any]:
    d = want_dict(obj, "values")
    run.charge_copy(len(d))
    return list(js_order(d).values())


@builtin(G, "The object's [key, value] pairs.", ("entries({ x: 1 })", [["x", 1]]))
def entries(run: Run, obj: Any) -> list[Any]:
    d = want_dict(obj, "entries")
    run.charge(len(d))  # a pair made in Python per key
    return [[k, v] for k, v in js_order(d).items()]


@builtin(G, "An object from [key, value] pairs.", ("fromEntries([['a', 1], ['b', 2]])", {"a": 1, "b": 2}))
def fromEntries(run: Run, pairs: Any) -> dict[str, Any]:
    lst = want_list(pairs, "fromEntries")
    run.charge(len(lst))  # each pair read in Python
    out: dict[str, Any] = {}
    for p in lst:
        if p.__class__ is not list or len(p) < 1:
            raise EvalError("fromEntries() expects a list of [key, value] pairs")
        out[prop_key(p[0])] = p[1] if len(p) > 1 else None
    return out


def _key_list(keys_: Any, fname: str) -> list[str]:
    if keys_.__class__ is str:
        return [keys_]
    return [prop_key(k) for k in want_list(keys_, fname)]


@builtin(
    G,
    "A copy with only the given keys, in the order given (array-index keys first, as in every object).",
    ("pick({ a: 1, b: 2 }, ['a'])", {"a": 1}),
)
def pick(run: Run, obj: Any, keys_: Any) -> dict[str, Any]:
    d = want_dict(obj, "pick")
    ks = _key_list(keys_, "pick")
    run.charge(len(ks))
    return {k: d[k] for k in ks if k in d}


@builtin(G, "A copy without the given keys.", ("omit({ a: 1, b: 2 }, ['a'])", {"b": 2}))
def omit(run: Run, obj: Any, keys_: Any) -> dict[str, Any]:
    d = want_dict(obj, "omit")
    if keys_.__class__ is list:
        run.charge(len(keys_))  # the keys are read too, before the copy
    ks = set(_key_list(keys_, "omit"))
    run.charge(len(d))  # each key tested in Python
    return {k: v for k, v in d.items() if k not in ks}


@builtin(
    G,
    "A new object with the keys of each argument in turn (later ones win); null is skipped.",
    ("merge({ a: 1 }, { b: 2 }, { a: 3 })", {"a": 3, "b": 2}),
    min_args=0,
    max_args=None,
)
def merge(run: Run, *objs: Any) -> dict[str, Any]:
    dicts = [want_dict(o, "merge") for o in objs if o is not None]
    # Every key of every argument is copied (not only the keys of the result): charged before copying, in
    # bulk, besides one per argument (each is looked at in Python).
    run.charge(len(objs))
    run.charge_copy(sum(map(len, dicts)))
    out: dict[str, Any] = {}
    for d in dicts:
        out.update(d)
    return out


@builtin(
    G,
    "The value at a path ('a.b.0' or a list of keys), or `default` when any step is missing (a null is there).",
    ("get({ a: { b: [10, 20] } }, 'a.b.1')", 20),
    ("get({}, 'x.y', 'none')", "none"),
    ("get({ a: null }, 'a', 5)", None),
    ("get({ a: 'abc' }, 'a.length')", 3),
)
def get(run: Run, obj: Any, path: Any, default: Any = None) -> Any:
    if path.__class__ is str:
        run.charge(path.count(".") + 1)  # counted before the list of steps is made
        steps: list[Any] = path.split(".")  # '' is the key '', as lodash reads it
    else:
        steps = want_list(path, "get")
        run.charge(len(steps))
    cur = obj
    for step in steps:
        if cur.__class__ is dict:
            key = prop_key(step)
            if key not in cur:
                return default
            cur = cur[key]
        elif cur.__class__ is list or cur.__class__ is str:  # a text's characters, as lodash reads them
            i = index_of_key(step)
            if i is None or i >= len(cur):
                if step == "length":  # as lodash reads `.length` of an array or a string (counted as len())
                    cur = float(len(cur))
                    continue
                return default
            cur = cur[i]
        else:
            return default
    return cur  # a key that holds null is there: null, as lodash's get (use `?? x` for null too)


@builtin(G, "True when the object has the key (or the list has the index).", ("has({ a: null }, 'a')", True))
def has(run: Run, obj: Any, key: Any) -> bool:
    if obj.__class__ is dict:
        return prop_key(key) in obj
    if obj.__class__ is list:
        i = index_of_key(key)
        return i is not None and i < len(obj)
    raise bad("has", "an object or a list", obj)


def deep_equal(run: Run, a: Any, b: Any, depth: int = 0) -> bool:
    """Deep equality: same types, equal scalars (=== rules), same keys and items in any key order."""
    if depth > MAX_DEPTH:
        raise LimitError(f"nesting depth {MAX_DEPTH} exceeded")
    run.used += 1
    if run.used > run.stop:
        run.over()
    ca, cb = a.__class__, b.__class__
    if is_num(a) and is_num(b):
        return a == b
    if ca is not cb:
        return False
    if ca is list:
        return len(a) == len(b) and all(deep_equal(run, x, y, depth + 1) for x, y in zip(a, b, strict=True))
    if ca is dict:
        return a.keys() == b.keys() and all(deep_equal(run, v, b[k], depth + 1) for k, v in a.items())
    if ca is Closure:
        return a is b
    return a == b


@builtin(
    G,
    "Deep equality of two values (what == cannot do for lists and objects); objects whatever their key order, "
    "scalars as `==` compares them (`equals(0/0, 0/0)` is `false`; `uniq` keeps one `NaN`).",
    ("equals([1, { a: 2 }], [1, { a: 2 }])", True),
)
def equals(run: Run, a: Any, b: Any) -> bool:
    result = deep_equal(run, a, b)
    run.check()
    return result
