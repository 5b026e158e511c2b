"""Remote plugins' tools at the command line: the effects the student picks (`--effect NAME=EFFECT`) and the
review of a server's new or changed tools that `plugins update` asks about, as it asks about a wider scope."""

from __future__ import annotations

import asyncio
import sys
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
    help="For a remote plugin: the effect of one of its server's tools (read, write, money or public; "
    "default public). Repeatable.",
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


def review_waiting(rt: Runtime, plugin_id: str, yes: bool, effects: dict[str, Effect]) -> bool:
    """Connect a remote plugin's server; when tools wait (new, or changed since approved), print them and approve
    them on yes (`--yes`, or the student's answer) with `effects`. Whether anything still waits."""

    async def connect() -> RemoteReview:
        try:
            await rt.remote.ensure(plugin_id)
            return rt.remote.review(plugin_id)
        finally:
            await rt.remote.close()

    review = asyncio.run(connect())
    if not review.listed:
        echo(f"{plugin_id}: its server could not be reached: {review.reason or review.state}")
        return False
    if not review.waiting and not review.removed:
        return False
    echo(remote_text(review, only_waiting=True))
    if unknown := unknown_effects(review, effects):
        raise bad_parameter(f"the server of {plugin_id} has no tool {', '.join(unknown)}", "--effect")
    if yes or (sys.stdin.isatty() and confirm("Turn these tools on?", default=False)):
        approved = rt.remote.approve(review, effects)
        echo(f"{plugin_id}: approved {', '.join(approved) or 'nothing'}")
        return False
    echo(f"the tools wait for your review: `pku-harness plugins update {plugin_id} --yes`, or review them in the app")
    return True
