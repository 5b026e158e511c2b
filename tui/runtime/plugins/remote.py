"""Remote (MCP) tools: their names, the effect the app gives them (threats.md I3), and what a review shows of them.

A remote server describes its own tools; its hints (`readOnlyHint`, `destructiveHint`) are claims by a third
party, so they never lower the effect. Until the user sets one, a remote tool counts as `public`, the strongest.
The review data (`RemoteReview`) is plain: the app's dialog and the command line show the same. Nothing here
imports the MCP SDK.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from tui.lang.documents.common import EFFECT_ORDER, Effect

_NAME = re.compile(r"[^A-Za-z0-9_-]")


def remote_ids(server: str, tool: str) -> tuple[str, str]:
    """(`mcp-<server>.<tool>`, `mcp-<server>__<tool>`), with characters the model refuses replaced."""
    s = _NAME.sub("-", server)[:24]
    t = _NAME.sub("_", tool)[: 64 - len(s) - 6]
    return f"mcp-{s}.{t}", f"mcp-{s}__{t}"


def remote_tool_effect(annotations: dict[str, Any] | None, chosen: Effect | None) -> Effect:
    """The effect a remote tool runs with: the user's choice, else the strongest. Server hints are ignored."""
    del annotations  # deliberately unused: a server cannot vouch for itself
    if chosen is not None and chosen in EFFECT_ORDER:
        return chosen
    return "public"


def remote_prefix(server: str) -> str:
    """`mcp-<server>`: the part of a remote tool's id before the '.' (what the registry looks a tool up by)."""
    return remote_ids(server, "x")[0].partition(".")[0]


def suggest_effect(annotations: dict[str, Any] | None, previous: Effect | None = None) -> Effect:
    """The effect the review page preselects for a tool: for a new one `public`, whatever the hints say; for a
    changed one the effect the student chose for it before (`previous`).

    A hint may only ever suggest a stronger effect, never a weaker one, and nothing is ever inferred as `money`:
    `public` is already the strongest a guess may give, and a changed tool that now says it is destructive starts
    at least at `write`. The hints are shown beside the picker as the server's claims (`hint_text`); the student
    lowers the effect.
    """
    if previous is None or previous not in EFFECT_ORDER:
        return remote_tool_effect(annotations, None)
    if (annotations or {}).get("destructiveHint") is True and EFFECT_ORDER[previous] < EFFECT_ORDER["write"]:
        return "write"
    return previous


def hint_text(annotations: dict[str, Any] | None) -> str:
    """The server's claims about a tool in a few plain words (`read-only`, `destructive`), or ''."""
    a = annotations or {}
    said = [
        word
        for key, word in (
            ("readOnlyHint", "read-only"),
            ("destructiveHint", "destructive"),
            ("openWorldHint", "open-world"),
        )
        if a.get(key) is True
    ]
    return ", ".join(said)


@dataclass(frozen=True)
class RemoteToolReview:
    """One tool of a remote server as the review page lists it (its texts are the server's: untrusted)."""

    name: str
    """Its name on the server."""
    id: str
    """`mcp-<server>.<tool>`."""
    title: str
    description: str
    pin: str
    """`tool_pin` of what is shown: what the student approves."""
    effect: Effect
    """The effect preselected (`suggest_effect`)."""
    hints: str = ""
    """The server's claims (`hint_text`), shown, never used."""
    status: Literal["new", "changed", "approved"] = "new"
    """A tool never approved, one whose description or schema changed since, or one approved as it is."""
    approved_effect: Effect | None = None
    """The effect the student chose before (an approved or changed tool)."""
    input_schema: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RemoteReview:
    """What the review of a remote plugin shows of its server: where it is, how it logs in, and every tool."""

    plugin_id: str
    url: str
    host: str
    auth: str
    """none, bearer or oauth."""
    state: str
    """ready when the tools could be listed; else idle, needs_login or error (`reason` says why)."""
    reason: str = ""
    tools: tuple[RemoteToolReview, ...] = ()
    removed: tuple[str, ...] = ()
    """Tools approved before that the server no longer lists."""

    @property
    def listed(self) -> bool:
        """The server answered with its tools."""
        return self.state == "ready"

    @property
    def waiting(self) -> tuple[RemoteToolReview, ...]:
        """The tools that wait for the student: new or changed."""
        return tuple(t for t in self.tools if t.status != "approved")
