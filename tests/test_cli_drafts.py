"""`pku-harness plugins drafts` and `plugins draft new|path|validate|test|preview|install|discard`, with click's runner
on the isolated data directory (real files, a real store)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tui.cli.main import cli

TOOL = """title: 新书
description: New books.
effect: read
steps:
  - let: page
    request: { url: https://api.example.com/items }
return: page.items
"""
RECORDED = """tool: list
cases:
  - name: 两本
    http:
      - request: { url: 'https://api.example.com/items' }
        response: { json: { items: [甲, 乙] } }
    expect: [甲, 乙]
"""


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def make_valid(folder: Path) -> None:
    manifest = (folder / "PLUGIN.md").read_text("utf-8")
    manifest = manifest.replace("author:", "network: [api.example.com]\ntools:\n  list: tools/list.yaml\nauthor:")
    (folder / "PLUGIN.md").write_text(manifest, "utf-8")
    (folder / "tools").mkdir()
    (folder / "tools" / "list.yaml").write_text(TOOL, "utf-8")
    (folder / "tests").mkdir()
    (folder / "tests" / "list.yaml").write_text(RECORDED, "utf-8")


def test_new_list_path_and_discard(isolated_data_dir: Path) -> None:
    assert run("plugins", "drafts") == (0, "no drafts yet; start one with pku-harness plugins draft new ID\n", "")
    code, out, _ = run("plugins", "draft", "new", "libnew", "--name", "图书馆新书")
    folder = isolated_data_dir / "drafts" / "libnew"
    assert code == 0 and out == f"created draft libnew: {folder}\n" and (folder / "PLUGIN.md").is_file()
    code, _, err = run("plugins", "draft", "new", "libnew")
    assert code == 1 and "draft libnew exists already" in err
    code, _, err = run("plugins", "draft", "new", "canteen")
    assert code == 1 and "a built-in plugin has it" in err
    code, out, _ = run("plugins", "drafts")
    assert code == 0 and out.split()[:5] == ["libnew", "1", "file", str((folder / "PLUGIN.md").stat().st_size), "B"]
    assert out.rstrip().endswith("图书馆新书")
    code, out, _ = run("plugins", "drafts", "--json")
    assert [(d["id"], d["name"], d["files"]) for d in json.loads(out)] == [("libnew", "图书馆新书", 1)]
    assert run("plugins", "draft", "path", "libnew") == (0, f"{folder}\n", "")
    code, _, err = run("plugins", "draft", "path", "nothere")
    assert code == 1 and "there is no draft nothere" in err
    code, _, err = run("plugins", "draft", "discard", "libnew")
    assert code == 1 and "was not discarded (pass --yes" in err and folder.is_dir()
    assert run("plugins", "draft", "discard", "libnew", "--yes") == (0, "discarded draft libnew\n", "")
    assert not folder.exists()


def test_validate_and_test_a_draft(isolated_data_dir: Path) -> None:
    run("plugins", "draft", "new", "libnew")
    folder = isolated_data_dir / "drafts" / "libnew"
    code, out, _ = run("plugins", "draft", "validate", "libnew")
    assert code == 0 and out == "ok: libnew 0.1.0, 0 tools\n"
    code, out, _ = run("plugins", "draft", "test", "libnew")
    assert code == 1 and "no recorded tests" in out
    (folder / "PLUGIN.md").write_text("---\nspec: 1\nid: libnew\n---\n", "utf-8")
    code, out, err = run("plugins", "draft", "validate", "libnew", "--format", "json")
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and report["plugin"] == "libnew"
    assert {p["file"] for p in report["problems"]} == {"PLUGIN.md"}
    code, _, err = run("plugins", "draft", "validate", "libnew")
    assert code == 1 and f"{folder / 'PLUGIN.md'}:" in err  # problems name the draft's file
    run("plugins", "draft", "discard", "libnew", "--yes")
    run("plugins", "draft", "new", "libnew")
    make_valid(folder)
    code, out, _ = run("plugins", "draft", "test", "libnew")
    assert code == 0 and "PASS tests/list.yaml › 两本" in out and "1 passed, 0 failed" in out


def test_preview_takes_widget_preview_options_on_the_draft_folder(isolated_data_dir: Path, tmp_path: Path) -> None:
    code, _, err = run("plugins", "draft", "preview", "nothere")
    assert code == 1 and "there is no draft nothere" in err
    run("plugins", "draft", "new", "libnew")
    bad = tmp_path / "data.json"
    bad.write_text("{oops", "utf-8")
    # the options reach `widget preview`, which checks them before the app starts (no terminal app in a test)
    code, _, err = run("plugins", "draft", "preview", "libnew", "items", "--data", str(bad))
    assert code == 2 and f"{bad}:1:2: not valid JSON" in err
    code, _, err = run("plugins", "draft", "preview", "libnew", "--now", "someday")
    assert code == 2 and "'someday' is not a date and time" in err


def test_install_a_draft_through_the_normal_review(isolated_data_dir: Path) -> None:
    run("plugins", "draft", "new", "libnew")
    folder = isolated_data_dir / "drafts" / "libnew"
    make_valid(folder)
    code, _, err = run("plugins", "draft", "install", "libnew")
    assert code == 1 and "nobody to ask" in err  # not a terminal and no --yes, as `plugins install`
    code, out, _ = run("plugins", "draft", "install", "libnew", "--yes")
    assert code == 0 and "COMMUNITY plugin" in out and "websites:        api.example.com" in out
    assert "installed libnew 0.1.0" in out and out.rstrip().endswith("discard it when it is no longer needed")
    code, out, _ = run("plugins", "list", "--json")
    row = next(r for r in json.loads(out) if r["id"] == "libnew")
    assert (row["official"], row["source"]) == (False, str(folder))
    assert folder.is_dir()  # the draft stays
    # edited after the install: installing it again takes the edit as its update (an outsider was told "already
    # installed, use plugins update")
    tool = folder / "tools" / "list.yaml"
    tool.write_text(tool.read_text("utf-8").replace("New books.", "The newest books."), "utf-8")
    before = row["hash"]
    code, out, err = run("plugins", "draft", "install", "libnew", "--yes")
    assert code == 0 and "already" not in err, (out, err)
    assert "libnew updated to 0.1.0" in out and "+ The newest books." in out  # the update's review, printed
    code, out, _ = run("plugins", "list", "--json")
    row = next(r for r in json.loads(out) if r["id"] == "libnew")
    assert row["hash"] != before and row["previous"] == "0.1.0"
