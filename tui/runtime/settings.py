"""The student's app settings (language, theme) in the one store; unknown or corrupt values read as defaults."""

from __future__ import annotations

import json
from typing import Any

from tui.runtime.store import Store

#: Each setting's allowed values; the first is the default.
CHOICES: dict[str, tuple[str, ...]] = {
    "language": ("zh", "en"),
    "theme": ("dark", "light"),
}


def read_setting(store: Store, key: str) -> Any:
    """The JSON value stored under `key` in `app_settings`; None when missing or unreadable."""
    with store.lock:
        row = store.db.execute("SELECT value FROM app_settings WHERE key = ?", (key,)).fetchone()
    try:
        return json.loads(row[0]) if row else None
    except ValueError:
        return None


def write_setting(store: Store, key: str, value: Any) -> None:
    """Store a JSON value under `key` in `app_settings`, replacing the old one."""
    with store.lock:
        store.db.execute(
            "INSERT INTO app_settings (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value, ensure_ascii=False)),
        )


class AppSettings:
    """Typed access to the `app_settings` table."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, key: str) -> str:
        """The stored value, or the default when it is missing or no longer allowed."""
        allowed = CHOICES[key]
        value = read_setting(self.store, key)
        return value if value in allowed else allowed[0]

    def set(self, key: str, value: str) -> None:
        """Store a value.

        Raises:
            ValueError: the key is unknown or the value is not one of its choices.
        """
        if key not in CHOICES or value not in CHOICES[key]:
            raise ValueError(f"{key} must be one of {', '.join(CHOICES.get(key, ()))}, not {value!r}")
        write_setting(self.store, key, value)
