"""SVG snapshots of the draft panel in 助手 at 160×45: a draft with a validation problem, and a valid one with its
widget rendered on the recorded test's data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.app.helpers import settle, until
from tests.app.test_chat_pane import NOW, chat_ready
from tests.runtime.draft_plugin import make
from tui.app.app import make_app
from tui.app.widgets.draft_panel import DraftPanel

SIZE = (160, 45)


def scene(tmp_path: Path, broken: bool) -> Any:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    make(app.runtime.drafts, broken=broken)

    async def drive(pilot: Any) -> None:
        (await chat_ready(pilot, app)).cursor_blink = False  # a blinking cursor makes the picture random
        app.open_draft("libnew")
        await until(pilot, lambda: app.query(DraftPanel) and app.query_one(DraftPanel).view is not None, 10)
        await until(pilot, lambda: app.query_one(DraftPanel).settled, 10)
        await settle(pilot, app)

    return app, drive


def test_the_draft_panel_with_a_problem(snap_compare: Any, tmp_path: Path) -> None:
    app, drive = scene(tmp_path, broken=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=drive)


def test_the_draft_panel_with_a_valid_preview(snap_compare: Any, tmp_path: Path) -> None:
    app, drive = scene(tmp_path, broken=False)
    assert snap_compare(app, terminal_size=SIZE, run_before=drive)
