"""HTML functions on selectolax: select, text, htmlText, attr, tableRows with spans expanded."""

from __future__ import annotations

import time

import pytest

from tui.lang.expr import LangError, LimitError

from .helpers import ev

TABLE = """
<table>
  <thead><tr><th>楼</th><th>时间</th><th colspan="2">状态</th></tr></thead>
  <tbody>
    <tr><td rowspan="2">一教</td><td>8:00</td><td>空</td><td>101</td></tr>
    <tr><td>9:00</td><td colspan="2">占用</td></tr>
    <tr><td>二教</td><td rowspan="0">全天</td><td>空</td><td>203</td></tr>
  </tbody>
</table>
"""


def test_plain_rows_expand_rowspan_and_colspan() -> None:
    assert ev("tableRows(h)", h=TABLE) == [
        ["楼", "时间", "状态", "状态"],
        ["一教", "8:00", "空", "101"],
        ["一教", "9:00", "占用", "占用"],
        ["二教", "全天", "空", "203"],
    ]


def test_header_rows_are_objects_with_unique_keys() -> None:
    assert ev("tableRows(html(h), { header: true })", h=TABLE) == [
        {"楼": "一教", "时间": "8:00", "状态": "空", "状态_2": "101"},
        {"楼": "一教", "时间": "9:00", "状态": "占用", "状态_2": "占用"},
        {"楼": "二教", "时间": "全天", "状态": "空", "状态_2": "203"},
    ]


TWO_ROW_HEADER = """
<table>
  <tr><th rowspan="2">书名</th><th colspan="2">出版</th><th rowspan="2"></th><th>馆藏</th></tr>
  <tr><th>社</th><th>年</th><th>馆藏</th></tr>
  <tr><td>围城</td><td>人民文学</td><td>1991</td><td>借</td><td>3</td></tr>
</table>
"""


def test_header_rows_two_join_each_columns_texts() -> None:
    # A group cell (colspan) heads each column it covers; a cell spanning both rows (rowspan) and a text repeated
    # below count once; a column with no header text is colN.
    assert ev("tableRows(h, { headerRows: 2 })", h=TWO_ROW_HEADER) == [
        {"书名": "围城", "出版 社": "人民文学", "出版 年": "1991", "col4": "借", "馆藏": "3"},
    ]
    assert ev("tableRows(h, { header: true, headerRows: 2 })", h=TWO_ROW_HEADER) == ev(
        "tableRows(h, { headerRows: 2 })", h=TWO_ROW_HEADER
    )


def test_header_true_reads_one_header_row_and_says_so_by_its_keys() -> None:
    # What { header: true } gives on a two-row header: the second header row is the first data row, and a
    # group's columns are told apart by _2 (the documented behaviour headerRows exists for).
    rows = ev("tableRows(h, { header: true })", h=TWO_ROW_HEADER)
    assert rows[0] == {"书名": "书名", "出版": "社", "出版_2": "年", "col4": "", "馆藏": "馆藏"}
    assert rows[1]["出版_2"] == "1991"
    assert ev("tableRows(h, { headerRows: 1 })", h=TWO_ROW_HEADER) == rows


def test_header_rows_beyond_the_table_leave_no_rows() -> None:
    assert ev("tableRows(h, { headerRows: 3 })", h=TWO_ROW_HEADER) == []
    assert ev("tableRows(h, { headerRows: 10 })", h=TWO_ROW_HEADER) == []


@pytest.mark.parametrize("bad", ["0", "1.5", "11", "'2'", "true", "-1"])
def test_header_rows_must_be_a_small_whole_number(bad: str) -> None:
    with pytest.raises(LangError, match="headerRows must be a whole number from 1 to 10"):
        ev(f"tableRows(h, {{ headerRows: {bad} }})", h=TWO_ROW_HEADER)


def test_header_rows_and_cells_do_not_mix() -> None:
    with pytest.raises(LangError, match="choose one"):
        ev("tableRows(h, { headerRows: 2, cells: true })", h=TWO_ROW_HEADER)


