"""Plugin screens as pages: a widget's tap opens its screen, forms submit their tool as the user, row actions
run with their item, and status results (verification_required, needs_input) are handled in the page."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Select, Static, TabbedContent, TextArea

from tests.app.helpers import settle, until
from tests.app.test_app import NOW, wait_for_widgets
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.prompts import CodePrompt, ConfirmDialog
from tui.app.screens.plugin_screen import PluginScreen
from tui.app.screens.screen_spec import with_tool_fields
from tui.app.screens.tool_form import ToolFormScreen
from tui.runtime.runtime import Runtime
from widgets_render.textual_render import GenButton, GenList, GenTable, WidgetFrame


def texts(screen: Any) -> list[str]:
    return [str(w.render()) for w in screen.query(Static)]


async def open_widget(pilot: Any, app: PkuHarnessApp, plugin: str) -> PluginScreen:
    await wait_for_widgets(pilot, app)
    frame = next(f for f in app.query(WidgetFrame) if f.file.startswith(f"{plugin}/"))
    frame.focus()
    await pilot.press("enter")
    await settle(pilot, app)
    assert isinstance(app.screen, PluginScreen)
    return app.screen


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(tmp_path: Path) -> PkuHarnessApp:
    return make_app(demo=True, data_dir=tmp_path, now=NOW)


@pytest.mark.parametrize(
    ("plugin", "tool", "shown"), [("wallet", "wallet.cardBalance", "123.45"), ("canteen", "canteen.crowd", "农园")]
)
async def test_a_widget_without_a_screen_opens_its_sources_tool_with_the_result(
    app: PkuHarnessApp, plugin: str, tool: str, shown: str
) -> None:
    """Found by a new student: Enter on 校园卡 or 食堂人流 did nothing while F1 said ⏎ 打开. A widget without a
    screen opens its data source's tool as a form, run with the source's input: the whole result, 提醒我… under it."""
    async with app.run_test(size=(110, 45)) as pilot:
        form = await open_widget(pilot, app, plugin)
        assert isinstance(form, ToolFormScreen) and form.tool.id == tool
        await until(pilot, lambda: (form.state or {}).get("result") is not None, 10)
        await until(pilot, lambda: bool(form.query("#notify-me")))
        assert shown in " ".join(
            str(c) for t in form.query(DataTable) for r in range(t.row_count) for c in t.get_row_at(r)
        )
        await pilot.press("escape")
        assert not isinstance(app.screen, PluginScreen)


@pytest.mark.parametrize(
    ("locale", "fields", "rows"),
    [
        ("zh", ["余额（元）", "今天花了（元）", "每日限额（元）"], ["日期", "各节时间"]),
        ("en", ["Balance (CNY)", "Spent today (CNY)", "Daily limit (CNY)"], ["Day", "Period times"]),
    ],
)
async def test_a_result_is_shown_by_its_keys_titles(
    tmp_path: Path, locale: str, fields: list[str], rows: list[str]
) -> None:
    """Found by two new students: results read `balanceYuan`, `periodTimes`, `minutesFromNow`. A tool titles its
    result's keys (`resultTitles`, English in i18n); the model still sees the keys."""
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    async with app.run_test(size=(110, 45)) as pilot:
        form = await open_tool_form(pilot, app, "wallet.cardBalance", locale)
        await pilot.click(form.query_one(GenButton))
        await until(pilot, lambda: bool(form.query("#result")))
        table = form.query_one("#result", DataTable)
        names = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert names[:3] == fields and "balanceYuan" not in names
        await pilot.press("escape")
        form = await open_tool_form(pilot, app, "classrooms.free", locale)
        await pilot.click(form.query_one(GenButton))
        await until(pilot, lambda: bool(form.query("#result")))
        tables = list(form.query_one("#result").query(DataTable))
        assert [str(tables[0].get_row_at(i)[0]) for i in range(2)] == rows
        headers = [str(c.label) for c in tables[1].columns.values()]
        assert "room" not in headers and ("教室" in headers or "Room" in headers)
    outcome = await app.runtime.gate.call("wallet.cardBalance", {}, actor="user")
    assert '"balanceYuan"' in outcome.model_text  # the model reads the keys


