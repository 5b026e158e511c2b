"""Recorded-test files (issue 21 item 7): `plugin run --record` adds a named case from a real run over loopback
HTTP (the fake campus), and `plugin validate` checks tests/*.yaml at file:line:column."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tui.cli.main import cli

from .runtime.fake_campus import FakeCampus

USER, PASSWORD = "2100012345", "correct horse"
SHOWCASE = Path(__file__).parent / "fixtures" / "plugins" / "showcase"

MANIFEST = """---
spec: 1
id: noter
name: 记一笔
description: Asks treehole, then adds a todo; for recording.
version: 1.0.0
author: tests
campus: [treehole]
abilities: [todos]
tools:
  note: tools/note.yaml
  other: tools/other.yaml
---
Test plugin.
"""

NOTE = """title: 记一笔
description: Asks treehole, then adds a todo.
effect: write
input:
  title: { type: string }
steps:
  - let: r
    request: { campus: treehole, url: /chapi/api/v3/echo, query: { q: '${input.title}' } }
  - ability: todos.add
    args: "({ title: input.title })"
return: "r.data.query"
"""


def invoke(*args: str, input: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "noter"
    (folder / "tools").mkdir(parents=True)
    (folder / "PLUGIN.md").write_text(MANIFEST, "utf-8")
    (folder / "tools" / "note.yaml").write_text(NOTE, "utf-8")
    (folder / "tools" / "other.yaml").write_text(NOTE.replace("effect: write", "effect: write\n"), "utf-8")
    return folder


def record(folder: Path, tmp_path: Path, title: str, *more: str) -> tuple[int, str, str]:
    return invoke(
        "plugin", "run", str(folder), "note", f'{{"title": "{title}"}}', "--now", "2026-11-30 09:00",
        "--kv-db", str(tmp_path / "kv.db"), "--record", "tests/note.yaml", *more,
    )  # fmt: skip


def test_record_adds_named_cases_counts_answers_and_the_file_replays(
    campus_env: FakeCampus, folder: Path, tmp_path: Path
) -> None:
    assert invoke("login", "treehole", input=f"{USER}\n{PASSWORD}\n")[0] == 0
    code, out, err = record(folder, tmp_path, "交作业", "--name", "第一条")
    assert code == 0, err
    assert "recorded 1 exchange and 1 ability answer to tests/note.yaml: added the case '第一条'" in err
    assert [s.query for s in campus_env.seen if s.path.endswith("/v3/echo")] == [{"q": ["交作业"]}]
    test = folder / "tests" / "note.yaml"
    test.write_text("# written by hand, kept\n" + test.read_text("utf-8"), "utf-8")
    code, _, err = record(folder, tmp_path, "买菜")
    assert code == 0 and 'added the case \'input {"title": "买菜"}\'' in err
    text = test.read_text("utf-8")
    assert text.startswith("# written by hand, kept\n") and text.count("- name:") == 2
    assert "expectCalls:" in text and "ability: todos.add" in text  # the write, with its arguments
    code, _, err = record(folder, tmp_path, "交作业", "--name", "第一条")
    assert code == 0 and "replaced the case '第一条'" in err
    assert test.read_text("utf-8").count("- name:") == 2
    code, out, _ = invoke("plugin", "test", str(folder))
    assert code == 0, out
    assert out.splitlines() == ["PASS tests/note.yaml › 第一条", 'PASS tests/note.yaml › input {"title": "买菜"}',
                                "2 passed, 0 failed"]  # fmt: skip


@pytest.mark.parametrize(
    "where",
    ["/tmp/x.yaml", "../x.yaml", "tests/../PLUGIN.md", "PLUGIN.md", "tests/a/b.yaml", "tests/x.json", "tests\\x.yaml"],
)
def test_record_refuses_a_file_outside_the_tests_folder_before_any_request(
    where: str, folder: Path, tmp_path: Path
) -> None:
    code, _, err = invoke("plugin", "run", str(folder), "note", '{"title": "x"}', "--record", where)
    assert code == 2 and "--record must name a file tests/NAME.yaml in the plugin folder" in err
    assert "not logged in" not in err  # refused before the run, which would need a session
    assert not (tmp_path / "x.yaml").exists() and not (folder / "tests").exists()


def test_record_refuses_a_file_of_another_tool_and_a_link(folder: Path, tmp_path: Path) -> None:
    (folder / "tests").mkdir()
    (folder / "tests" / "other.yaml").write_text("tool: other\ncases: []\n", "utf-8")
    code, _, err = invoke("plugin", "run", str(folder), "note", "{}", "--record", "tests/other.yaml")
    assert code == 2 and "holds cases of the tool 'other', not 'note': record into another file" in err
    (folder / "tests" / "link.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    code, _, err = invoke("plugin", "run", str(folder), "note", "{}", "--record", "tests/link.yaml")
    assert code == 2 and "symbolic link" in err and not (tmp_path / "elsewhere.yaml").exists()


def test_validate_checks_test_files_with_did_you_mean_at_line_and_column(tmp_path: Path) -> None:
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    (folder / "tests" / "typos.yaml").write_text(
        "tool: echo\n"
        "cases:\n"
        "  - name: typos\n"
        "    input: { text: a }\n"
        "    expcet: A\n"
        "    settings: { minseats: 60, colour: red }\n"
        "    http:\n"
        "      - request: { url: 'https://portal.pku.edu.cn/x', metod: GET }\n"
        "        response: { status: 200, jsno: {} }\n"
        "    cache: { k: { value: 1, age: 2h, ttl: 1h } }\n",
        "utf-8",
    )
    (folder / "tests" / "tool.yaml").write_text("tool: ecko\ncases: []\n", "utf-8")
    code, out, err = invoke("plugin", "validate", str(folder))
    assert code == 1
    lines = [line.removeprefix(str(folder) + "/") for line in err.splitlines()]
    k = "[UNKNOWN_KEY]"
    assert f"tests/typos.yaml:5:5: error: unknown key 'expcet' in cases.0; did you mean 'expect'? {k}" in lines
    said = f"tests/typos.yaml:8:56: error: unknown key 'metod' in cases.0.http.0.request; did you mean 'method'? {k}"
    assert said in lines
    said = f"tests/typos.yaml:9:34: error: unknown key 'jsno' in cases.0.http.0.response; did you mean 'json'? {k}"
    assert said in lines
    assert f"tests/typos.yaml:10:38: error: unknown key 'ttl' in cases.0.cache.k; known keys: value, age {k}" in lines
    said = "tests/tool.yaml:1:1: error: tool 'ecko' is not a tool of the plugin; did you mean 'echo'?"
    said += " [TEST_TOOL_UNKNOWN]"
    assert said in lines
    assert "errors" in err and "ok:" not in out


def test_a_test_of_a_tool_file_the_manifest_does_not_list_says_to_list_it(tmp_path: Path) -> None:
    """A starter PLUGIN.md has no `tools:`: an author who wrote tools/hello.yaml and its test was told only that
    'hello' is not a tool of the plugin (an outsider's draft)."""
    folder = tmp_path / "hello"
    (folder / "tools").mkdir(parents=True)
    (folder / "tests").mkdir()
    (folder / "PLUGIN.md").write_text(
        "---\nspec: 1\nid: hello\nname: Hello\ndescription: Says hi.\nversion: 0.1.0\nauthor: me\n---\nHi.\n", "utf-8"
    )
    (folder / "tools" / "hello.yaml").write_text("title: Hi\ndescription: Says hi.\neffect: read\nreturn: \"'hi'\"\n")
    (folder / "tests" / "hello.yaml").write_text("tool: hello\ncases:\n  - name: one\n    expect: hi\n", "utf-8")
    code, _, err = invoke("plugin", "validate", str(folder))
    assert code == 1
    said = "tests/hello.yaml:1:1: error: tool 'hello' is not a tool of the plugin; tools/hello.yaml is there but"
    said += " PLUGIN.md does not list it: add tools: { hello: tools/hello.yaml } [TEST_TOOL_UNKNOWN]"
    assert said in [line.removeprefix(str(folder) + "/") for line in err.splitlines()], err


def test_validate_checks_a_case_s_settings_against_the_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    (folder / "tests" / "s.yaml").write_text(
        "tool: echo\ncases:\n  - name: s\n    input: { text: a }\n    settings: { minseats: 60 }\n    expect: A\n",
        "utf-8",
    )
    code, _, err = invoke("plugin", "validate", str(folder))
    assert code == 1
    assert (
        "tests/s.yaml:5:17: error: settings: 'minseats' is not a setting of the plugin; did you mean 'minSeats'? "
        "[TEST_SETTING_UNKNOWN]"
    ) in err
    (folder / "tests" / "s.yaml").unlink()
    code, out, err = invoke("plugin", "validate", str(folder))
    assert code == 0 and out.startswith("ok: showcase"), err


def test_a_case_recorded_at_another_time_says_its_own_and_the_file_keeps_its_quotes() -> None:
    from tui.lang.testing.recorder import add_case

    before = "# mine\ntool: a\nnow: '2026-11-30 09:00'\ncases:\n  - name: x  # kept\n    expect: 1\n"
    text, replaced = add_case(before, "a", "2026-12-01T10:00:00+08:00", {"name": "y", "input": {}, "expect": 2})
    assert not replaced and text.startswith(before)  # nothing of the file changed, its comments neither
    assert "  - name: y\n    now: '2026-12-01T10:00:00+08:00'\n" in text
    text, replaced = add_case(text, "a", "2026-11-30T09:00:00+08:00", {"name": "y", "input": {}, "expect": 3})
    assert replaced and "now: '2026-12-01" not in text and "expect: 3" in text  # the file's time: no own `now`


def test_a_value_of_the_wrong_type_is_said_in_the_language_s_words_with_a_code(tmp_path: Path) -> None:
    """Issue 21: test-file problems had no code and pydantic's words ("Input should be a valid boolean")."""
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    (folder / "tests" / "t.yaml").write_text(
        "tool: echo\ncases:\n  - name: t\n    input: { text: a }\n    expect: A\n    expectStale: maybe\n", "utf-8"
    )
    code, _, err = invoke("plugin", "validate", str(folder))
    assert code == 1
    assert (
        "tests/t.yaml:6:18: error: cases.0.expectStale: expected true or false, but YAML read 'maybe' as text; "
        "write true or false (no quotes) [WRONG_TYPE]"
    ) in err
    assert "Input should be" not in err
