"""Every snapshot scene — each tab, screen and dialog, each official widget — in the dark and the light theme, in
Chinese and English, at 120×40 and 80×24: every text run has 4.5:1 (3:1 bold) against what is behind it, no
focusable widget is narrower than 3 cells or off the screen, the footer cuts no key hint in half.

A scene is driven once per language; the theme and the size change in the same run (as a student changes them),
and each state is read from the compositor (`tests/app/readable.py`), so no SVG baseline is multiplied."""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Button, OptionList, Select

from tests.app.readable import misplaced, unreadable
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.check import CheckDialog
from tui.app.dialogs.credentials import TokenScreen, VaultFileScreen
from tui.app.dialogs.login import LoginScreen
from tui.app.preview import PreviewApp
from tui.app.screens.tool_form import ToolFormScreen
from tui.app.themes import THEMES
from tui.app.widgets.settings_page import SECTIONS
from widgets_render.textual_render import GenButton

ROOT = Path(__file__).resolve().parents[2]
BUILTIN = ROOT / "plugins_builtin"
_spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts" / "screenshots.py")
assert _spec is not None and _spec.loader is not None
shots = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shots)

SIZES = [(120, 40), (80, 24)]


async def check_dialog(pilot: Any, app: PkuHarnessApp) -> None:
    """提醒我… from a shuttle result (tests/app/test_checks_ui.py)."""
    await shots.filled(pilot, app)
    tool = app.runtime.registry.find("shuttle.next")
    assert tool is not None
    form = ToolFormScreen(app.runtime, tool, app.locale, shots.NOW)
    await app.push_screen(form)
    await shots.settle(pilot, app)
    next(s for s in form.query(Select) if s.name == "to").value = "昌平校区"
    await pilot.click(form.query_one(GenButton))
    await shots.settle(pilot, app)
    form.query_one("#notify-me", Button).press()
    await shots.settle(pilot, app)
    assert isinstance(app.screen, CheckDialog)


async def login(pilot: Any, app: PkuHarnessApp) -> None:
    await shots.filled(pilot, app)
    await app.push_screen(LoginScreen(app.runtime.campus, ["treehole"], app.locale))
    await shots.settle(pilot, app)


async def token(pilot: Any, app: PkuHarnessApp) -> None:
    """手机令牌 (设置 → 校园账号): its boxes pushed its buttons off the dialog, so it could not be used."""
    await shots.filled(pilot, app)
    await app.push_screen(TokenScreen(app.runtime.campus, app.locale))
    await shots.settle(pilot, app)


async def vault_file(pilot: Any, app: PkuHarnessApp) -> None:
    await shots.filled(pilot, app)
    await app.push_screen(VaultFileScreen(app.runtime.campus, Path("/tmp/campus.vault"), app.locale))
    await shots.settle(pilot, app)


async def help_panel(pilot: Any, app: PkuHarnessApp) -> None:
    await shots.filled(pilot, app)
    await pilot.press("f1")
    await shots.settle(pilot, app)


async def notifications(pilot: Any, app: PkuHarnessApp) -> None:
    await shots.filled(pilot, app)
    await pilot.press("n")
    await shots.settle(pilot, app)


SHELL: dict[str, Callable[[Any, PkuHarnessApp], Awaitable[None]]] = {
    **shots.SCENES,
    "assistant": shots.assistant,
    "check-dialog": check_dialog,
    "help": help_panel,
    "token": token,
    "vault-file": vault_file,
    "login": login,
    "notifications": notifications,
}


async def look(pilot: Any, app: App[Any], scene: str) -> list[str]:
    """Every problem of the scene in each theme and size, each naming where it was seen. A theme change restyles
    every widget (the slow part): the scene is read in the theme it is in, in the other one, then at the small
    size in that one; where things are does not depend on the colours, so layout is checked at both sizes."""
    problems = []
    if app.size != SIZES[0]:
        await pilot.resize_terminal(*SIZES[0])
        await shots.settle(pilot, app, rounds=2)
    first = "light" if app.theme == THEMES["light"] else "dark"
    second = "dark" if first == "light" else "light"
    for mode, (width, height) in ((first, SIZES[0]), (second, SIZES[0]), (second, SIZES[1])):
        if app.theme != THEMES[mode]:
            app.theme = THEMES[mode]
            await shots.settle(pilot, app, rounds=2)
        if app.size != (width, height):
            await pilot.resize_terminal(width, height)
            await shots.settle(pilot, app, rounds=2)
        where = f"{scene} · {mode} · {width}x{height}"
        problems += [f"{where}: {run}" for run in unreadable(app)]
        if mode == second:
            problems += [f"{where}: {p}" for p in misplaced(app)]
    return problems


