"""`pku-harness plugin validate | test | run`: the author's loop on a plugin folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.cli.output import argument_text, bad_parameter, echo, echo_json_text
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import DirectorySource, SourceError, check_path
from tui.lang.documents.validator import validate
from tui.lang.documents.yamlsafe import load_yaml
from tui.lang.expr import Run, beijing_now, from_json, stringify
from tui.lang.expr.stdlib.dates import iso, parse

if TYPE_CHECKING:
    from tui.runtime.dev_origins import DevOrigin


def _folder(path: str) -> Path:
    p = Path(path)
    if p.is_file() and p.name == "PLUGIN.md":
        p = p.parent
    if not (p / "PLUGIN.md").is_file():
        raise bad_parameter(f"{path} has no PLUGIN.md", "PATH")
    return p


def _show(problems: list[Problem], folder: Path) -> None:
    """Every problem on stderr, in order (warnings too: `2>&1` keeps the order); stdout has the summary only."""
    for pr in problems:
        echo(pr.in_folder(folder), err=True)


def validate_cmd(path: str, fmt: str = "text") -> None:
    """Run every check the app runs, and check the recorded tests; report all problems with file, line and
    column; exit 1 on any error."""
    from tui.runtime.plugins.report import validation_report  # here: each command imports what it uses

    folder = _folder(path)
    report = validation_report(folder, official=_builtin(folder))
    if fmt == "json":
        echo_json_text(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
        if not report.ok:
            sys.exit(1)
        return
    _show(report.problems, folder)
    errors = report.errors
    warnings = len(report.problems) - errors
    if report.plugin is None or errors:
        echo(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}", err=True)
        sys.exit(1)
    m = report.plugin.manifest
    _show(report.claims, folder)  # the installer's check, so that validate says everything an install would refuse
    warnings = report.warnings
    echo(
        f"ok: {m.id} {m.version}, {len(report.plugin.tools)} tools"
        + (f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else "")
    )


def _builtin(folder: Path) -> bool:
    from tui.runtime.builtin import builtin_folders

    return any(folder.resolve() == b.resolve() for b in builtin_folders())


def test_cmd(path: str) -> None:
    """Replay tests/*.yaml; one line per case, then 'N passed, N failed'; exit 1 on any failure, and when there
    is nothing to replay (no case ran: nothing was shown to work)."""
    from tui.lang.testing.runner import run_tests
    from tui.runtime.plugins.report import recorded_test_files

    folder = _folder(path)
    plugin, problems = validate(DirectorySource(folder))
    if plugin is None:
        _show(problems, folder)
        echo("0 passed, 1 failed (the plugin does not validate)")
        sys.exit(1)
    files = recorded_test_files(folder)
    if not files:
        echo(f"no recorded tests: {folder / 'tests'} has no .yaml files")
        echo(f"record one from a real run: pku-harness plugin run {path} TOOL '{{...}}' --record tests/TOOL.yaml")
        sys.exit(1)
    results, test_problems = run_tests(plugin, DirectorySource(folder), files)
    _show(test_problems, folder)
    for r in results:
        echo(r.line())
    failed = sum(not r.passed for r in results) + len(test_problems)
    passed = sum(r.passed for r in results)
    warned = sum(len(r.warnings) for r in results)
    echo(f"{passed} passed, {failed} failed" + (f", {warned} warning{'s' if warned != 1 else ''}" if warned else ""))
    if failed or not results:
        sys.exit(1)


def run_cmd(
    path: str,
    tool: str,
    input_json: str,
    now: str | None,
    kv_db: str | None,
    record: str | None,
    name: str | None = None,
    origins: tuple[DevOrigin, ...] = (),
) -> None:
    """Run a tool for real and print its result; with `record`, add the run to a test file as a case;
    `origins` send the mapped declared hosts to local servers."""
    import asyncio

    from platformdirs import user_data_dir

    from tui.cli.dev import check_origins, warn_origins
    from tui.lang.steps.errors import ToolError
    from tui.lang.steps.interpreter import Interpreter
    from tui.lang.testing.recorder import RecordingHost, add_case, recorded_case
    from tui.runtime.abilities import Abilities
    from tui.runtime.dev_origins import DevRoutes
    from tui.runtime.fetch import PolicyFetcher
    from tui.runtime.kv import SqliteKv
    from tui.runtime.plugin_host import PluginHost
    from tui.runtime.secrets import Secrets

    folder = _folder(path)
    plugin, problems = validate(DirectorySource(folder))
    if plugin is None:
        _show(problems, folder)
        sys.exit(1)
    check_origins(origins, {plugin.manifest.id: plugin.manifest.network}, "--origin")
    warn_origins(origins)
    try:
        raw_input: Any = json.loads(argument_text(input_json, "INPUT")) if input_json else {}
    except json.JSONDecodeError as e:
        raise bad_parameter(f"not valid JSON: {e}", "INPUT") from None
    target, existing = _record_target(folder, record, tool) if record else (None, None)  # before any request
    when = iso(parse(Run("2026-01-01T00:00:00+08:00"), now)) if now else beijing_now()
    db = Path(kv_db) if kv_db else Path(user_data_dir("pku-harness")) / "kv.sqlite3"
    db.parent.mkdir(parents=True, exist_ok=True)

    async def go() -> tuple[Any, RecordingHost]:
        kv = SqliteKv.open(db)
        try:
            async with PolicyFetcher(dev=DevRoutes(origins) if origins else None) as fetcher:
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
    if target is not None:
        case_name = name or _default_name(raw_input)
        if isinstance(outcome, ToolError):
            case = recorded_case(case_name, raw_input, host, error=outcome.message)
        else:
            case = recorded_case(case_name, raw_input, host, result=outcome.value)
        text, replaced = add_case(existing, tool, when, case)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        exchanges, answers = len(host.http), len(host.abilities)
        echo(
            f"recorded {exchanges} exchange{'s' if exchanges != 1 else ''} and {answers} ability answer"
            f"{'s' if answers != 1 else ''} to {record}: {'replaced the' if replaced else 'added the'} case "
            f"{case_name!r}",
            err=True,
        )
    if isinstance(outcome, ToolError):
        echo(f"error: {outcome}", err=True)
        sys.exit(1)
    echo_json_text(stringify(from_json(outcome.value), 2))
    echo(
        f"{_counted(outcome.steps, 'step')}, {_counted(outcome.requests, 'request')}, "
        f"{_counted(outcome.evaluations, 'evaluation')}"
        + (", stale" if outcome.stale else "")
        + (", truncated" if outcome.truncated else ""),
        err=True,
    )


def _counted(n: int, word: str) -> str:
    """`1 step`, `2 steps`, `1,234 evaluations`."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _record_target(folder: Path, record: str, tool: str) -> tuple[Path, str | None]:
    """Where `--record` writes, and what the file holds now; refused unless it is a tests/*.yaml file of the
    plugin (the only files `plugin test` replays) that is not a link, and holds no other tool's cases."""
    wrong = (
        f"--record must name a file tests/NAME.yaml in the plugin folder (plugin test replays those); got {record!r}"
    )
    try:
        check_path(record)
    except SourceError as e:
        raise bad_parameter(f"{wrong}: {e}", "--record") from None
    parts = record.split("/")
    if len(parts) != 2 or parts[0] != "tests" or not parts[1].endswith(".yaml"):
        raise bad_parameter(wrong, "--record")
    target = folder / record
    for p in (folder / "tests", target):
        if p.is_symlink():
            raise bad_parameter(f"{record} is (or passes through) a symbolic link, which is not allowed", "--record")
    if not target.exists():
        return target, None
    text = target.read_text(encoding="utf-8")
    located, problems = load_yaml(text, record)
    if located is None:
        raise bad_parameter(f"{record} cannot be added to: {problems[0]}", "--record")
    data = located.data
    if data is not None and (not isinstance(data, dict) or data.get("tool") != tool):
        said = data.get("tool") if isinstance(data, dict) else None
        raise bad_parameter(
            f"{record} holds cases of the tool {said!r}, not {tool!r}: record into another file", "--record"
        )
    return target, text


def _default_name(raw_input: Any) -> str:
    """A case's name from its input (so recording the same input again replaces its case)."""
    text = json.dumps(raw_input, ensure_ascii=False, separators=(", ", ": "))
    return "input " + (text if len(text) <= 80 else text[:77] + "...")
