"""`pku-harness plugin test | run`: replaying recordings, real runs, and recording a run into a test file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from tui.cli.main import cli

SHOWCASE = Path(__file__).parent / "fixtures" / "plugins" / "showcase"


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_plugin_test_replays_every_case_and_ends_with_the_count() -> None:
    code, out, _ = invoke("plugin", "test", str(SHOWCASE))
    assert code == 0, out
    lines = out.strip().splitlines()
    assert lines[-1] == "15 passed, 0 failed, 1 warning"  # a near-miss recording, kept to show the closest one
    assert sum(line.startswith("PASS ") for line in lines) == 15


def test_a_failing_case_fails_the_command_with_the_difference(tmp_path: Path) -> None:
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    test = folder / "tests" / "echo.yaml"
    test.write_text(test.read_text("utf-8").replace("expect: HI HI", "expect: HI HO"), "utf-8")
    code, out, _ = invoke("plugin", "test", str(folder))
    assert code == 1
    assert "FAIL tests/echo.yaml › inline tool" in out
    assert 'result: expected "HI HO", got "HI HI"' in out
    assert out.strip().endswith("14 passed, 1 failed, 1 warning")


def test_a_failed_expect_names_the_path_of_the_first_difference(tmp_path: Path) -> None:
    """Issue 21: two long values cut at 300 characters hid the difference; the path and its neighbourhood show it."""
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    test = folder / "tests" / "notices.yaml"
    test.write_text(test.read_text("utf-8").replace("rank: 3,", "rank: 4,"), "utf-8")
    code, out, _ = invoke("plugin", "test", str(folder))
    assert code == 1
    assert "result.list[1].rank: expected 4, got 3" in out
    assert '     expected {"title":"讲座",' in out and '"rank":4,' in out  # the item that holds it, not the whole list
    assert '     got      {"title":"讲座",' in out and '"rank":3,' in out


def test_a_broken_test_file_is_reported_with_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    (folder / "tests" / "bad.yaml").write_text("tool: echo\ncases:\n  - name: x\n    input: {}\n", "utf-8")
    code, out, err = invoke("plugin", "test", str(folder))
    assert code == 1
    assert "tests/bad.yaml:3:5: error: cases.0: a case needs expect, expectError, check, expectKv, expectStale" in err
    assert out.strip().endswith("15 passed, 1 failed, 1 warning")  # a file that cannot be read counts as a failure


PREFS = Path(__file__).parent / "fixtures" / "plugins" / "prefs"


def test_a_case_whose_settings_no_student_could_have_is_reported_with_its_line(tmp_path: Path) -> None:
    """Issue 18 item 1: a recorded test's `settings:` used to pass whatever it held."""
    folder = tmp_path / "prefs"
    shutil.copytree(PREFS, folder)
    test = folder / "tests" / "echo.yaml"
    text = test.read_text("utf-8").replace("minSeats: 120", "minSeats: 5, colour: red")
    test.write_text(text, "utf-8")
    code, _, err = invoke("plugin", "test", str(folder))
    assert code == 1
    assert "tests/echo.yaml:6:31: error: settings.minSeats must be at least 10 [TEST_SETTING_VALUE]" in err
    assert (
        "tests/echo.yaml:6:44: error: settings: 'colour' is not a setting of the plugin; it has: nickname, minSeats, "
        "day [TEST_SETTING_UNKNOWN]" in err
    )


def test_run_prints_the_result_and_a_summary(tmp_path: Path) -> None:
    code, out, err = invoke(
        "plugin", "run", str(SHOWCASE), "echo", '{"text": "ab", "times": 2}', "--kv-db", str(tmp_path / "kv.db")
    )
    assert code == 0, err
    assert out == '"AB AB"\n'
    assert "0 steps, 0 requests" in err


