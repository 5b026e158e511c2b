"""The app driven with Pilot: the dashboard fills in demo mode, every tab opens, nothing crashes."""

from __future__ import annotations

import asyncio
import html
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import DataTable, OptionList, Select, Static, TabbedContent

from tests.app.helpers import open_settings_section, said_by, until
from tui.app.app import PkuHarnessApp, make_app
from tui.app.widgets.dashboard import Dashboard, slots, tick_seconds
from widgets_render.textual_render import WidgetFrame

NOW = "2026-11-30T12:00:00+08:00"


async def wait_for_widgets(pilot: Any, app: PkuHarnessApp, count: int = 7) -> list[WidgetFrame]:
    """Let the dashboard's workers finish (never sleep blindly)."""
    for _ in range(100):
        await pilot.pause(0.05)
        frames = list(app.query(WidgetFrame))
        if len(frames) >= count:
            await app.workers.wait_for_complete()
            return frames
    raise AssertionError("the dashboard did not fill")


@pytest.fixture
def app(tmp_path: Path) -> PkuHarnessApp:
    """The demo app with a fixed clock and its own data directory."""
    return make_app(demo=True, data_dir=tmp_path, now=NOW)


async def test_the_demo_dashboard_fills_every_official_widget_quickly(app: PkuHarnessApp) -> None:
    t0 = time.process_time()  # CPU time of the app's process: a CI box running other tests beside it took 5.5 s
    async with app.run_test(size=(120, 45)) as pilot:  # of wall time for what takes 0.6-1.2 s alone
        frames = await wait_for_widgets(pilot, app)
        elapsed = time.process_time() - t0
        assert {f.file for f in frames} == {
            "campus-events/widgets/week.json",
            "canteen/widgets/crowd.json",
            "classrooms/widgets/overview.json",
            "grades/widgets/gpa.json",
            "notices/widgets/latest.json",
            "shuttle/widgets/next.json",
            "wallet/widgets/balance.json",
        }
        assert [f.file for f in frames if f.has_class("-error")] == []
        assert elapsed < 5.0  # 1.5 s in a real terminal on this machine; the test box may be busier
        titles = {str(f.border_title) for f in frames}
        assert {"二教空闲教室", "食堂人流", "校园卡", "去昌平的校车"} <= titles


