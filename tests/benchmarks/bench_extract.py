"""The extract step against a hand-written selectolax loop doing the same work, measured in the same run.

Page: ~2 MB, 20,000 table rows, three fields (text, attribute + URL, number). Target: within 1.5x.
Run: `python tests/benchmarks/bench_extract.py`.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser

from tui.lang.documents.tool import Extract
from tui.lang.expr import Run
from tui.lang.expr.stdlib.html import html_depth, parse_html
from tui.lang.expr.stdlib.numbers import parse_number
from tui.lang.steps.extract import run_extract

BASE = "https://news.example.edu.cn/list/"


def make_page(rows: int = 20_000) -> str:
    """About 2 MB: 20,000 rows of a title, a link and a view count."""
    body = "".join(
        f"<tr><td class=t>通知 {i}</td><td><a href=/n/{i}>详</a></td><td class=v>{i * 7 % 5000:,} 次</td></tr>"
        for i in range(rows)
    )
    return f"<html><body><table>{body}</table></body></html>"


def best(fn: Callable[[], Any], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def paired(a: Callable[[], Any], b: Callable[[], Any], rounds: int = 9) -> tuple[float, float]:
    """Median times of a and b, measured alternately so both see the same machine load."""
    ta, tb = [], []
    for _ in range(rounds):
        for fn, out in ((a, ta), (b, tb)):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
    return statistics.median(ta), statistics.median(tb)


def hand_written(root: Any) -> list[dict[str, Any]]:
    out = []
    for tr in root.css("tr"):
        t = tr.css_first(".t")
        a = tr.css_first("a")
        v = tr.css_first(".v")
        href = a.attributes.get("href") if a is not None else None
        out.append(
            {
                "title": " ".join((t.text() or "").split()) if t is not None else None,
                "link": urljoin(BASE, href.strip()) if href is not None else None,
                "views": parse_number(" ".join((v.text() or "").split())) if v is not None else None,
            }
        )
    return out


SPEC = Extract.model_validate(
    {
        "from": "page",
        "each": "tr",
        "fields": {"title": ".t | text", "link": "a | attr href | url", "views": ".v | num"},
    }
)


def main() -> None:
    page = make_page()
    print(f"page: {len(page.encode()) / 1e6:.2f} MB, 20,000 rows, 3 fields")
    root = LexborHTMLParser(page).root
    node = parse_html(None, page, BASE)

    def ours() -> list[dict[str, Any]]:
        return run_extract(SPEC, node, None, Run("2026-11-30T09:00:00+08:00", limit=10**9))

    assert ours() == hand_written(root)
    native, engine = paired(lambda: hand_written(root), ours)
    print(
        f"extract only: selectolax loop {native * 1e3:.0f} ms, extract step {engine * 1e3:.0f} ms, "
        f"ratio {engine / native:.2f}x (target ≤ 1.5x)"
    )
    parse_native = best(lambda: LexborHTMLParser(page))
    parse_ours = best(lambda: parse_html(None, page, BASE))
    scan = best(lambda: html_depth(page))
    print(
        f"parse: selectolax {parse_native * 1e3:.0f} ms, parse_html {parse_ours * 1e3:.0f} ms "
        f"(of which the depth pre-scan {scan * 1e3:.0f} ms)"
    )
    total_native = parse_native + native
    total_ours = parse_ours + engine
    ratio = total_ours / total_native
    print(f"parse + extract: {total_native * 1e3:.0f} ms vs {total_ours * 1e3:.0f} ms, ratio {ratio:.2f}x")


def test_report() -> None:
    main()


if __name__ == "__main__":
    main()
