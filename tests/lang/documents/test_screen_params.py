"""Opening a screen is checked the same way wherever it happens (issue 21): an `open:` action, a quick command in
the manifest. The params it requires must be given, no others, and a literal value of an enum param must be in
its enum — each found with its line and a hint."""

from __future__ import annotations

import shutil
from pathlib import Path

from tui.lang.documents.problems import Problem
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "lectures"


def errors_after(tmp_path: Path, file: str, old: str, new: str) -> list[Problem]:
    folder = tmp_path / "lectures"
    shutil.copytree(EXAMPLE, folder)
    text = (folder / file).read_text("utf-8")
    assert old in text, old
    (folder / file).write_text(text.replace(old, new, 1), "utf-8")
    loaded, found = validate(DirectorySource(folder))
    assert loaded is None, "the broken plugin validated"
    return [p for p in found if p.severity == "error"]


COMMANDS = "  science: { title: 理工讲座, screen: list, params: { topic: 理工 } }"


def test_a_command_opening_a_screen_without_its_required_param(tmp_path: Path) -> None:
    found = errors_after(tmp_path, "PLUGIN.md", COMMANDS, COMMANDS + "\n  one: { title: 一场, screen: detail }")
    assert [(p.code, p.line) for p in found] == [("OPEN_PARAM_MISSING", 39)]
    said = "command 'one': screen 'detail' requires the param 'id', and the command does not give it"
    assert found[0].message == said
    assert found[0].hint == "add params: { id: … }"


def test_a_command_giving_a_param_the_screen_does_not_declare_and_a_value_not_in_its_enum(tmp_path: Path) -> None:
    found = errors_after(tmp_path, "PLUGIN.md", "params: { topic: 理工 }", "params: { topic: 数学, topc: 1 }")
    by_code = {p.code: p for p in found}
    assert sorted(by_code) == ["BAD_ENUM_VALUE", "OPEN_PARAM_UNKNOWN"]
    assert by_code["BAD_ENUM_VALUE"].message == (
        "command 'science': param 'topic' of screen 'list': '数学' is not one of 全部, 人文, 社科, 理工"
    )
    assert by_code["OPEN_PARAM_UNKNOWN"].message == "command 'science': screen 'list' has no param 'topc'"
    assert by_code["OPEN_PARAM_UNKNOWN"].hint == "did you mean 'topic'?"
    assert {p.line for p in found} == {38} and by_code["OPEN_PARAM_UNKNOWN"].column == 62


def test_a_renamed_param_in_an_open_action_is_one_problem_naming_both(tmp_path: Path) -> None:
    found = errors_after(
        tmp_path, "screens/list.json", '"params": { "id": "${item.id}" }', '"params": { "ids": "${item.id}" }'
    )
    assert [p.code for p in found] == ["OPEN_PARAM_UNKNOWN"]
    assert "has no param 'ids', and it requires 'id', which this action does not give" in found[0].message
    assert found[0].hint == "did you mean 'id'?" and found[0].line == 32


def test_an_open_action_with_a_literal_value_outside_the_enum(tmp_path: Path) -> None:
    found = errors_after(tmp_path, "widgets/next.json", '"params": { "topic": "全部" }', '"params": { "topic": "人" }')
    assert [p.code for p in found] == ["BAD_ENUM_VALUE"]
    assert found[0].hint == "did you mean '人文'?"


def test_a_param_renamed_to_something_else_entirely_is_still_one_problem(tmp_path: Path) -> None:
    """An outsider renamed `id` to `roomId` and got two problems; one given, one missing is a rename."""
    found = errors_after(
        tmp_path, "screens/list.json", '"params": { "id": "${item.id}" }', '"params": { "lectureKey": "${item.id}" }'
    )
    assert [p.code for p in found] == ["OPEN_PARAM_UNKNOWN"]
    assert "has no param 'lectureKey', and it requires 'id'" in found[0].message
    assert found[0].hint == "rename it to 'id'"


def test_a_screen_that_does_not_load_is_not_said_to_declare_no_params(tmp_path: Path) -> None:
    """A screen file cut short is its own problem; the screens opening it are not told it declares no params."""
    folder = tmp_path / "lectures"
    shutil.copytree(EXAMPLE, folder)
    detail = folder / "screens" / "detail.json"
    detail.write_text(detail.read_text("utf-8")[:200], "utf-8")
    _, found = validate(DirectorySource(folder))
    assert [(p.file, p.code) for p in found if p.severity == "error"] == [("screens/detail.json", "JSON_SYNTAX")]


def test_a_screen_reading_a_param_it_does_not_declare(tmp_path: Path) -> None:
    """`${params.idx}` rendered blank; now it is said, with the declared one."""
    found = errors_after(tmp_path, "screens/detail.json", "params.id", "params.idx")
    assert {(p.code, p.hint) for p in found} == {("UNKNOWN_MEMBER", "did you mean 'id'?")}
    assert "params.idx is not a declared param of this screen" in found[0].message
