"""A corpus of broken plugins, one defect each: `plugin validate` fails on each and names file and line."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tui.cli.main import cli
from tui.lang.documents.source import MemorySource
from tui.lang.documents.validator import validate
from tui.lang.testing.checks import check_test_file

MANIFEST = """---
spec: 1
id: sample
name: 示例
description: A sample plugin for the broken corpus.
version: 1.0.0
author: tests
network: [portal.pku.edu.cn]
abilities: [todos]
tools:
  free: tools/free.yaml
  add: tools/add.yaml
dataSources:
  free: { tool: free, ttl: 5m }
---
Use sample__free.
"""

FREE = """title: 空闲
description: Free rooms.
effect: read
input:
  building: { type: string, default: 二教 }
steps:
  - let: page
    request:
      url: https://portal.pku.edu.cn/q
      query: { b: '${input.building}' }
  - let: rows
    value: "page.rows.filter(r => test(r.room, '^\\\\d+$'))"
return: "rows.map(r => r.room)"
"""

ADD = """title: 加待办
description: Adds a todo.
effect: write
steps:
  - ability: todos.add
    args: "({ title: 'x' })"
"""


def files(**changes: str | bytes | None) -> dict[str, str | bytes]:
    base: dict[str, str | bytes] = {"PLUGIN.md": MANIFEST, "tools/free.yaml": FREE, "tools/add.yaml": ADD}
    for name, text in changes.items():
        path = name.replace("__", "/").replace("_yaml", ".yaml").replace("_md", ".md").replace("_json", ".json")
        if text is None:
            base.pop(path, None)
        else:
            base[path] = text
    return base


def sub(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# (defect, files, file the problem is in, line, reason pattern)
CORPUS = [
    (
        "English label for a field the tool does not have",
        files(
            PLUGIN_md=sub(
                MANIFEST, "---\nUse", "i18n: { en: { tools: { free: { input: { bulding: B } } } } }\n---\nUse"
            )
        ),
        "PLUGIN.md",
        15,
        "i18n names no input field 'bulding' of tool 'free'",
    ),
    (
        "a title for a value the enum lacks",
        files(
            tools__free_yaml=sub(
                FREE, "{ type: string, default: 二教 }", "{ enum: [二教, 三教], enumTitles: { 四教: x } }"
            )
        ),
        "tools/free.yaml",
        5,
        "enumTitles names '四教', not one of the enum's values",
    ),
    (
        "value titles on a field without an enum",
        files(tools__free_yaml=sub(FREE, "{ type: string, default", "{ enumTitles: { a: b }, type: string, default")),
        "tools/free.yaml",
        5,
        "enumTitles is only for a field with an enum",
    ),
    (
        "English title for a value the enum lacks",
        files(
            tools__free_yaml=sub(FREE, "{ type: string, default: 二教 }", "{ enum: [二教, 三教] }"),
            PLUGIN_md=sub(
                MANIFEST,
                "---\nUse",
                "i18n:\n  en:\n    tools:\n      free:\n        enumTitles:\n"
                "          building: { 二教: No. 2, 四教: No. 4 }\n---\nUse",
            ),
        ),
        "PLUGIN.md",
        20,
        "i18n gives a title to '四教', not a value of free's 'building'",
    ),
    (
        "English value titles for a field without an enum",
        files(
            PLUGIN_md=sub(
                MANIFEST,
                "---\nUse",
                "i18n: { en: { tools: { free: { enumTitles: { building: { a: b } } } } } }\n---\nUse",
            )
        ),
        "PLUGIN.md",
        15,
        "i18n names no enum field 'building' of tool 'free'",
    ),
    (
        "English texts for a setting the plugin does not have",
        files(
            PLUGIN_md=sub(
                MANIFEST,
                "---\nUse",
                "settings: { size: { type: integer, default: 1 } }\n"
                "i18n: { en: { settings: { sise: { title: S } } } }\n---\nUse",
            )
        ),
        "PLUGIN.md",
        16,
        "i18n names no setting 'sise'",
    ),
    (
        "an English title for a command the plugin does not have",
        files(PLUGIN_md=sub(MANIFEST, "---\nUse", "i18n: { en: { commands: { today: Today } } }\n---\nUse")),
        "PLUGIN.md",
        15,
        "i18n names no command 'today'",
    ),
    (
        "field title too long",
        files(tools__free_yaml=sub(FREE, "{ type: string, default", "{ title: '" + "楼" * 41 + "', type: string, d")),
        "tools/free.yaml",
        5,
        "input.building.title: 41 characters, at most 40 characters allowed",
    ),
    (
        "path escape",
        files(PLUGIN_md=sub(MANIFEST, "tools/add.yaml", "../add.yaml")),
        "PLUGIN.md",
        12,
        "leaves the plugin folder",
    ),
    (
        "undeclared host",
        files(tools__free_yaml=sub(FREE, "https://portal.pku.edu.cn/q", "https://evil.example.com/q")),
        "tools/free.yaml",
        9,
        "evil.example.com is not declared",
    ),
    (
        "plain http",
        files(tools__free_yaml=sub(FREE, "https://portal", "http://portal")),
        "tools/free.yaml",
        9,
        "only https://",
    ),
    (
        "syntax error",
        files(tools__free_yaml=sub(FREE, "rows.map(r => r.room)", "rows.map(r => r.room +)")),
        "tools/free.yaml",
        13,
        "return: expected a value, found '\\)'\nrows.map",
    ),
    (
        "unbound name",
        files(tools__free_yaml=sub(FREE, "rows.map(r => r.room)", "rowz.map(r => r.room)")),
        "tools/free.yaml",
        13,
        "unknown name 'rowz'",
    ),
    (
        "bad version",
        files(PLUGIN_md=sub(MANIFEST, "version: 1.0.0", "version: v1")),
        "PLUGIN.md",
        6,
        "semantic version like 1.2.0",
    ),
    (
        "short description",
        files(PLUGIN_md=sub(MANIFEST, "description: A sample plugin for the broken corpus.", "description: abc")),
        "PLUGIN.md",
        5,
        "at least 4 characters",
    ),
    (
        "bad effect",
        files(tools__add_yaml=sub(ADD, "effect: write", "effect: delete")),
        "tools/add.yaml",
        3,
        "effect: Input should be 'read', 'write', 'money' or 'public'",
    ),
    (
        "RE2-incompatible regex",
        files(tools__free_yaml=sub(FREE, "'^\\\\d+$'", "'(?<=a)\\\\d+'")),
        "tools/free.yaml",
        12,
        "lookbehind",
    ),
    (
        "unquoted object expression",
        files(tools__add_yaml=sub(ADD, "args: \"({ title: 'x' })\"", "args: { title: x }")),
        "tools/add.yaml",
        6,
        "args is an expression, but YAML read it as a mapping; put it in quotes",
    ),
    (
        "function cycle",
        files(tools__free_yaml=FREE.replace("steps:", "functions:\n  a(x): 'b(x)'\n  b(x): 'a(x)'\nsteps:")),
        "tools/free.yaml",
        7,
        "functions call each other in a loop: a → b → a",
    ),
    ("missing file", files(tools__add_yaml=None), "PLUGIN.md", 12, "tools/add.yaml does not exist"),
    (
        "undeclared ability",
        files(PLUGIN_md=sub(MANIFEST, "abilities: [todos]\n", "")),
        "tools/add.yaml",
        5,
        "'todos' is used but not declared",
    ),
    (
        "read tool calling a write ability",
        files(tools__add_yaml=sub(ADD, "effect: write", "effect: read")),
        "tools/add.yaml",
        5,
        "a read tool cannot use todos.add, which is a write operation",
    ),
    (
        "concurrency out of range",
        files(
            tools__free_yaml=sub(
                FREE, "  - let: rows\n", "  - each: '[1]'\n    concurrency: 5\n    value: item\n  - let: rows\n"
            )
        ),
        "tools/free.yaml",
        12,
        "concurrency: Input should be less than or equal to 4",
    ),
    (
        "data source naming a write tool",
        files(PLUGIN_md=sub(MANIFEST, "free: { tool: free", "free: { tool: add")),
        "PLUGIN.md",
        14,
        "a write tool; data sources must be read tools",
    ),
    (
        "non-UTF-8 file",
        files(tools__add_yaml=ADD.encode() + b"# \xff\xfe\n"),
        "tools/add.yaml",
        7,
        "tools/add.yaml is not UTF-8 text \\(byte 118, line 7\\)",
    ),
    (
        "duplicate keys",
        files(tools__add_yaml=sub(ADD, "effect: write", "effect: write\neffect: read")),
        "tools/add.yaml",
        4,
        "duplicate key 'effect' \\(first at line 3\\)",
    ),
    (
        "YAML alias bomb",
        files(tools__add_yaml=ADD + "x: &a [1, 1]\ny: &b [*a, *a]\nz: [*b, *b]\n"),
        "tools/add.yaml",
        7,
        "anchors and aliases",
    ),
    (
        "paginate max over 30",
        files(
            tools__free_yaml=sub(
                FREE,
                "  - let: rows\n",
                "  - paginate: { request: { url: 'https://portal.pku.edu.cn/p' },"
                " next: 'null', items: res, max: 31 }\n  - let: rows\n",
            )
        ),
        "tools/free.yaml",
        11,
        "max: Input should be less than or equal to 30",
    ),
    (
        "undeclared campus service",
        files(tools__free_yaml=sub(FREE, "url: https://portal.pku.edu.cn/q", "campus: card\n      url: /q")),
        "tools/free.yaml",
        9,
        "campus service 'card' is not declared",
    ),
    (
        "IP literal in network",
        files(PLUGIN_md=sub(MANIFEST, "network: [portal.pku.edu.cn]", "network: [10.0.0.1]")),
        "PLUGIN.md",
        8,
        "IP addresses are never allowed",
    ),
    ("reserved id", files(PLUGIN_md=sub(MANIFEST, "id: sample", "id: memory")), "PLUGIN.md", 3, "reserved"),
    ("the student's own id", files(PLUGIN_md=sub(MANIFEST, "id: sample", "id: user")), "PLUGIN.md", 3, "reserved"),
    (
        "unknown key (typo)",
        files(tools__add_yaml=sub(ADD, "effect: write", "effect: write\nuserOnyl: true")),
        "tools/add.yaml",
        4,
        "unknown key 'userOnyl'",
    ),
    (
        "read tool calling a write tool",
        files(tools__free_yaml=sub(FREE, "  - let: rows\n", "  - call: add\n  - let: rows\n")),
        "tools/free.yaml",
        11,
        "a read tool cannot call 'add'",
    ),
    ("no frontmatter", files(PLUGIN_md="# just markdown\n"), "PLUGIN.md", 1, "must start with YAML frontmatter"),
    (
        "frontmatter cut short",
        files(PLUGIN_md="---\nspec: 1\nid: sa"),
        "PLUGIN.md",
        1,
        "starts here has no closing '---' line",
    ),
    (
        "mixed-script domain",
        files(PLUGIN_md=sub(MANIFEST, "network: [portal.pku.edu.cn]", "network: [pоrtal.pku.edu.cn]")),
        "PLUGIN.md",
        8,
        "mixes scripts \\(CYRILLIC, LATIN\\)",
    ),
    (
        "bidi override in the name",
        files(PLUGIN_md=sub(MANIFEST, "name: 示例", "name: 示例\u202e官方")),
        "PLUGIN.md",
        4,
        "text-direction character \\(U\\+202E\\)",
    ),
    (
        "zero-width in a tool title",
        files(tools__add_yaml=sub(ADD, "title: 加待办", "title: 加\u200b待办")),
        "tools/add.yaml",
        1,
        "invisible",
    ),
    ("mcp- id", files(PLUGIN_md=sub(MANIFEST, "id: sample", "id: mcp-sample")), "PLUGIN.md", 3, "remote MCP"),
    (
        "a command with a misspelt input of its tool",
        files(
            PLUGIN_md=sub(
                MANIFEST, "---\nUse", "commands:\n  go: { title: 去, tool: free, args: { bulding: x } }\n---\nUse"
            )
        ),
        "PLUGIN.md",
        16,
        "command 'go': tool 'free' has no input 'bulding'",
    ),
    (
        "a command naming a screen the plugin lacks",
        files(PLUGIN_md=sub(MANIFEST, "---\nUse", "commands:\n  go: { title: 去, screen: nowhere }\n---\nUse")),
        "PLUGIN.md",
        16,
        "command 'go' names no screen 'nowhere'",
    ),
    (
        "a command that both asks and runs",
        files(PLUGIN_md=sub(MANIFEST, "---\nUse", "commands:\n  go: { title: 去, prompt: x, tool: free }\n---\nUse")),
        "PLUGIN.md",
        16,
        "exactly one of prompt, tool and screen",
    ),
]


@pytest.mark.parametrize(("defect", "plugin", "file", "line", "reason"), CORPUS, ids=[c[0] for c in CORPUS])
def test_each_defect_is_found_with_file_and_line(
    defect: str, plugin: dict[str, str | bytes], file: str, line: int, reason: str
) -> None:
    t0 = time.process_time()
    loaded, problems = validate(MemorySource(plugin))
    # A defect must never make validation crawl; the bound leaves room for the first call importing the genui
    # models (~0.15 s) on a loaded machine (it once took 0.25 s under a parallel run).
    assert time.process_time() - t0 < 1.0
    assert loaded is None, f"{defect}: validated"
    errors = [p for p in problems if p.severity == "error"]
    hits = [p for p in errors if re.search(reason, p.text)]
    assert hits, f"{defect}: no problem matches {reason!r}: {[str(p) for p in errors]}"
    assert (hits[0].file, hits[0].line) == (file, line), str(hits[0])


def test_the_sample_itself_is_valid() -> None:
    loaded, problems = validate(MemorySource(files()))
    assert loaded is not None, [str(p) for p in problems]
    assert problems == []


def test_every_problem_is_reported_at_once() -> None:
    broken = files(
        PLUGIN_md=sub(
            sub(MANIFEST, "version: 1.0.0", "version: 1"),
            "description: A sample plugin for the broken corpus.",
            "description: ab",
        ),
        tools__add_yaml=sub(ADD, "effect: write", "effect: nope"),
    )
    _, problems = validate(MemorySource(broken))
    assert len([p for p in problems if p.severity == "error"]) >= 3


def test_a_structural_error_does_not_hide_the_other_tools_problems() -> None:
    broken = files(
        PLUGIN_md=sub(MANIFEST, "free: { tool: free", "free: { tool: add"),  # names the broken tool
        tools__add_yaml=sub(ADD, "effect: write", "effect: nope"),  # this tool does not load …
        tools__free_yaml=sub(FREE, "rows.map(r => r.room)", "rowz.map(r => r.room)"),  # … this one is checked
    )
    _, problems = validate(MemorySource(broken))
    messages = [p.message for p in problems]
    assert any("effect: Input should be" in m for m in messages)
    assert any("unknown name 'rowz'" in m for m in messages)
    assert not any("names no tool" in m for m in messages)  # the broken tool is declared: no follow-on noise


def test_a_manifest_problem_does_not_hide_the_tools_problems() -> None:
    """A misspelt or missing key of the manifest's own (author, version) leaves the rest checkable."""
    rowz = sub(FREE, "rows.map(r => r.room)", "rowz.map(r => r.room)")
    for manifest in (sub(MANIFEST, "author: tests", "authr: tests"), sub(MANIFEST, "version: 1.0.0", "version: v1")):
        plugin, problems = validate(MemorySource(files(PLUGIN_md=manifest, tools__free_yaml=rowz)))
        assert plugin is None  # never to run
        files_with_errors = {p.file for p in problems if p.severity == "error"}
        assert files_with_errors == {"PLUGIN.md", "tools/free.yaml"}, problems
        assert any("unknown name 'rowz'" in p.message for p in problems)


