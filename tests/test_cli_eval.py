"""`pku-harness plugin eval`: one expression, or a batch of JSON lines (issue #2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from tui.cli.main import cli


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_prints_the_value_as_json() -> None:
    code, out, _ = run("plugin", "eval", "rows.map(r => r.cap / 2)", "--context", '{"rows": [{"cap": 4}, {"cap": 5}]}')
    assert code == 0
    assert out == "[2,2.5]\n"


def test_context_from_a_file_and_now(tmp_path: Path) -> None:
    ctx = tmp_path / "ctx.json"
    ctx.write_text(json.dumps({"now": "2026-11-30T17:05:00+08:00", "b": "二教"}, ensure_ascii=False), "utf-8")
    code, out, _ = run("plugin", "eval", "`${b} ${today()} ${weekday(now)}`", "--context", f"@{ctx}")
    assert (code, out) == (0, '"二教 2026-11-30 1"\n')


def test_an_error_prints_the_caret_and_exits_1() -> None:
    code, out, err = run("plugin", "eval", "nil.rows", "--context", '{"nil": null}')
    assert code == 1 and out == ""
    assert err == "Expression error: cannot read 'rows' of null (nil.rows) (column 5)\nnil.rows\n    ^\n"


def test_bad_context_is_a_usage_error() -> None:
    code, _, err = run("plugin", "eval", "1", "--context", "[1]")
    assert code == 2 and "must be a JSON object" in err
    code, _, err = run("plugin", "eval", "1", "--context", "@/nonexistent.json")
    assert code == 2 and "cannot read" in err


def test_batch_writes_one_line_per_input_in_order_and_exits_0(tmp_path: Path) -> None:
    lines = [
        {"expr": "a + 1", "context": {"a": 1}},
        {"expr": "a.b", "context": {"a": None}},
        "not json",
        {"expr": "now", "context": {"now": "2026-11-30T08:00:00+08:00"}},
        {"expr": "1 / 3"},
        {"nope": 1},
        "",  # a blank line is answered too, so output line N is always input line N's
        {"expr": "'last'"},
    ]
    batch = tmp_path / "b.jsonl"
    batch.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n\n", "utf-8")
    code, out, _ = run("plugin", "eval", "--batch", str(batch))
    assert code == 0
    got = [json.loads(x) for x in out.splitlines()]
    assert got[0] == {"value": 2}
    assert got[1]["error"].startswith("cannot read 'b' of null (a.b)")
    assert got[2]["error"].startswith("line 3: not valid JSON")
    assert got[3] == {"value": "2026-11-30T08:00:00+08:00"}
    assert got[4] == {"value": 0.3333333333333333}
    assert "line 6" in got[5]["error"]
    assert got[6]["error"].startswith("line 7: the line is empty")
    assert got[7] == {"value": "last"}
    assert got[8]["error"].startswith("line 9: the line is empty")  # the file ends with an empty line
    assert len(got) == 9


def test_a_context_nested_too_deeply_is_a_clean_error_not_a_crash() -> None:
    deep: object = 1
    for _ in range(70):
        deep = [deep]
    code, out, err = run("plugin", "eval", "a", "--context", json.dumps({"a": deep}))
    assert (code, out) == (1, "")
    assert err == "Limit reached: --context: nesting depth 64 exceeded in data\n"


def test_context_from_standard_input_and_help_says_what_now_is() -> None:
    code, out, _ = run("plugin", "eval", "a + 1", "--context", "-", stdin='{"a": 41}')
    assert (code, out) == (0, "42\n")
    code, out, _ = run("plugin", "eval", "--help")
    assert code == 0 and "real clock" in out and '{"now":' in out


def test_python_dash_m_tui_is_the_same_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tui", "plugin", "eval", "'' + 1e21"], capture_output=True, text=True, check=False
    )
    assert (proc.returncode, proc.stdout) == (0, '"1e+21"\n')


def test_help_lists_the_commands() -> None:
    # The bare command starts the app (tests/app drives it with Pilot); --help must still answer at once.
    code, out, _ = run("--help")
    assert code == 0
    for command in ("plugin", "tools", "permissions", "audit", "--demo", "--lang"):
        assert command in out
