"""The twelve mistakes of the author probe (issue 21), each made in a copy of the official classrooms plugin: the
validator says where (file, line and column), a stable code, and a hint saying what to write instead."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tui.cli.main import cli
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate

OFFICIAL = Path(__file__).resolve().parents[3] / "plugins_builtin" / "classrooms"


def plugin(tmp_path: Path, **edits: tuple[str, str]) -> Path:
    """A copy of classrooms with each file's (old, new) replacement made (`tools__free_yaml` → tools/free.yaml)."""
    folder = tmp_path / "classrooms"
    shutil.copytree(OFFICIAL, folder)
    for name, (old, new) in edits.items():
        path = folder / name.replace("__", "/").replace("_yaml", ".yaml").replace("_json", ".json").replace(
            "_md", ".md"
        )
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


def problems_of(folder: Path) -> list[Problem]:
    loaded, found = validate(DirectorySource(folder))
    assert loaded is None, "the broken plugin validated"
    return [p for p in found if p.severity == "error"]


def only(folder: Path, code: str) -> Problem:
    """The one error of the plugin: one mistake, one error (no follow-on errors)."""
    found = problems_of(folder)
    assert [p.code for p in found] == [code], [str(p) for p in found]
    return found[0]


def line_of(folder: Path, file: str, needle: str) -> int:
    lines = (folder / file).read_text(encoding="utf-8").split("\n")
    return next(i for i, text in enumerate(lines, 1) if needle in text)


def test_1_an_unquoted_colon_in_a_value_says_put_it_in_quotes(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path, tools__free_yaml=('error: "空闲教室查询未成功，请稍后再试"', "error: 空闲教室: 查询未成功")
    )
    p = only(folder, "YAML_SYNTAX")
    assert (p.file, p.line, p.column) == ("tools/free.yaml", 28, 16)
    assert p.message == "not valid YAML: mapping values are not allowed here"
    assert p.hint == "a value holding ': ' must be put in quotes: error: \"空闲教室: 查询未成功\""


def test_2_a_misspelt_step_key_is_named_at_its_column_with_the_nearest_kind(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        tools__free_yaml=(
            '  - check: "pages.every',
            "  - let: x\n    requst: { url: 'https://portal.pku.edu.cn/' }\n  - check: \"pages.every",
        ),
    )
    p = only(folder, "STEP_UNKNOWN_KIND")
    assert (p.file, p.line, p.column) == ("tools/free.yaml", 28, 5)
    assert (p.message, p.hint) == ("unknown step key 'requst'", "did you mean 'request'?")


def test_2b_a_misspelt_key_in_a_step_that_binds_a_name_hides_no_later_use(tmp_path: Path) -> None:
    """The `each` step did not load: the `pages` it binds is used twice later, which was two more errors."""
    folder = plugin(
        tmp_path, tools__free_yaml=("    request:\n      url: https://portal", "    requst:\n      url: https://portal")
    )
    p = only(folder, "UNKNOWN_KEY")
    assert (p.file, p.line, p.column) == ("tools/free.yaml", 23, 5)
    assert p.hint == "did you mean 'request'?"


def test_3_a_domain_reached_through_a_shared_constant_must_be_declared(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        shared_yaml=("constants:\n", "constants:\n  API: https://api.example.com/v1\n"),
        tools__free_yaml=(
            "url: https://portal.pku.edu.cn/publicQuery/classroomQuery/retrClassRoomFree.do",
            "url: '${API}/rooms'",
        ),
    )
    p = only(folder, "URL_NOT_ALLOWED")
    assert (p.file, p.line, p.column) == ("tools/free.yaml", 24, 12)
    assert "api.example.com is not declared in the manifest's network list" in p.message
    assert "the constant API" in p.message
    assert p.hint == "add api.example.com to the manifest's network"


def test_4_a_read_tool_cannot_add_a_todo(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        PLUGIN_md=("network: [portal.pku.edu.cn]", "network: [portal.pku.edu.cn]\nabilities: [todos]"),
        tools__free_yaml=(
            '  - check: "pages.every',
            '  - ability: todos.add\n    args: "({ title: \'x\' })"\n  - check: "pages.every',
        ),
    )
    p = only(folder, "ABILITY_STRONGER_EFFECT")
    assert (p.file, p.line, p.column) == ("tools/free.yaml", 27, 14)
    assert p.message == "a read tool cannot use todos.add, which is a write operation"
    assert p.hint == "declare this tool effect: write, or move the todos.add step to a write tool"


