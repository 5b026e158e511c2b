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


class AppSettings:
    """Typed access to the `app_settings` table."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, key: str) -> str:
        """The stored value, or the default when it is missing or no longer allowed."""
        allowed = CHOICES[key]
        with self.store.lock:
            row = self.store.db.execute("SELECT value FROM app_settings WHERE key = ?", (key,)).fetchone()
        try:
            value: Any = json.loads(row[0]) if row else None
        except ValueError:
            value = None
        return value if value in allowed else allowed[0]

    def set(self, key: str, value: str) -> None:
        """Store a value.

        Raises:
            ValueError: the key is unknown or the value is not one of its choices.
        """
        if key not in CHOICES or value not in CHOICES[key]:
            raise ValueError(f"{key} must be one of {', '.join(CHOICES.get(key, ()))}, not {value!r}")
        with self.store.lock:
            self.store.db.execute(
                "INSERT INTO app_settings (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value)),
            )
