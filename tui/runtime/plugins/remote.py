"""Remote (MCP) tools: their names, and the effect the app gives them (threats.md I3).

A remote server describes its own tools; its hints (`readOnlyHint`, `destructiveHint`) are claims by a third
party, so they never lower the effect. Until the user sets one, a remote tool counts as `public`, the strongest.
"""

from __future__ import annotations

import re
from typing import Any

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
