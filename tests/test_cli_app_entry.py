"""The commands that start a Textual app (`pku-harness`, `--demo`, `widget preview`): what they check before the
app starts, what they leave behind and how they exit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tui.app.preview import PreviewApp
from tui.cli.main import cli

REPO = Path(__file__).resolve().parent.parent
CLASSROOMS = str(REPO / "plugins_builtin" / "classrooms")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The apps whose `run` was called (none is really run)."""
    apps: list[Any] = []
    monkeypatch.setattr(PreviewApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"buildings": [\n  {"building": "二教",}\n]}', ":2:21: not valid JSON: Expecting property name"),
        ("", ":1:1: not valid JSON: Expecting value"),
        ("\xff\xfe", " is not UTF-8 text (byte 1)"),
    ],
)
def test_widget_preview_refuses_a_data_file_that_is_not_json(
    tmp_path: Path, started: list[Any], text: str, where: str
) -> None:
    data = tmp_path / "data.json"
    data.write_bytes(text.encode("latin-1") if text.startswith("\xff") else text.encode())
    code, _, err = invoke("widget", "preview", CLASSROOMS, "overview", "--data", str(data))
    assert code == 2 and f"{data}{where}" in " ".join(err.split()) and "Traceback" not in err
    assert started == []  # refused before the app starts


def test_widget_preview_starts_with_a_good_data_file(tmp_path: Path, started: list[Any]) -> None:
    data = tmp_path / "data.json"
    data.write_text('{"buildings": []}', "utf-8")
    code, _, err = invoke("widget", "preview", CLASSROOMS, "overview", "--data", str(data))
    assert code == 0, err
    assert len(started) == 1


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("missing", "does not exist"),
        ("file", "is not a folder"),
        ("empty", "is not a plugin folder: it has no PLUGIN.md"),
    ],
)
def test_widget_preview_refuses_what_is_not_a_plugin_folder(
    tmp_path: Path, started: list[Any], where: str, said: str
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("x", "utf-8")
    code, _, err = invoke("widget", "preview", str(tmp_path / where))
    assert code == 2 and started == [] and "Traceback" not in err
    (error,) = [line for line in err.splitlines() if line.startswith("Error:")]  # one sentence
    assert error == f"Error: Invalid value for PATH: {tmp_path / where} {said}"


def test_widget_preview_takes_the_folder_or_its_plugin_md(started: list[Any]) -> None:
    assert invoke("widget", "preview", f"{CLASSROOMS}/PLUGIN.md", "search")[0] == 0
    assert started[0].folder == Path(CLASSROOMS) and started[0].widget == "search"


@pytest.mark.parametrize(
    ("given", "pinned"),
    [("2026-11-30 09:00", "2026-11-30T09:00:00+08:00"), ("2026-11-30T12:00:00+08:00", "2026-11-30T12:00:00+08:00")],
)
def test_widget_preview_pins_the_clock_as_recorded_tests_do(started: list[Any], given: str, pinned: str) -> None:
    assert invoke("widget", "preview", CLASSROOMS, "--now", given)[0] == 0
    assert started[0].data.now == pinned


def test_widget_preview_refuses_a_time_it_cannot_read(started: list[Any]) -> None:
    code, _, err = invoke("widget", "preview", CLASSROOMS, "--now", "tomorrowish")
    assert code == 2 and "--now" in err and "tomorrowish" in err and started == []


# A real process runs `pku-harness` through its own entry function, headless (no terminal here), and either
# quits as a student would (`q`), or meets an exception inside the app (one of its handlers is made to raise:
# the path any bug in a screen takes), or is interrupted (Ctrl+C is a KeyboardInterrupt out of `run()`: in a
# real terminal Textual reads Ctrl+C as a key, so the interrupt arrives while the app starts or from `kill -INT`).
SCRIPT = """
import glob
import sys
import tempfile
from textual.app import App

how, argv = sys.argv[1], sys.argv[2:]
real_run = App.run


async def press_q(pilot):
    await pilot.pause(0.2)
    print("demo folders:", len(glob.glob(tempfile.gettempdir() + "/pku-harness-demo-*")))
    await pilot.press("q")


async def settle_then_quit(pilot):  # widget preview: once it shows what its files say
    for _ in range(400):
        await pilot.pause(0.05)
        if pilot.app.settled:
            break
    from tui.app.preview import ProblemsPanel

    print("problems:", pilot.app.query_one(ProblemsPanel).text().replace("\\n", " | "))
    await pilot.press("q")


async def hang_up(pilot):  # the terminal closes (SIGHUP) or the process is asked to end (SIGTERM)
    import os
    import signal

    await pilot.pause(0.2)
    os.kill(os.getpid(), signal.SIGHUP if how == "hangup" else signal.SIGTERM)
    await pilot.pause(5)  # the app ends before this is over


def headless(self, **kwargs):
    if how == "interrupt":
        raise KeyboardInterrupt
    pilots = {"quit": press_q, "hangup": hang_up, "term": hang_up, "settle": settle_then_quit}
    return real_run(self, headless=True, size=(120, 40), auto_pilot=pilots.get(how))


App.run = headless
if how == "crash":
    from tui.app.app import PkuHarnessApp
    from tui.app.preview import PreviewApp

    def on_mount(self):
        raise RuntimeError("a bug in a screen")

    PkuHarnessApp.on_mount = PreviewApp.on_mount = on_mount
if how == "draw":  # the compositor itself fails on the third frame (where a bug in drawing surfaces)
    import textual._compositor as compositor

    real_update, frames = compositor.Compositor.render_update, []

    def render_update(self, *args, **kwargs):
        frames.append(1)
        if len(frames) > 2:
            raise RuntimeError("a bug in drawing")
        return real_update(self, *args, **kwargs)

    compositor.Compositor.render_update = render_update

from tui.cli.main import main

sys.argv = ["pku-harness", *argv]
main()
"""


def run_app(tmp_path: Path, how: str, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(tmp_path), "PKU_HARNESS_DATA": str(tmp_path / "data")}
    command = [sys.executable, "-c", SCRIPT, how, *argv]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, cwd=REPO)


