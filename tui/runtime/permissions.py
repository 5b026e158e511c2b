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
from tui.runtime.message import Message
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


def decide(
    actor: Actor, effect: Effect, mode: Mode, tainted: bool, user_only: bool, attended: bool = False
) -> Decision:
    """The decision for one call.

    - `user` (a click, an explicit command) is never asked: the click is the intent.
    - `userOnly` tools run only for the user, refused at dispatch for anyone else (not just hidden).
    - `scheduler` runs nobody is watching: read tools only, and ask counts as deny; an `attended` tool (one
      that only makes sense with the student in the conversation: the plugin drafts) is refused, read or not.
    - `agent`: deny refuses, ask asks, allow runs — except that in a tainted turn every write, money or
      public call asks, whatever the mode, because third-party text may be steering the model.
    """
    if actor == "user":
        return Decision("run", Message("why_user"))
    if user_only:
        return Decision("refuse", Message("why_user_only"))
    if actor == "scheduler":
        if attended:
            return Decision("refuse", Message("why_scheduled_attended"))
        if effect != "read":
            return Decision("refuse", Message("why_scheduled_write", effect=Message(f"effect_{effect}")))
        if mode != "allow":
            return Decision("refuse", Message("why_scheduled_mode", mode=Message(f"mode_{mode}")))
        return Decision("run", Message("why_scheduled_read"))
    if mode == "deny":
        return Decision("refuse", Message("why_denied", effect=Message(f"effect_{effect}")))
    if tainted and effect != "read":
        return Decision("ask", Message("why_tainted"))
    if mode == "ask":
        return Decision("ask", Message("why_ask", effect=Message(f"effect_{effect}")))
    return Decision("run", Message("why_allowed", effect=Message(f"effect_{effect}")))


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
