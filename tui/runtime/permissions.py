"""The one place that decides whether a tool call may run (architecture.md rule 4).

The decision is a pure function of who calls (actor), what the tool changes (effect), the mode the user chose
for that plugin and effect, whether the turn is tainted, and whether the tool is userOnly. Modes live in the
store; their defaults come from the manifest for official plugins, while community plugins' write, money and
public tools always start at ask (threats.md P4).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from tui.lang.documents.common import Effect
from tui.lang.documents.manifest import DefaultModes
from tui.runtime.store import Store

Actor = Literal["user", "agent", "scheduler"]
Mode = Literal["allow", "ask", "deny"]
Verdict = Literal["run", "ask", "refuse"]
EFFECTS: tuple[Effect, ...] = ("read", "write", "money", "public")
MODES: tuple[Mode, ...] = ("allow", "ask", "deny")
ACTORS: tuple[Actor, ...] = ("user", "agent", "scheduler")


@dataclass(frozen=True, slots=True)
class Decision:
    """What the gate does with a call, and why (shown to the user when it asks or refuses)."""

    verdict: Verdict
    reason: str


def decide(actor: Actor, effect: Effect, mode: Mode, tainted: bool, user_only: bool) -> Decision:
    """The decision for one call.

    - `user` (a click, an explicit command) is never asked: the click is the intent.
    - `userOnly` tools run only for the user, refused at dispatch for anyone else (not just hidden).
    - `scheduler` runs nobody is watching: read tools only, and ask counts as deny.
    - `agent`: deny refuses, ask asks, allow runs — except that in a tainted turn every write, money or
      public call asks, whatever the mode, because third-party text may be steering the model.
    """
    if actor == "user":
        return Decision("run", "you started it")
    if user_only:
        return Decision("refuse", "only you can run this tool, by your own click")
    if actor == "scheduler":
        if effect != "read":
            return Decision("refuse", f"scheduled runs may only read; this tool's effect is {effect}")
        if mode != "allow":
            return Decision("refuse", f"read tools of this plugin are set to {mode}; scheduled runs cannot ask")
        return Decision("run", "a read tool allowed for this plugin")
    if mode == "deny":
        return Decision("refuse", f"{effect} tools of this plugin are set to deny")
    if tainted and effect != "read":
        return Decision("ask", "this conversation contains third-party text, so every change needs your approval")
    if mode == "ask":
        return Decision("ask", f"{effect} tools of this plugin are set to ask")
    return Decision("run", f"{effect} tools of this plugin are set to allow")


def default_mode(effect: Effect, official: bool, declared: DefaultModes | None) -> Mode:
    """The mode a plugin's effect starts with.

    Official plugins: the manifest's `defaultModes`, else read allow and the rest ask. Community plugins: the
    same, except that write, money and public always start at ask (a manifest cannot grant itself more).
    """
    wanted: Mode | None = getattr(declared, effect) if declared is not None else None
    base: Mode = wanted or ("allow" if effect == "read" else "ask")
    if not official and effect != "read" and base == "allow":
        return "ask"
    return base


class Grants:
    """The modes the user chose, per plugin and effect, in the store; defaults where none was chosen."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def mode(self, plugin: str, effect: Effect, official: bool, declared: DefaultModes | None) -> Mode:
        """The mode in force."""
        with self.store.lock:
            row = self.store.db.execute(
                "SELECT mode FROM grants WHERE plugin = ? AND effect = ?", (plugin, effect)
            ).fetchone()
        if row is not None:
            return row[0]  # type: ignore[no-any-return]
        return default_mode(effect, official, declared)

    def modes(self, plugin: str, official: bool, declared: DefaultModes | None) -> dict[Effect, Mode]:
        """The mode in force for each effect, in EFFECTS order."""
        return {e: self.mode(plugin, e, official, declared) for e in EFFECTS}

    def set(self, plugin: str, effect: Effect, mode: Mode) -> None:
        """Record the user's choice (it takes effect for the next call)."""
        if effect not in EFFECTS or mode not in MODES:
            raise ValueError(f"effect must be one of {EFFECTS} and mode one of {MODES}")
        with self.store.lock:
            self.store.db.execute(
                "INSERT INTO grants (plugin, effect, mode, changed_ms) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (plugin, effect) DO UPDATE SET mode = excluded.mode, changed_ms = excluded.changed_ms",
                (plugin, effect, mode, int(time.time() * 1000)),
            )

    def reset(self, plugin: str) -> None:
        """Forget the user's choices for a plugin (back to the defaults)."""
        with self.store.lock:
            self.store.db.execute("DELETE FROM grants WHERE plugin = ?", (plugin,))

    def chosen(self) -> dict[tuple[str, str], Mode]:
        """Every explicit choice, by (plugin, effect)."""
        with self.store.lock:
            rows = self.store.db.execute("SELECT plugin, effect, mode FROM grants ORDER BY plugin, effect").fetchall()
        return {(p, e): m for p, e, m in rows}