def test_cells_grid_gives_one_id_per_merged_cell() -> None:
    grid = ev("tableRows(h, { cells: true })", h=TABLE)
    assert len(grid) == 4 and all(len(row) == 4 for row in grid)
    first_col = [row[0] for row in grid]
    assert first_col[1]["id"] == first_col[2]["id"]  # 一教 spans two rows
    assert first_col[1] | {"row": 1, "col": 0} == first_col[1]
    assert first_col[1]["rowspan"] == 2 and first_col[1]["colspan"] == 1
    assert grid[2][2]["id"] == grid[2][3]["id"] and grid[2][2]["colspan"] == 2
    assert grid[3][1]["text"] == "全天" and grid[3][1]["rowspan"] == 1  # rowspan=0 runs to the table's end
    assert len({c["id"] for row in grid for c in row}) == 4 + 4 + 2 + 3


def test_nested_tables_and_missing_tables() -> None:
    h = "<table><tr><td>a<table><tr><td>inner</td></tr></table></td><td>b</td></tr></table>"
    assert ev("tableRows(h)", h=h) == [["ainner", "b"]]  # a cell's textContent, as the browser gives it
    assert ev("tableRows('<p>no table</p>')") == []


def test_huge_spans_are_a_limit_not_a_hang() -> None:
    h = '<table><tr><td rowspan="65534" colspan="1000">x</td></tr>' + "<tr></tr>" * 2000 + "</table>"
    t0 = time.process_time()
    with pytest.raises(LimitError, match="more than 100,000 cells"):
        ev("tableRows(h)", h=h)
    assert time.process_time() - t0 < 1


def test_options_are_checked() -> None:
    with pytest.raises(LangError, match="unknown option 'headers'"):
        ev("tableRows(h, { headers: true })", h=TABLE)
    with pytest.raises(LangError, match="choose one"):
        ev("tableRows(h, { header: true, cells: true })", h=TABLE)


def test_select_first_text_attr() -> None:
    page = '<div class="n"><a href="/a?id=1"> 通知 一 </a></div><div class="n"><a href="https://x.pku.edu.cn/b">二</a></div>'
    assert ev("select(html(p), '.n a').map(a => attr(a, 'href'))", p=page) == ["/a?id=1", "https://x.pku.edu.cn/b"]
    assert ev("text(first(html(p), 'a'))", p=page) == "通知 一"
    assert ev("first(html(p), '.missing')", p=page) is None
    assert ev("text(first(html(p), '.missing'))", p=page) is None
    assert ev("attr(first(html(p), 'a'), 'title')", p=page) is None
    assert ev("html(p).select('a').length", p=page) == 2
    with pytest.raises(LangError, match="invalid CSS selector"):
        ev("select(html(p), 'a[')", p=page)


def test_html_text_is_block_aware() -> None:
    assert ev(
        "htmlText(h)", h="<div><h1>标题</h1><p>第一段 <b>粗</b></p><ul><li>a</li><li>b</li></ul>x<br>y</div>"
    ) == ("标题\n第一段 粗\na\nb\nx\ny")
    assert ev("htmlText(h)", h="<p>a<script>alert(1)</script><style>p{}</style></p>") == "a"
    assert ev("htmlText(h)", h="<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>") == "a b\nc"


def test_deep_documents_are_walked_without_python_recursion() -> None:
    deep = "<div>" * 1020 + "x" + "</div>" * 1020 + "<span>" * 1020 + "y" + "</span>" * 1020
    t0 = time.process_time()
    assert ev("htmlText(d)", d=deep) == "x\ny"
    assert ev("text(first(html(d), 'div'))", d=deep) == "x"
    assert time.process_time() - t0 < 1


@pytest.mark.parametrize(
    "deep",
    [
        "<div>" * 100_000 + "x" + "</div>" * 100_000,
        "<div>" * 20_000,
        "<div/>" * 20_000,  # HTML5 ignores the slash: these nest
        "</div>" * 20_000 + "<div>" * 20_000,  # stray end tags first cannot hide the nesting
        "<DIV>" * 20_000,
    ],
)
def test_deeply_nested_blocks_are_refused_before_parsing(deep: str) -> None:
    # Lexbor is quadratic on nested blocks (100,000 divs: 21 s); the pre-scan refuses them in milliseconds.
    t0 = time.process_time()
    with pytest.raises(LimitError, match="HTML nested .* levels deep; the limit is 1,024"):
        ev("html(d)", d=deep)
    assert time.process_time() - t0 < 0.5


def test_unclosed_paragraphs_and_list_items_do_not_count_as_depth() -> None:
    page = "<ul>" + "<li><p>item" * 5000 + "</ul>"
    assert ev("select(html(d), 'li').length", d=page) == 5000
