"""App settings live in the one store: allowed values only, defaults for anything missing or corrupt."""

from __future__ import annotations

import pytest

from tui.runtime.settings import AppSettings
from tui.runtime.store import Store


def test_settings_default_store_and_refuse_unknown_values() -> None:
    store = Store(":memory:")
    settings = AppSettings(store)
    assert settings.get("language") == "zh" and settings.get("theme") == "dark"
    settings.set("language", "en")
    assert settings.get("language") == "en"
    with pytest.raises(ValueError, match="language must be one of zh, en"):
        settings.set("language", "fr")
    with pytest.raises(ValueError):
        settings.set("colour", "red")


def test_a_corrupt_stored_value_reads_as_the_default() -> None:
    store = Store(":memory:")
    store.db.execute("INSERT INTO app_settings (key, value) VALUES ('theme', '{not json'), ('language', '\"xx\"')")
    settings = AppSettings(store)
    assert settings.get("theme") == "dark" and settings.get("language") == "zh"
