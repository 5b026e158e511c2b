"""read_form: one reading of a rendered form for both the submit check and the copy into the screen's state."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Select, Switch

from widgets_render.form_values import number_or_text, read_form


def field(widget: Input | Select[str] | Switch, *, required: bool = False) -> Input | Select[str] | Switch:
    widget.add_class("gen-input")
    if required:
        widget.add_class("-required")
    return widget


class Form(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical(id="form"):
            yield field(Input("  ", name="code"), required=True)  # spaces only: empty
            yield field(Input(" 42 ", name="count", type="number"))
            yield field(Input("1.5", name="ratio", type="number"))
            yield field(Input(" 二教 ", name="building"), required=True)
            yield field(Select([("A", "a")], name="method"), required=True)  # nothing chosen
            yield field(Select([("B", "b")], name="day", value="b"))
            yield field(Input("", name="note"))  # optional and empty
            yield field(Switch(False, name="notify"))
            yield Input("x", name="unmarked")  # not a form field: not read


async def test_a_form_reads_given_values_empty_fields_and_required_ones_missing() -> None:
    app = Form()
    async with app.run_test():
        form = read_form(app.query_one("#form"))
    assert form.given == {"count": 42, "ratio": 1.5, "building": "二教", "day": "b", "notify": False}
    assert form.empty == {"code", "method", "note"}
    assert form.missing == {"code", "method"}  # the optional empty note blocks nothing


def test_number_text_becomes_a_number_and_other_text_stays_for_the_tools_check() -> None:
    assert number_or_text("3") == 3 and isinstance(number_or_text("3.0"), int)
    assert number_or_text("2.5") == 2.5
    assert number_or_text("3 楼") == "3 楼"