def test_5_an_unknown_data_source_suggests_the_nearest(tmp_path: Path) -> None:
    folder = plugin(tmp_path, widgets__overview_json=('"source": "overview"', '"source": "overviw"'))
    p = only(folder, "SOURCE_UNKNOWN")
    assert (p.file, p.line, p.column) == ("widgets/overview.json", 6, 13)
    assert p.hint == "did you mean 'overview'?"


def test_6_a_misspelt_widget_prop_suggests_the_nearest(tmp_path: Path) -> None:
    folder = plugin(tmp_path, widgets__overview_json=('"limit": 4', '"limt": 4'))
    p = only(folder, "UNKNOWN_PROP")
    assert (p.file, p.line, p.column) == ("widgets/overview.json", 18, 46)
    assert (p.message, p.hint) == ("at /body/children/1/limt: unknown prop 'limt'", "did you mean 'limit'?")


def test_7_a_manifest_without_author(tmp_path: Path) -> None:
    folder = plugin(tmp_path, PLUGIN_md=("author: pkuinfo\n", ""))
    p = only(folder, "MISSING_KEY")
    assert (p.file, p.line, p.column) == ("PLUGIN.md", 2, 1)
    assert (p.message, p.hint) == ("missing required key 'author'", "add author: … (Who wrote it)")


def test_8_a_template_that_does_not_parse_is_shown_at_its_character(tmp_path: Path) -> None:
    folder = plugin(tmp_path, widgets__overview_json=('"text": "${item.room}"', '"text": "${item.room +}"'))
    p = only(folder, "TEMPLATE_SYNTAX")
    # The quote before `${item.room +}` is at column 37; the `}` that ends it too early is its 14th character.
    assert (p.file, p.line, p.column) == ("widgets/overview.json", 20, 37 + 14)
    assert p.message.startswith("at /body/children/1/item/children/0/text: ")


def test_9_a_lookbehind_is_refused_with_what_re2_can_do(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        tools__free_yaml=(
            '  - check: "pages.every',
            "  - check: \"test(input.building ?? '', '(?<=a)b') || true\"\n    error: x\n  - check: \"pages.every",
        ),
    )
    p = only(folder, "REGEX_UNSUPPORTED")
    assert (p.file, p.line, p.column) == ("tools/free.yaml", 27, 12)
    assert "lookbehind" in p.message
    assert "capture group" in p.hint


def test_10_a_recorded_exchange_that_does_not_match_is_a_failing_test(tmp_path: Path) -> None:
    """A `plugin test` error (recorded tests are their own worker's): the run names the tool's line and the
    closest recorded request."""
    folder = plugin(tmp_path, tests__free_yaml=("buildingName=一教&", "buildingName=一教X&"))
    result = CliRunner().invoke(cli, ["plugin", "test", str(folder)])
    assert result.exit_code == 1
    assert "tools/free.yaml:20: no recorded exchange for GET" in result.output
    assert "the closest recorded one is GET" in result.output


def test_11_a_version_that_is_not_semver_gets_the_version_to_write(tmp_path: Path) -> None:
    folder = plugin(tmp_path, PLUGIN_md=("version: 1.0.0", "version: v1.2"))
    p = only(folder, "VERSION_NOT_SEMVER")
    assert (p.file, p.line, p.column) == ("PLUGIN.md", 6, 10)
    assert p.hint == "write 1.2.0"


def test_12_a_file_over_512_kb_is_refused_where_it_is_named(tmp_path: Path) -> None:
    folder = plugin(tmp_path)
    (folder / "tools" / "free.yaml").write_text("# x\n" * 140_000, encoding="utf-8")
    p = only(folder, "PLUGIN_TOO_LARGE")
    assert (p.file, p.line, p.column) == ("PLUGIN.md", 12, 9)
    assert "560,000 bytes" in p.message
    assert "512 KB" in p.hint


