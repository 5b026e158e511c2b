"""Scheduled checks in the app: "notify me…" under a tool result creates a check; the background round runs it;
the notification arrives as a toast and in the header's unread count; the centre lists it; 设置 shows the check
and its run log."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input, Select, Static

from tests.app.helpers import open_settings_section, settle, until
from tui.app.app import make_app
from tui.app.dialogs.check import CheckDialog, RunLogDialog
from tui.app.dialogs.notifications import NotificationCentre
from tui.app.dialogs.prompts import ChooseDialog
from tui.app.screens.tool_form import ToolFormScreen
from tui.runtime.scheduler.checks import Check, Checks
from widgets_render.textual_render import GenButton

NOW = "2026-11-30T12:00:00+08:00"
SIZE = (120, 45)


async def test_a_check_from_a_tool_result_notifies(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=SIZE) as pilot:
        tool = app.runtime.registry.find("shuttle.next")
        assert tool is not None
        form = ToolFormScreen(app.runtime, tool, now=NOW)
        await app.push_screen(form)
        await settle(pilot, app)
        selects = {s.name: s for s in form.query(Select)}
        selects["to"].value = "昌平校区"
        await pilot.click(form.query_one(GenButton))
        await until(pilot, lambda: bool(form.query("#notify-me")))
        form.query_one("#notify-me", Button).press()
        # On top is not yet drawn: under a loaded suite its widgets came a moment later (clean-clone CI, 1 in 2 runs)
        await until(pilot, lambda: isinstance(app.screen, CheckDialog) and bool(app.screen.query("#check-save")))
        dialog = app.screen
        dialog.query_one("#check-schedule", Select).value = "custom"
        await pilot.pause(0.05)
        dialog.query_one("#check-custom", Input).value = "every 1m"
        dialog.query_one("#check-when", Select).value = "always"
        dialog.query_one("#check-message", Input).value = "下一班 ${result.departures[0].time}"
        dialog.query_one("#check-save", Button).press()
        await until(pilot, lambda: not isinstance(app.screen, CheckDialog))
        [check] = Checks(app.runtime.store).all()
        assert check.tool == "shuttle.next" and check.args == {"from": "燕园", "to": "昌平校区", "count": 3}
        assert check.timing == "every 1m" and check.condition is None
        # its time comes (the test moves it instead of waiting a minute), and the background round runs it
        app.runtime.store.db.execute("UPDATE schedules SET next_ms = 0")
        app.run_checks()
        await until(pilot, lambda: app.runtime.notices.unread() == 1, 10)
        await until(pilot, lambda: "1 条未读" in app.sub_title)
        assert any("下一班" in str(n.message) for n in app._notifications)  # the toast
        await pilot.press("escape")  # back to the dashboard
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NotificationCentre))
        table = app.screen.query_one("#notices", DataTable)
        assert table.row_count == 1 and "下一班" in str(table.get_row_at(0)[2])
        assert app.runtime.notices.unread() == 0
        table.focus()
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.screen.query("#notice-result")))
        await pilot.press("escape")
        await until(pilot, lambda: "未读" not in app.sub_title)


async def test_settings_list_checks_with_their_run_log(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    checks = Checks(app.runtime.store)
    check = checks.add("记住", "every 1h", tool="memory.remember", args={"text": "x"}, now=0)
    checks.add("余额", "30 7 * * *", tool="wallet.cardBalance", now=10**13)  # not due: never run
    async with app.run_test(size=SIZE) as pilot:
        app.run_checks()
        await until(pilot, lambda: bool(checks.runs(check.id)))
        await open_settings_section(pilot, app, "checks")
        table = app.query_one("#checks", DataTable)
        row = [str(c) for c in table.get_row_at(0)]
        assert row[0] == "记住" and row[1] == "每小时" and "定时运行只能读取" in row[2]  # the gate's refusal, said
        rows = {str(table.get_row_at(i)[0]): [str(c) for c in table.get_row_at(i)] for i in range(table.row_count)}
        # The tool by its title, not `wallet.cardBalance`; a check that has not run says so, not "正常".
        assert rows["余额"][4] == "校园卡余额" and rows["余额"][2] == "还没运行过", rows["余额"]
        assert "scheduled runs may only read" in checks.runs(check.id)[0].detail  # what the CLI and the model read
        table.focus()
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.query("OptionList"))
        await pilot.press("down", "enter")  # 立即运行, 详情和运行记录
        await until(pilot, lambda: isinstance(app.screen, RunLogDialog))
        log = app.screen.query_one("#run-log", DataTable)
        assert "记住 · 每小时" in [str(w.render()) for w in app.screen.query(".title")]  # its schedule in words
        assert str(log.get_row_at(0)[2]) == "被拒绝" and "定时运行只能读取" in str(log.get_row_at(0)[3])


async def test_a_check_shows_what_it_does_and_runs_now_from_its_menu(tmp_path: Path) -> None:
    """Found by a new student: 定时检查 listed a check without its condition, and there was no way to try it but to
    wait for its time. Enter → 立即运行 runs it (the gate as the scheduler) and says how it went; 详情和运行记录
    shows what it runs, with what, when it notifies and with which words."""
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    checks = Checks(app.runtime.store)
    # Its next run is tomorrow 07:30, not due: only 立即运行 runs it (with now=0 it was overdue, and under load the
    # scheduler ran it too: two notices).
    check = checks.add(
        "校车", "30 7 * * *", tool="shuttle.next", args={"to": "昌平校区"}, condition="result.departures.length > 0",
        message="下一班 ${result.departures[0].time}", now=int(time.time() * 1000),
    )  # fmt: skip
    next_before = checks.get(check.id).next_ms  # type: ignore[union-attr]
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_section(pilot, app, "checks")
        table = app.query_one("#checks", DataTable)
        table.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
        assert app.screen.choices[:2] == ["立即运行", "详情和运行记录"]  # type: ignore[attr-defined]
        await pilot.press("enter")  # 立即运行
        # the run is recorded before its notice is: wait for both (under load the notice came a frame later)
        await until(pilot, lambda: bool(checks.runs(check.id)) and app.runtime.notices.unread() > 0, seconds=10)
        assert checks.runs(check.id)[0].outcome == "met" and app.runtime.notices.unread() == 1
        await until(pilot, lambda: any("「校车」运行完了：已提醒" in n.message for n in app._notifications))
        assert checks.get(check.id).next_ms >= next_before  # type: ignore[union-attr]  # counted from now
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
        await pilot.press("down", "enter")  # 详情和运行记录
        await until(pilot, lambda: isinstance(app.screen, RunLogDialog))
        lines = [str(w.render()) for w in app.screen.query(".check-detail")]
        assert lines[:3] == [
            "运行：下一班校车（到达：昌平校区）",
            "提醒条件：result.departures.length > 0",
            "提醒的文字：下一班 ${result.departures[0].time}",
        ]
        assert lines[3].startswith("下次运行：")
        assert str(app.screen.query_one("#run-log", DataTable).get_row_at(0)[2]) == "已提醒"


async def test_an_assistant_tasks_notification_opens_its_conversation(tmp_path: Path) -> None:
    from tui.app.widgets.chat_pane import ChatPane
    from tui.runtime.chat.history import ChatHistory

    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    history = ChatHistory(app.runtime.store)
    cid = history.start("⏰ 早上的空教室")
    history.append(cid, {"role": "user", "content": "二教现在哪些教室空着？"})
    history.append(cid, {"role": "assistant", "content": "二教 201 空着。"})
    async with app.run_test(size=SIZE) as pilot:
        app.runtime.notices.add("s-1", "早上的空教室", "二教 201 空着。", session=cid)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NotificationCentre))
        app.screen.query_one("#notices", DataTable).focus()
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, NotificationCentre))
        await until(pilot, lambda: bool(app.query(ChatPane)) and app.query_one(ChatPane).cid == cid)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_tell_me_when_my_balance_is_under_20_from_the_check_dialog(tmp_path: Path, size: tuple[int, int]) -> None:
    """The schedule and condition selects were one cell wide beside their inputs, so a condition could not be
    chosen; the heading promised a condition while the default was "when changed"."""
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=size) as pilot:
        tool = app.runtime.registry.find("wallet.cardBalance")
        assert tool is not None
        form = ToolFormScreen(app.runtime, tool, now=NOW)
        await app.push_screen(form)
        await settle(pilot, app)
        await pilot.click(form.query_one(GenButton))
        await until(pilot, lambda: bool(form.query("#notify-me")))
        form.query_one("#notify-me", Button).press()
        await until(pilot, lambda: isinstance(app.screen, CheckDialog))
        dialog = app.screen
        await settle(pilot, app)
        heading = str(dialog.query_one("#check-heading", Static).render())
        assert "结果变化时提醒" in heading  # the default, said
        # in sight when it opens (at 80×24 the focused title box scrolled it away), each box labelled
        body = dialog.query_one("CheckDialog > Vertical")
        assert dialog.query_one("#check-heading").region.y >= body.content_region.y
        labels = [str(w.render()) for w in dialog.query(".label")]
        assert {"名称", "多久检查一次", "什么时候提醒你", "提醒的文字"} <= set(labels), labels
        for select in (dialog.query_one("#check-schedule", Select), dialog.query_one("#check-when", Select)):
            assert select.region.width >= 30 and select.region.right <= size[0]
        assert not dialog.query_one("#check-field", Select).region  # shown only for "below" and "above"
        when = dialog.query_one("#check-when", Select)
        when.focus()
        await pilot.press("enter", "down", "enter")  # open, 某个数低于…, choose — as a person does, no expression
        await settle(pilot, app)
        assert when.value == "below" and "某个数低于…时提醒" in str(dialog.query_one("#check-heading", Static).render())
        assert when.has_focus  # the choice is made; Tab goes on to what it opened (a student's Tab skipped it)
        field = dialog.query_one("#check-field", Select)
        await pilot.press("tab")
        assert field.has_focus and field.value == "result.balanceYuan" and field.region.width >= 20
        # by its title, not its key (balanceYuan; an outsider's run)
        assert "余额（元）（现在 123.45）" in str(field.query_one("#label", Static).render())
        await pilot.press("tab")
        number = dialog.query_one("#check-number", Input)
        assert number.has_focus and number.region.width >= 10 and number.region.right <= size[0]
        muted = [str(w.render()) for w in dialog.query(".muted")]
        assert not any("wallet.cardBalance" in m or "{}" in m for m in muted), muted  # no internal id
        dialog.query_one("#check-save", Button).press()  # no number yet: said, nothing saved
        await settle(pilot, app)
        assert "请填一个数" in str(dialog.query_one("#check-error", Static).render()) and number.has_focus
        await pilot.press(*"20")
        dialog.query_one("#check-save", Button).press()
        await until(pilot, lambda: not isinstance(app.screen, CheckDialog))
        [check] = Checks(app.runtime.store).all()
        assert check.tool == "wallet.cardBalance" and check.condition == "result.balanceYuan < 20"


def test_the_numbers_a_condition_can_compare_and_the_condition_built() -> None:
    from tui.app.dialogs.check import compared, number_fields

    result = {"balanceYuan": 123.45, "ok": True, "name": "卡", "card": {"limit": 300, "余额": 5}, "list": [1]}
    assert number_fields(result) == [
        ("result.balanceYuan", 123.45),
        ("result.card.limit", 300.0),
        ('result.card["余额"]', 5.0),  # not an identifier: bracketed, so the expression parses
    ]
    assert number_fields(7) == [("result", 7.0)] and number_fields("text") == [] and number_fields(True) == []
    assert compared("result.balanceYuan", "below", " 20 ") == "result.balanceYuan < 20"
    assert compared("result.x", "above", "2.5") == "result.x > 2.5"
    assert compared("result.x", "below", "二十") is None and compared("result.x", "below", "nan") is None


def test_the_default_condition_is_said_in_words(tmp_path: Path) -> None:
    """Found by a new student: 详情 showed the default condition as code (`previous != null && stringify(…)`)."""
    from tui.app.dialogs.check import CHANGED, check_details
    from tui.runtime.store import Store

    store = Store(tmp_path / "s.sqlite3")
    try:
        check = Checks(store).add("余额", "0 * * * *", tool="wallet.balance", condition=CHANGED, now=0)
        assert "提醒条件：结果和上次不同" in check_details(check, None, "zh")
        assert "Notifies when: the result differs from the last run" in check_details(check, None, "en")
        assert not any("stringify" in line for line in check_details(check, None, "zh"))
    finally:
        store.close()


@pytest.mark.parametrize(
    ("locale", "shown"),
    [
        ("zh", "空闲教室  教学楼：二教、哪天：明天、最少座位：30"),
        ("en", "Free classrooms  Building: 二教, Day: Tomorrow, Min. seats: 30"),
    ],
)
async def test_a_check_says_its_input_as_the_form_does(tmp_path: Path, locale: str, shown: str) -> None:
    """Found by a new student: the new-check dialog and a check's details showed `day = "today"`, the tool's
    input as code. Each field is said by its label and an enum value by its title."""
    from tui.app.dialogs.check import check_details

    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    async with app.run_test(size=SIZE) as pilot:
        tool = app.runtime.registry.find("classrooms.free")
        assert tool is not None
        args = {"building": "二教", "day": "tomorrow", "minSeats": 30}
        await app.push_screen(CheckDialog(app.runtime.store, tool, args, locale))
        await until(pilot, lambda: bool(app.screen.query(".muted")))
        assert str(app.screen.query(".muted").first(Static).render()) == shown
        check = Check(id="c", title="t", kind="tool", timing="every 1h", tool=tool.id, args=args, next_ms=0)
        assert shown.split("  ", 1)[1] in "\n".join(check_details(check, tool, locale))
