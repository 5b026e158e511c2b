"""Dates in Beijing time and the URL helpers."""

from __future__ import annotations

import pytest

from tui.lang.expr import EvalError

from .helpers import ev


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("date('2026-11-30T09:00:00Z')", "2026-11-30T17:00:00+08:00"),
        ("date('2026-11-30T17:05:00+08:00')", "2026-11-30T17:05:00+08:00"),
        ("date('2026-11-30T12:00:00-05:00')", "2026-12-01T01:00:00+08:00"),
        ("date('2026-11-30')", "2026-11-30T00:00:00+08:00"),
        ("date('2026/1/5 8:30')", "2026-01-05T08:30:00+08:00"),
        ("date('12月2日')", "2026-12-02T00:00:00+08:00"),
        ("date('2027年1月2日')", "2027-01-02T00:00:00+08:00"),
        ("date('18:30')", "2026-11-30T18:30:00+08:00"),
        ("date(1796029500000)", "2026-11-30T17:05:00+08:00"),
        ("date('2026-11-30T08:00:00.250+08:00')", "2026-11-30T08:00:00.250+08:00"),
        ("today()", "2026-11-30"),
        ("now", "2026-11-30T17:05:00+08:00"),
        ("weekday(now)", 1),
        ("weekday('2026-12-06')", 7),
        ("formatDate(now, 'YYYY年M月D日 HH:mm dddd')", "2026年11月30日 17:05 星期一"),
        ("formatDate(now, '[YYYY] ddd')", "YYYY 周一"),
        ("addDays(now, -1)", "2026-11-29T17:05:00+08:00"),
        ("addHours('2026-12-31 23:00', 1)", "2027-01-01T00:00:00+08:00"),
        ("diffMinutes(now, '2026-11-30 18:00')", -55),
        ("diffDays('2026-12-25', now)", 25),
        ("startOfDay(now)", "2026-11-30T00:00:00+08:00"),
        ("relTime(now)", "刚刚"),
        ("relTime(addHours(now, -5))", "5 小时前"),
        ("relTime(addMinutes(now, 30))", "30 分钟后"),
        ("date('11/30/2026', 'MM/DD/YYYY')", "2026-11-30T00:00:00+08:00"),
    ],
)
def test_dates(src: str, want: object) -> None:
    assert ev(src) == want


def test_rel_time_speaks_the_app_language() -> None:
    assert ev("relTime(addMinutes(now, -3))", locale="en") == "3 min ago"
    assert ev("relTime(addDays(now, -1))", locale="en") == "1 day ago"
    assert ev("relTime(addDays(now, 2))", locale="en") == "in 2 days"
    assert ev("formatDate(now, 'dddd')", locale="en") == "Monday"


@pytest.mark.parametrize(
    "src",
    [
        "date('2026-13-01')",
        "date(null)",
        "date('tomorrow')",
        "addDays(now, 1e12)",
        "date(1e20)",
        "date('2026-11-30', 'YYYY/MM/DD')",
    ],
)
def test_bad_dates_are_clear_errors(src: str) -> None:
    with pytest.raises(EvalError, match="date|range"):
        ev(src)


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("url('https://a.pku.edu.cn/x/y.html', 'z.html')", "https://a.pku.edu.cn/x/z.html"),
        ("url('https://a.pku.edu.cn/x/', '/root?q=1#h')", "https://a.pku.edu.cn/root?q=1#h"),
        ("url('https://a.pku.edu.cn/x/', 'https://b.pku.edu.cn/')", "https://b.pku.edu.cn/"),
        ("query({ q: 'a b&c', n: 1.5, t: true })", "q=a%20b%26c&n=1.5&t=true"),
        ("query({})", ""),
        ('encodeURIComponent("a/b?c=d e\'*")', "a%2Fb%3Fc%3Dd%20e'*"),
        ("decodeURIComponent('a%20b%2B')", "a b+"),
        (
            "parseUrl('https://h.pku.edu.cn:8443/p/q?x=1&x=2#f')",
            {"scheme": "https", "host": "h.pku.edu.cn", "path": "/p/q", "query": {"x": "2"}, "hash": "f"},
        ),
    ],
)
def test_urls(src: str, want: object) -> None:
    assert ev(src) == want


def test_url_resolves_against_a_page_node() -> None:
    # A node from `as: html` remembers its URL; here one is made by the library with no URL, so '' is the base.
    from tui.lang.expr import Run, compile_expression
    from tui.lang.expr.stdlib.html import parse_html

    page = parse_html(None, "<a href='../n/1.html'>x</a>", "https://www.pku.edu.cn/a/b/index.html")
    out = compile_expression("url(page, attr(first(page, 'a'), 'href'))").evaluate({"page": page}, Run("2026-11-30"))
    assert out == "https://www.pku.edu.cn/a/n/1.html"