def test_a_manifest_key_the_checks_read_stops_them_rather_than_echo() -> None:
    """With `network` misspelt, every request would be 'not declared': only the misspelling is said."""
    broken = files(PLUGIN_md=sub(MANIFEST, "network:", "netwrk:"))
    _, problems = validate(MemorySource(broken))
    assert [(p.file, p.code) for p in problems if p.severity == "error"] == [("PLUGIN.md", "UNKNOWN_KEY")]
    assert "did you mean 'network'" in str(problems[0].message) + str(problems[0].hint)


def test_validate_cli_names_the_file_and_line_and_exits_1(tmp_path: Path) -> None:
    for name, text in files(tools__free_yaml=sub(FREE, "rows.map(r => r.room)", "rowz.map(r => r.room)")).items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text if isinstance(text, bytes) else text.encode())
    result = CliRunner().invoke(cli, ["plugin", "validate", str(tmp_path)])
    assert result.exit_code == 1
    said = f"{tmp_path}/tools/free.yaml:13:9: error: return: unknown name 'rowz'; did you mean 'rows'? [UNKNOWN_NAME]"
    assert said in result.stderr
    assert result.stderr.strip().endswith("1 error, 0 warnings")


def validate_cli(tmp_path: Path, **changes: str | bytes) -> str:
    """`plugin validate` of the sample with `changes` written to disk: its stderr (exit status 1)."""
    for name, text in files(**changes).items():
        target = tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text if isinstance(text, bytes) else text.encode())
    result = CliRunner().invoke(cli, ["plugin", "validate", str(tmp_path)])
    assert result.exit_code == 1
    return result.stderr.replace(f"{tmp_path}/", "")


