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


def test_json_schemas_for_editors_are_up_to_date() -> None:
    from tui.lang.documents.schemas import render, schemas

    folder = DOC.parent / "schemas"
    for name, schema in schemas().items():
        path = folder / name
        assert path.exists(), f"missing {path}: run python -m tui.lang.documents.schemas docs/schemas"
        assert path.read_text("utf-8") == render(schema), f"{name} is stale: run python -m tui.lang.documents.schemas"
    manifest = schemas()["manifest.schema.json"]
    assert set(manifest["required"]) == {"spec", "id", "name", "description", "version", "author"}
    assert manifest["properties"]["description"]["description"] == "What the plugin does, 4-200 characters."