async def home(pilot: Any, app: PkuHarnessApp) -> None:
    """Back to the dashboard at the first size, as the app starts: the next scene is driven from there."""
    while len(app.screen_stack) > 1:
        app.pop_screen()
    if app.size != SIZES[0]:
        await pilot.resize_terminal(*SIZES[0])
    await pilot.press("1")
    await shots.settle(pilot, app, rounds=2)


#: Chinese in CI; both languages in the long mode (`MASH_SCALE=2` or more): each walk is about a minute of the
#: suite's ten. English text is still walked in CI by test_one_language (every scene) and, for its layout, by the
#: dark-English settings walk below.
WALK_LOCALES = ["zh", "en"] if int(os.environ.get("MASH_SCALE", "1")) > 1 else ["zh"]


@pytest.mark.parametrize("locale", WALK_LOCALES)
async def test_every_screen_is_readable_and_usable(tmp_path: Path, locale: str) -> None:
    """One app per language walks through every scene (the dashboard fills once: that is most of the time)."""
    app = make_app(demo=True, data_dir=tmp_path, now=shots.NOW, locale=locale)
    problems = []
    async with app.run_test(size=SIZES[0]) as pilot:
        for name, scene in SHELL.items():
            await home(pilot, app)
            await scene(pilot, app)
            problems += await look(pilot, app, f"{name} · {locale}")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(("theme", "locale"), [("light", "zh"), ("dark", "en")])
async def test_a_student_who_chose_a_theme_reads_every_settings_section_and_the_notifications(
    tmp_path: Path, theme: str, locale: str
) -> None:
    """The app started in the theme the student chose, nothing switched since: each section of 设置 and the
    (empty) notification centre. Found by a new student: started in the light theme, the empty tables' line
    ("还没有定时检查…", "还没有通知") was white on light grey (1.4:1); after a theme switch it was not."""
    app = make_app(demo=True, data_dir=tmp_path, now=shots.NOW, locale=locale)
    app.runtime.settings.set("theme", theme)
    problems = []
    async with app.run_test(size=SIZES[0]) as pilot:
        await shots.tab("4")(pilot, app)
        assert app.theme == THEMES[theme]
        sections = app.query_one("#settings-sections", OptionList)
        for index, (key, _, _) in enumerate(SECTIONS):
            sections.highlighted = index
            await shots.settle(pilot, app, rounds=2)
            problems += [f"settings-{key} · {theme}: {run}" for run in unreadable(app)]
            problems += [f"settings-{key} · {theme}: {p}" for p in misplaced(app)]
        await pilot.press("1", "n")
        await shots.settle(pilot, app, rounds=2)
        assert "NotificationCentre" in type(app.screen).__name__
        problems += [f"notifications · {theme}: {run}" for run in unreadable(app)]
    assert problems == [], "\n".join(problems)


def widgets() -> list[Any]:
    out = [pytest.param("canteen", None, None, id="widget-preview")]  # the README's picture: every widget, problems
    for spec_file in sorted(BUILTIN.glob("*/widgets/*.json")):
        spec = json.loads(spec_file.read_text(encoding="utf-8"))
        plugin, widget = spec_file.parent.parent.name, spec_file.stem
        for size in spec.get("sizes") or ["medium"]:
            out.append(pytest.param(plugin, widget, size, id=f"{plugin}-{widget}-{size}"))
    return out


@pytest.mark.parametrize("locale", ["zh", "en"])
@pytest.mark.parametrize(("plugin", "widget", "size"), widgets())
async def test_every_official_widget_is_readable(
    plugin: str, widget: str | None, size: str | None, locale: str
) -> None:
    app = PreviewApp(BUILTIN / plugin, widget, size, locale=locale, now=shots.NOW)
    async with app.run_test(size=SIZES[0]) as pilot:
        await shots.settle(pilot, app)
        problems = await look(pilot, app, f"{plugin}/{widget or '*'} {size or ''} · {locale}")
    assert problems == [], "\n".join(problems)