WIDGET_MANIFEST = sub(MANIFEST, "dataSources:", "widgets:\n  w: widgets/w.json\ndataSources:")


def test_validate_cli_names_the_column_of_a_file_that_does_not_parse(tmp_path: Path) -> None:
    """A widget saved half-written: it ends early, inside the text opened at 3:11."""
    err = validate_cli(tmp_path, PLUGIN_md=WIDGET_MANIFEST, widgets__w_json='{\n  "spec": 1,\n  "kind": "wid')
    said = "widgets/w.json:3:15: error: not valid JSON: the file ends early, inside the text opened at 3:11; "
    assert said + 'finish writing it (it needs "} at the end at least) [JSON_SYNTAX]' in err


def test_a_json_file_cut_short_names_the_bracket_left_open(tmp_path: Path) -> None:
    """Not "Expecting property name enclosed in double quotes" with a hint about quotes: the file ends early."""
    cut = '{\n  "spec": 1,\n  "body": { "type": "list", "items": [\n    { "type": "text" },\n'
    err = validate_cli(tmp_path, PLUGIN_md=WIDGET_MANIFEST, widgets__w_json=cut)
    said = "widgets/w.json:4:24: error: not valid JSON: the file ends early: the '[' opened at 3:38 is not closed; "
    assert said + "finish writing it (it needs ]}} at the end at least) [JSON_SYNTAX]" in err, err
    assert "double quotes" not in err
    # a mistake in the middle of the text keeps the parser's words and the hint about quotes
    err = validate_cli(tmp_path, PLUGIN_md=WIDGET_MANIFEST, widgets__w_json="{ spec: 1 }")
    assert "widgets/w.json:1:3: error: not valid JSON: Expecting property name enclosed in double quotes; " in err


