"""`plugins__reference` and `pku-harness plugin reference`: the whole plugin language, generated from the code's
declarations — complete (every declared thing appears), in sections that each fit the model's copy of a result,
with a worked example that the real validator accepts and whose recorded test the real runner passes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from tui.cli.main import cli
from tui.lang.documents.manifest import ABILITIES, Manifest
from tui.lang.documents.model_markdown import model_schema
from tui.lang.documents.reference_example import EXAMPLE_FILES
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.tool import STEP_KINDS, InputType, ToolDef
from tui.lang.expr.stdlib import FUNCTIONS
from tui.lang.host import HostError
from tui.lang.testing.model import TestFile as RecordedTests
from tui.lang.testing.runner import run_tests
from tui.runtime.gate import MODEL_RESULT_CHARS, Turn, model_copy
from tui.runtime.plugin_reference import SECTIONS, index_markdown, reference, section_markdown, whole_markdown
from tui.runtime.plugins.report import recorded_test_files, validation_report
from tui.runtime.runtime import Runtime
from widgets_render.catalog import ACTION_VERBS, COMPONENTS, SCREEN_NAMES, TEMPLATE_NAMES
from widgets_render.spec import Screen, Widget
from widgets_render.spec_words import MODELS


def _fields(model: type[BaseModel], leave_out: frozenset[str] = frozenset()) -> set[tuple[str, str]]:
    """(model, field) for every field of `model` and of every model it refers to, as the schema names them."""
    schema = model_schema(model)
    found = {(model.__name__, name) for name in schema.get("properties", {}) if name != "$schema"}
    for def_name, definition in schema.get("$defs", {}).items():
        if def_name not in leave_out:
            found |= {(def_name, name) for name in definition.get("properties", {})}
    return found


def _missing(text: str, pairs: set[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted(p for p in pairs if f"`{p[1]}`" not in text)


def test_every_manifest_tool_and_test_field_is_in_its_section() -> None:
    manifest, tools, tests = (section_markdown(s) for s in ("manifest", "tools", "tests"))
    assert not _missing(manifest, _fields(Manifest, frozenset({"ToolDef", "InputField"})))
    assert not _missing(tools, _fields(ToolDef))
    assert not _missing(tests, _fields(RecordedTests))
    for model_name in ("Manifest", "DataSource", "Command", "English", "ToolText"):  # each has its own table
        assert model_name in manifest
    for kind in get_args(InputType):
        assert f"`{kind}`" in tools


def test_every_step_kind_with_every_field() -> None:
    tools = section_markdown("tools")
    for key, model in STEP_KINDS:
        line = next((x for x in tools.splitlines() if x.startswith(f"- **{key}** —")), None)
        assert line is not None, key
        for name in model_schema(model)["properties"]:
            assert name == "let" or f"`{name}`" in line, (key, name)
    assert len(STEP_KINDS) == 12  # and the count the seed names


def test_every_widget_type_prop_action_and_screen_field() -> None:
    widgets, screens = section_markdown("widgets"), section_markdown("screens")
    assert set(COMPONENTS) == set(MODELS)
    for kind, model in MODELS.items():
        line = next(x for x in widgets.splitlines() if x.startswith(f"- **{kind}**"))
        props = set(model_schema(model)["properties"]) - {"type", "id", "when", "sizes", "grow", "tone", "fallback"}
        assert all(f"`{p}`" in line for p in props), kind
    for verb in ACTION_VERBS:
        assert f"`{verb}`*" in widgets
    assert not _missing(widgets, {("Widget", f) for f in model_schema(Widget)["properties"] if f != "$schema"})
    assert not _missing(screens, {("Screen", f) for f in model_schema(Screen)["properties"] if f != "$schema"})
    # every model a screen may hold (components, actions, table columns, tabs …) with every field, in either section
    assert not _missing(widgets + screens, _fields(Screen, frozenset({"I18nText"})))  # I18nText: `{zh,en}`
    assert all(f"`{n}`" in widgets for n in (*TEMPLATE_NAMES, *SCREEN_NAMES))


def test_every_ability_operation_and_library_function() -> None:
    abilities = section_markdown("abilities")
    ops = [f"{group}.{op}" for group, table in ABILITIES.items() for op in table]
    assert len(ops) > 20 and all(f"`{op}`" in abilities for op in ops)
    library = section_markdown("library") + section_markdown("library-text")
    listed = re.findall(r"^- `([A-Za-z]+)\(", library, re.M)
    assert sorted(listed) == sorted(FUNCTIONS)  # each once, none left out


def test_the_worked_example_validates_and_its_test_passes(tmp_path: Path) -> None:
    for path, text in EXAMPLE_FILES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    report = validation_report(tmp_path)
    assert report.ok and report.problems == [] and report.claims == []
    assert report.plugin is not None and set(report.plugin.manifest.widgets) == {"latest"}
    results, problems = run_tests(report.plugin, DirectorySource(tmp_path), recorded_test_files(tmp_path))
    assert problems == [] and [r.passed for r in results] == [True, True] and not any(r.warnings for r in results)
    example = section_markdown("example")
    assert all(text in example for text in EXAMPLE_FILES.values())


def test_sections_fit_one_answer_and_the_whole_is_an_index() -> None:
    for name in SECTIONS:
        text = reference(name)
        assert text.startswith("## ") and len(text) > 500, name
        copy = model_copy({"spec": 1, "section": name, "markdown": text})
        assert len(copy) < MODEL_RESULT_CHARS and "[cut:" not in copy, name  # the model reads it whole
    index = reference(None)
    assert index == reference("") == index_markdown()
    assert all(f"`{name}`" in index for name in SECTIONS) and "new-books" in index
    assert len(whole_markdown()) > MODEL_RESULT_CHARS  # so the index, not the whole, answers without a section
    with pytest.raises(HostError) as refused:
        reference("widget")
    assert "no section 'widget'" in str(refused.value) and all(name in str(refused.value) for name in SECTIONS)


async def test_the_tool_through_the_gate(tmp_path: Path) -> None:
    runtime = Runtime.open(tmp_path / "db.sqlite3")
    tool = runtime.registry.find("plugins__reference")
    assert tool is not None and tool.effect == "read"
    section_field = tool.input["section"]
    assert all(name in str(section_field.description) for name in SECTIONS)
    turn = Turn("s")
    out = await runtime.gate.call("plugins__reference", {"section": "widgets"}, actor="agent", turn=turn)
    assert out.status == "ok" and out.result["markdown"] == section_markdown("widgets")
    assert "[cut:" not in out.model_text
    index = await runtime.gate.call("plugins__reference", {}, actor="agent", turn=turn)
    assert index.status == "ok" and index.result["section"] == "index" and "## Essentials" in index.result["markdown"]
    bad = await runtime.gate.call("plugins__reference", {"section": "nope"}, actor="agent", turn=turn)
    assert bad.status == "error" and "sections: manifest, tools" in bad.message
    assert "read plugins__reference" in runtime.registry.hosts["plugins"].instructions


def test_the_command_line_prints_it() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["plugin", "reference", "abilities"])
    assert out.exit_code == 0 and out.output.strip() == section_markdown("abilities").strip()
    index = runner.invoke(cli, ["plugin", "reference"])
    assert index.exit_code == 0 and index.output.startswith("# Plugin language reference")
    bad = runner.invoke(cli, ["plugin", "reference", "nope"])
    assert bad.exit_code == 2 and "sections: manifest" in bad.output
