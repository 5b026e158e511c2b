"""A widget's `states` (issue 18 items 4 and 5) on the dashboard: its own loading, empty, stale and error states are
shown when they apply, the app's defaults otherwise; stale data says how old the data is (the cache entry's age,
"2 天前"), not when the refresh failed ("刚刚")."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from tests.app.helpers import until
from tests.app.test_error_cards import only
from tui.app.app import PkuHarnessApp, make_app
from tui.lang.steps.interpreter import Interpreter
from widgets_render.error_view import ErrorView
from widgets_render.textual_render import WidgetFrame

FLAKY = Path(__file__).resolve().parents[1] / "fixtures" / "plugins" / "flaky"
BEFORE = "2026-11-28T12:00:00+08:00"
NOW = "2026-11-30T12:00:00+08:00"
SIZE = (100, 24)


def flaky(data_dir: Path, widget: str, now: str = NOW, up: bool = False) -> PkuHarnessApp:
    app = only(make_app(data_dir=data_dir, now=now, extra=[FLAKY]), f"flaky/{widget}")
    app.demo = False
    app.runtime.set_plugin_setting("flaky", "up", "true" if up else "false")
    return app


def frame(app: PkuHarnessApp) -> WidgetFrame | None:
    frames = [f for f in app.screen_stack[0].query(WidgetFrame) if "loading" not in f.classes]
    return frames[0] if frames else None


async def shown(pilot: Any, app: PkuHarnessApp, words: str) -> WidgetFrame:
    await until(pilot, lambda: (f := frame(app)) is not None and words in frame_text(f), 15)
    found = frame(app)
    assert found is not None
    return found


def frame_text(f: WidgetFrame) -> str:
    from textual.widgets import Static

    return " ".join(str(s.render()) for s in f.query(Static)) + " " + str(f.border_title or "")


async def keep_a_good_answer(data_dir: Path, widget: str) -> None:
    """Two days before: the service answered, and the plugin's cache kept the answer."""
    app = flaky(data_dir, widget, now=BEFORE, up=True)
    async with app.run_test(size=SIZE) as pilot:
        await shown(pilot, app, "1 间空教室")


async def refresh_while_down(pilot: Any, app: PkuHarnessApp) -> None:
    """Now the service fails; `r` on the widget fetches anew (its dashboard cache is still fresh)."""
    found = await shown(pilot, app, "1 间空教室")
    found.focus()
    await pilot.press("r")


async def test_stale_data_says_its_age_from_the_cache_entry(tmp_path: Path) -> None:
    await keep_a_good_answer(tmp_path, "plain")
    app = flaky(tmp_path, "plain")
    async with app.run_test(size=SIZE) as pilot:
        await refresh_while_down(pilot, app)
        found = await shown(pilot, app, "⟳ 2 天前")
        assert "刚刚" not in frame_text(found) and "1 间空教室" in frame_text(found)


async def test_a_widgets_own_stale_state_takes_the_place_of_the_mark(tmp_path: Path) -> None:
    await keep_a_good_answer(tmp_path, "stated")
    app = flaky(tmp_path, "stated")
    async with app.run_test(size=SIZE) as pilot:
        await refresh_while_down(pilot, app)
        found = await shown(pilot, app, "这是 2 天前的数据")
        assert "⟳" not in frame_text(found) and "1 间空教室" in frame_text(found)  # the data stays, under it


async def test_a_widgets_own_error_state_words_the_card_which_keeps_its_actions(tmp_path: Path) -> None:
    app = flaky(tmp_path, "stated")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen_stack[0].query(ErrorView), 15)
        card = app.screen_stack[0].query_one(ErrorView)
        assert card.card.summary == "教务暂时连不上，过一会儿再看"
        assert [a for a, _ in card.card.actions] == ["retry", "detail"]
        assert "教室服务暂时不可用" in card.card.message  # the plugin's own error stays the detail


async def test_without_an_error_state_the_card_says_the_apps_sentence(tmp_path: Path) -> None:
    app = flaky(tmp_path, "plain")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen_stack[0].query(ErrorView), 15)
        assert app.screen_stack[0].query_one(ErrorView).card.summary == "教室服务暂时不可用"


async def test_an_empty_answer_shows_the_empty_state(tmp_path: Path) -> None:
    app = flaky(tmp_path, "nothing")
    async with app.run_test(size=SIZE) as pilot:
        found = await shown(pilot, app, "现在一间空教室也没有")
        assert "0 间" not in frame_text(found)


async def test_the_first_load_shows_the_loading_state(tmp_path: Path, monkeypatch: Any) -> None:
    release = threading.Event()
    real = Interpreter.eval

    def slow(self: Interpreter, source: str, scope: Any, state: Any) -> Any:
        if self.plugin.manifest.id == "flaky":
            release.wait(10)  # the service takes its time
        return real(self, source, scope, state)

    monkeypatch.setattr(Interpreter, "eval", slow)
    app = flaky(tmp_path, "stated", up=True)
    try:
        async with app.run_test(size=SIZE) as pilot:
            loading = lambda: [f for f in app.query(WidgetFrame) if "loading" in f.classes]  # noqa: E731
            await until(pilot, lambda: loading() and "正在问教务…" in frame_text(loading()[0]), 10)
            release.set()
            await shown(pilot, app, "1 间空教室")
            assert not loading()
    finally:
        release.set()
