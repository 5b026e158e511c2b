"""`pku-harness commands list | run`: plugins' quick commands (快捷指令) from the command line.

A command is carried out as the app carries it out, by the same parts: a prompt is one assistant turn (`chat
--once`), a tool runs through the gate with the command's input (`tools call`), and a screen — which only the app
can show — is named, with the way to open it there.
"""

from __future__ import annotations

import asyncio

import click

from tui.cli.chat import one_turn
from tui.cli.output import bad_parameter, cells, echo, echo_json, fail, line, pad
from tui.cli.tools import _open, _with, print_outcome, terminal_approver
from tui.runtime.commands import QuickCommand, quick_commands
from tui.runtime.runtime import Runtime

_lang = click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    help="The language of the titles (default: the app's language setting).",
)


def _commands(rt: Runtime, lang: str | None) -> list[QuickCommand]:
    rt.registry.set_locale(lang or str(rt.settings.get("language") or "zh"))
    return quick_commands(rt.registry)


def _what(command: QuickCommand) -> str:
    """What the command does, in one line: `prompt: …`, `tool notices.latest {…}`, `screen search`."""
    if command.kind == "prompt":
        return f"prompt: {command.prompt}"
    import json

    args = f" {json.dumps(command.args, ensure_ascii=False)}" if command.args else ""
    return f"{command.kind} {command.target}{args}"


@click.group()
def commands() -> None:
    """Plugins' quick commands: the same ones the app offers in Ctrl+P and in 助手 (type /)."""


@commands.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_lang
@_with
def commands_list(as_json: bool, lang: str | None, extra: tuple[str, ...]) -> None:
    """Every plugin's commands: ID (what `commands run` takes), plugin, title and what it does."""
    rt = _open(extra)
    found = _commands(rt, lang)
    if as_json:
        echo_json(
            [
                {
                    "id": c.id,
                    "plugin": c.plugin_id,
                    "pluginName": c.plugin,
                    "title": c.title,
                    "kind": c.kind,
                    **({"prompt": c.prompt} if c.kind == "prompt" else {}),
                    **({"tool": c.target, "args": c.args} if c.kind == "tool" else {}),
                    **({"screen": c.target, "params": c.args} if c.kind == "screen" else {}),
                }
                for c in found
            ]
        )
        return
    if not found:
        echo("no plugin has quick commands")
        return
    width = max(cells(c.id) for c in found)
    label = max(cells(c.label) for c in found)
    for c in found:
        line(f"{pad(c.id, width)}  {pad(c.label, label)}  {_what(c)}")


@commands.command("run")
@click.argument("command_id", metavar="ID.NAME")
@click.option("--demo", is_flag=True, help="Tools answer from the plugins' recorded tests instead of the network.")
@click.option("--json", "as_json", is_flag=True, help="For a prompt: print the turn's messages and tool calls.")
@_with
def commands_run(command_id: str, demo: bool, as_json: bool, extra: tuple[str, ...]) -> None:
    """Carry out one command: send its prompt to the assistant, or run its tool through the gate (printing the
    result as `tools call` does). A command that opens a screen names it: screens are shown by the app."""
    rt = _open(extra, demo, terminal_approver())
    found = {c.id: c for c in _commands(rt, None)}
    command = found.get(command_id)
    if command is None:
        known = ", ".join(found) or "none is installed"
        raise bad_parameter(f"there is no command {command_id!r}; the commands: {known}", "ID.NAME")
    if command.kind == "prompt":
        assert command.prompt is not None
        one_turn(rt, command.prompt, demo=demo, as_json=as_json)
        return
    if command.kind == "screen":
        raise fail(
            f"{command.id} opens the screen {command.target!r} of {command.plugin}, which only the app shows: start "
            f"`pku-harness` and choose “{command.label}” in Ctrl+P"
        )
    assert command.target is not None
    print_outcome(asyncio.run(rt.gate.call(command.target, command.args, actor="user")))
