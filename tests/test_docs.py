"""The authors' reference stays true: its generated sections match the registry and the engine."""

from __future__ import annotations

from pathlib import Path

from tui.lang.expr import FUNCTIONS
from tui.lang.expr.reference import rewrite

DOC = Path(__file__).resolve().parent.parent / "docs" / "PLUGIN-LANGUAGE.md"


def test_generated_sections_are_up_to_date() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert rewrite(text) == text, "run: python -m tui.lang.expr.reference --write docs/PLUGIN-LANGUAGE.md"


def test_every_function_is_documented_with_an_example() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in FUNCTIONS:
        assert f"| `{name}(" in text, name