def test_run_reads_its_input_from_a_file_or_standard_input(tmp_path: Path) -> None:
    data = tmp_path / "input.json"
    data.write_text('{"text": "ab", "times": 3}', "utf-8")
    kv = str(tmp_path / "kv.db")
    code, out, err = invoke("plugin", "run", str(SHOWCASE), "echo", f"@{data}", "--kv-db", kv)
    assert (code, out) == (0, '"AB AB AB"\n'), err
    result = CliRunner().invoke(
        cli, ["plugin", "run", str(SHOWCASE), "echo", "-", "--kv-db", kv], input='{"text": "c"}'
    )
    assert (result.exit_code, result.stdout) == (0, '"C"\n'), result.stderr
    code, _, err = invoke("plugin", "run", str(SHOWCASE), "echo", "@/nonexistent.json", "--kv-db", kv)
    assert code == 2 and "cannot read /nonexistent.json" in err


def test_run_reports_a_failure_and_exits_1(tmp_path: Path) -> None:
    code, _, err = invoke("plugin", "run", str(SHOWCASE), "echo", '{"text": ""}', "--kv-db", str(tmp_path / "kv.db"))
    assert code == 1
    assert "error: showcase.echo" in err and "input.text must be at least 1 characters" in err


def test_campus_requests_need_the_campus_session(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    (folder / "tools").mkdir(parents=True)
    (folder / "PLUGIN.md").write_text(
        "---\nspec: 1\nid: camp\nname: 校园\ndescription: Campus request.\nversion: 1.0.0\nauthor: t\n"
        "campus: [card]\ntools:\n  bal: tools/bal.yaml\n---\nx\n",
        "utf-8",
    )
    (folder / "tools" / "bal.yaml").write_text(
        "title: 余额\ndescription: Balance.\neffect: read\nsteps:\n"
        "  - request: { campus: card, url: /berserker-app/ykt/tsm/queryCard }\n",
        "utf-8",
    )
    code, _, err = invoke("plugin", "run", str(folder), "bal", "--kv-db", str(tmp_path / "kv.db"))
    assert code == 1 and "not logged in to Campus card (card)" in err and "pku-harness login card" in err


def test_record_writes_a_test_file_that_then_passes(tmp_path: Path) -> None:
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    for f in (folder / "tests").glob("*.yaml"):
        f.unlink()
    code, _, err = invoke(
        "plugin",
        "run",
        str(folder),
        "echo",
        '{"text": "x"}',
        "--now",
        "2026-11-30 09:00",
        "--kv-db",
        str(tmp_path / "kv.db"),
        "--record",
        "tests/echo.yaml",
    )
    assert code == 0, err
    text = (folder / "tests" / "echo.yaml").read_text("utf-8")
    assert "tool: echo" in text and "expect: X" in text and "2026-11-30T09:00:00+08:00" in text
    said = 'recorded 0 exchanges and 0 ability answers to tests/echo.yaml: added the case \'input {"text": "x"}\''
    assert said in err
    code, out, _ = invoke("plugin", "test", str(folder))
    assert code == 0 and out.strip().endswith("1 passed, 0 failed")


def test_validate_warns_of_a_name_an_install_would_refuse(tmp_path: Path) -> None:
    """`plugin validate` runs every check the app makes: a name or author imitating the official mark would be
    refused at install, so validate says so (and built-in plugins, by pkuinfo, are official)."""
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    _, before, _ = invoke("plugin", "validate", str(folder))
    manifest = folder / "PLUGIN.md"
    text = manifest.read_text("utf-8")
    name = next(line for line in text.splitlines() if line.startswith("name:"))
    manifest.write_text(text.replace(name, "name: 官方活动", 1), "utf-8")
    code, out, err = invoke("plugin", "validate", str(folder))
    assert code == 0 and before.endswith("tools, 1 warning\n") and out.endswith("tools, 2 warnings\n")
    assert "PLUGIN.md: warning: its name '官方活动' uses" in err and "an author of your own" in err
    code, out, err = invoke("plugin", "validate", str(Path(__file__).parent.parent / "plugins_builtin" / "wallet"))
    assert code == 0 and "warning" not in out + err


def test_validate_says_every_problem_on_stderr_in_order_and_only_ok_on_stdout(tmp_path: Path) -> None:
    """`2>&1` keeps the order: warnings are not on stdout ahead of the errors; stdout has the `ok:` line only."""
    folder = tmp_path / "showcase"
    shutil.copytree(SHOWCASE, folder)
    manifest = folder / "PLUGIN.md"
    text = manifest.read_text("utf-8").replace(
        "abilities: [verify, crypto, todos]", "abilities: [verify, crypto, todos, sms]"
    )
    manifest.write_text(text, "utf-8")
    code, out, err = invoke("plugin", "validate", str(folder))
    assert code == 0 and out == "ok: showcase 1.0.0, 6 tools, 2 warnings\n", out
    assert [line.split(": ")[1] for line in err.splitlines()] == ["warning", "warning"], err
    assert err.startswith(f"{folder}/PLUGIN.md:") and "[ABILITY_UNUSED]" in err and "[IMITATION]" in err
    widget = folder / "widgets" / "overview.json"
    widget.write_text(widget.read_text("utf-8").replace('"type": "text"', '"type": "txet"'), "utf-8")
    code, out, err = invoke("plugin", "validate", str(folder))
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert [line.split(": ")[1] for line in lines[:2]] == ["warning", "error"], err  # in file order
    assert lines[1].startswith(f"{folder}/widgets/overview.json:6:") and lines[-1] == "1 error, 1 warning"
    # as data, the id of a plugin whose manifest loaded, with errors elsewhere
    code, out, _ = invoke("plugin", "validate", "--format", "json", str(folder))
    assert code == 1 and json.loads(out)["plugin"] == "showcase" and not json.loads(out)["ok"]
    # a bad version: the rest of the manifest loads, so the widget is still checked in the same run
    manifest.write_text(text.replace("version: 1.0.0", "version: one"), "utf-8")
    code, out, _ = invoke("plugin", "validate", "--format", "json", str(folder))
    report = json.loads(out)
    assert code == 1 and report["plugin"] == "showcase"
    assert {p["code"] for p in report["problems"] if p["severity"] == "error"} == {"VERSION_NOT_SEMVER", "UNKNOWN_TYPE"}
    manifest.write_text(text.replace("id: showcase", "id: Show Case"), "utf-8")
    code, out, _ = invoke("plugin", "validate", "--format", "json", str(folder))
    assert code == 1 and json.loads(out)["plugin"] is None  # the id did not load: no id is claimed


def test_run_says_an_unknown_input_key_with_the_nearest_and_counts_in_words(tmp_path: Path) -> None:
    folder = tmp_path / "one"
    (folder / "tools").mkdir(parents=True)
    (folder / "PLUGIN.md").write_text(
        "---\nspec: 1\nid: one\nname: 一步\ndescription: One step.\nversion: 1.0.0\nauthor: me\n"
        "tools:\n  one: tools/one.yaml\n---\nOne.\n",
        "utf-8",
    )
    (folder / "tools" / "one.yaml").write_text(
        "title: 一步\ndescription: One step.\neffect: read\ninput:\n  keyword: { type: string }\n"
        "steps:\n  - let: x\n    value: upper(input.keyword)\nreturn: x\n",
        "utf-8",
    )
    kv = str(tmp_path / "kv.db")
    code, out, err = invoke("plugin", "run", str(folder), "one", '{"keyword": "a"}', "--kv-db", kv)
    assert (code, out) == (0, '"A"\n') and "1 step, 0 requests, " in err, err
    code, _, err = invoke("plugin", "run", str(folder), "one", '{"kyeword": "a"}', "--kv-db", kv)
    assert code == 1 and "unknown input key 'kyeword'; did you mean 'keyword'?" in err and "(known" not in err
