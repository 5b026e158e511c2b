"""Plugin and tool text is data in the real app, driven by the pilot: a hostile community plugin puts
`[@click=app.screenshot('x','.')]` (and `[/]`, `[bold`, terminal escapes) into its name, its widget's title, a
button label, a submit label, a select option, a screen and the tool results behind a toast. Clicking each place
where that text shows writes no file, the text shows as written, broken markup does not crash the app, and no
ESC, C1, bidi or zero-width character reaches the rendered segments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.widgets import Select

from tests.app.helpers import settle, until
from tests.app.test_app import NOW
from tests.fixtures.hostile import BROKEN, CLICK, ESCAPES, FORBIDDEN, hostile_plugin
from tui.app.app import PkuHarnessApp, make_app
from tui.app.screens.plugin_screen import PluginScreen
from widgets_render.textual_render import GenButton, WidgetFrame

SHOT = "x"  # what CLICK would save in the working directory


def lines(app: Any) -> list[str]:
    """The text of every line of the screen as painted now, toasts and overlays included: the compositor's
    strips are what the driver writes to the terminal, less the style escapes Textual adds itself."""
    return ["".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips()]


def painted(app: Any, within: Any = None) -> str:
    """The screen's text as painted now, or only the part inside a widget's region."""
    if within is None:
        return "\n".join(lines(app))
    r = within.region
    strips = app.screen._compositor.render_strips()[r.y : r.bottom]
    return "\n".join(strip.crop(r.x, r.right).text for strip in strips)


async def click_text(pilot: Any, app: Any, needle: str, within: Any = None) -> None:
    """Click the first cell where `needle` is painted (inside `within`'s region when given), whatever is on top."""
    region = within.region if within is not None else app.screen.region
    for y, line in enumerate(lines(app)):
        start = line.find(needle)
        while start != -1:
            x = cell_len(line[:start])
            if region.contains(x, y):
                await pilot.click(offset=(x, y))
                return
            start = line.find(needle, start + 1)
    raise AssertionError(f"{needle!r} is not on the screen in {region}:\n{painted(app)}")


def hostile_app(tmp_path: Path, shown: str, data: str) -> PkuHarnessApp:
    """The demo app with the hostile plugin, its widgets alone on the dashboard."""
    folder = hostile_plugin(tmp_path / "hostile", shown, data)
    app = make_app(demo=True, data_dir=tmp_path / "data", now=NOW, extra=[folder])
    ids = [f"{pid}/{name}" for pid, inst in app.runtime.registry.plugins.items() for name in inst.plugin.widgets]
    for widget in ids:
        if not widget.startswith("hostile/"):
            app.runtime.layout.remove(ids, widget)
    return app


@pytest.fixture
def clicks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working directory a screenshot action would write into (and must not)."""
    where = tmp_path / "cwd"
    where.mkdir()
    monkeypatch.chdir(where)
    return where


async def dashboard(pilot: Any, app: PkuHarnessApp) -> list[WidgetFrame]:
    await until(pilot, lambda: len(app.query(WidgetFrame)) == 2)
    await settle(pilot, app)
    return list(app.query(WidgetFrame))


async def open_main(pilot: Any, app: PkuHarnessApp) -> PluginScreen:
    app.open_screen("hostile", "main")
    await until(pilot, lambda: isinstance(app.screen, PluginScreen) and bool(app.screen.query(GenButton)))
    await settle(pilot, app)
    assert isinstance(app.screen, PluginScreen)
    return app.screen


async def test_clicking_a_hostile_widget_title_runs_no_action(tmp_path: Path, clicks: Path) -> None:
    app = hostile_app(tmp_path, CLICK, CLICK)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        frame = next(f for f in await dashboard(pilot, app) if f.file == "hostile/widgets/card.json")
        title = painted(app, frame).splitlines()[0]
        await click_text(pilot, app, "点我", within=frame)
        await settle(pilot, app)
        assert not (clicks / SHOT).exists()
        assert CLICK in title  # the border title, literally


async def test_clicking_a_hostile_button_label_runs_no_action(tmp_path: Path, clicks: Path) -> None:
    app = hostile_app(tmp_path, CLICK, CLICK)
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        screen = await open_main(pilot, app)
        labels = [str(b.label) for b in screen.query(GenButton)]
        for button in screen.query(GenButton):
            await click_text(pilot, app, "点我", within=button)
            await settle(pilot, app)
        assert not (clicks / SHOT).exists()
        assert labels == [CLICK, CLICK]  # the button and the form's submit, as written


async def test_clicking_a_tool_result_in_a_toast_runs_no_action(tmp_path: Path, clicks: Path) -> None:
    """The button's openUrl shows the tool's `url` (not https) in a toast: the toast shows it literally."""
    app = hostile_app(tmp_path, "打开", CLICK)
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        screen = await open_main(pilot, app)
        await pilot.click(screen.query_one(GenButton))
        await until(pilot, lambda: bool(app.screen.query("Toast")))
        await settle(pilot, app)
        toast = app.screen.query_one("Toast")
        shown = str(toast.render())
        await click_text(pilot, app, "点我", within=toast)
        await settle(pilot, app)
        assert not (clicks / SHOT).exists()
        assert "[@click=app.screenshot(" in shown


async def test_clicking_a_hostile_select_option_runs_no_action(tmp_path: Path, clicks: Path) -> None:
    app = hostile_app(tmp_path, CLICK, CLICK)
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        screen = await open_main(pilot, app)
        await pilot.click(screen.query_one(Select))
        await until(pilot, lambda: bool(screen.query("SelectOverlay")) and screen.query_one("SelectOverlay").display)
        await settle(pilot, app)
        overlay = screen.query_one("SelectOverlay")
        shown = painted(app, overlay)
        await click_text(pilot, app, "点我", within=overlay)
        await settle(pilot, app)
        assert not (clicks / SHOT).exists()
        assert CLICK in shown  # the open list shows the option label as written


async def test_clicking_a_hostile_plugin_name_in_the_command_palette_runs_no_action(
    tmp_path: Path, clicks: Path
) -> None:
    app = hostile_app(tmp_path, CLICK, "x")
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        await dashboard(pilot, app)
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        await pilot.press(*"点我")  # the screen is named like its plugin: the palette shows the name once
        await until(pilot, lambda: bool(app.screen.query("CommandList")) and "点我" in painted(app))
        await settle(pilot, app)
        commands = app.screen.query_one("CommandList")
        shown = painted(app, commands)
        await click_text(pilot, app, "点我", within=commands)
        await settle(pilot, app)
        assert not (clicks / SHOT).exists()
        assert CLICK in shown


async def test_broken_markup_everywhere_shows_literally_and_never_crashes(tmp_path: Path) -> None:
    """Surviving is the point: `[/]` raises a MarkupError wherever a str is read as markup."""
    app = hostile_app(tmp_path, BROKEN, BROKEN)
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        await dashboard(pilot, app)
        assert BROKEN in painted(app)
        await pilot.press("ctrl+p", *"坏")
        await until(pilot, lambda: bool(app.screen.query("CommandList")))
        await until(pilot, lambda: BROKEN in painted(app, app.screen.query_one("CommandList")))
        await pilot.press("escape")
        screen = await open_main(pilot, app)
        assert [str(b.label) for b in screen.query(GenButton)] == [BROKEN, BROKEN]
        await pilot.click(screen.query_one(GenButton))  # the toast with the tool's url
        await until(pilot, lambda: bool(app.screen.query("Toast")))
        await pilot.click(screen.query_one(Select))
        await settle(pilot, app)
        assert app.is_running and painted(app).count(BROKEN) >= 3


async def test_escapes_in_a_widget_error_and_a_screen_never_reach_the_terminal(tmp_path: Path) -> None:
    app = hostile_app(tmp_path, "坏", "坏" + ESCAPES)
    async with app.run_test(size=(110, 40), notifications=True) as pilot:
        frames = await dashboard(pilot, app)
        assert [f.file for f in frames if f.has_class("-error")] == ["hostile/widgets/broken.json"]
        shown = painted(app)
        assert "gnp.exe" in shown and not [c for c in FORBIDDEN if c in shown]  # the error card, cleaned
        screen = await open_main(pilot, app)
        await pilot.click(list(screen.query(GenButton))[-1])  # submit: the broken tool's error, inline
        await until(pilot, lambda: screen.error is not None)
        await settle(pilot, app)
        await pilot.click(screen.query_one(GenButton))  # and the tool's url in a toast
        await until(pilot, lambda: bool(app.screen.query("Toast")))
        await settle(pilot, app)
        shown = painted(app)
        assert shown.count("gnp.exe") >= 3 and not [c for c in FORBIDDEN if c in shown]