def test_a_file_cut_in_a_character_is_reported_in_it(tmp_path: Path) -> None:
    """At the file itself (line and column of the bad byte), not at the manifest line that names it."""
    cut = '{\n  "spec": 1,\n  "kind": "书'.encode()[:-1]
    err = validate_cli(tmp_path, PLUGIN_md=WIDGET_MANIFEST, widgets__w_json=cut)
    assert "widgets/w.json:3:12: error: widgets/w.json is not UTF-8 text (byte 26, line 3) [FILE_NOT_UTF8]" in err
    assert "PLUGIN.md" not in err


def test_validate_cli_on_the_showcase_passes() -> None:
    result = CliRunner().invoke(cli, ["plugin", "validate", "tests/fixtures/plugins/showcase"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ok: showcase 1.0.0, 6 tools")


@pytest.mark.parametrize(
    ("file", "old", "new", "field"),
    [
        ("tools__add_yaml", "effect: write", "effect: write\nuntrusted: yes", "untrusted"),
        ("tools__add_yaml", "effect: write", "effect: write\nuserOnly: 'true'", "userOnly"),
    ],
)
def test_yes_and_quoted_true_are_not_booleans(file: str, old: str, new: str, field: str) -> None:
    """PLUGIN-LANGUAGE §11: `yes`, `no`, `on` stay text — so where true or false goes they are refused, not
    read as YAML 1.1 (or pydantic's lax mode) would."""
    _, problems = validate(MemorySource(files(**{file: sub(ADD, old, new)})))
    assert [(p.code, p.message.startswith(f"{field}: expected true or false")) for p in problems] == [
        ("WRONG_TYPE", True)
    ], problems


def test_a_misspelt_host_is_told_the_declared_one_it_is_near() -> None:
    """An outsider typed seat. for seats.: the hint named only 'add the typo to network'."""
    broken = files(tools__free_yaml=sub(FREE, "https://portal.pku.edu.cn/q", "https://portl.pku.edu.cn/q"))
    _, problems = validate(MemorySource(broken))
    (problem,) = [p for p in problems if p.code == "URL_NOT_ALLOWED"]
    assert problem.hint == "did you mean portal.pku.edu.cn? (or add portl.pku.edu.cn to the manifest's network)"


@pytest.mark.parametrize(
    ("old", "new", "said", "hint"),
    [
        ("'${input.building}'", "'${input.bulding}'", "input.bulding is not a declared input field", "'building'"),
        (
            "rows.map(r => r.room)",
            "rows.map(r => r.room + settings.campsu)",
            "settings.campsu is not a declared setting",
            "declares no",
        ),
    ],
)
def test_a_misspelt_input_field_or_setting_is_an_error_not_a_null(old: str, new: str, said: str, hint: str) -> None:
    """An outsider's `settings.minFre` validated and failed at run time on a null; `input.X` likewise."""
    _, problems = validate(MemorySource(files(tools__free_yaml=sub(FREE, old, new))))
    (problem,) = [p for p in problems if p.code == "UNKNOWN_MEMBER"]
    assert said in problem.message and hint in problem.hint and problem.file == "tools/free.yaml"


def test_an_arrow_parameter_named_like_a_root_is_not_checked_as_it() -> None:
    ok = sub(FREE, "rows.map(r => r.room)", "rows.map(input => input.room)")
    plugin, problems = validate(MemorySource(files(tools__free_yaml=ok)))
    assert plugin is not None and not [p for p in problems if p.severity == "error"], problems


def test_an_expression_in_a_block_that_ends_early_is_placed_after_its_last_character() -> None:
    """`value: |` with a missing `)`: the error was at the next key's line, column 1, with a blank caret line."""
    block = '    value: |\n      page.rows.map(r =>\n        r.room\nreturn: "rows.map(r => r.room)"'
    old = FREE[FREE.index("    value: ") : FREE.index("return:")] + 'return: "rows.map(r => r.room)"'
    broken = sub(FREE, old, block)
    _, problems = validate(MemorySource(files(tools__free_yaml=broken)))
    (problem,) = [p for p in problems if p.code == "EXPR_SYNTAX"]
    assert (problem.line, problem.column) == (14, 15)  # just after `r.room`, its indentation counted once
    assert problem.hint.splitlines() == ["  r.room", "        ^"]


def test_a_test_case_whose_input_the_tool_refuses_is_found_by_validate() -> None:
    """`input: { building: 2 }` for a string field failed only in `plugin test`; a case with expectError may."""
    case = "tool: free\ncases:\n  - name: one\n    input: { building: 2 }\n    http: []\n    check: 'true'\n"
    source = MemorySource(files(tests__free_yaml=case))
    plugin, _ = validate(source)
    assert plugin is not None
    _, problems = check_test_file(plugin, source, "tests/free.yaml")
    (problem,) = [p for p in problems if p.code == "TEST_INPUT"]
    assert problem.file == "tests/free.yaml" and problem.line == 4 and "building" in problem.message
    with_error = MemorySource(files(tests__free_yaml=case.replace("    check: 'true'\n", "    expectError: text\n")))
    _, problems = check_test_file(plugin, with_error, "tests/free.yaml")
    assert not [p for p in problems if p.code == "TEST_INPUT"]
