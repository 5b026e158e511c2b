"""The dashboard layout: order, sizes and removed widgets persist; unknown or new widgets behave sensibly."""

from __future__ import annotations

from pathlib import Path

from tui.runtime.layout import DashboardLayout, Placed
from tui.runtime.store import Store

ALL = ["a/w", "b/w", "c/w"]


def test_default_is_every_widget_in_order() -> None:
    layout = DashboardLayout(Store(":memory:"))
    assert layout.placed(ALL) == [Placed("a/w", None), Placed("b/w", None), Placed("c/w", None)]


def test_move_resize_remove_add_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    layout = DashboardLayout(Store(db))
    layout.move(ALL, "c/w", -1)
    layout.move(ALL, "c/w", -5)  # clamped at the start
    layout.resize(ALL, "b/w", "large")
    layout.remove(ALL, "a/w")
    again = DashboardLayout(Store(db))
    assert again.placed(ALL) == [Placed("c/w", None), Placed("b/w", "large")]
    assert again.hidden(ALL) == ["a/w"]
    again.add(ALL, "a/w")
    assert [p.id for p in again.placed(ALL)] == ["c/w", "b/w", "a/w"] and again.hidden(ALL) == []


def test_new_plugins_appear_at_the_end_and_gone_ones_are_ignored() -> None:
    layout = DashboardLayout(Store(":memory:"))
    layout.move(ALL, "b/w", -1)
    assert [p.id for p in layout.placed(["b/w", "c/w", "d/w"])] == ["b/w", "c/w", "d/w"]


def test_a_corrupt_stored_layout_reads_as_the_default() -> None:
    store = Store(":memory:")
    store.db.execute("INSERT INTO app_settings (key, value) VALUES ('dashboard', '{\"order\": 7, \"sizes\": []}')")
    assert [p.id for p in DashboardLayout(store).placed(ALL)] == ALL
