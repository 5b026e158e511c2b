"""SVG snapshots of the app's screens, driven exactly like the README screenshots (scripts/screenshots.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from tui.app.app import make_app
from tui.app.screens.plugin_screen import PluginScreen
from widgets_render.textual_render import WidgetFrame

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts" / "screenshots.py")
assert _spec is not None and _spec.loader is not None
shots = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shots)


@pytest.mark.parametrize(
    ("scene", "locale"),
    [
        ("plugin-screen", "zh"),
        ("tool-form", "zh"),
        ("settings", "zh"),
        ("plugins", "zh"),
        ("install-review", "zh"),
        ("update-approval", "zh"),
        ("dashboard", "en"),
        ("plugins", "en"),
        ("settings", "en"),
    ],
)
def test_screen_snapshot(snap_compare: Any, tmp_path: Path, scene: str, locale: str) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=shots.NOW, locale=locale)

    async def drive(pilot: Any) -> None:
        await shots.SCENES[scene](pilot, app)

    assert snap_compare(app, terminal_size=shots.SIZE, run_before=drive)


def test_assistant_tab_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=shots.NOW, locale="zh")

    async def drive(pilot: Any) -> None:
        await shots.assistant(pilot, app)

    assert snap_compare(app, terminal_size=shots.SIZE, run_before=drive)


async def test_a_click_on_a_widget_opens_its_screen(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=shots.NOW)
    async with app.run_test(size=shots.SIZE) as pilot:
        await shots.filled(pilot, app)
        frame = next(f for f in app.query(WidgetFrame) if f.file.startswith("notices/"))
        await pilot.click(frame)
        await shots.settle(pilot, app)
        assert isinstance(app.screen, PluginScreen) and app.screen.screen_name == "list"
