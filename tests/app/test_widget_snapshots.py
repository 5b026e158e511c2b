"""Every official widget at each size it supports, in Chinese and English, on its recorded data (QA's view).

Regenerate after an intended change: `pytest tests/app/test_widget_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tui.app.preview import PreviewApp

NOW = "2026-11-30T12:00:00+08:00"
BUILTIN = Path(__file__).resolve().parents[2] / "plugins_builtin"


def cases() -> list[Any]:
    out = []
    for spec_file in sorted(BUILTIN.glob("*/widgets/*.json")):
        spec = json.loads(spec_file.read_text(encoding="utf-8"))
        plugin, widget = spec_file.parent.parent.name, spec_file.stem
        for size in spec.get("sizes") or ["medium"]:
            for locale in ("zh", "en"):
                out.append(pytest.param(plugin, widget, size, locale, id=f"{plugin}-{widget}-{size}-{locale}"))
    return out


@pytest.mark.parametrize(("plugin", "widget", "size", "locale"), cases())
def test_official_widget_snapshot(snap_compare: Any, plugin: str, widget: str, size: str, locale: str) -> None:
    app = PreviewApp(BUILTIN / plugin, widget, size, locale=locale, now=NOW)

    async def filled(pilot: Any) -> None:
        for _ in range(4):
            await pilot.pause(0.05)
            await app.workers.wait_for_complete()

    assert snap_compare(app, terminal_size=(100, 22), run_before=filled)


def test_every_official_widget_is_covered() -> None:
    widgets = {(c.values[0], c.values[1]) for c in cases()}
    assert len(widgets) == len(list(BUILTIN.glob("*/widgets/*.json"))) == 7
    assert {c.values[0] for c in cases()} == {p.name for p in BUILTIN.iterdir() if (p / "widgets").is_dir()}
