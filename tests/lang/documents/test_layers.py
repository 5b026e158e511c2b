"""Independent problems are reported together (issue 21, outsider's finding 7): a bad value in a tool's
definition or in a test case does not hide the other problems of the same tool or case, and a typo of a
required key is one problem, at the typo."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.lang.documents.test_author_probe import line_of, plugin, problems_of
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.lang.testing.checks import check_test_file

SHOWCASE = Path(__file__).resolve().parents[2] / "fixtures" / "plugins" / "showcase"


def test_a_bad_effect_hides_no_unknown_name_in_the_same_tool(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        tools__free_yaml=("effect: read", "effect: reed"),
    )
    text = (folder / "tools" / "free.yaml").read_text("utf-8")
    text = text.replace('value: "input.building ?', 'value: "inptu.building ?', 1)
    text = text.replace("day: DAYS[input.day],", "day: undefined,", 1)
    (folder / "tools" / "free.yaml").write_text(text, "utf-8")
    found = problems_of(folder)
    said = [(p.file, p.line, p.code, p.message) for p in found]
    assert said == [
        ("tools/free.yaml", line_of(folder, "tools/free.yaml", "effect: reed"), "BAD_ENUM_VALUE", said[0][3]),
        ("tools/free.yaml", line_of(folder, "tools/free.yaml", "inptu"), "UNKNOWN_NAME", "value: unknown name 'inptu'"),
        (
            "tools/free.yaml",
            said[2][1],
            "EXPR_SYNTAX",
            "return: 'undefined' is not part of the plugin language: use null",
        ),
    ], said
    assert found[1].hint == "did you mean 'input'?"


def test_a_bad_effect_does_not_make_its_calls_errors(tmp_path: Path) -> None:
    """Whether a tool may use an ability depends on its effect: unknown, that check is a follow-on."""
    folder = plugin(tmp_path, tools__free_yaml=("effect: read", "effect: reed"))
    text = (folder / "tools" / "free.yaml").read_text("utf-8")
    text = text.replace(
        "  - let: buildings\n", "  - ability: todos.add\n    args: '({ title: \"x\" })'\n  - let: buildings\n"
    )
    (folder / "tools" / "free.yaml").write_text(text, "utf-8")
    codes = [p.code for p in problems_of(folder)]
    assert codes == ["BAD_ENUM_VALUE", "ABILITY_UNDECLARED"], codes


def test_a_typo_of_a_required_key_is_one_problem_at_the_typo(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        tools__free_yaml=(
            "  - let: pages\n",
            "  - let: paged\n    paginate:\n      request: { url: 'https://portal.pku.edu.cn/x' }\n"
            "      nxet: res.next\n      items: res.items\n  - let: pages\n",
        ),
    )
    found = problems_of(folder)
    assert [(p.code, p.line, p.column) for p in found] == [
        ("UNKNOWN_KEY", line_of(folder, "tools/free.yaml", "nxet"), 7)
    ], [str(p) for p in found]
    assert found[0].message == "unknown key 'nxet' in paginate"
    assert found[0].hint == "did you mean 'next'? (next is required)"


def test_a_wrong_type_in_a_case_hides_none_of_that_case_s_other_problems(tmp_path: Path) -> None:
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    (folder / "tests" / "t.yaml").write_text(
        "tool: echo\n"
        "cases:\n"
        "  - name: first\n"
        "    input: { text: a }\n"
        "    expect: A\n"
        "    expectStale: maybe\n"
        "    settings: { colour: red }\n"
        "    abilities: [{ call: todos.ad }]\n"
        "  - nmae: second\n"
        "    input: { text: b }\n"
        "    expect: B\n"
        "    settings: { shade: blue }\n",
        "utf-8",
    )
    loaded, _ = validate(DirectorySource(folder))
    assert loaded is not None
    tf, found = check_test_file(loaded, DirectorySource(folder), "tests/t.yaml")
    assert tf is None
    said = sorted((p.line, p.column, p.code, p.hint) for p in found)
    assert said == [
        (6, 18, "WRONG_TYPE", "write true or false (no quotes)"),
        (7, 17, "TEST_SETTING_UNKNOWN", said[1][3]),
        (8, 19, "ABILITY_UNKNOWN", "did you mean 'todos.add'?"),
        (9, 5, "UNKNOWN_KEY", "did you mean 'name'? (name is required)"),
        (12, 17, "TEST_SETTING_UNKNOWN", said[4][3]),
    ], said
