"""Regenerate `screenshots/*.svg` from the demo app: `python scripts/screenshots.py [OUT_DIR]`.

Each scene drives the real app with Textual's pilot on the demo data and a fixed clock, so the pictures
change only when the app does.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.widgets import Select

from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.review import InstallReviewDialog, UpdateApprovalDialog
from tui.app.preview import PreviewApp
from tui.app.samples import SAMPLE_INSTALL, SAMPLE_UPDATE
from tui.app.screens.tool_form import ToolFormScreen
from tui.app.widgets.settings_page import SECTIONS
from widgets_render.textual_render import GenButton, WidgetFrame

NOW = "2026-11-30T12:00:00+08:00"
SIZE = (120, 40)
ROOT = Path(__file__).resolve().parent.parent


async def settle(pilot: Any, app: App[Any], rounds: int = 4) -> None:
    """Let workers finish and the screen repaint (never a blind sleep alone)."""
    for _ in range(rounds):
        await pilot.pause(0.05)
        await app.workers.wait_for_complete()


async def filled(pilot: Any, app: PkuHarnessApp) -> None:
    for _ in range(200):
        await pilot.pause(0.05)
        if len(app.query(WidgetFrame)) >= 7:
            break
    await settle(pilot, app)


async def dashboard(pilot: Any, app: PkuHarnessApp) -> None:
    await filled(pilot, app)


async def plugin_screen(pilot: Any, app: PkuHarnessApp) -> None:
    await filled(pilot, app)
    frame = next(f for f in app.query(WidgetFrame) if f.file.startswith("classrooms/"))
    frame.focus()
    await pilot.press("enter")
    await settle(pilot, app)
    await pilot.click(app.screen.query_one(GenButton))
    await settle(pilot, app)


async def tool_form(pilot: Any, app: PkuHarnessApp) -> None:
    await filled(pilot, app)
    tool = app.runtime.registry.find("shuttle.timetable")
    assert tool is not None
    await app.push_screen(ToolFormScreen(app.runtime, tool, app.locale, app.now))
    await settle(pilot, app)
    next(s for s in app.screen.query(Select) if s.name == "to").value = "昌平校区"
    await pilot.click(app.screen.query_one(GenButton))
    await settle(pilot, app)


def tab(key: str) -> Callable[[Any, PkuHarnessApp], Awaitable[None]]:
    """A scene that opens one of the shell's tabs by its key, once the dashboard is filled."""

    async def scene(pilot: Any, app: PkuHarnessApp) -> None:
        await filled(pilot, app)
        await pilot.press(key)
        await settle(pilot, app)

    return scene


plugins = tab("3")


async def assistant(pilot: Any, app: PkuHarnessApp) -> None:
    """助手 with its message box focused; the cursor does not blink (a blink made the picture random)."""
    await tab("2")(pilot, app)
    for box in app.query("#chat-input"):
        box.cursor_blink = False  # type: ignore[attr-defined]
    await settle(pilot, app)


async def settings(pilot: Any, app: PkuHarnessApp) -> None:
    """设置 on its 权限 section: the section list (focused) and a table beside it."""
    await tab("4")(pilot, app)
    await pilot.press(*["down"] * [key for key, _, _ in SECTIONS].index("permissions"))  # the list's order may change
    await settle(pilot, app)


async def install_review(pilot: Any, app: PkuHarnessApp) -> None:
    await filled(pilot, app)
    app.push_screen(InstallReviewDialog(SAMPLE_INSTALL, app.locale))
    await settle(pilot, app)


async def update_approval(pilot: Any, app: PkuHarnessApp) -> None:
    await filled(pilot, app)
    app.push_screen(UpdateApprovalDialog(SAMPLE_UPDATE, app.locale))
    await settle(pilot, app)


async def plugin_draft(pilot: Any, app: PkuHarnessApp) -> None:
    """助手 beside a plugin draft: the one the demo model writes (files, ✓, its widget on the recorded data)."""
    from tui.runtime.chat.demo_writer import DRAFT, FILES

    for path, content in FILES.items():
        app.runtime.drafts.write(DRAFT, path, content)
    await filled(pilot, app)
    app.open_draft(DRAFT)
    for _ in range(100):
        panels = app.query("DraftPanel")
        if panels and panels.first().settled and panels.first().view is not None:  # type: ignore[attr-defined]
            break
        await pilot.pause(0.05)
    for box in app.query("#chat-input"):
        box.cursor_blink = False  # type: ignore[attr-defined]
    await settle(pilot, app, rounds=8)


SCENES: dict[str, Callable[[Any, PkuHarnessApp], Awaitable[None]]] = {
    "dashboard": dashboard,
    "plugin-screen": plugin_screen,
    "tool-form": tool_form,
    "settings": settings,
    "plugins": plugins,
    "plugin-draft": plugin_draft,
    "install-review": install_review,
    "update-approval": update_approval,
}


async def shoot(out: Path) -> list[Path]:
    """Write every scene's SVG into `out`; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, scene in SCENES.items():
        with tempfile.TemporaryDirectory() as data:
            app = make_app(demo=True, data_dir=Path(data), now=NOW, locale="zh")
            async with app.run_test(size=SIZE) as pilot:
                await scene(pilot, app)
                written.append(Path(app.save_screenshot(f"{name}.svg", str(out))))
    preview = PreviewApp(ROOT / "plugins_builtin" / "canteen", now=NOW)
    async with preview.run_test(size=SIZE) as pilot:
        await settle(pilot, preview, rounds=8)
        written.append(Path(preview.save_screenshot("widget-preview.svg", str(out))))
    return written


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots"
    for path in asyncio.run(shoot(out)):
        print(path.relative_to(out.parent) if path.is_relative_to(out.parent) else path)


if __name__ == "__main__":
    main()
