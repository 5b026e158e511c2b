"""The authors' reference stays true: its generated sections match the registry and the engine."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

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


# -- the widgets and screens chapter: its examples are cut from working plugin files ---------------------------

CHAPTER = DOC.parent / "WIDGETS-AND-SCREENS.md"
ROOT = DOC.parent.parent
#: An example and the file it is cut from: `<!-- from: PATH -->` on the line before its fence (indented in a list).
FENCE = re.compile(r"<!-- from: (?P<path>\S+) -->\n[ ]*```(?P<lang>json|yaml)\n(?P<body>.*?)\n[ ]*```", re.S)


def _file_value(path: Path) -> Any:
    """A plugin file as data: JSON, YAML, or a PLUGIN.md's frontmatter."""
    from tui.lang.documents.loader import split_frontmatter

    text = path.read_text("utf-8")
    if path.suffix == ".json":
        return json.loads(text)
    if path.name == "PLUGIN.md":
        split = split_frontmatter(text)
        assert split is not None, path
        text = split[0]
    return _yaml(text)


def _yaml(text: str) -> Any:
    """YAML as the app reads it (strict: `12:30` stays text, duplicate keys are errors)."""
    from tui.lang.documents.yamlsafe import load_yaml

    located, problems = load_yaml(text, "example.yaml")
    assert located is not None, problems
    return located.data


def _fits(part: Any, whole: Any) -> bool:
    """`part` is `whole` with keys left out and list items skipped (in order), at any depth."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and _fits(v, whole[k]) for k, v in part.items())
    if isinstance(part, list):
        if not isinstance(whole, list):
            return False
        rest = iter(whole)
        return all(any(_fits(p, w) for w in rest) for p in part)
    return bool(part == whole and type(part) is type(whole))


def _somewhere(part: Any, whole: Any) -> bool:
    """`part` fits `whole` or one of the values inside it."""
    if _fits(part, whole):
        return True
    inner = whole.values() if isinstance(whole, dict) else whole if isinstance(whole, list) else ()
    return any(_somewhere(part, v) for v in inner)


def _chapter_examples() -> list[tuple[str, str, str]]:
    text = CHAPTER.read_text("utf-8")
    found = [(m["path"], m["lang"], textwrap.dedent(m["body"])) for m in FENCE.finditer(text)]
    # Every JSON or YAML example says where it comes from: one without would be unchecked, and could rot.
    fences = re.findall(r"```(json|yaml)\n", text)
    assert len(found) == len(fences), "a json/yaml block of WIDGETS-AND-SCREENS.md has no <!-- from: PATH --> line"
    return found


def test_the_chapter_examples_are_cut_from_working_files() -> None:
    """Each example is a piece of the file it names, key for key (keys and list items may be left out, never
    changed or added); a whole spec (one with `spec`) is the whole file. The files themselves are validated, replayed
    and rendered by tests/test_examples.py and tests/test_builtin_plugins.py."""
    examples = _chapter_examples()
    assert len(examples) >= 10
    for path, lang, body in examples:
        source = ROOT / path
        assert source.is_file(), path
        part = json.loads(body) if lang == "json" else _yaml(body)
        whole = _file_value(source)
        if isinstance(part, dict) and "spec" in part:
            assert part == whole, f"{path}: the chapter shows the whole file, and it differs"
        assert _somewhere(part, whole), f"{path}: this example is not in the file:\n{body}"


def test_the_chapter_is_linked_from_the_reference_and_the_readme() -> None:
    assert "(WIDGETS-AND-SCREENS.md)" in DOC.read_text("utf-8")
    assert "(docs/WIDGETS-AND-SCREENS.md)" in (ROOT / "README.md").read_text("utf-8")
    for anchor in re.findall(r"\(PLUGIN-LANGUAGE\.md#([\w-]+)\)", CHAPTER.read_text("utf-8")):
        assert f"### {anchor.capitalize()}" in DOC.read_text("utf-8"), anchor
