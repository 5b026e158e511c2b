"""`pku-harness plugin …`: commands for plugin authors (eval now; validate, test and run with issue 3)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

import click

from tui.cli.dev import origin_option, read_origins
from tui.cli.output import argument_text, bad_parameter, echo, echo_json_text, usage_error
from tui.lang.expr import LangError, Run, beijing_now, compile_expression, from_json, stringify, to_json


@click.group()
def plugin() -> None:
    """Tools for plugin authors."""


@plugin.command("validate")
@click.argument("path")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    help="json: {ok, plugin, problems: [{file, line, column, code, severity, message, hint}]} on stdout.",
)
def validate_command(path: str, fmt: str) -> None:
    """Check a plugin folder the way the app does; every problem with file, line, column, code and hint."""
    from tui.cli.plugin_docs import validate_cmd

    validate_cmd(path, fmt)


@plugin.command("test")
@click.argument("path")
def test_command(path: str) -> None:
    """Replay the plugin's recorded tests (tests/*.yaml)."""
    from tui.cli.plugin_docs import test_cmd

    test_cmd(path)


@plugin.command("run")
@click.argument("path")
@click.argument("tool")
@click.argument("input_json", default="{}", metavar="INPUT")
@click.option("--now", help="Beijing time the run sees, like '2026-11-30 09:00' (default: now).")
@click.option("--kv-db", type=click.Path(dir_okay=False), help="SQLite file for the plugin's KV store.")
@click.option(
    "--record",
    metavar="tests/NAME.yaml",
    help="Add this run as a case to a recorded-test file of the plugin (created if missing).",
)
@click.option("--name", "case_name", help="The recorded case's name (default: from the input; a same name replaces).")
@origin_option
def run_command(
    path: str,
    tool: str,
    input_json: str,
    now: str | None,
    kv_db: str | None,
    record: str | None,
    case_name: str | None,
    origins: tuple[str],
) -> None:
    """Run TOOL of the plugin at PATH for real with INPUT and print the result.

    INPUT is a JSON object, @file.json to read it from a file, or - to read it from standard input.

    With --origin, requests for a mapped host go to that local server; the result, and a --record file, keep
    the declared URL, so the recording replays without the mapping."""
    from tui.cli.plugin_docs import run_cmd

    if case_name is not None and record is None:
        raise usage_error("--name names the case --record adds: give --record too")
    run_cmd(path, tool, input_json, now, kv_db, record, case_name, read_origins(origins))


@plugin.command("reference")
@click.argument("section", required=False)
def reference_command(section: str | None) -> None:
    """Print the plugin language reference as Markdown: the index, or one SECTION (the assistant reads the same)."""
    from tui.lang.host import HostError
    from tui.runtime.plugin_reference import reference

    try:
        text = reference(section)
    except HostError as e:
        raise bad_parameter(str(e), "SECTION") from None
    echo(text)


def _load_context(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    text = argument_text(text, "--context")
    try:
        data = json.loads(text, parse_int=float)
    except json.JSONDecodeError as e:
        raise bad_parameter(f"not valid JSON: {e}", "--context") from None
    if not isinstance(data, dict):
        raise bad_parameter("the context must be a JSON object of names", "--context")
    try:
        return from_json(data)  # type: ignore[no-any-return]
    except LangError as e:  # nested deeper than values may be: the same error a batch line gets
        echo(f"{e.title}: --context: {e}", err=True)
        sys.exit(1)


def eval_one(expr: str, context: dict[str, Any]) -> Any:
    """Evaluate one expression the way a tool run would, and return plain JSON data."""
    now = context.get("now")
    run = Run(now if isinstance(now, str) else beijing_now())
    value = compile_expression(expr).evaluate(context, run)
    to_json(value)  # refuses what a result cannot hold (a function, a node), naming where it sits
    return value  # printed by stringify, as JSON.stringify would (a lone surrogate stays, as its escape)


@plugin.command("eval")
@click.argument("expr", required=False)
@click.option(
    "--context",
    "context_text",
    help='Bound names as a JSON object, @file.json, or - for standard input; "now" in it fixes the clock.',
)
@click.option(
    "--batch",
    "batch_file",
    type=click.File("r", encoding="utf-8"),
    help='JSON lines {"expr": …, "context": {…}}; writes {"value": …} or {"error": …} per line.',
)
@click.option("--pretty", is_flag=True, help="Indent the JSON output.")
def eval_cmd(expr: str | None, context_text: str | None, batch_file: TextIO | None, pretty: bool) -> None:
    """Evaluate an expression and print its value as JSON (or the error, with a caret, and exit 1).

    `now` is the real clock (Beijing time) unless the context gives it, like --context '{"now":
    "2026-11-30T09:00:00+08:00"}'; each --batch line may give its own.
    """
    if batch_file is not None:
        if expr:
            raise usage_error("give either EXPR or --batch, not both")
        run_batch(batch_file, echo_json_text)
        return
    if not expr:
        raise usage_error("give an expression, like: pku-harness plugin eval '1 + 2'")
    context = _load_context(context_text)
    try:
        value = eval_one(expr, context)
    except LangError as e:
        echo(f"{e.title}: {e}", err=True)
        sys.exit(1)
    echo_json_text(stringify(value, 2 if pretty else None))


def run_batch(lines: TextIO, emit: Callable[[str], None]) -> None:
    """One output line per input line, in order; a failing case is an {"error"} line, never a stop."""
    crashed = 0
    for lineno, line in enumerate(lines, 1):
        try:
            out = batch_line(line, lineno)
        except Exception as e:  # an engine bug: reported on its line, and the batch goes on
            crashed += 1
            out = json.dumps({"error": f"line {lineno}: internal error: {e!r}", "crash": True})
        emit(out)
    if crashed:
        echo(f"{crashed} line(s) met an internal error (a bug: please report the expression)", err=True)
        sys.exit(2)


def batch_line(line: str, lineno: int) -> str:
    """The output line for one batch input line (a blank one too, so output line N answers input line N)."""
    if not line.strip():
        return json.dumps({"error": f'line {lineno}: the line is empty; expected {{"expr": …, "context": {{…}}}}'})
    try:
        case = json.loads(line, parse_int=float)
    except json.JSONDecodeError as e:
        return json.dumps({"error": f"line {lineno}: not valid JSON ({e.msg})"}, ensure_ascii=False)
    if not isinstance(case, dict) or not isinstance(case.get("expr"), str):
        return json.dumps({"error": f'line {lineno}: expected {{"expr": …, "context": {{…}}}}'})
    context = case.get("context") or {}
    if not isinstance(context, dict):
        return json.dumps({"error": f"line {lineno}: context must be an object"})
    try:
        value = eval_one(case["expr"], from_json(context))
    except LangError as e:
        return '{"error":' + stringify(str(e)) + "}"  # a message may quote a lone surrogate: escaped, as JSON
    return '{"value":' + stringify(value) + "}"