async def test_every_tab_opens_by_key(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        tabs = app.query_one(TabbedContent)
        for key, tab in (("2", "assistant"), ("3", "plugins"), ("4", "settings"), ("1", "home")):
            await pilot.press(key)
            assert tabs.active == tab
            if tab == "assistant":  # 助手 opens in its text box, where digits type: Esc leaves it
                await until(pilot, lambda: app.focused is app.query_one("#chat-input"))
                await pilot.press("escape")
        tools = app.query_one("#tools", DataTable)
        assert tools.row_count == len(app.runtime.registry.tools()) == 31  # 14 plugin tools, 17 host tools
        permissions = app.query_one("#permissions", DataTable)
        assert permissions.row_count == 7


async def test_refresh_refills_the_dashboard(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        before = app.runtime.audit.recent(500)
        await pilot.press("r")
        await wait_for_widgets(pilot, app)
        assert len(app.runtime.audit.recent(500)) > len(before)  # forced: every source ran again


async def test_english(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale="en")
    async with app.run_test(size=(120, 45)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        titles = {str(f.border_title) for f in frames}
        assert {"Free rooms in 二教", "Canteen crowds", "Campus card", "Shuttle to Changping"} <= titles


async def test_a_broken_widget_is_an_error_card_and_the_rest_still_render(app: PkuHarnessApp) -> None:
    plugin = app.runtime.registry.plugins["wallet"].plugin
    plugin.widgets["balance"] = {
        "spec": 1,
        "kind": "widget",
        "title": "坏",
        "source": "balance",
        "body": {"type": "text", "text": "${range(1000).map(i => range(1000).map(j => j))}"},
    }
    async with app.run_test(size=(120, 45)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        broken = [f for f in frames if f.has_class("-error")]
        assert [f.file for f in broken] == ["wallet/widgets/balance.json"]
        assert len(frames) == 7


def text_in_the_background_colour(svg: str) -> list[str]:
    """Text of an exported screenshot drawn in the colour of the cell behind it: there, but nobody can read it."""
    cells = [
        (float(m[2]), float(m[3]), float(m[4]), float(m[5]), m[1])
        for m in re.finditer(
            r'<rect fill="(#[0-9a-f]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg
        )
    ]
    fills = dict(re.findall(r"\.(terminal-(?:\d+-)?r\d+) \{ fill: (#[0-9a-f]{6})", svg))
    unreadable = []
    for t in re.finditer(r'<text class="(terminal-(?:\d+-)?r\d+)" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg):
        x, y, text = float(t[2]), float(t[3]), html.unescape(t[4])
        behind = [fill for cx, cy, w, h, fill in cells if cx <= x < cx + w and cy <= y <= cy + h]
        if text.strip() and behind and fills.get(t[1]) == behind[-1]:
            unreadable.append(text)
    return unreadable


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_no_widget_text_is_drawn_in_the_background_colour(tmp_path: Path, theme: str) -> None:
    """The README's first picture drew the shuttle's text (and at times the events and notices) in the background
    colour: widgets drawn before the app's own styles were applied kept Textual's transparent default colour.
    Taken the way the snapshots and the README's pictures are (a fresh headless run), where it showed."""
    from textual._doc import take_svg_screenshot

    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    app.runtime.settings.set("theme", theme)

    async def filled(pilot: Any) -> None:
        await wait_for_widgets(pilot, app)

    svg = take_svg_screenshot(app=app, terminal_size=(120, 45), run_before=filled)
    assert "去昌平的校车" in svg
    assert text_in_the_background_colour(svg) == []


def test_dashboard_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)

    async def filled(pilot: Any) -> None:
        await wait_for_widgets(pilot, app)

    assert snap_compare(app, terminal_size=(120, 45), run_before=filled)


async def test_a_permission_changed_in_settings_is_stored(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        await open_settings_section(pilot, app, "permissions")
        table = app.query_one("#permissions", DataTable)
        table.focus()
        row = sorted(app.runtime.registry.plugins).index("wallet")
        table.move_cursor(row=row, column=3)  # money
        await pilot.pause()
        assert str(table.get_cell_at(table.cursor_coordinate)) == "先询问"  # ask, in the UI's language
        await pilot.press("enter")
        await pilot.pause()
        assert str(table.get_cell_at(table.cursor_coordinate)) == "不能执行"  # deny
        assert app.runtime.grants.chosen() == {("wallet", "money"): "deny"}
        assert app.runtime.gate.mode(app.runtime.registry.find("wallet.recharge")) == "deny"  # type: ignore[arg-type]


async def test_language_and_theme_switch_in_settings_and_are_remembered(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        await pilot.press("4")
        app.query_one("#theme", Select).value = "light"
        await pilot.pause()
        assert app.theme == "pku-light"
        app.query_one("#language", Select).value = "en"
        for _ in range(100):  # the shell recomposes in English; wait for it, never a fixed sleep
            await pilot.pause(0.05)
            labels = [str(tab.label) for tab in app.query("ContentTab")]
            settings = app.query_one(TabbedContent).active == "settings"
            if labels[:1] == ["Home"] and settings and app.query("#reach"):  # the pane mounts after the tabs
                break
        assert app.query_one(TabbedContent).active == "settings"
        assert labels[:4] == ["Home", "Assistant", "Plugins", "Settings"]
        tools = app.runtime.registry.find("classrooms.free")
        assert tools is not None and tools.title == "Free classrooms"  # plugin texts from i18n.en
        reach = app.query_one("#reach", DataTable)
        assert [str(c.label) for c in reach.columns.values()][:3] == ["Plugin", "Campus", "Websites"]
    again = make_app(demo=True, data_dir=tmp_path, now=NOW)
    assert again.locale == "en" and again.runtime.settings.get("theme") == "light"
    assert make_app(demo=True, data_dir=tmp_path, now=NOW, locale="zh").locale == "zh"  # --lang wins


async def test_settings_show_reach_and_the_audit_log(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        await app.recompose()  # the audit table is built from the store: the dashboard's reads are in it now
        await pilot.press("4")
        reach = app.query_one("#reach", DataTable)
        rows = [[str(c) for c in reach.get_row_at(i)] for i in range(reach.row_count)]
        assert ["校园卡", "校园卡", "—", "以你的身份打开校园网页"] in rows  # in words, not card / campusPage
        assert ["空闲教室", "—", "portal.pku.edu.cn", "—"] in rows
        audit = app.query_one("#audit", DataTable)
        tools = {str(audit.get_row_at(i)[1]) for i in range(audit.row_count)}
        assert "wallet.cardBalance" in tools
        assert {str(audit.get_row_at(i)[2]) for i in range(audit.row_count)} == {"你"}  # the actor: user


async def test_help_lists_keys_and_the_palette_has_the_apps_commands(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.query("KeyPanel")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        # screens by their titles, never their ids; a screen named like its plugin once
        assert {"首页", "设置", "切换语言：English", "刷新全部小组件", "空闲教室", "校车 · 校车时刻表"} <= set(titles)
        assert not [title for title in titles if "search" in title or "timetable" in title]
        await pilot.press("f1")
        await pilot.pause()
        assert not app.screen.query("KeyPanel")


@pytest.mark.parametrize(("locale", "word"), [("zh", "退出"), ("en", "Quit")])
async def test_the_key_panel_says_quit_once(tmp_path: Path, locale: str, word: str) -> None:
    """F1 showed "^q q 退出 退出 App，回到命令行。": Textual's tooltip repeated the description after it."""
    app = make_app(demo=True, data_dir=tmp_path, now="2026-11-30T12:00:00+08:00", locale=locale)
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.press("f1")
        await until(pilot, lambda: bool(app.screen.query("BindingsTable")))
        table = app.screen.query_one("BindingsTable")
        console = Console(width=80, color_system=None)
        with console.capture() as drawn:
            console.print(table.render())
        lines = drawn.get().splitlines()
        quit_line = next(line for line in lines if "^q" in line)
        assert quit_line.count(word) == 1 and quit_line.count(word.lower()) <= 1, quit_line


@pytest.mark.parametrize(("width", "columns", "size"), [(120, 2, "medium"), (80, 1, "medium"), (56, 1, "small")])
async def test_narrow_terminals_get_one_column_and_small_widgets(
    tmp_path: Path, width: int, columns: int, size: str
) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(width, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        await pilot.pause(0.1)
        await app.workers.wait_for_complete()
        frames = list(app.query(WidgetFrame))
        lefts = {f.region.x for f in frames}
        assert len(lefts) == columns
        assert all(f.region.right <= width for f in frames)  # nothing runs off the screen
        assert app.query_one("Dashboard").tiny is (size == "small")
        await pilot.press("4")  # the other tabs still open
        assert app.query_one(TabbedContent).active == "settings"


FEED_MANIFEST = """\
---
spec: 1
id: feed
name: 动态
description: A widget whose source can only fail (nothing is recorded for it).
version: 1.0.0
author: tests
network: [feed.example.com]
tools:
  latest:
    title: 最新
    description: The latest items.
    effect: read
    steps:
      - let: res
        request: { url: "https://feed.example.com/latest" }
    return: res
dataSources:
  latest: { tool: latest, ttl: 1m }
widgets:
  latest: widgets/latest.json
---
Feed.
"""

FEED_WIDGET = {
    "spec": 1,
    "kind": "widget",
    "title": "动态",
    "source": "latest",
    "refresh": {"every": "30s"},
    "body": {"type": "text", "text": "${data.headline}"},
}


def feed_plugin(tmp_path: Path) -> Path:
    folder = tmp_path / "feed"
    (folder / "widgets").mkdir(parents=True)
    (folder / "PLUGIN.md").write_text(FEED_MANIFEST, encoding="utf-8")
    (folder / "widgets" / "latest.json").write_text(json.dumps(FEED_WIDGET, ensure_ascii=False), encoding="utf-8")
    return folder


async def test_a_failed_refresh_keeps_the_last_good_data_with_its_age(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path / "data", now=NOW, extra=[feed_plugin(tmp_path)])
    twelve_minutes_ago = int(time.time() * 1000) - 12 * 60_000
    app.runtime.store.db.execute(
        "INSERT INTO data_cache (plugin, source, value, fetched_ms) VALUES ('feed', 'latest', ?, ?)",
        (json.dumps({"headline": "图书馆延长开放"}), twelve_minutes_ago),
    )
    async with app.run_test(size=(120, 50)) as pilot:
        frames = await wait_for_widgets(pilot, app, count=8)
        feed = next(f for f in frames if f.file.startswith("feed/"))
        assert str(feed.border_title) == "动态 ⟳ 12 分钟前"
        assert "图书馆延长开放" in [str(s.render()) for s in feed.query(Static)]
        assert not feed.has_class("-error")


async def test_a_source_that_never_answers_becomes_load_timeout(tmp_path: Path, monkeypatch: Any) -> None:
    # A first run fills the cache, so the other widgets' reads are a store lookup inside the short timeout even on a
    # busy CI machine (CI once saw the demo's notices read take over 2.5 s while starved of CPU).
    warm = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with warm.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, warm)
    # 15 s in the app; short here
    monkeypatch.setattr("tui.app.widgets.dashboard.LOAD_TIMEOUT_S", 2.5)
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    real_read = app.runtime.sources.read

    async def canteen_hangs(source_id: str, **kwargs: Any) -> Any:
        if source_id.startswith("canteen."):
            await asyncio.sleep(30)  # a server that accepted the connection and never answered
        return await real_read(source_id, **kwargs)

    app.runtime.sources.read = canteen_hangs  # type: ignore[method-assign]
    async with app.run_test(size=(120, 45)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        canteen = next(f for f in frames if f.file.startswith("canteen/"))
        assert canteen.has_class("-error")
        text = " ".join(str(s.render()) for s in canteen.query("Static, Button"))
        assert "服务太久没有回应" in text and "重试 r" in text and "LOAD_TIMEOUT" not in text  # a sentence, an action
        assert canteen.error is not None and "LOAD_TIMEOUT" in canteen.error.detail()  # the code is in 详情
        assert "2.5 秒内没有取到数据" in canteen.error.detail()
        assert [f.file for f in frames if f.has_class("-error")] == ["canteen/widgets/crowd.json"]


async def test_ticks_reevaluate_only_while_the_dashboard_is_shown(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        dashboard = app.query_one(Dashboard)
        shuttle = next(i for i, s in enumerate(dashboard.slots) if s.plugin_id == "shuttle")
        calls = len(app.runtime.audit.recent(500))
        dashboard.tick(shuttle, dashboard.slots[shuttle])
        await app.workers.wait_for_complete()
        assert dashboard.ticks == 1
        assert len(app.runtime.audit.recent(500)) == calls  # within the ttl: re-evaluated, not refetched
        await pilot.press("2")
        await pilot.pause()
        dashboard.tick(shuttle, dashboard.slots[shuttle])
        assert dashboard.ticks == 1  # hidden: no tick


def test_tick_cadence_is_clamped_to_the_floor() -> None:
    assert tick_seconds({"refresh": {"every": "1m"}}) == 60
    assert tick_seconds({"refresh": {"every": "5s"}}) == 30
    assert tick_seconds({"refresh": {"every": "soon"}}) is None
    assert tick_seconds({}) is None


async def test_the_student_reorders_resizes_removes_and_adds_widgets(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        dashboard = app.query_one(Dashboard)
        order = [s.id for s in dashboard.slots]
        wallet = next(f for f in app.query(WidgetFrame) if f.file.startswith("wallet/"))
        wallet.focus()
        await pilot.press("left_square_bracket")
        await wait_for_widgets(pilot, app)
        assert [s.id for s in dashboard.slots] == [*order[:-2], "wallet/balance", order[-2]]
        assert isinstance(app.focused, WidgetFrame) and app.focused.file.startswith("wallet/")  # focus follows
        await pilot.press("s")  # wallet: small (its default) → medium
        await wait_for_widgets(pilot, app)
        assert next(s for s in dashboard.slots if s.id == "wallet/balance").size == "medium"
        frame = next(f for f in app.query(WidgetFrame) if f.file.startswith("wallet/"))
        assert frame.query("ProgressBar")  # the medium-only progress bar now shows
        await pilot.press("x")
        await wait_for_widgets(pilot, app, count=6)
        assert "wallet/balance" not in [s.id for s in dashboard.slots]
        next(iter(app.query(WidgetFrame))).focus()
        await pilot.press("a")
        await until(pilot, lambda: app.screen.query("#choices"))
        listed = app.screen.query_one("#choices", OptionList)
        # What a student knows the widget by (a new student saw the raw id `wallet/balance`).
        assert [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)] == ["校园卡"]
        await pilot.press("enter")  # the one removed widget is the only choice
        await wait_for_widgets(pilot, app)
        assert [s.id for s in dashboard.slots][-1] == "wallet/balance"
    again = make_app(demo=True, data_dir=tmp_path, now=NOW)
    assert [s.id for s in slots(again.runtime)][-1] == "wallet/balance"  # stored, not just shown


async def test_a_removed_widget_comes_back_in_its_place_with_u(tmp_path: Path) -> None:
    """A new student pressed `x` by mistake: the widget went without a word. Now it says so, and `u` undoes it."""
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        dashboard = app.query_one(Dashboard)
        before = [(s.id, s.size) for s in dashboard.slots]
        assert not dashboard.check_action("undo", ())  # nothing to undo yet: no `u` in the footer
        said = said_by(app)
        second = list(app.query(WidgetFrame))[1]
        second.focus()
        await pilot.press("x")
        # what was said, not what still shows: the note lasts 5 s, and a busy CI box took longer than that to look
        await until(pilot, lambda: any("按 u 撤销" in m for m in said), 15)
        await wait_for_widgets(pilot, app, count=len(before) - 1)
        assert len(dashboard.slots) == len(before) - 1
        assert dashboard.check_action("undo", ())
        await pilot.press("u")
        await wait_for_widgets(pilot, app, count=len(before))
        assert [(s.id, s.size) for s in dashboard.slots] == before
        assert isinstance(app.focused, WidgetFrame) and app.focused.file.startswith(before[1][0].split("/")[0] + "/")
        assert not dashboard.check_action("undo", ())


def test_demo_mode_runs_at_the_recordings_time_unless_told_otherwise(tmp_path: Path) -> None:
    from tui.runtime.runtime import DEMO_NOW

    assert make_app(demo=True, data_dir=tmp_path / "a").now == DEMO_NOW
    assert make_app(demo=True, data_dir=tmp_path / "b", now=NOW.replace("12:00", "08:00")).now.startswith(
        "2026-11-30T08"
    )
    assert make_app(data_dir=tmp_path / "c").now is None  # the real app uses the real clock


async def test_a_widget_moved_down_stays_in_sight(tmp_path: Path) -> None:
    """At 80×24 `]` moved the first widget below the screen's edge and the page did not follow: the student lost
    sight of what they were moving. The moved widget keeps the focus and the page scrolls to it."""
    app = make_app(demo=True, data_dir=tmp_path, now="2026-11-30T12:00:00+08:00")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_widgets(pilot, app)
        first = next(f for f in app.query(WidgetFrame) if f.id == "slot-0")
        first.focus()
        moved = first.file
        for _ in range(6):
            await pilot.press("right_square_bracket")
            await until(pilot, lambda: isinstance(app.focused, WidgetFrame) and app.focused.file == moved)
            focused = app.focused
            assert isinstance(focused, WidgetFrame)
            pane = next(a for a in focused.ancestors if getattr(a, "is_scrollable", False) and a.max_scroll_y)

            def in_sight(pane: Any = pane, frame: WidgetFrame = focused) -> bool:
                shown, region = pane.content_region, frame.region
                return shown.y <= region.y and region.bottom <= shown.bottom

            await until(pilot, in_sight)  # the scroll follows after the next refresh (slow under load)
        assert focused.id != "slot-0"  # it did move


@pytest.mark.parametrize("locale", ["zh", "en"])
async def test_the_footer_always_keeps_the_help_key(tmp_path: Path, locale: str) -> None:
    """At 80 columns the English dashboard's footer dropped F1 (the last hint) — the key that lists all others."""
    from textual.widgets._footer import FooterKey

    app = make_app(demo=True, data_dir=tmp_path, now="2026-11-30T12:00:00+08:00", locale=locale)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_widgets(pilot, app)
        for key in ("x", "escape"):  # after a removal the footer has one more key (u undo)
            await pilot.press(key)
            await pilot.pause(0.2)
            actions = [k.action for k in app.screen.query(FooterKey)]
            assert "help" in actions and "command_palette" in actions, actions


@pytest.mark.parametrize(
    ("locale", "said"), [("zh", "演示模式：11-30 12:00 的录制数据"), ("en", "data recorded 11-30 12:00")]
)
async def test_the_demo_header_says_which_day_it_shows(tmp_path: Path, locale: str, said: str) -> None:
    """The dashboard's 今天 is the recordings' day (11-30) while checks and the audit run on the real clock; a
    student could not tell which day "today" was."""
    app = make_app(demo=True, data_dir=tmp_path, now="2026-11-30T12:00:00+08:00", locale=locale)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert said in app.sub_title


async def test_a_large_widget_takes_the_row(tmp_path: Path) -> None:
    """Found by a new student: `s` on 校园活动 switched medium ↔ large and nothing changed on the screen."""
    from widgets_render.textual_render import WidgetFrame

    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        first = app.query_one("#slot-0", WidgetFrame)
        assert first.file.startswith("campus-events/") and first.region.width < 70
        first.focus()
        await pilot.press("s")  # medium → large
        await until(pilot, lambda: app.query("#slot-0") and app.query_one("#slot-0").region.width > 120, 10)


async def test_a_large_widget_in_the_right_column_takes_a_row_of_its_own_without_a_loading_flash(
    tmp_path: Path,
) -> None:
    """An outsider's run: `s` on 食堂人流 (the right column) toasted 大 and the widget stayed half-wide (Textual's grid
    clipped it to its column), and every widget flashed 加载中 on each `s`."""
    from widgets_render.textual_render import WidgetFrame

    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(130, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        canteen = next(f for f in app.query(WidgetFrame) if f.file.startswith("canteen/"))
        assert canteen.region.x > 0  # the right column
        canteen.focus()
        await pilot.press("s")  # medium → large
        assert not app.query(".loading")  # the relayout shows the frames it had, not 加载中
        wide = lambda: [f for f in app.query(WidgetFrame) if f.file.startswith("canteen/") and f.region.width > 120]  # noqa: E731
        await until(pilot, wide, 10)
        first = next(f for f in app.query(WidgetFrame) if f.file.startswith("campus-events/"))
        assert first.region.x == 0 and wide()[0].region.y > first.region.y  # the row before keeps its widget
        await pilot.resize_terminal(90, 40)  # one column, then two again: spans and gaps follow, in place
        await until(pilot, lambda: not app.query(".grid-gap"), 10)
        await pilot.resize_terminal(130, 40)
        await until(pilot, lambda: wide() and app.query(".grid-gap"), 10)
        assert wide()[0].region.x == 0
