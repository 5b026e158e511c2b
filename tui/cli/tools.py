"""`pku-harness tools | permissions | audit`: the runtime's gate from the command line."""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from tui.cli.dev import env_origins, origin_option, read_origins, warn_origins
from tui.cli.output import ask, bad_parameter, cells, confirm, echo, echo_json, fail, line, pad
from tui.cli.review_text import install_text
from tui.lang.documents.common import Effect
from tui.runtime.gate import ApprovalRequest, CallOutcome, Turn
from tui.runtime.permissions import EFFECTS, MODES, Actor, Mode
from tui.runtime.plugins import InstallReview
from tui.runtime.runtime import PluginLoadError, Runtime
from tui.runtime.scheduler.timing import BEIJING
from widgets_render.safe_text import clean

_with = click.option(
    "--with",
    "extra",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="Also load this plugin folder (as a community plugin), for authors.",
)


def _open(
    extra: tuple[str, ...],
    demo: bool = False,
    approver: Any = None,
    origins: tuple[str, ...] = (),
    env: bool = False,
) -> Runtime:
    """The runtime for a command; with `env`, PKU_HARNESS_DEV_ORIGINS applies when no --origin is given."""
    from tui.runtime.dev_origins import DevOriginError

    mappings = read_origins(origins) or (env_origins() if env else ())
    try:
        runtime = Runtime.open(
            extra=[Path(p) for p in extra], demo=demo, approver=approver, ui=CliPerson(), dev_origins=mappings
        )
    except PluginLoadError as e:
        raise fail(str(e)) from None
    except DevOriginError as e:  # a mapped host no loaded plugin declares
        raise bad_parameter(e, "--origin") from None
    warn_origins(mappings)
    return runtime


class CliPerson:
    """What a person does at the command line: open a link (print it), pick a file, type an SMS code."""

    async def open_url(self, url: str) -> bool:
        echo(f"open in your browser: {url}", err=True)
        return True

    async def open_campus_page(self, service: str) -> bool:
        from tui.runtime.campus.services import SERVICES

        known = SERVICES.get(service)
        if known is None:
            return False
        echo(f"open in your browser (log in there): https://{known.host}/", err=True)
        return True

    async def pick_files(self, types: list[str], multiple: bool) -> list[dict[str, Any]] | None:
        if not sys.stdin.isatty():
            return None
        raw = ask("file path(s), separated by spaces" if multiple else "file path", default="")
        paths = [Path(p) for p in raw.split()] if raw else []
        return [{"name": p.name, "size": p.stat().st_size, "path": str(p)} for p in paths if p.is_file()]

    async def await_sms_code(self) -> str | None:
        if not sys.stdin.isatty():
            return None
        code = ask("the SMS code you received", default="")
        return code.strip() or None

    async def review_install(self, review: InstallReview) -> bool:
        echo(install_text(review), err=True)
        return sys.stdin.isatty() and confirm("Install it?", default=False, err=True)


def terminal_approver() -> PromptApprover | None:
    """The approval prompt when stdin is a terminal; else none, so a call that asks is "not run: no one is there to
    approve it" (a missing prompt was reported as "you declined")."""
    return PromptApprover() if sys.stdin.isatty() else None


class PromptApprover:
    """The CLI's approval dialog: shows plugin, tool, effect, arguments and the reason; anything but 'y' is no."""

    async def approve(self, request: ApprovalRequest) -> bool:
        if not sys.stdin.isatty():
            return False  # (`terminal_approver` gives none then: the gate says nobody is there to approve)
        t = request.tool
        echo(
            f"{t.title} ({t.id}) — effect {t.effect}\narguments: "
            f"{json.dumps(request.arguments, ensure_ascii=False)}\nwhy asking: {request.reason}",
            err=True,
        )
        return confirm("Run it?", default=False, err=True)


@click.group()
def tools() -> None:
    """Installed tools and calling them through the gate."""


@tools.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--for", "for_", type=click.Choice(["agent"]), help="Only what the model would see.")
@_with
def tools_list(as_json: bool, for_: str | None, extra: tuple[str, ...]) -> None:
    """Ids, model names, effects and modes of every tool."""
    rt = _open(extra, env=True)
    down = asyncio.run(_connect_remote(rt))
    rows: list[dict[str, Any]] = []
    for t in rt.registry.tools():
        mode = rt.gate.mode(t)
        if for_ == "agent" and (t.user_only or mode == "deny"):
            continue
        rows.append(
            {
                "id": t.id,
                "model_name": t.model_name,
                "title": t.title,
                "effect": t.effect,
                "mode": mode,
                "untrusted": t.untrusted,
                "userOnly": t.user_only,
                "official": t.official,
            }
        )
    if as_json:
        echo_json(rows)
        return
    for note in down:
        line(note, err=True)
    if not rows:
        echo("no tools installed")
        return
    width = max(cells(r["id"]) for r in rows)
    for r in rows:
        flags = "".join(
            [
                " untrusted" if r["untrusted"] else "",
                " user-only" if r["userOnly"] else "",
                "" if r["official"] else " community",
            ]
        )
        line(f"{pad(r['id'], width)}  {pad(r['effect'], 6)} {pad(r['mode'], 5)} {r['title']}{flags}")


