"""DataTable reads a plain str cell as Rich markup; every table the app fills from plugin data passes literal Text,
so `[/bold]` neither crashes a render nor `[b]…[/b]` turns bold."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from tui.app.widgets.result_view import result_view

MARKUP = "[/bold]坏\x1b[31m"


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield result_view([{"名称": MARKUP, "[b]key[/b]": {"nested": "[i]x"}}])


async def test_a_tool_result_table_shows_markup_literally() -> None:
    app = Host()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        table = app.query_one(DataTable)
        first, second = table.get_row_at(0)
        assert str(first) == "[/bold]坏" and str(second) == "nested: [i]x"
        assert [str(c.label) for c in table.columns.values()] == ["名称", "[b]key[/b]"]
        assert app.is_running  # rendered without a MarkupError
