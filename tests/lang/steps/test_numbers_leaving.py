"""Numbers and keys leave a run as JavaScript writes them, wherever they go (issue 20: "numbers in tool results
and JSON request bodies print 9007199254740992.0, 1e+16, 1e-07 where JS prints …"; an outsider's audit found the
request body right but untested, `query:`/`form:` in Python's key order, and `tools call`, the app's result view
and a widget's `${…}` still in Python's number text).

What JavaScript gives is written out in each test (`JSON.stringify`, `String(x)`, `new URLSearchParams(o)`).
"""

from __future__ import annotations

import json
from typing import Any

from tui.lang.steps.interpreter import Interpreter
from widgets_render.js_text import json_text, num_to_str
from widgets_render.resolve import display

from .helpers import NOW, CountingHost, make_plugin, tool

#: The issue's three numbers, then the smallest JavaScript writes without an exponent, and a negative tiny one.
NUMBERS = "[9007199254740992, 1e16, 1e-7, 0.000001, -1.5e-9]"
#: JSON.stringify([9007199254740992, 1e16, 1e-7, 0.000001, -1.5e-9])
JS = "[9007199254740992,10000000000000000,1e-7,0.000001,-1.5e-9]"


async def sent(steps: str) -> Any:
    host = CountingHost()
    await Interpreter(make_plugin({"main": tool(steps)}), host).run("main", {}, now=NOW)
    (request,) = host.requests
    return request


async def test_a_json_request_body_writes_numbers_as_json_stringify() -> None:
    request = await sent(
        f"  - request: {{ url: 'https://api.example.edu.cn/x', method: POST, json: {{ n: '${{{NUMBERS}}}' }} }}\n"
    )
    assert request.body == ('{"n":' + JS + "}").encode()


async def test_query_and_form_follow_javascripts_key_order() -> None:
    """`new URLSearchParams({b: 1, 1: 2, a: 1e-7})` walks `1` first: array-index keys come first in JavaScript."""
    request = await sent(
        "  - request:\n"
        "      url: https://api.example.edu.cn/x\n"
        "      method: POST\n"
        "      query: { b: 1, '1': 2, a: '${1e-7}' }\n"
        "      form: { b: 1, '1': 2, a: '${1e-7}' }\n"
    )
    assert request.url == "https://api.example.edu.cn/x?1=2&b=1&a=1e-7"
    assert request.body == b"1=2&b=1&a=1e-7"


def test_the_shared_writer_is_json_stringify_for_numbers_and_json_dumps_for_the_rest() -> None:
    value = [float(x) for x in json.loads(NUMBERS)]
    assert json_text(value, separators=(",", ":")) == JS
    assert json_text({"a": [1, {"b": None}], "t": '二"\n', "z": True}, indent=2) == json.dumps(
        {"a": [1, {"b": None}], "t": '二"\n', "z": True}, ensure_ascii=False, indent=2
    )
    assert json_text([float("nan"), float("inf")]) == "[null, null]"  # as JSON.stringify
    assert json_text(12345678901234567890) == "12345678901234567890"  # an int read from JSON keeps its digits
    assert [num_to_str(x) for x in value] == ["9007199254740992", "10000000000000000", "1e-7", "0.000001", "-1.5e-9"]


def test_a_widget_shows_numbers_as_javascript_writes_them() -> None:
    """A whole `${…}` keeps its type; the widget's text is then String(x) (or JSON.stringify of a list)."""
    assert [display(float(x)) for x in json.loads(NUMBERS)] == [
        "9007199254740992",
        "10000000000000000",
        "1e-7",
        "0.000001",
        "-1.5e-9",
    ]
    assert display([float(x) for x in json.loads(NUMBERS)]) == JS


def test_the_apps_result_view_writes_numbers_as_javascript() -> None:
    from tui.app.widgets.result_view import _cell

    assert [_cell(float(x), "zh") for x in json.loads(NUMBERS)] == [
        "9007199254740992",
        "10000000000000000",
        "1e-7",
        "0.000001",
        "-1.5e-9",
    ]


def test_tools_call_prints_a_result_as_javascript_writes_it(capsys: Any) -> None:
    """`pku-harness tools call` and `commands run` print the result through print_outcome."""
    from tui.cli.tools import print_outcome
    from tui.runtime.gate import CallOutcome

    print_outcome(CallOutcome("ok", result={"n": [float(x) for x in json.loads(NUMBERS)]}))
    out = capsys.readouterr().out
    assert json.loads(out) == {"n": json.loads(JS)}
    assert '"1e-7"' not in out and "1e-7," in out and "10000000000000000," in out and "1e-07" not in out
