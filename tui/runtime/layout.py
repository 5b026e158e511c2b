"""The student's dashboard: which widgets, in what order, at what size — kept in the one store.

Stored as one JSON value in `app_settings` (`dashboard`): `{"order": [id…], "sizes": {id: size}, "hidden": [id…]}`
where an id is `<plugin>/<widget>`. Widgets of newly installed plugins appear at the end until removed; ids of
plugins that are gone are ignored, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tui.runtime.settings import read_setting, write_setting
from tui.runtime.store import Store

KEY = "dashboard"


@dataclass(frozen=True)
class Placed:
    """One widget on the dashboard."""

    id: str
    """`<plugin>/<widget>`."""
    size: str | None
    """The size the student chose, or None for the widget's default."""


class DashboardLayout:
    """Reads and changes the dashboard layout; every change is stored at once."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _load(self) -> dict[str, Any]:
        raw = read_setting(self.store, KEY)
        raw = raw if isinstance(raw, dict) else {}
        order = [i for i in raw.get("order", []) if isinstance(i, str)] if isinstance(raw.get("order"), list) else []
        sizes: dict[str, Any] = raw["sizes"] if isinstance(raw.get("sizes"), dict) else {}
        hidden = [i for i in raw.get("hidden", []) if isinstance(i, str)] if isinstance(raw.get("hidden"), list) else []
        return {"order": order, "sizes": {k: v for k, v in sizes.items() if isinstance(v, str)}, "hidden": hidden}

    def _save(self, data: dict[str, Any]) -> None:
        write_setting(self.store, KEY, data)

    def placed(self, available: list[str]) -> list[Placed]:
        """The widgets shown, in order, out of those installed (`available`, in their default order)."""
        data = self._load()
        known = set(available)
        order = [i for i in data["order"] if i in known]
        order += [i for i in available if i not in order and i not in data["hidden"]]
        return [Placed(i, data["sizes"].get(i)) for i in order if i not in data["hidden"]]

    def hidden(self, available: list[str]) -> list[str]:
        """Installed widgets the student removed (they can be added back)."""
        data = self._load()
        return [i for i in available if i in data["hidden"]]

    def _change(self, available: list[str], **updates: Any) -> None:
        data = self._load()
        data["order"] = [p.id for p in self.placed(available)]
        data.update(updates)
        self._save(data)

    def move(self, available: list[str], widget: str, step: int) -> None:
        """Move a widget earlier (step < 0) or later, staying within the list."""
        order = [p.id for p in self.placed(available)]
        if widget not in order:
            return
        i = order.index(widget)
        j = max(0, min(len(order) - 1, i + step))
        order.insert(j, order.pop(i))
        self._change(available, order=order)

    def resize(self, available: list[str], widget: str, size: str) -> None:
        data = self._load()
        self._change(available, sizes={**data["sizes"], widget: size})

    def remove(self, available: list[str], widget: str) -> None:
        data = self._load()
        order = [p.id for p in self.placed(available) if p.id != widget]
        self._change(available, order=order, hidden=sorted({*data["hidden"], widget}))

    def snapshot(self) -> dict[str, Any]:
        """The stored layout as it is now, for `restore` (the dashboard's undo of a removal)."""
        return self._load()

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Put back a layout `snapshot` took: order, sizes and removed widgets as they were."""
        self._save(snapshot)

    def add(self, available: list[str], widget: str) -> None:
        """Show a removed widget again, at the end."""
        data = self._load()
        order = [p.id for p in self.placed(available)] + [widget]
        self._change(available, order=order, hidden=[i for i in data["hidden"] if i != widget])
