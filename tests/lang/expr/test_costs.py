"""Cost monotonicity (threats.md §4): for every library function, a bigger input never costs less.

Each function has a pair: the same expression over a small and a big value of `v`. Where the work grows
with the input, the big one must cost strictly more (the function charges for what it reads or builds);
where the work is fixed by design (a number, one index), it must cost at least as much. A new function
without a pair fails `test_every_function_has_a_pair`.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from tui.lang.expr import FUNCTIONS, LangError, Run, compile_expression, from_json
from tui.lang.expr.stdlib.html import parse_html

from .helpers import NOW

N = 10_000
PAD = " " * 5_000


def _doc(n: int) -> Any:
    return parse_html(None, "<div>" + "<p><a x=1 href=/a>t</a></p>" * n + "</div>")


def _element(n: int) -> Any:
    return parse_html(None, "<a " + " ".join(f"a{i}=1" for i in range(n)) + " x=1>t</a>").node.css_first("a")


def _node(n: int) -> Any:
    doc = _doc(n)
    return type(doc)(doc.node.css_first("div"))


def _table(n: int) -> str:
    return "<table>" + "<tr><td>a</td><td>b</td></tr>" * n + "</table>"


#: name → (expression over `v`, small v, big v, strictly more for the big one)
PAIRS: dict[str, tuple[str, Any, Any, bool]] = {
    "abs": ("abs(v)", 1, 1e300, False),
    "addDays": ("addDays(v, 1)", "2026-11-30", PAD + "2026-11-30", True),
    "addHours": ("addHours(v, 1)", "2026-11-30", PAD + "2026-11-30", True),
    "addMinutes": ("addMinutes(v, 1)", "2026-11-30", PAD + "2026-11-30", True),
    "at": ("at(v, -1)", list(range(10)), list(range(N)), False),
    "attr": ("attr(v, 'x')", "small-element", "big-element", True),
    "avg": ("avg(v)", list(range(10)), list(range(N)), True),
    "ceil": ("ceil(v)", 1.5, 1e300, False),
    "charAt": ("charAt(v, 1)", "ab", "a" * N, False),
    "chunk": ("chunk(v, 2)", list(range(10)), list(range(N)), True),
    "clamp": ("clamp(v, 0, 10)", 1, 1e300, False),
    "coalesce": ("coalesce(...v, 1)", [None] * 10, [None] * N, True),
    "compact": ("compact(v)", list(range(10)), list(range(N)), True),
    "concat": ("v.concat(v)", list(range(10)), list(range(N)), True),
    "countBy": ("countBy(v, x => x % 3)", list(range(10)), list(range(N)), True),
    "date": ("date(v)", "2026-11-30", PAD + "2026-11-30", True),
    "decodeURIComponent": ("decodeURIComponent(v)", "%41", "%41" * N, True),
    "diffDays": ("diffDays(v, v)", "2026-11-30", PAD + "2026-11-30", True),
    "diffMinutes": ("diffMinutes(v, v)", "2026-11-30", PAD + "2026-11-30", True),
    "drop": ("drop(v, 1)", list(range(10)), list(range(N)), True),
    "encodeURIComponent": ("encodeURIComponent(v)", "二", "二" * N, True),
    "endsWith": ("endsWith(v, v)", "ab", "a" * N, True),
    "entries": ("entries(v)", {f"k{i}": i for i in range(10)}, {f"k{i}": i for i in range(N)}, True),
    "equals": ("equals(v, v)", list(range(10)), list(range(N)), True),
    "error": ("error(v)", "x", "x" * N, False),
    "every": ("every(v, x => x >= 0)", list(range(10)), list(range(N)), True),
    "filter": ("filter(v, x => x > 1)", list(range(10)), list(range(N)), True),
    "find": ("find(v, x => x < 0)", list(range(10)), list(range(N)), True),
    "findIndex": ("findIndex(v, x => x < 0)", list(range(10)), list(range(N)), True),
    "first": ("first(v, 'b')", "small-doc", "big-doc", True),
    "flat": ("flat(v)", [[1, 2]] * 10, [[1, 2]] * N, True),
    "flatMap": ("flatMap(v, x => [x, x])", list(range(10)), list(range(N)), True),
    "floor": ("floor(v)", 1.5, 1e300, False),
    "formatDate": ("formatDate(now, v)", "YYYY", "YYYY-MM-DD " * N, True),
    "fromEntries": ("fromEntries(v)", [["a", 1]] * 10, [["a", 1]] * N, True),
    "get": ("get({}, v)", "a.b", "." * N, True),
    "groupBy": ("groupBy(v, x => x % 3)", list(range(10)), list(range(N)), True),
    "has": ("has(v, 'k1')", {f"k{i}": i for i in range(10)}, {f"k{i}": i for i in range(N)}, False),
    "html": ("html(v)", "<p>x</p>", "<p>x</p>" * N, True),
    "htmlText": ("htmlText(v)", "small-node", "big-node", True),
    "includes": ("includes(v, -1)", list(range(10)), list(range(N)), True),
    "indexOf": ("indexOf(v, -1)", list(range(10)), list(range(N)), True),
    "int": ("int(v)", "12", PAD + "12", True),
    "isNumber": ("isNumber(v)", 1, 1e300, False),
    "join": ("join(v)", [[1, 2]] * 10, [[1, 2]] * N, True),
    "json": ("json(v)", "[1]", "[" + "1," * N + "1]", True),
    "keyBy": ("keyBy(v, x => x)", list(range(10)), list(range(N)), True),
    "keys": ("keys(v)", {f"k{i}": i for i in range(10)}, {f"k{i}": i for i in range(N)}, True),
    "last": ("last(v)", list(range(10)), list(range(N)), False),
    "lastIndexOf": ("lastIndexOf(v, -1)", list(range(10)), list(range(N)), True),
    "len": ("len(v)", list(range(10)), list(range(N)), False),
    "lower": ("lower(v)", "AB", "A" * N, True),
    "map": ("map(v, x => x)", list(range(10)), list(range(N)), True),
    "match": ("match(v, '(a+)b')", "ab", "a" * N + "b", True),
    "matchAll": ("matchAll(v, '(a)')", "a" * 10, "a" * N, True),
    "max": ("max(v)", list(range(10)), list(range(N)), True),
    "merge": ("merge(v, v)", {f"k{i}": i for i in range(10)}, {f"k{i}": i for i in range(N)}, True),
    "min": ("min(v)", list(range(10)), list(range(N)), True),
    "num": ("num(v)", "12", PAD + "12", True),
    "omit": ("omit(v, ['k1'])", {f"k{i}": i for i in range(10)}, {f"k{i}": i for i in range(N)}, True),
    "padEnd": ("padEnd('x', v)", 10, N, True),
    "padStart": ("padStart('x', v)", 10, N, True),
    "parseUrl": ("parseUrl(v)", "https://a.cn/?a=1", "https://a.cn/?" + "a=1&" * N, True),
    "pct": ("pct(v, 4)", 1, 1e300, False),
    "pick": ("pick({ a: 1 }, v)", ["a"] * 10, ["a"] * N, True),
    "query": ("query({ a: v })", ["x"] * 10, ["x"] * N, True),
    "range": ("range(v)", 10, N, True),
    "reduce": ("reduce(v, (a, b) => a, 0)", list(range(10)), list(range(N)), True),
    "regex": ("regex(v)", "a", "a" * 900, True),
    "relTime": ("relTime(v)", "2026-11-30", PAD + "2026-11-30", True),
    "repeat": ("repeat('ab', v)", 10, N, True),
    "replace": ("replace(v, regex('a'), '$&$&')", "a" * 10, "a" * N, True),
    "replaceAll": ("replaceAll(v, 'a', '$`')", "a" * 10, "a" * 1000, True),
    "reverse": ("reverse(v)", list(range(10)), list(range(N)), True),
    "round": ("round(v, 2)", 1.5, 1e300, False),
    "select": ("select(v, 'b')", "small-doc", "big-doc", True),
    "slice": ("slice(v, 1)", "a" * 10, "a" * N, True),
    "some": ("some(v, x => x < 0)", list(range(10)), list(range(N)), True),
    "sortBy": ("sortBy(v, x => -x)", list(range(10)), list(range(N)), True),
    "split": ("split(v, ',')", "a," * 10, "a," * N, True),
    "startOfDay": ("startOfDay(v)", "2026-11-30", PAD + "2026-11-30", True),
    "startsWith": ("startsWith(v, v)", "ab", "a" * N, True),
    "str": ("str(v)", list(range(10)), list(range(N)), True),
    "stringify": ("stringify(v)", list(range(10)), list(range(N)), True),
    "substring": ("substring(v, 1)", "a" * 10, "a" * N, True),
    "sum": ("sum(v)", list(range(10)), list(range(N)), True),
    "tableRows": ("tableRows(v)", _table(2), _table(N), True),
    "take": ("take(v, 1e9)", list(range(10)), list(range(N)), True),
    "test": ("test(v, 'b')", "a" * 10, "a" * N, True),
    "text": ("text(v)", "small-node", "big-node", True),
    "toFixed": ("toFixed(v, 2)", 1.5, 1e20, False),
    "toLowerCase": ("toLowerCase(v)", "AB", "A" * N, True),
    "toUpperCase": ("toUpperCase(v)", "ab", "a" * N, True),
    "today": ("today() + str(v)", 1, 1e300, False),
    "trim": ("trim(v)", " a ", " " * N + "a", True),
    "trimEnd": ("trimEnd(v)", "a ", "a" + " " * N, True),
    "trimStart": ("trimStart(v)", " a", " " * N + "a", True),
    "type": ("type(v)", list(range(10)), list(range(N)), False),
    "uniq": ("uniq(v)", list(range(10)), list(range(N)), True),
    "uniqBy": ("uniqBy(v, x => x)", list(range(10)), list(range(N)), True),
    "upper": ("upper(v)", "ab", "a" * N, True),
    "url": ("url('https://a.cn/', v)", "x", "x" * N, True),
    "values": ("values(v)", {f"k{i}": i for i in range(10)}, {f"k{i}": i for i in range(N)}, True),
    "weekday": ("weekday(v)", "2026-11-30", PAD + "2026-11-30", True),
    "zip": ("zip(v, v)", list(range(10)), list(range(N)), True),
}

#: Stand-ins for values JSON cannot carry: parsed documents and elements, made fresh for each use.
_OPAQUE = {
    "small-doc": lambda: _doc(2),
    "big-doc": lambda: _doc(N),
    "small-node": lambda: _node(2),
    "big-node": lambda: _node(N),
    "small-element": lambda: type(_doc(1))(_element(2)),
    "big-element": lambda: type(_doc(1))(_element(2_000)),
}


def cost(src: str, v: Any) -> int:
    value = _OPAQUE[v]() if isinstance(v, str) and v in _OPAQUE else from_json(v)
    run = Run(NOW, limit=10**9)
    with contextlib.suppress(LangError):  # error() and the like: what it charged before failing counts
        compile_expression(src).evaluate({"v": value}, run)
    return run.used


def test_every_function_has_a_pair() -> None:
    assert set(PAIRS) == set(FUNCTIONS)


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_a_bigger_input_never_costs_less(name: str) -> None:
    src, small, big, strictly = PAIRS[name]
    a, b = cost(src, small), cost(src, big)
    if strictly:
        assert b > a, f"{name}: {src} costs {a} for the small input and {b} for the big one"
    else:
        assert b >= a, f"{name}: {src} costs {a} for the small input and {b} for the big one"