async def test_tapping_the_shuttle_widget_opens_its_timetable_and_escape_returns(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_widget(pilot, app, "shuttle")
        assert screen.title == "校车时刻表"
        shown = texts(screen)
        assert "燕园 → 昌平校区（工作日）" in shown  # params defaults reached the inline source's args
        assert {"07:00", "17:10", "21:30"} <= set(shown)
        await pilot.press("escape")
        assert not isinstance(app.screen, PluginScreen)


async def test_the_classroom_form_is_prefilled_and_submits_its_tool_as_the_user(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_widget(pilot, app, "classrooms")
        selects = {s.name: s for s in screen.query(Select)}
        assert selects["building"].value == "二教"  # the tap's params went into the form state
        assert selects["day"].value == "today"  # fromTool: the enum of classrooms.free became the options
        await pilot.click(screen.query_one(GenButton))
        await settle(pilot, app)
        table = screen.query_one(DataTable)
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == ["201", "202"]
        assert screen.state is not None and screen.state["form"] == {"building": "二教", "day": "today"}
        calls = [e for e in app.runtime.audit.recent() if e.tool == "classrooms.free"]
        assert calls and calls[0].actor == "user"


async def test_the_grades_screen_verifies_with_a_code_and_then_shows_the_grades(app: PkuHarnessApp) -> None:
    """A new student opened 成绩 and read "查看成绩需要验证" with nothing to do about it (l / d did nothing)."""
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_widget(pilot, app, "grades")
        assert "查看成绩需要验证" in texts(screen) and not screen.query(DataTable)
        send = next(b for b in screen.query(GenButton) if "发送验证短信" in str(b.label))
        await pilot.click(send)
        # the call is over when the audit has it (under a loaded suite it came after 5 s), then its toast is up
        await until(pilot, lambda: any(e.tool == "grades.sendCode" for e in app.runtime.audit.recent(5)), 15)
        await until(pilot, lambda: any("发送成功" in str(n.message) for n in app._notifications))  # the tool's words
        await settle(pilot, app)  # the body is rebuilt once the call is over
        code = next(i for i in screen.query(Input) if i.name == "code")
        code.focus()
        await pilot.pause()
        runs = len([e for e in app.runtime.audit.recent() if e.tool == "grades.scores"])
        await pilot.press("enter")  # an empty code: the form says what is missing and sends nothing
        await settle(pilot, app)
        assert "⚠ 请补全标出的字段" in texts(screen) and not screen.query(DataTable)
        code = next(i for i in screen.query(Input) if i.name == "code")
        assert code.has_class("-invalid") and code.has_focus
        assert len([e for e in app.runtime.audit.recent() if e.tool == "grades.scores"]) == runs
        await pilot.press(*"482913")
        await settle(pilot, app)
        assert next(s for s in screen.query(Select) if s.name == "method").value == "sms"
        await pilot.press("enter")  # Enter in a form field submits
        await settle(pilot, app)
        await until(pilot, lambda: bool(screen.query(DataTable)), 10)
        table = screen.query_one(DataTable)
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == ["高等数学 (B)", "大学英语", "体育"]
        assert "查看成绩需要验证" not in texts(screen)
        calls = [e.tool for e in app.runtime.audit.recent() if e.tool.startswith("grades.")]
        assert "grades.sendCode" in calls and "grades.scores" in calls
        await pilot.press("escape")  # back home: 我的绩点 shows the GPA the verification earned, not 需要验证

        def gpa_frame() -> str:
            frame = next(f for f in app.query(WidgetFrame) if f.file.startswith("grades/"))
            return " ".join(str(w.render()) for w in frame.query(Static))

        await until(pilot, lambda: "GPA" in gpa_frame(), 10)
        assert "需要验证" not in gpa_frame()


async def test_a_notice_row_puts_its_question_into_the_assistant(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_widget(pilot, app, "notices")
        table = screen.query_one(DataTable)
        assert table.row_count == 6
        table.focus()
        await pilot.press("enter")
        box = app.query_one("#chat-input", TextArea)
        await until(pilot, lambda: box.has_focus)  # 助手 opens on it (it was filled out of sight)
        assert box.text.startswith("帮我看看这条通知：https://")
        assert str(app.query_one(TabbedContent).active) == "assistant" and not isinstance(app.screen, PluginScreen)
        assert box.cursor_location == box.document.end  # typing goes after it (it went before: "x帮我看看…")


def test_from_tool_fields_take_enum_default_and_bounds_from_the_tool() -> None:
    runtime = Runtime.open(None, demo=True)
    plugin = runtime.registry.plugins["classrooms"].plugin
    spec = with_tool_fields(plugin.screens["search"], plugin, "classrooms")
    day = spec["body"]["children"][0]["fields"][1]
    assert day["options"] == ["today", "tomorrow", "dayAfter"]
    assert day["input"] == "select" and day["required"] is False  # the tool gives a default
    assert day["label"] == {"zh": "日期", "en": "Day"}  # the author's own props win


LAB_MANIFEST = """\
---
spec: 1
id: lab
name: 测试页
description: Screens under test.
version: 1.0.0
author: tests
tools:
  check:
    title: 核对
    description: Asks for a code first, then for a room.
    effect: read
    input:
      room: { type: string, optional: true }
      code: { type: string, optional: true }
    return: >-
      input.code == null ? ({status: 'verification_required', message: '验证码已发到 138****0000'})
      : (input.room == null || input.room == '') ? ({status: 'needs_input', fields: ['room'], message: '请填写教室'})
      : ({answer: input.room + '/' + input.code})
screens:
  main: screens/main.json
---
Screens under test.
"""

LAB_SCREEN = {
    "spec": 1,
    "kind": "screen",
    "title": "实验",
    "state": {"form": {"room": ""}, "result": None},
    "body": {
        "type": "column",
        "children": [
            {
                "type": "form",
                "bind": "form",
                "submitLabel": "查",
                "submit": {"invoke": "lab.check", "input": "${state.form}", "then": {"set": "result"}},
                "fields": [{"type": "field", "name": "room", "fromTool": True, "label": "教室"}],
            },
            {"type": "notice", "tone": "bad", "when": "${state.error != null}", "text": "${state.error}"},
            {"type": "text", "when": "${state.result != null}", "text": "结果 ${state.result.answer}"},
        ],
    },
}

BROKEN_SCREEN = {
    "spec": 1,
    "kind": "screen",
    "title": "坏的",
    "body": {
        "type": "column",
        "children": [
            {"type": "text", "text": "${nope.deeper}"},
            {"type": "hologram"},
            {"type": "text", "text": "[/bold]\x1b[31m还在"},
            {"type": "button", "label": "跨插件", "action": {"invoke": "wallet.cardBalance"}},
        ],
    },
}


async def push_lab(pilot: Any, app: PkuHarnessApp, name: str) -> PluginScreen:
    screen = PluginScreen(app.runtime, "lab", name, now=NOW)
    await app.push_screen(screen)
    await settle(pilot, app)
    return screen


TABBED_SCREEN = {
    "spec": 1,
    "kind": "screen",
    "title": "分页",
    "body": {
        "type": "tabs",
        "tabs": [
            {"label": "今天", "body": {"type": "text", "text": "今天的内容"}},
            {"label": "[b]明天[/b]", "body": {"type": "text", "text": "明天的内容"}},
        ],
    },
}


LISTED_SCREEN = {
    "spec": 1,
    "kind": "screen",
    "title": "列表",
    "state": {"picked": None},
    "body": {
        "type": "column",
        "children": [
            {
                "type": "list",
                "items": "${[{room: '101', cap: 80}, {room: '[b]102[/b]', cap: 120}]}",
                "as": "r",
                "item": {"type": "text", "text": "${r.room} · ${item.cap}"},
                "itemAction": {"set": "picked", "value": "${r.room + '@' + index}"},
            },
            {"type": "text", "when": "${state.picked != null}", "text": "选了 ${state.picked}"},
            {
                "type": "table",
                "rows": "${['[/bold]坏', '[b]粗[/b]']}",
                "columns": [{"header": "[red]头", "value": "${item}"}],
            },
        ],
    },
}


@pytest.fixture
def lab_app(tmp_path: Path) -> PkuHarnessApp:
    folder = tmp_path / "lab"
    (folder / "screens").mkdir(parents=True)
    (folder / "PLUGIN.md").write_text(textwrap.dedent(LAB_MANIFEST), encoding="utf-8")
    (folder / "screens" / "main.json").write_text(json.dumps(LAB_SCREEN, ensure_ascii=False), encoding="utf-8")
    app = make_app(demo=True, data_dir=tmp_path / "data", now=NOW, extra=[folder])
    # `plugin validate` refuses this file (install never lets it in); the renderer must survive it anyway.
    app.runtime.registry.plugins["lab"].plugin.screens["broken"] = BROKEN_SCREEN
    app.runtime.registry.plugins["lab"].plugin.screens["tabbed"] = TABBED_SCREEN
    app.runtime.registry.plugins["lab"].plugin.screens["listed"] = LISTED_SCREEN
    return app


async def test_a_list_item_action_runs_with_its_item_by_key_and_by_click(lab_app: PkuHarnessApp) -> None:
    app = lab_app
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await push_lab(pilot, app, "listed")
        listed = screen.query_one(GenList)
        assert "[b]102[/b] · 120" in texts(screen)  # literal, not markup
        table = screen.query_one(GenTable)  # DataTable reads a str cell as markup: '[/bold]' would crash it
        assert [str(c) for c in table.get_row_at(0)] == ["[/bold]坏"] and str(table.get_row_at(1)[0]) == "[b]粗[/b]"
        assert table.get_row_at(1)[0].spans == [] and "[red]头" in str(table.columns[next(iter(table.columns))].label)
        listed.focus()
        await pilot.press("down", "enter")
        await until(pilot, lambda: "选了 [b]102[/b]@1" in texts(screen))
        await pilot.click(screen.query_one(GenList).children[0])  # the screen re-rendered: a new list
        await until(pilot, lambda: "选了 101@0" in texts(screen))


async def test_verification_then_needs_input_then_the_answer(lab_app: PkuHarnessApp) -> None:
    app = lab_app
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await push_lab(pilot, app, "main")
        await pilot.click(screen.query_one(GenButton))
        # verification_required asks for the code; the prompt is on top a moment before its content is there (under
        # a loaded suite its text was read, and found empty, in that moment)
        await until(pilot, lambda: isinstance(app.screen, CodePrompt) and app.screen.query("#code"))
        assert "验证码已发到 138****0000" in texts(app.screen)
        await pilot.press(*"4321", "enter")
        await settle(pilot, app)
        # Re-run with the code; the tool now wants a room: the field is marked and the message is inline.
        assert app.screen is screen
        assert screen.query_one(Input).has_class("-invalid")
        assert "请填写教室" in texts(screen)
        screen.query_one(Input).value = "二教201"
        await pilot.click(screen.query_one(GenButton))
        await until(pilot, lambda: isinstance(app.screen, CodePrompt) and app.screen.query("#code"))
        await pilot.press(*"4321", "enter")
        await settle(pilot, app)
        assert "结果 二教201/4321" in texts(screen)
        assert not screen.query_one(Input).has_class("-invalid")


async def test_a_broken_screen_shows_what_it_can_and_refuses_cross_plugin_calls(lab_app: PkuHarnessApp) -> None:
    app = lab_app
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await push_lab(pilot, app, "broken")
        shown = texts(screen)
        assert "[/bold]还在" in shown  # markup shown literally, the escape sequence stripped
        assert any("不支持" in s for s in shown)  # the unknown type became a chip, its siblings still render
        await pilot.click(screen.query_one(GenButton))
        await settle(pilot, app)
        assert screen.error == "插件出错了，不是你的问题（详情是给作者的）"  # the plugin's bug, in one sentence
        assert "only invoke its own plugin" in screen.failures["$action"].detail()  # the why is in 详情
        # refused before the gate: nothing of the lab plugin ran (the dashboard's widgets load meanwhile)
        assert not [r for r in app.runtime.audit.recent(500) if r.tool.startswith("lab.")]
        assert app.is_running


async def test_every_plugin_tool_runs_from_a_generated_form(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(110, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        await pilot.press("3")
        tools = app.query_one("#tools", DataTable)
        tools.focus()
        tools.move_cursor(row=tools.get_row_index("notices.latest"))
        await pilot.press("enter")
        await settle(pilot, app)
        form = app.screen
        assert isinstance(form, ToolFormScreen) and form.tool.id == "notices.latest"
        await pilot.click(form.query_one(GenButton))
        await settle(pilot, app)
        result = form.query_one("#result", DataTable)  # a list of objects becomes a table
        assert result.row_count == 6 and "标题" in [str(c.label) for c in result.columns.values()]  # its title


async def open_tool_form(pilot: Any, app: PkuHarnessApp, tool_id: str, locale: str = "zh") -> ToolFormScreen:
    """A tool's generated form, open and settled."""
    tool = app.runtime.registry.find(tool_id)
    assert tool is not None
    form = ToolFormScreen(app.runtime, tool, locale, now=NOW)
    await app.push_screen(form)
    await settle(pilot, app)
    return form


@pytest.mark.parametrize(
    ("locale", "labels", "hints"),
    [
        ("zh", ["教学楼", "哪天", "节次", "最少座位"], ["可不填", "1 到 12，可不填", "至少 1，可不填"]),
        ("en", ["Building", "Day", "Period", "Min. seats"], ["optional", "1 to 12, optional", "at least 1, optional"]),
    ],
)
async def test_a_tool_form_labels_its_fields_with_their_titles_not_their_names(
    app: PkuHarnessApp, locale: str, labels: list[str], hints: list[str]
) -> None:
    """Found by a new student: the form was labelled `building`, `minSeats`, and its hints were the sentences
    written for the model ("only rooms with at least this many seats"), which the seed says are never shown."""
    async with app.run_test(size=(110, 45)) as pilot:
        form = await open_tool_form(pilot, app, "classrooms.free", locale)
        shown = [str(label.render()) for label in form.query(".gen-field-label")]
        assert shown == labels  # not building / day / period / minSeats
        assert [str(i.placeholder) for i in form.query(Input)] == hints  # the app's words, not the description


@pytest.mark.parametrize(
    ("locale", "days", "stops"),
    [
        ("zh", ["今天", "明天", "后天"], ["燕园", "昌平校区", "医学部", "万柳"]),
        (
            "en",
            ["Today", "Tomorrow", "The day after tomorrow"],
            ["Yanyuan", "Changping campus", "Health Science Center", "Wanliu"],
        ),
    ],
)
async def test_a_select_offers_each_value_by_its_title(
    app: PkuHarnessApp, locale: str, days: list[str], stops: list[str]
) -> None:
    """Found by a new student: 哪天 offered `today`, `tomorrow`, `dayAfter` and the English form offered 燕园. An
    enum's values have titles (`enumTitles`, and their English in i18n); the value sent stays the enum's."""
    async with app.run_test(size=(110, 45)) as pilot:
        form = await open_tool_form(pilot, app, "classrooms.free", locale)
        day = next(s for s in form.query(Select) if s.name == "day")
        assert [str(prompt) for prompt, _ in day._options if _ is not Select.NULL] == days
        assert day.value == "today"  # the default, chosen by value
        await pilot.press("escape")
        form = await open_tool_form(pilot, app, "shuttle.timetable", locale)
        stop = next(s for s in form.query(Select) if s.name == "from")
        assert [str(prompt) for prompt, _ in stop._options if _ is not Select.NULL] == stops
        assert [value for _, value in stop._options if value is not Select.NULL] == [
            "燕园",
            "昌平校区",
            "医学部",
            "万柳",
        ]


async def test_a_number_chosen_from_a_select_is_sent_as_a_number(app: PkuHarnessApp) -> None:
    """Found by a new student (issue 18 item 7): 校园卡充值's form refused each of its own amounts, "must be a whole
    number" — a select sent the text '50'."""
    async with app.run_test(size=(110, 45)) as pilot:
        form = await open_tool_form(pilot, app, "wallet.recharge")
        amount = next(s for s in form.query(Select) if s.name == "amountYuan")
        amount.value = 50
        await pilot.click(form.query_one(GenButton))
        await until(pilot, lambda: form.error is not None or (form.state or {}).get("result") is not None, 10)
        assert form.error is None, form.error
        assert form.state is not None and form.state["form"] == {"amountYuan": 50}
        audit = app.runtime.audit.recent(1)[0]
        assert audit.tool == "wallet.recharge" and audit.outcome == "ok"


async def test_a_tool_form_offers_enums_as_selects_and_reports_bad_input(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(110, 45)) as pilot:
        form = await open_tool_form(pilot, app, "shuttle.timetable")
        selects = {s.name: s for s in form.query(Select)}
        assert set(selects) >= {"from", "to"}
        selects["from"].value = "燕园"
        selects["to"].value = "燕园"
        await pilot.click(form.query_one(GenButton))
        await settle(pilot, app)
        assert form.state is not None and form.state["form"] == {"from": "燕园", "to": "燕园"}
        assert form.error is not None and "没有从燕园到燕园的校车" in form.error  # the tool's own words, inline
        assert not form.query("#result")
        rebuilt = {s.name: s for s in form.query(Select)}
        assert rebuilt["from"].value == "燕园"  # what the user chose survives the re-render
        rebuilt["to"].value = "昌平校区"
        await pilot.click(form.query_one(GenButton))
        await settle(pilot, app)
        assert form.error is None
        assert form.state is not None and "07:00" in form.state["result"]["times"]
        assert form.query_one("#result")  # an object result shows as a JSON tree


async def test_the_plugins_tab_lists_every_screen_and_enter_opens_it(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(110, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        await pilot.press("3")
        table = app.query_one("#screens", DataTable)
        keys = [str(k.value) for k in table.rows]
        assert keys == ["classrooms/search", "grades/scores", "notices/list", "shuttle/timetable"]
        table.focus()
        table.move_cursor(row=keys.index("shuttle/timetable"))
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, PluginScreen) and app.screen.title == "校车时刻表"


@pytest.mark.parametrize(
    ("plugin", "name", "title", "shows"),
    [
        ("classrooms", "search", "空闲教室", "查询"),
        ("grades", "scores", "成绩", "查看成绩需要验证"),  # the recorded first answer asks for a code
        ("notices", "list", "通知", None),
        ("shuttle", "timetable", "校车时刻表", "07:00"),
    ],
)
async def test_every_official_screen_renders_in_demo_mode(
    app: PkuHarnessApp, plugin: str, name: str, title: str, shows: str | None
) -> None:
    async with app.run_test(size=(110, 40)) as pilot:
        app.open_screen(plugin, name)
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, PluginScreen) and screen.title == title
        shown = texts(screen) + [str(b.label) for b in screen.query(GenButton)]
        assert not any(s.startswith("⚠") for s in shown), shown
        if shows is not None:
            assert any(shows in s for s in shown), shown
        else:
            assert screen.query_one(DataTable).row_count > 0


async def test_screen_tabs_are_real_tabs_with_literal_labels(lab_app: PkuHarnessApp) -> None:
    app = lab_app
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await push_lab(pilot, app, "tabbed")
        tabs = screen.query_one(TabbedContent)
        labels = [str(t.label) for t in screen.query("ContentTab")]
        assert labels == ["今天", "[b]明天[/b]"]  # plugin text is never markup
        assert tabs.active_pane is not None and "今天的内容" in texts(tabs.active_pane)
        await pilot.click(list(screen.query("ContentTab"))[1])
        await pilot.pause()
        assert tabs.active_pane is not None and "明天的内容" in texts(tabs.active_pane)


def test_a_tool_form_shows_the_summary_never_the_models_description(app: PkuHarnessApp) -> None:
    """Seed 003: a tool's description is "只给模型看,从不显示给用户"; the form showed it when a summary was missing."""
    from dataclasses import replace

    from tui.app.screens.tool_form import tool_form_spec

    tool = app.runtime.registry.find("shuttle.timetable")
    assert tool is not None and tool.summary
    texts = [c.get("text") for c in tool_form_spec(tool, {}, "zh")["body"]["children"]]
    assert tool.summary in texts and tool.description not in texts
    bare = tool_form_spec(replace(tool, summary=None), {}, "zh")["body"]["children"]
    assert tool.description not in [c.get("text") for c in bare] and bare[0]["type"] == "form"


async def test_a_code_of_the_wrong_form_marks_its_field(app: PkuHarnessApp) -> None:
    """Five digits for a six-digit code showed only "Some input is not right" and a detail naming input.code;
    the field that is wrong is marked, as an empty required one is."""
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_widget(pilot, app, "grades")
        code = next(i for i in screen.query(Input) if i.name == "code")
        code.focus()
        await pilot.press(*"12345", "enter")
        await settle(pilot, app)
        code = next(i for i in screen.query(Input) if i.name == "code")
        assert screen.invalid == {"code"} and code.has_class("-invalid")
        assert screen.error == "验证码要填 6 位数字"  # what it takes, not "输入有误" (an outsider's run)
        assert not screen.query(DataTable)  # nothing shown as grades
        calls = [e for e in app.runtime.audit.recent() if e.tool == "grades.scores"]
        assert calls and calls[0].outcome == "error"


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("zh", "节次要填 1 到 12 之间的整数；最少座位要填不小于 1 的整数"),
        ("en", "Period takes a whole number from 1 to 12; Min. seats takes a whole number of at least 1"),
    ],
)
async def test_every_refused_field_is_marked_said_with_its_rule_and_the_first_takes_the_focus(
    tmp_path: Path, locale: str, said: str
) -> None:
    """Found by a new student: 节次 13 and 最少座位 0 gave "输入有误，检查后再试", one field marked, the focus left on
    运行, and a detail naming `input.period` at the tool's `return:` line."""
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    async with app.run_test(size=(110, 45)) as pilot:
        form = await open_tool_form(pilot, app, "classrooms.free", locale)
        boxes = {i.name: i for i in form.query(Input)}
        boxes["period"].value, boxes["minSeats"].value = "13", "0"
        await pilot.click(form.query_one(GenButton))
        await until(pilot, lambda: form.error is not None)
        assert form.error == said
        await settle(pilot, app)
        boxes = {i.name: i for i in form.query(Input)}
        assert boxes["period"].has_class("-invalid") and boxes["minSeats"].has_class("-invalid")
        assert boxes["period"].has_focus  # the first thing to put right, not the button
        detail = form.failures["$action"].detail()
        declared = (ROOT / "plugins_builtin/classrooms/tools/free.yaml").read_text("utf-8").splitlines()
        line = next(i for i, text in enumerate(declared, 1) if text.startswith("  period:"))
        assert f"tools/free.yaml:{line}" in detail  # the line that declares period, not the tool's return:
        assert "input.period must be at most 12" in detail and "input.minSeats must be at least 1" in detail


def test_an_input_error_names_its_top_level_field() -> None:
    from tui.lang.documents.tool import InputField
    from tui.lang.steps.errors import ToolError
    from tui.lang.steps.inputs import _check

    with pytest.raises(ToolError) as wrong:
        _check("code", InputField(type="string", pattern=r"\d{6}"), "12345")
    assert wrong.value.kind == "input" and wrong.value.field == "code"
    with pytest.raises(ToolError) as nested:
        _check("items", InputField(type="array", items=InputField(type="number")), [1, "x"])
    assert nested.value.field == "items"


async def test_a_new_result_is_brought_into_sight(app: PkuHarnessApp) -> None:
    """At 80×24 空闲教室's result appeared below the screen and the page did not follow."""
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_tool_form(pilot, app, "classrooms.free")
        building = next(i for i in form.query(Input) if i.name == "building")
        building.focus()
        await pilot.press(*"二教", "enter")
        await settle(pilot, app)
        await until(pilot, lambda: bool(form.query("#result")))
        await pilot.pause(0.2)
        heading = next(s for s in form.query(Static) if str(s.render()) == "结果")
        body = form.query_one("#screen-body")
        assert body.content_region.y <= heading.region.y < body.content_region.bottom, (heading.region, body.region)


@pytest.mark.parametrize(
    ("tool_id", "line"), [("grades.sendCode", "这个工具会修改数据：按「运行」立即执行"), ("classrooms.free", None)]
)
async def test_a_form_that_changes_something_says_run_does_it_without_asking(
    app: PkuHarnessApp, tool_id: str, line: str | None
) -> None:
    """Found by a new student: 发送验证短信 (a write tool, set to ask) sent the SMS the moment 运行 was pressed. That
    is the seed's rule (a user's own press never asks); the form now says so before the press."""
    async with app.run_test(size=(110, 45)) as pilot:
        form = await open_tool_form(pilot, app, tool_id)
        texts = [str(s.render()) for s in form.query("#screen-body Static")]
        assert any(line in text for text in texts) if line else not any("立即执行" in text for text in texts)


CONFIRM_SCREEN = {
    "spec": 1,
    "kind": "screen",
    "title": "确认",
    "state": {"done": 0},
    "body": {
        "type": "column",
        "children": [
            {
                "type": "button",
                "label": "清空",
                "confirm": {"zh": "真的清空 [b]全部[/b]？", "en": "Really clear all?"},
                "action": {"set": "done", "value": "${state.done + 1}"},
            },
            {"type": "text", "text": "做了 ${state.done} 次"},
        ],
    },
}


async def test_a_buttons_confirm_asks_first_and_no_does_nothing(lab_app: PkuHarnessApp) -> None:
    """genui.md: a button's `confirm?` asks Y/N before its action, whatever the action is."""
    app = lab_app
    app.runtime.registry.plugins["lab"].plugin.screens["confirm"] = CONFIRM_SCREEN
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await push_lab(pilot, app, "confirm")
        screen.query_one(GenButton).focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert "真的清空 [b]全部[/b]？" in " ".join(str(s.render()) for s in app.screen.query(Static))  # literal
        await pilot.press("n")
        await until(pilot, lambda: app.screen is screen)
        await settle(pilot, app)
        assert "做了 0 次" in texts(screen)  # no: nothing ran
        screen.query_one(GenButton).focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await until(pilot, lambda: "做了 1 次" in texts(screen))


async def test_a_screens_toolbar_is_shown_at_the_top_and_its_buttons_act(lab_app: PkuHarnessApp) -> None:
    """genui.md: `toolbar` holds buttons for the header; they come first on the page and work like any button."""
    app = lab_app
    spec = {
        **CONFIRM_SCREEN,
        "toolbar": [{"type": "button", "label": "加一", "action": {"set": "done", "value": "${state.done + 1}"}}],
        "body": {"type": "text", "text": "做了 ${state.done} 次"},
    }
    app.runtime.registry.plugins["lab"].plugin.screens["toolbar"] = spec
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await push_lab(pilot, app, "toolbar")
        buttons = list(screen.query(GenButton))
        assert [str(b.label) for b in buttons] == ["加一"]
        text = next(s for s in screen.query(Static) if "做了" in str(s.render()))
        assert buttons[0].region.y < text.region.y  # above the body
        buttons[0].focus()
        await pilot.press("enter")
        await until(pilot, lambda: "做了 1 次" in texts(screen))
