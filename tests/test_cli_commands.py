"""`pku-harness commands list | run` (issue 18 item 2): the plugins' quick commands from the command line, carried
out by the same parts as in the app."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tests.runtime.fake_openai import FakeOpenAI, text
from tui.cli.main import cli

PREFS = str(Path(__file__).resolve().parent / "fixtures" / "plugins" / "prefs")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_list_names_each_command_with_its_plugin_and_what_it_does() -> None:
    code, out, _ = run("commands", "list", "--with", PREFS)
    assert code == 0
    lines = out.splitlines()
    first = ["notices.today", "通知", "·", "今天的通知", "prompt:", "看看今天学校有什么新通知，挑和我有关的说。"]
    assert lines[0].split() == first
    assert any(line.startswith("prefs.run ") and line.endswith("tool prefs.echo") for line in lines), out
    assert any(line.startswith("prefs.card ") and line.endswith('screen card {"greeting": "早上好"}') for line in lines)
    code, out, _ = run("commands", "list", "--with", PREFS, "--lang", "en", "--json")
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["prefs.hello"] == {
        "id": "prefs.hello", "plugin": "prefs", "pluginName": "Study preferences", "title": "Say hello",
        "kind": "prompt", "prompt": "跟我打个招呼",
    }  # fmt: skip
    assert rows["prefs.card"]["params"] == {"greeting": "早上好"} and rows["prefs.card"]["kind"] == "screen"


def test_run_a_tool_command_through_the_gate() -> None:
    code, out, _ = run("commands", "run", "prefs.run", "--with", PREFS)
    assert code == 0 and json.loads(out) == {"nickname": "同学", "minSeats": 50, "day": "today"}
    run("plugins", "settings", "prefs", "nickname", "小北", "--with", PREFS)
    code, out, _ = run("commands", "run", "prefs.run", "--with", PREFS)
    assert json.loads(out)["nickname"] == "小北"  # the student's setting reaches a command's run too


def test_run_a_prompt_command_is_one_assistant_turn() -> None:
    server = FakeOpenAI()
    server.add(text("你好，同学！"))
    with server.serve() as url:
        run("model", "set", "custom", "--base-url", url, "--model", "any")
        code, out, _ = run("commands", "run", "prefs.hello", "--with", PREFS)
    assert code == 0 and out.strip() == "你好，同学！"
    assert server.requests[0]["messages"][-1] == {"role": "user", "content": "跟我打个招呼"}


def test_a_screen_command_says_where_it_opens_and_unknown_ids_are_named() -> None:
    code, _, err = run("commands", "run", "prefs.card", "--with", PREFS)
    assert code == 1 and "opens the screen 'card' of 学习偏好, which only the app shows" in err
    assert "“学习偏好 · 偏好卡片” in Ctrl+P" in err
    code, _, err = run("commands", "run", "prefs.nope", "--with", PREFS)
    assert code == 2 and "there is no command 'prefs.nope'" in err and "prefs.hello" in err
    code, _, err = run("commands", "run", "prefs.hello", "--with", PREFS)
    assert code == 1 and "no model is set up" in err
