"""The library calls the generator can make, grouped by the type they give (docs §5's tables).

Each call is written either as a function `f(x, a)` or as a method `x.f(a)` (§3: both mean the same), now
and then with an optional link (`x?.f(a)`, `x.f?.(a)`). HTML functions are left out (node has no DOM), as are
`relTime` (it speaks the app's language) and the secret-carrying abilities.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import pools
from .tree import Arr, Call, Const, Global, Index, MCall, Member, Name, Node, Num, Spread, Str, Unary

if TYPE_CHECKING:
    from .generator import Generator, Production

JSON_TEXTS = [
    "'{\"a\":[1,2]}'",
    '\'{"b":1,"1":2,"01":3}\'',
    "'[1, 2.50, -0, 1e400]'",
    '\'{"__proto__": {"x": 1}}\'',
    "'\"\\\\ud800\"'",
    "'{bad'",
    "'  true '",
    '\'{"a":1,"a":2}\'',
    "'[]'",
    "'123456789012345678901234567890'",
    "'\"二\"'",
    '\'{"10":1,"9":2,"a":3}\'',
]
GET_PATHS = ["'a.b.0'", "'a'", "'0'", "'x.y'", "''", "'b.1'", "'1'", "'length'", "'a.length'"]
SMALL = ["0", "1", "2", "3", "5", "10", "1.5"]
FIELDS = ["'a'", "'n'", "'1'", "'x y'", "'01'", "'__proto__'"]


def library_productions(g: Generator) -> dict[str, list[tuple[float, Production]]]:
    """Productions by result type: (weight, make(depth) -> Node)."""
    e, rng = g.expr, g.rng

    def call(name: str, recv: Node, *args: Node, method: bool | None = None) -> Node:
        as_method = rng.random() < 0.5 if method is None else method
        if as_method:
            return MCall(recv, name, args, rng.random() < 0.03, rng.random() < 0.03)
        return Call(name, (recv, *args))

    def some(*makers: Callable[[], Node]) -> list[Node]:
        """A prefix of the optional arguments."""
        return [m() for m in makers[: rng.randint(0, len(makers))]]

    def small() -> Node:
        n = Num(rng.choice(SMALL))
        return Unary("-", n) if rng.random() < 0.15 else n

    def lit(pool: list[str]) -> Str:
        return Str(rng.choice(pool))

    def pattern(d: int) -> Node:
        p = lit(pools.PATTERN_LITERALS)
        return Call("regex", (p,)) if rng.random() < 0.4 else p

    def regex_or_text(d: int) -> Node:
        return Call("regex", (lit(pools.PATTERN_LITERALS),)) if rng.random() < 0.5 else e("str", d)

    def date(d: int) -> Node:
        r = rng.random()
        if r < 0.5:
            return Str(repr(rng.choice(pools.DATE_TEXTS)))
        if r < 0.6:
            return Num(rng.choice(["0", "1700000000000", "1.5"]))
        return e("str", d) if r < 0.8 else Name(rng.choice(["d", "date", "now"]))

    def url(d: int) -> Node:
        return Str(repr(rng.choice(pools.URL_TEXTS))) if rng.random() < 0.6 else Name("u")

    def fn(item: str, body: str, d: int) -> Node:
        return g.item_fn(item, body, d)

    def body() -> str:
        return rng.choice(["num", "num", "str", "bool", "any"])

    num: list[tuple[float, Production]] = [
        (1.0, lambda d: Call("len", (e(rng.choice(["list:any", "str", "obj"]), d),))),
        (1.0, lambda d: call(rng.choice(["indexOf", "lastIndexOf"]), e("str", d), e("str", d))),
        (0.6, lambda d: call("indexOf", e("list:num", d), e("num", d), *some(small))),
        (0.6, lambda d: call("findIndex", e("list:num", d), fn("num", "bool", d))),
        (2.0, lambda d: call(rng.choice(["sum", "avg", "min", "max"]), e("list:num", d))),
        (1.0, lambda d: call(rng.choice(["sum", "min", "max", "avg"]), e("list:row", d), g.key("row", d))),
        (0.6, lambda d: call("min", e("list:str", d), method=False)),
        (1.0, lambda d: call("reduce", e("list:num", d), g.arrow(["num", "num"], "num", d), *some(small))),
        (1.5, lambda d: Call("round", (e("num", d), *some(lambda: Num(rng.choice(["0", "1", "2", "10"])))))),
        (1.0, lambda d: call(rng.choice(["floor", "ceil", "abs"]), e("num", d))),
        (1.5, lambda d: call(rng.choice(["int", "num"]), e(rng.choice(["str", "str", "num", "any"]), d), *some(small))),
        (0.5, lambda d: Call("clamp", (e("num", d), small(), small()))),
        (0.3, lambda d: Call("pct", (e("num", d), e("num", d)))),
        (1.0, lambda d: Call(rng.choice(["diffMinutes", "diffDays"]), (date(d), date(d)))),
        (0.6, lambda d: Call("weekday", (date(d),))),
        (1.0, lambda d: call("at", e("list:num", d), small())),
        (0.6, lambda d: call(rng.choice(["last", "first"]), e("list:num", d))),
        (0.5, lambda d: Index(Name("xs"), e("num", d))),
    ]
    text: list[tuple[float, Production]] = [
        (2.0, lambda d: call("slice", e("str", d), *some(small, small))),
        (1.0, lambda d: call("substring", e("str", d), small(), *some(small))),
        (1.0, lambda d: call(rng.choice(["charAt", "at"]), e("str", d), small())),
        (1.0, lambda d: call(rng.choice(["padStart", "padEnd"]), e("str", d), small(), *some(lambda: e("str", d)))),
        (0.5, lambda d: call("repeat", e("str", d), small())),
        (
            1.5,
            lambda d: call(
                rng.choice(["trim", "trimStart", "trimEnd", "lower", "upper", "toLowerCase", "toUpperCase"]),
                e("str", d),
            ),
        ),
        (
            1.5,
            lambda d: call(
                rng.choice(["replace", "replaceAll"]),
                e("str", d),
                regex_or_text(d),
                lit(pools.REPLACEMENTS) if rng.random() < 0.7 else g.arrow(["str"], "str", d),
            ),
        ),
        (0.5, lambda d: call("concat", e("str", d), *[e("str", d) for _ in range(rng.randint(0, 2))])),
        (
            1.0,
            lambda d: call(
                "join",
                e(rng.choice(["list:num", "list:str", "list:any"]), d),
                *some(lambda: lit(["','", "'-'", "''", "' | '"])),
            ),
        ),
        (1.5, lambda d: Call(rng.choice(["str", "stringify"]), (e("any", d),))),
        (0.5, lambda d: Call("stringify", (e("any", d), small()))),
        (1.0, lambda d: call("toFixed", e("num", d), *some(lambda: Num(rng.choice(["0", "1", "2", "20"]))))),
        (1.0, lambda d: Call("formatDate", (date(d), lit(pools.DATE_FORMATS)))),
        (0.8, lambda d: Call("date", (date(d),))),
        (0.4, lambda d: Call("date", tuple(Str(x) for x in rng.choice(pools.DATE_READS)))),
        (1.0, lambda d: Call(rng.choice(["addDays", "addHours", "addMinutes"]), (date(d), small()))),
        (0.4, lambda d: Call(rng.choice(["startOfDay", "date"]), (date(d),))),
        (0.2, lambda d: Call("today", ())),
        (1.0, lambda d: Call("url", (url(d), *some(lambda: lit(pools.URL_RELATIVES))))),
        (0.8, lambda d: Call("query", (e("obj", d),))),
        (1.0, lambda d: call(rng.choice(["encodeURIComponent", "decodeURIComponent"]), e("str", d))),
        (0.5, lambda d: Call("type", (e("any", d),))),
        (0.3, lambda d: Call("coalesce", (Name("nil"), e("str", d)))),
        (0.6, lambda d: Member(Call("parseUrl", (url(d),)), rng.choice(["host", "path", "scheme", "hash"]))),
        (0.4, lambda d: Index(Call("match", (e("str", d), pattern(d))), Num("0"), True)),
    ]
    boolean: list[tuple[float, Production]] = [
        (1.5, lambda d: call(rng.choice(["includes", "startsWith", "endsWith"]), e("str", d), e("str", d))),
        (0.6, lambda d: call("includes", e("list:num", d), e("num", d))),
        (1.0, lambda d: Call("test", (e("str", d), pattern(d)))),
        (1.0, lambda d: call(rng.choice(["some", "every"]), e("list:num", d), fn("num", "bool", d))),
        (
            0.5,
            lambda d: Call(
                "has", (e(rng.choice(["obj", "list:num"]), d), lit(FIELDS) if rng.random() < 0.7 else small())
            ),
        ),
        (0.5, lambda d: Call("equals", (e("any", d), e("any", d)))),
        (0.5, lambda d: Call("isNumber", (e("any", d),))),
    ]
    nums: list[tuple[float, Production]] = [
        (
            2.0,
            lambda d: call(
                "map",
                e(rng.choice(["list:num", "list:str", "list:row"]), d),
                fn(rng.choice(["num", "str", "row"]), "num", d),
            ),
        ),
        (1.5, lambda d: call("filter", e("list:num", d), fn("num", "bool", d))),
        (1.0, lambda d: call("slice", e("list:num", d), *some(small, small))),
        (
            0.5,
            lambda d: call(
                "concat", e("list:num", d), *[e(rng.choice(["num", "list:num"]), d) for _ in range(rng.randint(0, 2))]
            ),
        ),
        (0.8, lambda d: call(rng.choice(["reverse", "uniq", "compact"]), e("list:num", d))),
        (0.6, lambda d: Call(rng.choice(["take", "drop"]), (e("list:num", d), small()))),
        (1.0, lambda d: Call("range", (small(), *some(small, small)))),
        (1.0, lambda d: Call("sortBy", (e("list:num", d), g.key("num", d), *some(lambda: lit(["'desc'", "'asc'"]))))),
        (0.4, lambda d: call("flat", e("list:pair", d), *some(small))),
        (0.4, lambda d: call("flatMap", e("list:num", d), fn("num", rng.choice(["list:num", "num"]), d))),
        (0.4, lambda d: MCall(Call("matchAll", (e("str", d), pattern(d))), "map", (g.arrow(["list:any"], "any", d),))),
    ]
    texts: list[tuple[float, Production]] = [
        (1.0, lambda d: Call("keys", (e("obj", d),))),
        (1.0, lambda d: call("map", e("list:str", d), fn("str", "str", d))),
        (1.5, lambda d: call("split", e("str", d), *some(lambda: regex_or_text(d), small))),
        (0.8, lambda d: Call("sortBy", (e("list:str", d), g.key("str", d), *some(lambda: lit(["'desc'"]))))),
        (0.6, lambda d: call("filter", e("list:str", d), fn("str", "bool", d))),
        (0.4, lambda d: call("match", e("str", d), pattern(d), method=False)),
        (0.3, lambda d: Arr((Spread(e("str", d)),))),
    ]
    rows: list[tuple[float, Production]] = [
        (1.0, lambda d: call("filter", e("list:row", d), fn("row", "bool", d))),
        (1.0, lambda d: Call("sortBy", (e("list:row", d), g.key("row", d), *some(lambda: lit(["'desc'"]))))),
        (0.6, lambda d: Call("uniqBy", (e("list:row", d), g.key("row", d)))),
        (0.4, lambda d: call(rng.choice(["slice", "reverse"]), e("list:row", d))),
    ]
    pairs: list[tuple[float, Production]] = [
        (1.0, lambda d: Call("entries", (e("obj", d),))),
        (
            0.6,
            lambda d: Call(
                "zip", tuple(e(rng.choice(["list:num", "list:str"]), d) for _ in range(rng.choice([0, 1, 2, 2, 3])))
            ),
        ),
        (0.6, lambda d: Call("chunk", (e("list:num", d), small()))),
    ]
    anys: list[tuple[float, Production]] = [
        (1.0, lambda d: Call("values", (e("obj", d),))),
        (0.5, lambda d: call("flat", e("list:any", d), *some(small))),
        (0.5, lambda d: Call("uniq", (e("list:any", d),))),
        (
            1.0,
            lambda d: Call(
                "get",
                (
                    e(rng.choice(["any", "obj"]), d),
                    lit(GET_PATHS) if rng.random() < 0.8 else Arr((lit(["'a'", "'b'"]), Num("0"))),
                    *some(lambda: e("any", d)),
                ),
            ),
        ),
        (0.4, lambda d: Call("coalesce", tuple(e(rng.choice(["null", "any"]), d) for _ in range(rng.randint(0, 3))))),
        (0.4, lambda d: call("find", e("list:num", d), fn("num", "bool", d))),
        (0.3, lambda d: call("first", e("list:any", d))),
        (0.8, lambda d: Call("json", (lit(JSON_TEXTS) if rng.random() < 0.6 else Call("stringify", (e("any", d),)),))),
        (0.1, lambda d: Call("error", (lit(["'boom'", "'教室数据格式变了'"]),))),
        (0.1, lambda d: Global(rng.choice(["Math.max(1, 2)", "JSON.stringify([1])", "Number('5')"]))),
        (
            0.3,
            lambda d: MCall(
                e(rng.choice(["list:num", "str"]), d),
                rng.choice(["sort", "push", "toString"]),
                (small(),) if rng.random() < 0.3 else (),
            ),
        ),
        (0.3, lambda d: MCall(e("obj", d), rng.choice(["f", "keys", "a"]), (), rng.random() < 0.5, True)),
    ]
    objs: list[tuple[float, Production]] = [
        (
            2.0,
            lambda d: Call(
                rng.choice(["groupBy", "countBy"]),
                (e(rng.choice(["list:num", "list:str", "list:row"]), d), g.key(rng.choice(["num", "str", "row"]), d)),
            ),
        ),
        (0.8, lambda d: Call("keyBy", (e("list:row", d), g.key("row", d)))),
        (
            1.0,
            lambda d: Call(
                "merge",
                tuple(e(rng.choice(["obj", "obj", "row", "null"]), d) for _ in range(rng.choice([0, 1, 2, 2, 3]))),
            ),
        ),
        (
            1.0,
            lambda d: Call(
                rng.choice(["pick", "omit"]), (e("obj", d), Arr(tuple(lit(FIELDS) for _ in range(rng.randint(0, 3)))))
            ),
        ),
        (0.8, lambda d: Call("fromEntries", (e("list:pair", d),))),
        (0.6, lambda d: Call("json", (lit(JSON_TEXTS),))),
        (0.4, lambda d: Call("parseUrl", (url(d),))),
        (0.4, lambda d: Member(Call("parseUrl", (url(d),)), "query")),
    ]
    row: list[tuple[float, Production]] = [
        (1.0, lambda d: Index(e("list:row", d), small())),
        (0.5, lambda d: call("find", e("list:row", d), fn("row", "bool", d))),
        (0.3, lambda d: Call("last", (e("list:row", d),))),
    ]
    return {
        "num": num,
        "str": text,
        "bool": boolean,
        "list:num": nums,
        "list:str": texts,
        "list:row": rows,
        "list:pair": pairs,
        "list:any": anys + pairs,
        "obj": objs,
        "row": row,
        "any": anys,
        "null": [(1.0, lambda d: Const("null"))],
    }
