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


def test_the_abilities_table_is_generated_from_their_declarations() -> None:
    """§16 is `reference_markdown()` (tui/runtime/ability_signatures.py), and every ability the manifest knows is
    declared there: the docs cannot drift from what the checks accept."""
    from tui.lang.documents.manifest import ABILITIES
    from tui.runtime.ability_signatures import SIGNATURES, reference_markdown

    assert {f"{g}.{op}" for g, ops in ABILITIES.items() for op in ops} == set(SIGNATURES)
    text = DOC.read_text("utf-8")
    assert reference_markdown() in text, "§16 is stale: run python -m tui.runtime.ability_signatures"
