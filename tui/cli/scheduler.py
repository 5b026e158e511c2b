"""`pku-harness scheduler list | add | approve | remove | pause | resume | run-due | log | install-timer`.

`run-due` runs whatever is due and exits, so checks also run while the app is closed (a system cron line or a
systemd user timer, printed by `install-timer`); the store's lease keeps a check from running twice at once.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from typing import Any

import click

from tui.cli.output import bad_parameter, echo, echo_json, fail, line, pad, usage_error
from tui.runtime.runtime import Runtime
from tui.runtime.scheduler.checks import WAITING, Checks, read_tool
from tui.runtime.scheduler.runner import Scheduler
from tui.runtime.scheduler.tasks import task_runner
from tui.runtime.scheduler.timing import beijing


@click.group("scheduler")
def scheduler() -> None:
    """Scheduled checks and assistant tasks (read-only, nobody watching)."""


def _runtime() -> Runtime:
    return Runtime.open()


@scheduler.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_checks(as_json: bool) -> None:
    """Every check: schedule, what it runs, next run (Beijing time), last error."""
    runtime = _runtime()
    try:
        checks = Checks(runtime.store).all()
        if as_json:
            echo_json([c.to_json() for c in checks])
            return
        if not checks:
            echo("no scheduled checks (pku-harness scheduler add --help)")
        for c in checks:
            what = c.tool or f"assistant: {c.prompt}"
            state = "on" if c.enabled else "paused"
            if c.awaiting_approval:
                state = f"{WAITING} (pku-harness scheduler approve {c.id})"
            line(f"{c.id}  {c.title}  [{c.timing}]  {what}  {state}  next {beijing(c.next_ms)}")
            if c.source not in ("user", "scheduler"):
                line(f"    created by plugin {c.source}")
            if c.condition:
                line(f"    when {c.condition}")
            if c.last_error:
                line(f"    last error: {c.last_error}")
    finally:
        runtime.close()


@scheduler.command("add")
@click.argument("title")
@click.option("--every", help="An interval: 30m, 2h, 1d.")
@click.option("--cron", help="A cron expression in Beijing time, e.g. '30 7 * * 1-5'.")
@click.option("--tool", help="The read tool to run, as plugin.tool.")
@click.option("--args", "args_json", default="{}", help="The tool's input as JSON (checked against its fields now).")
@click.option(
    "--when",
    "condition",
    help="Notify only when this is true, e.g. 'result.balanceYuan < 20' (over result, previous and now).",
)
@click.option(
    "--message",
    help="The notification text; may use ${result.x}, ${previous.x} and ${now}. A field the result does not have "
    "(null) is left out, never printed as 'null'.",
)
@click.option("--prompt", help="Instead of a tool: a question the assistant answers on this schedule.")
def add(
    title: str,
    every: str | None,
    cron: str | None,
    tool: str | None,
    args_json: str,
    condition: str | None,
    message: str | None,
    prompt: str | None,
) -> None:
    """Add a check (a read tool, with an optional condition) or an assistant task (--prompt).

    Refused now rather than failing at every run: an input the tool's fields do not accept (a missing required
    field, a value out of range, an unknown key), and a condition or message that does not compile or uses a
    name other than result, previous and now.
    """
    if bool(every) == bool(cron):
        raise usage_error("give exactly one of --every and --cron")
    try:
        args: Any = json.loads(args_json)
    except json.JSONDecodeError as e:
        raise bad_parameter(f"not valid JSON: {e}", "--args") from None
    runtime = _runtime()
    try:
        try:
            if tool:
                tool = read_tool(runtime.registry.find, tool, args)
            check = Checks(runtime.store).add(
                title,
                f"every {every}" if every else str(cron),
                tool=tool,
                args=args if isinstance(args, dict) else None,
                condition=condition,
                message=message,
                prompt=prompt,
            )
        except ValueError as e:
            hint = " (pku-harness tools list)" if str(e).startswith("there is no tool") else ""
            raise fail(f"{e}{hint}") from None
        echo(f"{check.id}: next run {beijing(check.next_ms)} (Beijing time)")
    finally:
        runtime.close()


def _change(check_id: str, what: str) -> None:
    runtime = _runtime()
    try:
        checks = Checks(runtime.store)
        done = checks.remove(check_id) if what == "remove" else checks.set_enabled(check_id, what == "resume")
        if not done:
            raise fail(f"no check {check_id!r} (pku-harness scheduler list)")
        echo({"remove": "removed", "pause": "paused", "resume": "resumed"}[what] + f" {check_id}")
    finally:
        runtime.close()


@scheduler.command("approve")
@click.argument("check_id")
def approve(check_id: str) -> None:
    """Let an assistant task a plugin created run (it waits for you until then)."""
    runtime = _runtime()
    try:
        checks = Checks(runtime.store)
        check = checks.get(check_id)
        if check is None:
            raise fail(f"no check {check_id!r} (pku-harness scheduler list)")
        if not check.awaiting_approval:
            echo(f"{check_id} does not wait for approval")
            return
        checks.approve(check_id)
        if not check.enabled:  # approving does not resume it: the student paused it on purpose
            echo(f"approved {check_id}; it is paused (pku-harness scheduler resume {check_id} to run it)")
        else:
            echo(f"approved {check_id}: next run {beijing(check.next_ms)} (Beijing time)")
    finally:
        runtime.close()


@scheduler.command("remove")
@click.argument("check_id")
def remove(check_id: str) -> None:
    """Delete a check and its run log."""
    _change(check_id, "remove")


@scheduler.command("pause")
@click.argument("check_id")
def pause(check_id: str) -> None:
    """Stop running a check (it stays listed)."""
    _change(check_id, "pause")


@scheduler.command("resume")
@click.argument("check_id")
def resume(check_id: str) -> None:
    """Run a paused check again, from its next time on."""
    _change(check_id, "resume")


@scheduler.command("run-due")
@click.option("--quiet", is_flag=True, help="Print nothing when nothing was due (for cron).")
def run_due(quiet: bool) -> None:
    """Run every check that is due, once each, and exit."""
    runtime = _runtime()
    try:
        runner = Scheduler(runtime, runtime.notices, task_runner(runtime))
        reports = asyncio.run(runner.run_due())
        for r in reports:
            line(f"{r.check}  {r.title}  {r.outcome}  {r.detail.splitlines()[0] if r.detail else ''}")
        if not reports and not quiet:
            echo("nothing was due")
    finally:
        runtime.close()


@scheduler.command("log")
@click.argument("check_id")
@click.option("--limit", type=click.IntRange(min=1), default=20, show_default=True, help="How many runs.")
def log(check_id: str, limit: int) -> None:
    """A check's runs, newest first: time, duration, outcome, detail."""
    runtime = _runtime()
    try:
        checks = Checks(runtime.store)
        if checks.get(check_id) is None:
            raise fail(f"no check {check_id!r}")
        runs = checks.runs(check_id, limit)
        if not runs:  # it printed nothing at all
            echo(f"{check_id} has not run yet")
        for run in runs:
            first = run.detail.splitlines()[0] if run.detail else ""
            line(f"{beijing(run.at_ms)}  {pad(run.duration_ms, 6, right=True)} ms  {pad(run.outcome, 8)} {first}")
    finally:
        runtime.close()


@scheduler.command("install-timer")
def install_timer() -> None:
    """Print a crontab line and a systemd user timer that run `run-due` every five minutes."""
    exe = shutil.which("pku-harness") or f"{sys.executable} -m tui.cli.main"
    command = f"{exe} scheduler run-due --quiet"
    echo("# crontab -e, then add:")
    echo(f"*/5 * * * * {command}\n")
    echo("# or a systemd user timer: ~/.config/systemd/user/pku-harness-checks.service")
    echo(f"[Unit]\nDescription=PKU harness scheduled checks\n\n[Service]\nType=oneshot\nExecStart={command}\n")
    echo("# ~/.config/systemd/user/pku-harness-checks.timer")
    echo("[Unit]\nDescription=Run PKU harness checks every 5 minutes\n\n[Timer]\nOnCalendar=*:0/5\n"
               "Persistent=true\n\n[Install]\nWantedBy=timers.target\n")  # fmt: skip
    echo("# then: systemctl --user enable --now pku-harness-checks.timer")
