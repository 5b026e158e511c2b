"""The command line imports a command's code only when that command runs (issue 21): `--help` answers at once.

Checked on what is imported, in a fresh process, not on time, so that a slow or busy machine cannot fail it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from tui.cli.lazy import LazyGroup
from tui.cli.main import COMMANDS

ROOT = Path(__file__).resolve().parents[1]

#: What `--help` must not pay for: the app, the HTTP client, the runtime and the plugin language with their
#: libraries (the regex engine, the YAML reader, the models of widgets).
HEAVY = ("textual", "httpx", "re2", "ruamel", "pydantic", "openai", "tui.app", "tui.runtime", "tui.lang")


def modules_after(*args: str, data: Path) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the command line with ARGS in a fresh process; its result and the modules imported by its end."""
    code = (
        "import json, sys\n"
        "from tui.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\nelse:\n    code = 0\n"
        "print('\\n' + json.dumps(sorted(k for k, v in sys.modules.items() if v is not None)), file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    env = {**os.environ, "PKU_HARNESS_DATA": str(data)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )
    return done, set(json.loads(done.stderr.rstrip().rsplit("\n", 1)[-1]))


def heavy(modules: set[str]) -> set[str]:
    return {m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)}


def test_help_imports_no_command_and_nothing_heavy(tmp_path: Path) -> None:
    done, modules = modules_after("--help", data=tmp_path)
    assert done.returncode == 0, done.stderr
    assert heavy(modules) == set()
    assert {m for m in modules if m.startswith("tui.cli.")} == {
        "tui.cli.main",
        "tui.cli.lazy",
        "tui.cli.output",
        "tui.cli.dev",  # the --origin option and the variable's reading: click only
    }
    listed = done.stdout.split("Commands:\n", 1)[1].split()
    for name in [*COMMANDS, "widget"]:
        assert name in listed


def test_a_group_help_imports_its_own_module_only(tmp_path: Path) -> None:
    done, modules = modules_after("plugin", "--help", data=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "validate" in done.stdout
    assert "tui.cli.plugin" in modules
    assert not {"tui.cli.tools", "tui.cli.chat", "tui.cli.campus", "tui.cli.plugin_docs"} & modules
    assert not {m for m in modules if m == "textual" or m.startswith(("textual.", "tui.runtime"))}


def test_plugin_validate_leaves_out_the_runtime_and_the_app(tmp_path: Path) -> None:
    done, modules = modules_after("plugin", "validate", "plugins_builtin/canteen", data=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: canteen")
    assert "tui.lang.documents.validator" in modules  # it did validate
    unneeded = {"tui.runtime.runtime", "tui.runtime.chat", "tui.runtime.campus", "tui.lang.steps.interpreter"}
    assert not unneeded & modules
    # canteen's URLs start with a constant (`${CROWD_URL}`), which validate checks against `network` with the
    # parser requests use (httpx's: one parser, so the check and the request cannot read a URL differently)
    assert "asyncio" not in modules
    assert not {m for m in modules if m == "textual" or m.startswith(("textual.", "tui.app"))}
    assert "httpx" in modules and "pygments" not in modules and "rich.syntax" not in modules  # httpx's own CLI


def test_every_command_runs_from_where_the_table_says(tmp_path: Path) -> None:
    done, modules = modules_after("tools", "list", "--json", data=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)  # the built-in plugins' tools
    assert "tui.cli.chat" not in modules and "tui.cli.campus" not in modules
    for name, lazy in COMMANDS.items():
        command = lazy.load()
        assert command.name == name, name  # the name it is listed by is the one it answers to in its own help


@pytest.mark.parametrize("limit", [20, 45, 60, 1000])
def test_each_summary_is_what_the_command_itself_would_list(limit: int) -> None:
    # the summary is a copy of the docstring's first sentence: a docstring changed without it fails here
    for name, lazy in COMMANDS.items():
        stand_in = click.Command(name, help=lazy.summary)
        assert stand_in.get_short_help_str(limit) == lazy.load().get_short_help_str(limit), name


def test_the_listing_is_the_same_as_with_every_command_imported() -> None:
    lazy = LazyGroup("pku-harness", lazy=COMMANDS)
    eager = click.Group("pku-harness", commands={name: entry.load() for name, entry in COMMANDS.items()})
    for width in (60, 80, 120):
        texts = []
        for group in (lazy, eager):
            formatter = click.HelpFormatter(width=width)
            group.format_commands(click.Context(group), formatter)
            texts.append(formatter.getvalue())
        assert texts[0] == texts[1]
        assert texts[0].count("\n") == len(COMMANDS) + 1  # the heading and a line a command
    assert lazy.commands == {}  # listing imported none of them


def test_a_name_that_is_no_command_is_refused_as_before(tmp_path: Path) -> None:
    done, modules = modules_after("nosuch", data=tmp_path)
    assert done.returncode == 2
    assert "No such command 'nosuch'" in done.stderr
    assert not heavy(modules)
