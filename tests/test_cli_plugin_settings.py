"""`pku-harness plugins settings ID [KEY VALUE] [--reset KEY]` (issue 18 item 1), as a student would run it."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tui.cli.main import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_list_set_refuse_and_reset_a_setting() -> None:
    code, out, _ = run("plugins", "settings", "notices")
    assert code == 0
    assert out.startswith("sources") and '["新闻网", "教务部", "学工部"]' in out and "(default)" in out
    assert "one or more of: PKU News, Office of Educational Administration, Student Affairs" in out
    code, out, _ = run("plugins", "settings", "notices", "sources", "教务部")
    assert code == 0 and out.strip() == 'notices.sources = ["教务部"]'
    code, out, _ = run("plugins", "settings", "notices", "--json")
    [row] = json.loads(out)
    assert row["value"] == ["教务部"] and row["changed"] is True and row["default"] == ["新闻网", "教务部", "学工部"]
    code, _, err = run("plugins", "settings", "notices", "sources", "人民日报")
    assert code == 1 and "Sources I follow takes one or more of: PKU News" in err
    code, _, err = run("plugins", "settings", "notices", "colour", "red")
    assert code == 1 and "plugin notices has no setting colour (it has: sources)" in err
    code, out, _ = run("plugins", "settings", "notices", "--reset", "sources")
    assert code == 0 and "sources back to the default" in out
    code, out, _ = run("plugins", "settings", "notices", "--json")
    assert json.loads(out)[0]["changed"] is False


def test_an_unknown_plugin_or_a_missing_value_is_said() -> None:
    code, _, err = run("plugins", "settings", "nosuch")
    assert code == 1 and "no plugin 'nosuch'" in err
    code, _, err = run("plugins", "settings", "notices", "sources")
    assert code == 1 and "give the value to set sources to" in err
    code, out, _ = run("plugins", "settings", "canteen")
    assert code == 0 and out.strip() == "canteen has no settings"


def test_a_choice_is_taken_by_its_title_in_either_language() -> None:
    """An outsider's run: the list said `one or more of: PKU News, …` and setting "PKU News" was refused."""
    code, out, _ = run("plugins", "settings", "notices", "sources", "PKU News, Student Affairs")
    assert code == 0 and out.strip() == 'notices.sources = ["新闻网", "学工部"]'
    code, out, _ = run("plugins", "settings", "notices", "sources", "教务部，学工部")  # a full-width comma
    assert code == 0 and out.strip() == 'notices.sources = ["教务部", "学工部"]'
    code, _, err = run("plugins", "settings", "notices", "sources", "People's Daily")
    assert code == 1 and "takes one or more of: PKU News" in err