@pytest.mark.parametrize(("how", "code"), [("quit", 0), ("crash", 1), ("interrupt", 1), ("hangup", 0), ("term", 0)])
def test_the_demo_removes_its_data_folder_however_it_ends(tmp_path: Path, how: str, code: int) -> None:
    done = run_app(tmp_path, how, "--demo")
    assert done.returncode == code, done.stderr[-2000:]
    assert ("Aborted!" in done.stderr) == (how == "interrupt")
    assert ("demo folders: 1" in done.stdout) == (how == "quit")  # it was there while the app ran …
    assert not list(tmp_path.glob("pku-harness-demo-*"))  # … and is gone however the app ended


def test_a_crash_inside_the_app_exits_non_zero(tmp_path: Path) -> None:
    done = run_app(tmp_path, "crash")
    assert done.returncode == 1 and "a bug in a screen" in done.stderr


def test_a_crash_while_drawing_exits_non_zero_instead_of_hanging(tmp_path: Path) -> None:
    done = run_app(tmp_path, "draw", "--demo")  # the timeout in run_app is the hang
    assert done.returncode == 1 and "a bug in drawing" in done.stderr
    assert not list(tmp_path.glob("pku-harness-demo-*"))


def test_a_crash_inside_widget_preview_exits_non_zero(tmp_path: Path) -> None:
    done = run_app(tmp_path, "crash", "widget", "preview", CLASSROOMS)
    assert done.returncode == 1 and "a bug in a screen" in done.stderr


def test_widget_preview_of_a_broken_plugin_runs_and_quits_cleanly(tmp_path: Path) -> None:
    """It ended on a PluginLoadError traceback when the plugin had a validation problem."""
    folder = tmp_path / "classrooms"
    shutil.copytree(CLASSROOMS, folder)
    tool = folder / "tools" / "free.yaml"
    tool.write_text(tool.read_text("utf-8").replace(': BUILDINGS"', ': BUILDINGZ"'), "utf-8")
    assert "BUILDINGZ" in tool.read_text("utf-8")
    manifest = folder / "PLUGIN.md"  # an author's own id (a built-in's id ran the built-in, which hid the crash)
    manifest.write_text(manifest.read_text("utf-8").replace("id: classrooms", "id: my-rooms"), "utf-8")
    done = run_app(tmp_path, "settle", "widget", "preview", str(folder))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "tools/free.yaml:17:" in done.stdout and "unknown name 'BUILDINGZ'" in done.stdout


def test_an_unexpected_error_in_a_command_is_one_short_message_and_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise KeyError("rooms")

    monkeypatch.setattr("tui.cli.tools._open", broken)
    result = CliRunner().invoke(cli, ["tools", "list"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # handled, not raised through
    (message,) = result.stderr.splitlines()
    assert message.startswith("Error: unexpected KeyError: 'rooms' (tests/test_cli_app_entry.py:")
    assert "a bug in pku-harness" in message


def test_end_of_input_at_a_prompt_is_still_aborted() -> None:
    result = CliRunner().invoke(cli, ["login", "treehole"], input="")
    assert result.exit_code == 1 and "Aborted!" in result.stderr and "unexpected" not in result.stderr
