"""The remote tools the student approved, in the store: each tool's pin and the effect the student chose.

A remote plugin's MCP server describes its own tools, and can change them at any time. What the student saw on
the review page is kept as one row per tool (`remote_tools`): the pin (`mcp.tools.tool_pin`: the hash of the
name, description, schemas and annotations) and the effect picked for it. A later listing is compared with these
pins (`compare_pins`); a tool whose pin is not here stays off until the student approves it (tool poisoning,
issue 22 item 4). The effect is the student's, never the server's (threats.md I3).

This module does not import the MCP SDK: the registry and the CLI read approvals without paying for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tui.lang.documents.common import EFFECT_ORDER, Effect
from tui.runtime.audit import now_ms
from tui.runtime.store import Store


@dataclass(frozen=True)
class Approved:
    """One approved tool: the pin of what the student saw, and the effect they chose."""

    pin: str
    effect: Effect


class RemoteApprovals:
    """Approved remote tools per plugin (the plugin's id is the server's), in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def of(self, plugin_id: str) -> dict[str, Approved]:
        """The plugin's approved tools by their name on the server."""
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT tool, pin, effect FROM remote_tools WHERE plugin = ? ORDER BY tool", (plugin_id,)
            ).fetchall()
        return {tool: Approved(pin, effect) for tool, pin, effect in rows}

    def approve(self, plugin_id: str, tools: Mapping[str, tuple[str, Effect]]) -> None:
        """Approve tools (name → (pin, effect)) in one transaction: each replaces what was approved under its name.

        Raises:
            ValueError: an effect that is not one of read, write, money, public (nothing is written).
        """
        bad = [f"{name}: {effect!r}" for name, (_, effect) in tools.items() if effect not in EFFECT_ORDER]
        if bad:
            raise ValueError(f"not an effect ({', '.join(bad)}); one of read, write, money, public")
        at = now_ms()
        self._many(
            "INSERT INTO remote_tools (plugin, tool, pin, effect, approved_ms) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (plugin, tool) DO UPDATE SET pin = excluded.pin, effect = excluded.effect, "
            "approved_ms = excluded.approved_ms",
            [(plugin_id, name, pin, effect, at) for name, (pin, effect) in tools.items()],
        )

    def set_effect(self, plugin_id: str, tool: str, effect: Effect) -> None:
        """Change the effect of an approved tool (its pin stays).

        Raises:
            KeyError: the tool is not approved.
            ValueError: not an effect.
        """
        if effect not in EFFECT_ORDER:
            raise ValueError(f"{effect!r} is not an effect; one of read, write, money, public")
        with self.store.lock:
            changed = self.store.db.execute(
                "UPDATE remote_tools SET effect = ? WHERE plugin = ? AND tool = ?", (effect, plugin_id, tool)
            ).rowcount
        if not changed:
            raise KeyError(f"{plugin_id}: no approved tool {tool!r}")

    def drop(self, plugin_id: str, tools: Iterable[str]) -> None:
        """Forget approvals of tools the server no longer lists (a tool that comes back is new again)."""
        self._many("DELETE FROM remote_tools WHERE plugin = ? AND tool = ?", [(plugin_id, t) for t in tools])

    def forget(self, plugin_id: str) -> None:
        """Forget every approval of a plugin (it was removed)."""
        with self.store.lock:
            self.store.db.execute("DELETE FROM remote_tools WHERE plugin = ?", (plugin_id,))

    def _many(self, sql: str, rows: list[tuple[object, ...]]) -> None:
        """One statement over many rows, in one transaction (all or nothing)."""
        if not rows:
            return
        with self.store.lock:
            db = self.store.db
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(sql, rows)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
