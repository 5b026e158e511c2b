"""Expressions that build much more than they are given (issue 15, item 18; threats.md "Peak memory per run").

Within the stated limits, each of these allocated gigabytes or ran for minutes, because a library function
built its output first and charged for it afterwards. Every function now measures (or bounds) what it will
build, or the work it will do, and charges or refuses before doing it. Each case runs in a subprocess under
a 512 MB address-space cap, as a tool run would (the result leaves through to_json), and must end within
2 s, with a peak resident size under 256 MB, with the language's own error.

The cases run in one helper process that forks a fresh child per case, so the interpreter is imported once
and each child's peak (ru_maxrss) is its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

CAP = 512 << 20
MAX_SECONDS = 2.0
MAX_PEAK_MB = 256

BIG = "x" * 1_000_000
MARKUP = "<div>" + "<b></b>" * 100_000 + "</div>"

#: (name, expression, context, kind of the expected error). `template: ` marks a template, not an expression.
CASES: list[tuple[str, str, dict[str, Any], str]] = [
    # The five of the issue.
    ("prefix replacement $`", "'a'.repeat(60000).replaceAll('a', '$`')", {}, "limit"),
    ("match replacement $& (regex)", "'a'.repeat(500000).replace(regex('a+'), '$&'.repeat(3000))", {}, "limit"),
    ("nested join", "range(1000).map(i => l).join()", {"l": ["x" * 9] * 100_000}, "limit"),
    ("matchAll with 330 groups", "matchAll('a'.repeat(100000), '()'.repeat(330))", {}, "limit"),
    (
        "to_json paths of a deep result",
        "range(60).reduce((a, i) => ({ [k]: a }), x => x)",
        {"k": "k" * 200_000},
        "expression",
    ),
    # More of the same class: replacement patterns.
    ("suffix replacement $'", "'a'.repeat(60000).replaceAll('a', \"$'\")", {}, "limit"),
    (
        "match replacement $& (text)",
        "t.replaceAll(p, '$&'.repeat(3000))",
        {"t": ("b" + "a" * 999) * 500, "p": "a" * 999},
        "limit",
    ),
    ("group replacement $1", "'a'.repeat(500000).replace(regex('(a+)'), '$1'.repeat(3000))", {}, "limit"),
    # Groups × matches, and the work of nested groups.
    (
        "match with 300 nested groups",
        "match('a'.repeat(1000000), '('.repeat(300) + 'a*' + ')'.repeat(300))",
        {},
        "limit",
    ),
    ("split with 300 groups", "split('a'.repeat(100000), regex('()'.repeat(300)))", {}, "limit"),
    # Values leaving the interpreter: a list that holds itself twice, 25 levels deep (33 million values).
    ("to_json of a shared deep value", "range(25).reduce((a, i) => [a, a], [1])", {}, "limit"),
    # Spreads and templates.
    ("array spread of a text", "[" + "...s, " * 100 + "].length", {"s": BIG}, "limit"),
    ("object spread of a text", "range(10).map(i => ({ ...s })).length", {"s": BIG}, "limit"),
    ("call spread", "coalesce(" + "...l, " * 1000 + ")", {"l": [None] * 100_000}, "limit"),
    ("merge of a spread", "range(20000).map(i => merge(...l)).length", {"l": [{"a": 1}] * 5000}, "limit"),
    ("template of lists", "template: " + "${l}" * 500, {"l": ["x" * 9] * 80_000}, "limit"),
    # Text functions that copy or scan without charging.
    ("query of a repeated value", "query({ a: range(10000).map(i => s) }).length", {"s": "二" * 100_000}, "limit"),
    ("substring copies", "range(20000).map(i => s.substring(1)).length", {"s": BIG}, "limit"),
    ("trim scans", "range(30000).map(i => trim(s)).length", {"s": " " * 1_000_000 + "x"}, "limit"),
    ("date scans", "range(3000).map(i => date(s)).length", {"s": " " * 1_000_000 + "2026-11-30"}, "limit"),
    ("formatDate tokens", "range(30000).map(i => formatDate(now, f)).length", {"f": "D" * 500_000}, "limit"),
    ("decodeURIComponent", "range(30000).map(i => decodeURIComponent(s)).length", {"s": "%41" * 300_000}, "limit"),
    ("parseUrl", "range(30000).map(i => parseUrl(u).host).length", {"u": "https://a.cn/?" + "a=1&" * 250_000}, "limit"),
    ("case mapping past the string cap", "'ﬃ'.repeat(400000).upper()", {}, "limit"),
    (
        "omit of many keys",
        "range(20000).map(i => omit(o, ks)).length",
        {"o": {"a": 1}, "ks": [f"k{i}" for i in range(100_000)]},
        "limit",
    ),
    # HTML: the work of a query grows with the subtree, whatever it finds.
    ("select that finds nothing", "[html(h)].map(d => range(5000).map(i => select(d, 'p')))", {"h": MARKUP}, "limit"),
    ("text of markup", "[html(h)].map(d => range(30000).map(i => text(d)))", {"h": MARKUP}, "limit"),
    ("htmlText of markup", "[html(h)].map(d => range(2000).map(i => htmlText(d)))", {"h": MARKUP}, "limit"),
    (
        "attr of many attributes",
        "[first(html(h), 'a')].map(a => range(5000).map(i => attr(a, 'x')))",
        {"h": "<a " + " ".join(f"a{i}=1" for i in range(3_000)) + ">"},
        "limit",
    ),
    (
        "tableRows padded to one wide cell",
        "tableRows(h).length",
        {"h": "<table><tr><td colspan=1000>x</td></tr>" + "<tr><td>y</td></tr>" * 65_000 + "</table>"},
        "limit",
    ),
]

CHILD = r"""
import json, os, resource, sys, time
from tui.lang.expr import LangError, Run, compile_expression, from_json, render, to_json