# -- the checks the validator makes ------------------------------------------------------------------------
def test_a_loop_of_shared_functions_is_reported_once_in_the_shared_file(tmp_path: Path) -> None:
    folder = plugin(tmp_path, shared_yaml=("functions:\n", "functions:\n  a(x): 'b(x)'\n  b(x): 'a(x)'\n"))
    p = only(folder, "FUNCTION_CYCLE")
    assert (p.file, p.line, p.column) == ("shared.yaml", line_of(folder, "shared.yaml", "a(x)"), 3)


def test_a_misspelt_tone_is_refused_with_the_nearest(tmp_path: Path) -> None:
    folder = plugin(tmp_path, widgets__overview_json=('"tone": "muted" } }', '"tone": "accnet" } }'))
    p = only(folder, "BAD_ENUM_VALUE")
    assert p.hint == "did you mean 'accent'?"
    assert (p.line, p.column) == (12, 108)


def test_a_source_alias_the_screen_does_not_declare(tmp_path: Path) -> None:
    folder = plugin(tmp_path, screens__search_json=('"${item.seats}"', '"${sources.rooms.seats}"'))
    p = only(folder, "SOURCE_ALIAS_UNKNOWN")
    assert p.file == "screens/search.json" and p.line == line_of(folder, "screens/search.json", "sources.rooms")
    assert p.column is not None and "sources.rooms" in p.message


def test_opening_a_screen_without_a_param_it_requires(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path,
        screens__search_json=(
            '"building": { "type": "string", "default": "二教", "optional": true }',
            '"building": { "type": "string" }',
        ),
        widgets__overview_json=(', "params": { "building": "二教" }', ""),
    )
    p = only(folder, "OPEN_PARAM_MISSING")
    assert (p.file, p.line) == ("widgets/overview.json", 13)
    assert "requires the param 'building'" in p.message and '"params"' in p.hint


def test_a_tool_that_does_not_load_makes_no_noise_in_the_screen_that_invokes_it(tmp_path: Path) -> None:
    folder = plugin(
        tmp_path, tools__free_yaml=('error: "空闲教室查询未成功，请稍后再试"', "error: 空闲教室: 查询未成功")
    )
    assert [p.file for p in problems_of(folder)] == ["tools/free.yaml"]


def test_format_json_prints_every_problem_as_data(tmp_path: Path) -> None:
    folder = plugin(tmp_path, PLUGIN_md=("version: 1.0.0", "version: v1"))
    result = CliRunner().invoke(cli, ["plugin", "validate", "--format", "json", str(folder)])
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["ok"] is False
    assert out["problems"] == [
        {
            "file": "PLUGIN.md",
            "line": 6,
            "column": 10,
            "code": "VERSION_NOT_SEMVER",
            "severity": "error",
            "message": "version: version 'v1' must be a semantic version like 1.2.0",
            "hint": "write 1.0.0",
        }
    ]


@pytest.mark.parametrize("folder", sorted(p.name for p in OFFICIAL.parent.iterdir() if (p / "PLUGIN.md").is_file()))
def test_format_json_on_an_official_plugin_is_ok_and_empty(folder: str) -> None:
    result = CliRunner().invoke(cli, ["plugin", "validate", "--format", "json", str(OFFICIAL.parent / folder)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ok"] is True and json.loads(result.stdout)["problems"] == []


def test_every_problem_code_is_listed_in_the_language_reference() -> None:
    root = OFFICIAL.parents[1]
    sources = [*(root / "tui/lang/documents").glob("*.py"), root / "widgets_render/validate.py"]
    used = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        used |= set(
            re.findall(r'(?:code=|add\(|Diagnostic\(|fail\([^)]*?, )"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{5,})"', text)
        )
        used |= set(re.findall(r'"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"', text))
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", (root / "docs/PLUGIN-LANGUAGE.md").read_text(encoding="utf-8")))
    assert len(used) > 60
    assert used <= documented, sorted(used - documented)


def test_a_malformed_signature_is_one_error_not_one_more_at_every_call(tmp_path: Path) -> None:
    """An outsider wrote `'label(e, )'`: the validator also said "unknown name 'label'" where it was called."""
    folder = plugin(tmp_path, shared_yaml=("  canonical(name):", "  canonical(name, ):"))
    p = only(folder, "FUNCTION_SIGNATURE")
    assert (p.file, p.line) == ("shared.yaml", line_of(folder, "shared.yaml", "canonical(name, )"))