@tools.command("call")
@click.argument("tool_id")
@click.argument("arguments", default="{}")
@click.option("--actor", type=click.Choice(["user", "agent", "scheduler"]), default="user", show_default=True)
@click.option("--demo", is_flag=True, help="Answer from the plugins' recorded tests instead of the network.")
@_with
@origin_option
def tools_call(
    tool_id: str, arguments: str, actor: str, demo: bool, extra: tuple[str, ...], origins: tuple[str, ...]
) -> None:
    """Call TOOL_ID with ARGUMENTS (JSON) through the same gate as the app; print the result or the refusal.

    With --origin, a plugin declaring a mapped host runs live against that local server (also with --demo), and
    the audit row of the call names the mapping."""
    try:
        args = json.loads(arguments)
    except json.JSONDecodeError as e:
        raise bad_parameter(f"not valid JSON: {e}", "ARGUMENTS") from None
    rt = _open(extra, demo, terminal_approver(), origins, env=True)
    turn = Turn("cli") if actor == "agent" else None

    async def call() -> CallOutcome:
        try:
            return await rt.gate.call(tool_id, args, actor=actor, turn=turn)  # type: ignore[arg-type]
        finally:
            await rt.remote.close()  # a remote plugin's server was connected for the call

    print_outcome(asyncio.run(call()))


#: Seconds `tools list` waits for remote plugins' servers.
LIST_WAIT = 10.0


async def _connect_remote(rt: Runtime) -> list[str]:
    """Connect the remote plugins' servers (at most LIST_WAIT seconds) so their tools are listed; a line for each
    server that is not ready and for each tool that waits for the student's review."""
    notes = []
    try:
        await rt.remote.ensure_all(LIST_WAIT)
        for pid in rt.remote.plugin_ids():
            kind, reason = rt.remote.state(pid)
            if kind == "connecting":
                notes.append(f"{pid}: its server did not answer within {LIST_WAIT:g} s; its tools are not listed")
            elif kind != "ready":
                said = "asks to log in" if kind == "needs_login" else "cannot be reached"
                notes.append(f"{pid}: its server {said} ({clean(reason)}); its tools are not listed")
            for t in rt.remote.held(pid):
                changed = t.name in rt.remote.approvals.of(pid)
                why = "changed since you approved it" if changed else "new"
                notes.append(f"{t.id}: {why}; off until you review it (pku-harness plugins update {pid})")
    finally:
        await rt.remote.close()
    return notes


def print_outcome(out: CallOutcome) -> None:
    """A call's result as JSON on stdout, or why it did not run on stderr and exit 1 (`tools call`, `commands run`)."""
    if out.status == "ok":
        echo_json(out.result)
        if out.stale:
            echo("(stale: the last good data, the refresh failed)", err=True)
        if out.truncated:
            echo("(truncated: paging stopped at its page limit; there is more)", err=True)
        return
    label = {"refused": "refused", "declined": "not run", "error": "error"}[out.status]
    message = str(out.message)
    # one line: the message is the plugin's own words (a declined call's already starts "not run:")
    line(message if message.startswith(f"{label}:") else f"{label}: {message}", err=True)
    sys.exit(1)


@click.group()
def permissions() -> None:
    """What the assistant may do, per plugin and effect: allow, ask or deny."""


@permissions.command("list")
@_with
def permissions_list(extra: tuple[str, ...]) -> None:
    """Every plugin's mode for each effect (chosen by you, or the default)."""
    rt = _open(extra)
    chosen = rt.grants.chosen()
    for pid, inst in sorted(rt.registry.plugins.items()):
        cells = []
        for effect in EFFECTS:
            mode = rt.grants.mode(pid, effect, inst.official, inst.plugin.manifest.defaultModes)
            cells.append(f"{effect}={mode}{'*' if (pid, effect) in chosen else ''}")
        line(f"{pid}: {'  '.join(cells)}")
    if chosen:
        echo("(* chosen by you)")


@permissions.command("set")
@click.argument("plugin")
@click.argument("effect", type=click.Choice(EFFECTS))
@click.argument("mode", type=click.Choice(MODES))
@_with
def permissions_set(plugin: str, effect: str, mode: str, extra: tuple[str, ...]) -> None:
    """Set PLUGIN's EFFECT tools to MODE (PLUGIN: an installed plugin, a built-in one, or one given with --with)."""
    rt = _open(extra)
    known = sorted({*rt.registry.plugins, *rt.registry.hosts})
    if plugin not in known:
        # A typo would otherwise be stored as a rule for a plugin that does not exist, and the real one stays as it was.
        raise bad_parameter(
            f"there is no plugin {plugin!r}; one of: {', '.join(known)} (a folder you are developing: --with PATH)",
            "PLUGIN",
        )
    rt.grants.set(plugin, effect, mode)  # type: ignore[arg-type]
    echo(f"{plugin}: {effect} tools are now {mode}")


@click.command()
@click.option(
    "--limit", type=click.IntRange(min=1), default=20, show_default=True, help="How many of the newest calls."
)
def audit(limit: int) -> None:
    """The newest tool calls: time (Beijing), tool, actor, effect, mode, decision, duration and outcome."""
    rt = _open(())
    for r in rt.audit.recent(limit):
        # Beijing time, as the app and `scheduler log` show it (the machine's own zone gave UTC here)
        when = datetime.fromtimestamp(r.at_ms / 1000, BEIJING).strftime("%Y-%m-%d %H:%M:%S")
        # a call made in dev mode may have been answered by an author's local server: it says so
        dev = f"  [dev: {r.dev}]" if r.dev else ""
        detail = dev + (f"  {r.detail}" if r.detail else "")
        line(f"{when}  {r.tool}  {r.actor}  {r.effect}/{r.mode}  {r.decision}  {r.duration_ms} ms  {r.outcome}{detail}")


__all__ = ["Actor", "Effect", "Mode"]