cap = int(sys.argv[1])
cases = json.loads(sys.stdin.read())
results = []
for src, context in cases:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        resource.setrlimit(resource.RLIMIT_CPU, (10, 10))  # a runaway case is killed, not waited for
        out = {}
        t0 = time.process_time()  # CPU time: a busy machine (CI beside other jobs) does not inflate it
        try:
            ctx = from_json(context)
            run = Run("2026-11-30T17:05:00+08:00")
            if src.startswith("template: "):
                value = render(src[len("template: "):], ctx, run)
            else:
                value = compile_expression(src).evaluate(ctx, run)
            to_json(value, "result")
            out["value"] = "a value"
        except LangError as e:
            out["error"] = type(e).__name__
            out["kind"] = e.kind
            out["message"] = e.msg[:20000]
        except MemoryError:
            out["error"] = "MemoryError"
        out["seconds"] = time.process_time() - t0
        out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        os.write(w, json.dumps(out).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    os.close(r)
    _, status = os.waitpid(pid, 0)
    results.append(json.loads(data) if data else {"error": f"child died, status {status}"})
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def outcomes() -> dict[str, dict[str, Any]]:
    """Every case run once, each in its own forked child under the address-space cap."""
    payload = json.dumps([[src, ctx] for _, src, ctx, _ in CASES])
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(CAP)], input=payload, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout)
    return {name: out for (name, *_), out in zip(CASES, results, strict=True)}


@pytest.mark.parametrize(("name", "kind"), [(c[0], c[3]) for c in CASES], ids=[c[0] for c in CASES])
def test_amplifying_expressions_end_fast_small_and_with_the_language_error(
    outcomes: dict[str, dict[str, Any]], name: str, kind: str
) -> None:
    out = outcomes[name]
    assert out.get("kind") == kind, out  # a LangError of that kind, not MemoryError, not a value
    assert out["seconds"] < MAX_SECONDS, out
    assert out["peak_mb"] < MAX_PEAK_MB, out


def test_the_deep_result_names_its_path_without_building_every_path(outcomes: dict[str, dict[str, Any]]) -> None:
    # The path is made once, for the error, with long keys shortened: not one path per node.
    message = outcomes["to_json paths of a deep result"]["message"]
    assert message.startswith('result["kkk') and message.endswith("is a function, which cannot be part of a result")
    assert message.count("…") == 60
