"""The language never pulls in the UI or the runtime (architecture.md rules 2-3), checked in a fresh process."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path


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


def test_the_plugins_package_face_loads_nothing_until_a_name_is_used() -> None:
    mods = imported_after("tui.runtime.plugins")
    assert not {m for m in mods if m.startswith("tui.runtime.plugins.")}
    assert "httpx" not in mods


def test_every_name_of_the_plugins_face_is_found_where_it_says() -> None:
    import tui.runtime.plugins as face

    for name in face.__all__:
        assert getattr(face, name) is not None, name
    assert set(face.__all__) == set(face._WHERE)


def test_no_module_of_the_plugins_package_imports_its_face() -> None:
    # the face loads the package's modules; one of them importing the face back would be a circle
    import tui.runtime.plugins as face

    folder = Path(face.__file__).parent
    modules = sorted(p for p in folder.glob("*.py") if p.name != "__init__.py")
    assert len(modules) >= 9
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                face_again = node.module == "tui.runtime.plugins" or (node.level == 1 and not node.module)
                assert not face_again, f"{path.name} imports the face (from tui.runtime.plugins import ...)"
            if isinstance(node, ast.Import):
                assert all(a.name != "tui.runtime.plugins" for a in node.names), path.name
