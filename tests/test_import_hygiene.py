"""The language never pulls in the UI or the runtime (architecture.md rules 2-3), checked in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys


def imported_after(module: str) -> set[str]:
    code = f"import sys, json; import {module}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out))


def test_the_expression_language_imports_no_ui_and_no_runtime() -> None:
    mods = imported_after("tui.lang.expr")
    assert not {m for m in mods if m == "textual" or m.startswith(("textual.", "tui.app", "tui.runtime", "tui.cli"))}


def test_widgets_render_package_is_importable_without_textual() -> None:
    mods = imported_after("widgets_render")
    assert "textual" not in mods
