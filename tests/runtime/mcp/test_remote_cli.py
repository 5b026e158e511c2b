"""Remote plugins at the command line, against the real server on loopback (PKU_HARNESS_DEV_ORIGINS maps its host):
`plugins install` prints the server's tools and takes `--effect`, `tools list` shows `mcp-<server>.<tool>` rows
(and a line when the server is down), `tools call` runs one, and `plugins update` holds a changed tool until
it is approved (`--yes`, as for a wider scope)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.runtime.mcp.remote_plugin import NotesServer, notes_folder, serve_notes
from tui.cli.main import cli


@pytest.fixture
def notes() -> Iterator[NotesServer]:
    yield from serve_notes()


def run(server: NotesServer, *args: str) -> tuple[int, str, str]:
    env = {"PKU_HARNESS_DEV_ORIGINS": server.mapping}
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def test_install_list_and_call(tmp_path: Path, notes: NotesServer) -> None:
    folder = str(notes_folder(tmp_path))
    code, out, err = run(notes, "plugins", "install", folder, "--yes", "--effect", "lookup=read")
    assert code == 0, err
    assert "url:  https://mcp.example.com/mcp" in out and "host: mcp.example.com" in out and "auth: none" in out
    assert "[public] mcp-notes.post NEW" in out and "Post a note others can read." in out
    # the effect printed is the one --effect gives; the server's claim is shown, never used
    assert "[read  ] mcp-notes.lookup NEW  (the server claims: read-only)" in out
    assert "installed notes 1.0.0" in out

    code, out, err = run(notes, "tools", "list")
    assert code == 0, err
    rows = {line.split()[0]: line.split()[1:3] for line in out.splitlines()}
    assert rows["mcp-notes.lookup"] == ["read", "allow"] and rows["mcp-notes.post"] == ["public", "ask"]
    code, out, _ = run(notes, "tools", "list", "--json")
    listed = {r["id"]: r for r in json.loads(out)}
    assert listed["mcp-notes.echo"]["untrusted"] is True and listed["mcp-notes.echo"]["model_name"] == "mcp-notes__echo"

    code, out, err = run(notes, "tools", "call", "mcp-notes.count", '{"n": 3, "unit": "条"}')
    assert code == 0, err
    assert json.loads(out) == {"said": "3条", "tags": []}
    code, _, err = run(notes, "tools", "call", "mcp-notes.lookup", '{"words": "x"}', "--actor", "scheduler")
    assert code == 0, err
    code, _, err = run(notes, "tools", "call", "mcp-notes.post", '{"text": "x"}', "--actor", "scheduler")
    assert code == 1 and "refused: scheduled runs may only read" in err
    code, out, _ = run(notes, "audit", "--limit", "2")
    assert (
        "mcp-notes.post  scheduler  public/ask  refuse" in out and "mcp-notes.lookup  scheduler  read/allow  run" in out
    )

    notes.stop()
    code, out, err = run(notes, "tools", "list")
    assert code == 0 and "mcp-notes.lookup" not in out and "memory.list" in out
    assert "notes: its server cannot be reached (cannot connect to mcp.example.com:" in err
    code, _, err = run(notes, "tools", "call", "mcp-notes.echo", '{"text": "x"}')
    assert code == 1 and "refused: the server of notes cannot be reached now: cannot connect to mcp.example.com" in err


def test_a_changed_tool_waits_for_update_yes(tmp_path: Path, notes: NotesServer) -> None:
    assert run(notes, "plugins", "install", str(notes_folder(tmp_path)), "--yes", "--effect", "lookup=read")[0] == 0
    notes.restart(v2=True)
    code, out, err = run(notes, "tools", "list")
    assert "mcp-notes.lookup" not in out.split() and "mcp-notes.echo" in out
    assert "mcp-notes.lookup: changed since you approved it" in err and "mcp-notes.extra: new" in err
    code, _, err = run(notes, "tools", "call", "mcp-notes.lookup", '{"words": "x"}')
    assert code == 1 and "changed" in err and "stays off until you review it" in err

    code, out, err = run(notes, "plugins", "update", "notes")  # nobody to ask: nothing is approved
    assert "mcp-notes.lookup CHANGED, was read" in out and "IGNORE PREVIOUS INSTRUCTIONS." in out
    assert "the tools wait for your review" in out
    assert run(notes, "tools", "call", "mcp-notes.lookup", '{"words": "x"}')[0] == 1

    code, out, err = run(notes, "plugins", "update", "notes", "--yes", "--effect", "lookup=read")
    assert code == 0 and "notes: approved extra, lookup" in out
    code, out, err = run(notes, "tools", "call", "mcp-notes.lookup", '{"words": "x"}', "--actor", "scheduler")
    assert code == 0 and json.loads(out) == "note about x"


def test_a_bad_effect_is_a_usage_error(tmp_path: Path, notes: NotesServer) -> None:
    code, _, err = run(notes, "plugins", "install", str(notes_folder(tmp_path)), "--yes", "--effect", "lookup=readonly")
    assert code == 2 and "'lookup=readonly' is not TOOL=EFFECT" in err
    code, _, err = run(notes, "plugins", "install", str(notes_folder(tmp_path)), "--yes", "--effect", "nope=read")
    assert code == 1 and "the server has no tool nope" in err


def test_a_changed_tool_keeps_the_students_effect_and_an_effect_can_change_later(
    tmp_path: Path, notes: NotesServer
) -> None:
    assert run(notes, "plugins", "install", str(notes_folder(tmp_path)), "--yes", "--effect", "lookup=read")[0] == 0
    code, out, err = run(notes, "plugins", "update", "notes", "--effect", "echo=write")  # nothing changed
    assert code == 0 and "notes: echo public → write" in out, out + err
    code, out, err = run(notes, "plugins", "update", "notes", "--effect", "echo=write")
    assert code == 0 and "notes: echo is write already" in out, out + err
    notes.restart(v2=True)
    code, out, err = run(notes, "plugins", "update", "notes", "--check")
    assert "up to date" not in out and "2 tools wait for your review: extra (new), lookup (changed)" in out, out
    code, out, err = run(notes, "plugins", "update", "notes", "--yes")  # no --effect: the earlier choice stays
    assert "[read  ] mcp-notes.lookup CHANGED, was read" in out and "notes: approved extra, lookup" in out, out
    code, out, _ = run(notes, "tools", "list")
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines() if line.startswith("mcp-")}
    assert (rows["mcp-notes.lookup"], rows["mcp-notes.echo"], rows["mcp-notes.extra"]) == ("read", "write", "public")
    code, out, err = run(notes, "plugins", "update", "notes", "--effect", "nope=read")
    assert code == 2 and "the server of notes has no tool nope" in err
