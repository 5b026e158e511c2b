"""`pku-harness plugin validate | test | run`: the author's loop on a plugin folder."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from tui.cli.output import argument_text, bad_parameter, echo, echo_json_text
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.lang.expr import Run, beijing_now, from_json, stringify
from tui.lang.expr.stdlib.dates import iso, parse
from tui.lang.steps.errors import ToolError
from tui.lang.steps.interpreter import Interpreter
from tui.lang.testing.recorder import RecordingHost, test_file_text
from tui.lang.testing.runner import run_tests
from tui.runtime.official_mark import IMITATION_ADVICE, imitations


def _folder(path: str) -> Path:
    p = Path(path)
    if p.is_file() and p.name == "PLUGIN.md":
        p = p.parent
    if not (p / "PLUGIN.md").is_file():
        raise bad_parameter(f"{path} has no PLUGIN.md", "PATH")
    return p


def _show(problems: list[Problem], folder: Path) -> None:
    for pr in problems:
        echo(
            f"{folder / pr.where if pr.file else folder}: {pr.severity}: {pr.message}",
            err=pr.severity == "error",
        )


def validate_cmd(path: str) -> None:
    """Run every check the app runs; report all problems with file and line; exit 1 on any error."""
    folder = _folder(path)
    plugin, problems = validate(DirectorySource(folder))
    _show(problems, folder)
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    if plugin is None:
        echo(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}", err=True)
        sys.exit(1)
    m = plugin.manifest
    claims = [] if _builtin(folder) else imitations(m)
    for claim in claims:  # the installer's check, so that validate says everything an install would refuse
        echo(f"PLUGIN.md: warning: {claim}: {IMITATION_ADVICE}", err=True)
    warnings += len(claims)
    echo(
        f"ok: {m.id} {m.version}, {len(plugin.tools)} tools"
        + (f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else "")
    )


def _builtin(folder: Path) -> bool:
    from tui.runtime.runtime import builtin_folders

    return any(folder.resolve() == b.resolve() for b in builtin_folders())


def test_cmd(path: str) -> None:
    """Replay tests/*.yaml; one line per case, then 'N passed, N failed'; exit 1 on any failure."""
    folder = _folder(path)
    plugin, problems = validate(DirectorySource(folder))
    if plugin is None:
        _show(problems, folder)
        echo("0 passed, 1 failed (the plugin does not validate)")
        sys.exit(1)
    files = sorted(f"tests/{p.name}" for p in (folder / "tests").glob("*.yaml")) if (folder / "tests").is_dir() else []
    results, test_problems = run_tests(plugin, DirectorySource(folder), files)
    _show(test_problems, folder)
    for r in results:
        echo(r.line())
    failed = sum(not r.passed for r in results) + len(test_problems)
    passed = sum(r.passed for r in results)
    echo(f"{passed} passed, {failed} failed")
    if failed or not results:
        sys.exit(1)


def run_cmd(path: str, tool: str, input_json: str, now: str | None, kv_db: str | None, record: str | None) -> None:
    """Run a tool for real (public domains only until the campus session exists) and print its result."""
    from platformdirs import user_data_dir

    from tui.runtime.abilities import Abilities
    from tui.runtime.fetch import PolicyFetcher
    from tui.runtime.kv import SqliteKv
    from tui.runtime.plugin_host import PluginHost
    from tui.runtime.secrets import Secrets

    folder = _folder(path)
    plugin, problems = validate(DirectorySource(folder))
    if plugin is None:
        _show(problems, folder)
        sys.exit(1)
    try:
        raw_input: Any = json.loads(argument_text(input_json, "INPUT")) if input_json else {}
    except json.JSONDecodeError as e:
        raise bad_parameter(f"not valid JSON: {e}", "INPUT") from None
    when = iso(parse(Run("2026-01-01T00:00:00+08:00"), now)) if now else beijing_now()
    db = Path(kv_db) if kv_db else Path(user_data_dir("pku-harness")) / "kv.sqlite3"
    db.parent.mkdir(parents=True, exist_ok=True)

    async def go() -> tuple[Any, RecordingHost]:
        kv = SqliteKv.open(db)
        try:
            async with PolicyFetcher() as fetcher:
                abilities = Abilities(kv.store, Secrets())
                host = RecordingHost(
                    PluginHost(
                        plugin.manifest.id, kv, fetcher, abilities, abilities.campus, tuple(plugin.manifest.campus)
                    )
                )
                try:
                    result = await Interpreter(plugin, host).run(tool, raw_input, now=when)
                except ToolError as e:
                    return e, host
                return result, host
        finally:
            kv.close()

    outcome, host = asyncio.run(go())
    if record:
        target = Path(record) if Path(record).is_absolute() else folder / record
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(outcome, ToolError):
            text = test_file_text(tool, when, "recorded run", raw_input, host, error=outcome.message)
        else:
            text = test_file_text(tool, when, "recorded run", raw_input, host, result=outcome.value)
        target.write_text(text, encoding="utf-8")
        echo(f"recorded {len(host.http)} exchanges to {target}", err=True)
    if isinstance(outcome, ToolError):
        echo(f"error: {outcome}", err=True)
        sys.exit(1)
    echo_json_text(stringify(from_json(outcome.value), 2))
    echo(
        f"{outcome.steps} steps, {outcome.requests} requests, {outcome.evaluations:,} evaluations"
        + (", stale" if outcome.stale else "")
        + (", truncated" if outcome.truncated else ""),
        err=True,
    )
