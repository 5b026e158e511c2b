"""What a plugin author sees in `widget preview` when the plugin has problems: the widget, rendered as far as it
can be, and every problem beside it (file:line, message, hint).

Regenerate after an intended change: `pytest tests/app/test_preview_snapshots.py --snapshot-update` (and look at it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.app.preview_plugins import NOW, broken, rooms_data, settled
from tui.app.preview import PreviewApp


def test_problems_beside_a_broken_widget(snap_compare: Any, tmp_path: Path) -> None:
    app = PreviewApp(broken(tmp_path), "overview", "medium", rooms_data(tmp_path), now=NOW)

    async def shown(pilot: Any) -> None:
        await settled(pilot, app)

    assert snap_compare(app, terminal_size=(120, 30), run_before=shown)
