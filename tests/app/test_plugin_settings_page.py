"""设置 → 插件设置 (issue 18 item 1), driven as a student would: a plugin with three settings (text, a whole number
with bounds, a choice) shows them from their declarations; a change is kept, the next run sees it and the
plugin's widget fetches anew; a value the declaration refuses is said in words and kept out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, Select, SelectionList, Static

from tests.app.helpers import open_settings_section, settle, until
from tests.app.test_error_cards import only
from tui.app.app import PkuHarnessApp, make_app
from widgets_render.textual_render import WidgetFrame

PREFS = Path(__file__).resolve().parents[1] / "fixtures" / "plugins" / "prefs"
NOW = "2026-11-30T12:00:00+08:00"


def panel_texts(app: PkuHarnessApp, cls: str) -> list[str]:
    return [str(w.render()) for w in app.query_one("#plugin-settings").query(f".{cls}")]


def widget_text(app: PkuHarnessApp) -> str:
    frames = list(app.screen_stack[0].query(WidgetFrame))
    return " ".join(str(s.render()) for f in frames for s in f.query(Static))


def control(app: PkuHarnessApp, label: str) -> Any:
    """The control under the setting labelled `label` (None while the panel is being drawn again)."""
    panel = app.query_one("#plugin-settings")
    children = list(panel.children)
    at = next((i for i, w in enumerate(children) if w.has_class("setting-label") and str(w.render()) == label), None)
    return None if at is None else children[at + 1]


def note(app: PkuHarnessApp, label: str) -> Static:
    panel = app.query_one("#plugin-settings")
    children = list(panel.children)
    at = children.index(control(app, label))
    return next(w for w in children[at:] if isinstance(w, Static) and w.has_class("setting-note"))


@pytest.fixture
def app(tmp_path: Path) -> PkuHarnessApp:
    return only(make_app(data_dir=tmp_path, now=NOW, extra=[PREFS]), "prefs/mine")


async def test_a_setting_changed_in_settings_reaches_the_next_run_and_the_widget(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "至少 50 座" in widget_text(app), 10)
        await open_settings_section(pilot, app, "plugin-settings")
        assert "学习偏好" in panel_texts(app, "plugin-name")
        assert panel_texts(app, "setting-label")[-3:] == ["昵称", "最少座位", "默认日期"]  # after 通知's
        assert "只看座位不少于这个数的教室" in panel_texts(app, "setting-help")  # the description is the help line
        seats = control(app, "最少座位")
        assert isinstance(seats, Input) and seats.value == "50" and seats.type == "number"
        day = control(app, "默认日期")
        assert isinstance(day, Select) and day.value == "today"
        assert [str(p) for p, _ in day._options if _ is not Select.NULL] == ["今天", "明天"]  # titles, not values

        seats.focus()
        seats.value = "5"
        await pilot.press("enter")
        await settle(pilot, app)
        assert str(note(app, "最少座位").render()) == "最少座位要填 10 到 300 之间的整数"  # the rule, in words
        assert seats.has_class("-invalid") and seats.value == "5"  # what was typed stays, to be corrected
        assert app.runtime.plugin_settings.stored("prefs") == {}

        seats.value = "120"
        await pilot.press("enter")
        await settle(pilot, app)
        assert str(note(app, "最少座位").render()) == "已保存" and not seats.has_class("-invalid")
        assert app.runtime.plugin_settings.stored("prefs") == {"minSeats": 120}
        day.value = "tomorrow"  # a choice applies as it is made
        await settle(pilot, app)
        assert app.runtime.plugin_settings.stored("prefs") == {"minSeats": 120, "day": "tomorrow"}
        await pilot.press("1")
        await until(pilot, lambda: "至少 120 座，tomorrow" in widget_text(app), 10)  # fetched anew, settings in scope
        outcome = await app.runtime.gate.call("prefs.echo", {}, actor="user")
        assert outcome.result == {"nickname": "同学", "minSeats": 120, "day": "tomorrow"}


async def test_reset_puts_every_setting_of_the_plugin_back(app: PkuHarnessApp) -> None:
    app.runtime.set_plugin_setting("prefs", "nickname", "小王")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings_section(pilot, app, "plugin-settings")
        assert control(app, "昵称").value == "小王"
        resets = app.query_one("#plugin-settings").query(".settings-reset").results(Button)
        next(b for b in resets if b.name == "prefs").press()
        await until(pilot, lambda: getattr(control(app, "昵称"), "value", None) == "同学")
        assert app.runtime.plugin_settings.stored("prefs") == {}


async def test_the_english_page_speaks_english(tmp_path: Path) -> None:
    app = only(make_app(data_dir=tmp_path, now=NOW, extra=[PREFS], locale="en"), "prefs/mine")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_settings_section(pilot, app, "plugin-settings")
        assert panel_texts(app, "setting-label")[-3:] == ["Nickname", "Min. seats", "Default day"]
        day = control(app, "Default day")
        assert [str(p) for p, _ in day._options if _ is not Select.NULL] == ["Today", "Tomorrow"]
        seats = control(app, "Min. seats")
        seats.focus()
        seats.value = "1000"
        await pilot.press("tab")  # leaving the box applies it too
        await settle(pilot, app)
        assert str(note(app, "Min. seats").render()) == "Min. seats takes a whole number from 10 to 300"


async def test_several_choices_are_check_boxes_kept_in_their_order(tmp_path: Path) -> None:
    """The official notices plugin's 关注的来源: untick one and the latest notices come from the other two."""
    app = only(make_app(demo=True, data_dir=tmp_path, now=NOW), "notices/latest")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: "新闻网" in widget_text(app), 10)
        await open_settings_section(pilot, app, "plugin-settings")
        sources = control(app, "关注的来源")
        assert isinstance(sources, SelectionList) and list(sources.selected) == ["新闻网", "教务部", "学工部"]
        sources.focus()
        await pilot.press("space")  # unticks the first, 新闻网
        await settle(pilot, app)
        assert app.runtime.plugin_settings.stored("notices") == {"sources": ["教务部", "学工部"]}
        # an unticked box is empty, a ticked one holds X (Textual drew X in both, only the colour differed)
        drawn = [line.text for line in (sources.render_line(y) for y in range(3))]
        assert drawn[0].startswith("▐ ▌ 新闻网") and drawn[1].startswith("▐X▌ 教务部"), drawn
        await pilot.press("1")
        await until(pilot, lambda: "教务部" in widget_text(app) and "新闻网" not in widget_text(app), 10)
