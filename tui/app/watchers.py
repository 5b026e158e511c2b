"""Dropping the watchers closed widgets left on the app (a Textual 8.2.8 leak, worked around here).

`Widget.watch(self.app, ...)` stores `(widget, callback)` in the app's own watcher list. Textual removes the
entries of closed widgets only when that attribute of the app changes next, so every `Header` on a pushed
screen (it watches `app.title` and `app.sub_title`) and every widget that watches `app.theme` stays alive,
with its styles and render caches, until the app's title or theme changes — in practice for the whole
session. Each closed screen calls `forget_closed_watchers(app)` so its widgets can be freed.

The same holds for data binding: each `FooterKey` is bound to its `Footer`'s `compact`, and the footer rebuilds
its keys whenever the bindings change (every tab switch, every screen closed), so the main screen's footer
collected ~200 dead keys per tour of the app. `Footer` here drops them after each rebuild.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer as TextualFooter

#: Where `textual.reactive._watch` keeps an object's watchers (a plain attribute with this literal name).
WATCHERS_ATTRIBUTE = "__watchers"


def forget_closed_watchers(obj: Any) -> int:
    """Remove from `obj`'s watcher lists every entry whose watching node is closing or closed.

    Returns:
        How many entries were removed.
    """
    watchers: dict[str, list[tuple[Any, Any]]] = getattr(obj, WATCHERS_ATTRIBUTE, {})
    removed = 0
    for name, entries in watchers.items():
        alive = [(node, callback) for node, callback in entries if not (node._closing or node._closed)]
        removed += len(entries) - len(alive)
        watchers[name][:] = alive  # in place: Textual may be iterating a reference to the same list
    return removed


class Footer(TextualFooter):
    """Textual's footer that lets go of the keys it replaced (see the module docstring)."""

    async def recompose(self) -> None:
        await super().recompose()
        forget_closed_watchers(self)
