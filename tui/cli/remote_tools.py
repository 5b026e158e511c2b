"""Remote plugins' tools at the command line: the effects the student picks (`--effect NAME=EFFECT`) and the
review of a server's new or changed tools that `plugins update` asks about, as it asks about a wider scope."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from tui.cli.output import bad_parameter, confirm, echo
from tui.cli.review_text import remote_text
from tui.lang.documents.common import EFFECT_ORDER, Effect

if TYPE_CHECKING:
    from tui.runtime.plugins import RemoteReview
    from tui.runtime.runtime import Runtime

effect_option = click.option(
    "--effect",
    "effects",
    multiple=True,
    metavar="TOOL=EFFECT",
    help="For a remote plugin: the effect of one of its server's tools (read, write, money or public; a new "
    "tool starts as public, a changed one as chosen before). With `plugins update`, it also changes the effect "
    "of an approved tool. Repeatable.",
)


def parse_effects(values: tuple[str, ...]) -> dict[str, Effect]:
    """`--effect lookup=read` values by tool name (`mcp-notes.lookup` works too); a bad one is a usage error."""
    out: dict[str, Effect] = {}
    for value in values:
        name, sep, effect = value.partition("=")
        name = name.strip().rpartition(".")[2].rpartition("__")[2] if name.startswith("mcp-") else name.strip()
        if not sep or not name or effect.strip() not in EFFECT_ORDER:
            raise bad_parameter(f"{value!r} is not TOOL=EFFECT with one of read, write, money, public", "--effect")
        out[name] = effect.strip()  # type: ignore[assignment]
    return out


def unknown_effects(review: RemoteReview, effects: dict[str, Effect]) -> list[str]:
    """Names given to --effect that the server does not list."""
    listed = {t.name for t in review.tools}
    return sorted(n for n in effects if n not in listed)


def with_effects(review: RemoteReview, effects: Mapping[str, Effect]) -> RemoteReview:
    """The review with the effects given on the command line in place of the preselected ones: what is printed
    is what will be used."""
    tools = tuple(replace(t, effect=effects.get(t.name, t.effect)) for t in review.tools)
    return replace(review, tools=tools)


def waiting_text(review: RemoteReview) -> str:
    """`2 tools wait for your review: extra (new), lookup (changed)`, or '' when none waits."""
    if not review.waiting:
        return ""
    names = ", ".join(f"{t.name} ({t.status})" for t in sorted(review.waiting, key=lambda t: t.name))
    count = len(review.waiting)
    return f"{count} tool{'s' if count > 1 else ''} wait{'' if count > 1 else 's'} for your review: {names}"


def login_first(plugin_id: str) -> str:
    """The sentence for `--effect` on a plugin whose server wants a login (the tools cannot be listed yet)."""
    return f"the server of {plugin_id} asks to log in first: run `pku-harness login mcp-{plugin_id}`, then --effect"


def reviewed(rt: Runtime, plugin_id: str) -> RemoteReview:
    """Connect a remote plugin's server, list its tools against the approvals, and close the connection."""

    async def connect() -> RemoteReview:
        try:
            await rt.remote.ensure(plugin_id)
            return rt.remote.review(plugin_id)
        finally:
            await rt.remote.close()

    return asyncio.run(connect())


def review_waiting(rt: Runtime, plugin_id: str, yes: bool, effects: dict[str, Effect]) -> bool:
    """Connect a remote plugin's server; when tools wait (new, or changed since approved), print them and approve
    them on yes (`--yes`, or the student's answer) with `effects` (a changed tool keeps the effect chosen before
    unless one is given); `effects` of approved tools are applied at once, each change said. Whether anything
    still waits."""
    review = reviewed(rt, plugin_id)
    if not review.listed:
        if effects and review.state == "needs_login":
            raise bad_parameter(login_first(plugin_id), "--effect")
        echo(f"{plugin_id}: its server could not be reached: {review.reason or review.state}")
        return False
    if unknown := unknown_effects(review, effects):
        raise bad_parameter(f"the server of {plugin_id} has no tool {', '.join(unknown)}", "--effect")
    _set_effects(rt, review, effects)
    if not review.waiting and not review.removed:
        return False
    echo(remote_text(with_effects(review, effects), only_waiting=True))
    if yes or (sys.stdin.isatty() and confirm("Turn these tools on?", default=False)):
        approved = rt.remote.approve(review, effects)
        echo(f"{plugin_id}: approved {', '.join(approved) or 'nothing'}")
        return False
    echo(f"the tools wait for your review: `pku-harness plugins update {plugin_id} --yes`, or review them in the app")
    return True


def _set_effects(rt: Runtime, review: RemoteReview, effects: Mapping[str, Effect]) -> None:
    """Apply `--effect` to tools approved and unchanged (the waiting ones take it when approved), saying each."""
    for tool in review.tools:
        effect = effects.get(tool.name)
        if effect is None or tool.status != "approved":
            continue
        if tool.effect == effect:
            echo(f"{review.plugin_id}: {tool.name} is {effect} already")
            continue
        rt.remote.set_effect(review.plugin_id, tool.name, effect)
        echo(f"{review.plugin_id}: {tool.name} {tool.effect} → {effect}")
