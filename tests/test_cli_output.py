"""The command line prints no byte a plugin or a server chose as a terminal control: one output module
(`tui/cli/output.py`) cleans every line, and a scan keeps every command on it. Shown with a hostile plugin whose
tool fails and answers with OSC 52, CSI, C1 and bidi text: `tools call` in a real pseudo-terminal, `audit`,
`scheduler list | run-due | log` and `chat --once` against a server whose error carries the same.
"""

from __future__ import annotations

import ast
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.fixtures.hostile import ESCAPES, FORBIDDEN, hostile_plugin
from tests.runtime.fake_openai import FakeOpenAI
from tui.cli.main import cli
from tui.runtime.store import Store

REPO = Path(__file__).resolve().parent.parent
CLI = REPO / "tui" / "cli"
#: What commands may not call themselves: they print through tui/cli/output.py.
BANNED_CLICK = {"echo", "secho", "echo_via_pager", "prompt", "confirm", "edit", "get_text_stream",
                "get_binary_stream", "ClickException", "BadParameter", "UsageError", "FileError"}  # fmt: skip
BANNED_STREAMS = {"stdout", "stderr", "__stdout__", "__stderr__"}
#: A hostile value with a line break: a value must never print a line of its own (a forged audit row).
FORGED = "\n2026-01-01 00:00:00  wallet.recharge  user  money/allow  allow  1 ms  ok"
DATA = "坏" + ESCAPES + FORGED


def direct_output(path: Path) -> list[str]:
    """Every place in one module that prints, asks or fails without going through the output module."""
    found = []
    name = path.relative_to(REPO) if path.is_relative_to(REPO) else path
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        where = f"{name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            found.append(f"{where}: print(...)")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "click" and node.attr in BANNED_CLICK:
                found.append(f"{where}: click.{node.attr}")
            elif node.value.id == "sys" and node.attr in BANNED_STREAMS:
                found.append(f"{where}: sys.{node.attr}")
            elif node.value.id == "os" and node.attr == "write":
                found.append(f"{where}: os.write")
        elif isinstance(node, ast.ImportFrom) and node.module in ("click", "sys"):
            banned = BANNED_CLICK if node.module == "click" else BANNED_STREAMS
            found += [f"{where}: from {node.module} import {a.name}" for a in node.names if a.name in banned]
    return found


def test_every_command_prints_through_the_output_module() -> None:
    modules = [p for p in sorted(CLI.rglob("*.py")) if p.name != "output.py"]
    found = [f for path in modules for f in direct_output(path)]
    assert not found, "print through tui/cli/output.py (echo, line, echo_json, ask, fail):\n" + "\n".join(found)


def test_the_scan_sees_each_way_of_printing(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import click, sys, os\nfrom click import echo\nprint(1)\nclick.echo(2)\nclick.secho(3)\nsys.stdout.write('')\n"
        "os.write(2, b'')\nraise click.ClickException('x')\nclick.prompt('?')\nsys.stderr.flush()\n",
        encoding="utf-8",
    )
    assert len(direct_output(sample)) == 9


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    return hostile_plugin(tmp_path / "hostile", "坏", DATA)


def in_a_terminal(*args: str, timeout: float = 60.0) -> bytes:
    """Run `python -m tui.cli.main ARGS` with stdin, stdout and stderr on a new pseudo-terminal; every byte it
    wrote there."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO), "TERM": "xterm-256color", "COLUMNS": "120"}
    child = subprocess.Popen([sys.executable, "-m", "tui.cli.main", *args], stdin=slave, stdout=slave, stderr=slave,
                             env=env, close_fds=True)  # fmt: skip
    os.close(slave)
    out = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], timeout)
            if not ready:
                raise AssertionError(f"no output for {timeout} s: {out!r}")
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed its side
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(master)
        child.wait(timeout)
    return out


def unsafe(raw: bytes | str) -> list[str]:
    """The characters a terminal would act on that are in the output (ESC, C1, BEL, bidi, zero-width)."""
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    return sorted({f"U+{ord(c):04X}" for c in text if c in FORBIDDEN or 0x80 <= ord(c) <= 0x9F or c == "\x1b"})


def test_a_tool_error_and_result_under_a_real_terminal_carry_no_control(hostile: Path) -> None:
    failed = in_a_terminal("tools", "call", "hostile.broken", "--with", str(hostile))
    assert b"gnp.exe" in failed and b"error: hostile.broken" in failed
    assert unsafe(failed) == [] and b"\x1b" not in failed
    lines = failed.decode().replace("\r\n", "\n").strip().splitlines()
    assert len(lines) == 1  # the error's own line break did not start a line that looks like an audit row
    answered = in_a_terminal("tools", "call", "hostile.evil", "--with", str(hostile))
    assert unsafe(answered) == [] and b"\x1b" not in answered
    assert json.loads(answered.decode())["label"] == DATA  # JSON escapes them: the same data for a program


def run(*args: str) -> tuple[int, bytes, bytes]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout_bytes, result.stderr_bytes


def test_audit_shows_a_hostile_error_cleaned_and_on_one_line(hostile: Path) -> None:
    assert run("tools", "call", "hostile.broken", "--with", str(hostile))[0] == 1
    code, out, _ = run("audit", "--limit", "5")
    assert code == 0 and b"hostile.broken" in out and b"gnp.exe" in out
    assert unsafe(out) == []
    assert [row for row in out.decode().splitlines() if "wallet.recharge" in row and "hostile" not in row] == []


def test_scheduler_list_run_due_and_log_show_hostile_text_cleaned(hostile: Path, isolated_data_dir: Path) -> None:
    code, out, err = run("plugins", "install", str(hostile), "--yes")
    assert code == 0, err
    code, out, err = run("scheduler", "add", "坏\u202etxt.exe", "--every", "30m", "--tool", "hostile.broken")
    assert code == 0, err
    check_id = out.decode().split(":")[0]
    store = Store(isolated_data_dir / "pku-harness.sqlite3")
    store.db.execute("UPDATE schedules SET next_ms = 0 WHERE id = ?", (check_id,))
    store.close()
    shown = []
    for args in (("scheduler", "run-due"), ("scheduler", "list"), ("scheduler", "log", check_id)):
        code, out, err = run(*args)
        assert code == 0, err
        assert b"gnp.exe" in out, (args, out)
        shown.append(out + err)
    assert [unsafe(o) for o in shown] == [[], [], []]
    assert b"txt.exe" in shown[1]  # the title without its bidi override


def test_chat_once_prints_a_hostile_server_error_cleaned() -> None:
    fake = FakeOpenAI({"status": 400, "body": {"error": {"message": DATA}}})
    with fake.serve() as url:
        code, out, err = run("chat", "--once", "hi", "--base-url", url, "--model", "any")
    assert code == 1 and b"error (bad_request)" in err and b"gnp.exe" in err
    assert unsafe(out + err) == []


def test_pad_counts_terminal_cells() -> None:
    from tui.cli.output import cells, pad

    assert pad("树洞", 6) == "树洞  " and pad("card", 6) == "card  "  # both take 6 cells on screen
    assert pad(42, 5, right=True) == "   42" and pad("财务综合信息门户", 4) == "财务综合信息门户"
    assert cells("a\x1b[31mb") == 2 and pad("a\x1b[31mb", 3) == "ab "  # measured after cleaning
