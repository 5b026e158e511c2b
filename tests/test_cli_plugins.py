"""`pku-harness plugins …` and `open`, as a new user would run them: a local folder and a GitHub-style link served
over real HTTP on a loopback port, then list, tools list, update, roll back and remove."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.cli.main import cli
from tui.runtime.builtin import builtin_folders

TREE = "https://github.com/someone/campus-plugins/tree/main/plugins/notes"


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    gh = FakeGitHub()
    gh.push("someone", "campus-plugins", plugin_files(), prefix="plugins/notes/")
    gh.publish_builtins()  # `plugins update` checks the built-in plugins' official links too
    with gh.loopback() as endpoints:
        monkeypatch.setenv("PKU_HARNESS_GITHUB_API", endpoints.github_api)
        monkeypatch.setenv("PKU_HARNESS_GITHUB_RAW", endpoints.github_raw)
        yield gh


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def listed() -> dict[str, dict[str, object]]:
    code, out, err = run("plugins", "list", "--json")
    assert code == 0, err
    return {row["id"]: row for row in json.loads(out)}


def test_install_from_a_served_link_then_update_and_roll_back(github: FakeGitHub) -> None:
    code, out, err = run("plugins", "install", TREE)
    assert code == 1 and "nobody to ask" in err  # not a terminal and no --yes: nothing installed
    assert "notes" not in listed()
    code, out, err = run("plugins", "install", TREE, "--yes")
    assert code == 0, err
    assert "COMMUNITY plugin" in out and "websites:        api.example.com" in out and "[read  ] list: 笔记列表" in out
    assert out.rstrip().endswith("installed notes 1.0.0")
    row = listed()["notes"]
    assert (row["version"], row["official"], row["source"]) == ("1.0.0", False, TREE)
    assert row["commit"] == github.repos["someone", "campus-plugins"].refs["main"]
    code, out, _ = run("tools", "list")
    assert any(line.split()[:3] == ["notes.list", "read", "allow"] for line in out.splitlines())

    github.push("someone", "campus-plugins", plugin_files(version="1.1.0", description="Newest first."),
                prefix="plugins/notes/")  # fmt: skip
    code, out, _ = run("plugins", "update", "notes", "--check")
    assert code == 0 and "1.1.0 is available" in out and listed()["notes"]["version"] == "1.0.0"
    code, out, _ = run("plugins", "update")
    assert code == 0 and "notes updated to 1.1.0" in out and "+ Newest first." in out
    assert listed()["notes"]["previous"] == "1.0.0"

    github.push("someone", "campus-plugins", plugin_files(version="2.0.0", campus=("card",)), prefix="plugins/notes/")
    code, out, _ = run("plugins", "update", "notes")
    assert "needs your approval (wider scope)" in out and "+ campus services: card" in out
    assert listed()["notes"]["pending"] == "2.0.0" and listed()["notes"]["version"] == "1.1.0"

    code, out, _ = run("plugins", "rollback", "notes")
    assert code == 0 and "rolled back notes to 1.0.0" in out and listed()["notes"]["version"] == "1.0.0"
    code, _, err = run("plugins", "rollback", "notes")
    assert code == 1 and "no previous version" in err


def test_a_local_folder_a_deep_link_and_removal(github: FakeGitHub, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    for path, text in plugin_files(pid="mynotes").items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    code, out, err = run("plugins", "install", str(folder), "--yes")
    assert code == 0 and "installed mynotes 1.0.0" in out, err
    code, out, err = run("open", "pkuharness://plugin?src=" + quote(TREE, safe=""), "--yes")
    assert code == 0 and "installed notes" in out, err
    assert {"mynotes", "notes", "wallet"} <= set(listed())
    code, _, err = run("plugins", "remove", "notes")
    assert code == 1 and "not removed" in err
    code, out, _ = run("plugins", "remove", "notes", "--yes")
    assert code == 0 and "notes" not in listed() and "mynotes" in listed()
    code, _, err = run("plugins", "install", "ftp://example.org/x")
    assert code == 1 and "accepted: a GitHub folder" in err
    code, _, err = run("open", TREE)
    assert code == 1 and "pkuharness://" in err


def test_auto_update_switches(github: FakeGitHub) -> None:
    run("plugins", "install", TREE, "--yes")
    code, _, _ = run("plugins", "auto-update", "off", "notes")
    assert code == 0 and listed()["notes"]["autoUpdate"] is False
    code, _, _ = run("plugins", "auto-update", "off", "wallet")
    assert code == 0 and listed()["wallet"]["autoUpdate"] is False  # built-in plugins update from their links too
    code, _, err = run("plugins", "auto-update", "off", "nothing-here")
    assert code == 1 and "neither an installed plugin nor a built-in one" in err


def test_a_built_in_plugin_updates_from_its_link_shows_where_it_runs_from_and_rolls_back(
    github: FakeGitHub,
) -> None:
    row = listed()["shuttle"]
    assert (row["source"], row["runsFrom"], row["autoUpdate"], row["previous"]) == (
        "built-in",
        "built-in copy",
        True,
        None,
    )
    code, out, _ = run("plugins", "list")
    assert any(line.split() == ["shuttle", "1.0.0", "official", "built-in", "copy"] for line in out.splitlines())
    manifest = (next(f for f in builtin_folders() if f.name == "shuttle") / "PLUGIN.md").read_text(encoding="utf-8")
    github.publish_builtins({"shuttle": {"PLUGIN.md": manifest.replace("version: 1.0.0", "version: 1.0.1")}})
    code, out, err = run("plugins", "update", "shuttle")
    assert code == 0 and "shuttle updated to 1.0.1" in out, err
    row = listed()["shuttle"]
    assert (row["version"], row["runsFrom"], row["builtinVersion"], row["previous"]) == (
        "1.0.1",
        "fetched",
        "1.0.0",
        "built-in copy",
    )
    assert row["link"] == "https://github.com/pkuinfo/pku-harness-plugins/tree/main/plugins/shuttle"
    code, out, _ = run("plugins", "list")
    assert "shuttle        1.0.1     official  built-in, fetched from https://github.com/pkuinfo/" in out
    code, _, err = run("plugins", "remove", "shuttle", "--yes")
    assert code == 1 and "cannot be removed" in err
    code, out, _ = run("plugins", "rollback", "shuttle")
    assert code == 0 and "rolled back shuttle to 1.0.0" in out and listed()["shuttle"]["runsFrom"] == "built-in copy"
    code, _, err = run("plugins", "rollback", "shuttle")
    assert code == 1 and "already runs the copy built into the app" in err


def test_the_github_endpoints_are_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PKU_HARNESS_GITHUB_API", raising=False)
    monkeypatch.delenv("PKU_HARNESS_GITHUB_RAW", raising=False)
    code, out, _ = run("plugins", "endpoints")
    assert out.splitlines() == ["github api: https://api.github.com", "github raw: https://raw.githubusercontent.com"]
    code, out, _ = run("plugins", "endpoints", "--github-api", "https://gh.mirror.example/api/")
    assert code == 0 and "github api: https://gh.mirror.example/api" in out
    code, _, err = run("plugins", "endpoints", "--github-raw", "http://mirror.example")
    assert code == 1 and "https only" in err
    monkeypatch.setenv("PKU_HARNESS_GITHUB_API", "http://127.0.0.1:9")  # the environment wins
    assert "github api: http://127.0.0.1:9" in run("plugins", "endpoints")[1]
    monkeypatch.delenv("PKU_HARNESS_GITHUB_API")
    assert "api.github.com" in run("plugins", "endpoints", "--reset")[1]
