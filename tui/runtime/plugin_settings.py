"""A plugin's settings (设置项, seed 003): the student's values, checked against the manifest's declarations, kept
per plugin in the store, and given to every run of the plugin's tools as `settings.<key>`.

A declaration is the plugin's word of what a setting may be; an update may change it. So a stored value is used
only while it still fits its declaration (else the default applies, and the listing says so), and a value is
checked on the way in with the same rules as a tool's input. A refusal says the rule in words — in the reader's
language (`Message`) — not the checker's `settings.x must be at least 1`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tui.lang.documents.manifest import Manifest, SettingField
from tui.lang.steps.errors import ToolError
from tui.lang.steps.inputs import check_value, parse_text
from tui.runtime.field_rules import refused, rule_of
from tui.runtime.message import Message
from tui.runtime.settings import read_setting, write_setting
from tui.runtime.store import Store


def _key(plugin_id: str) -> str:
    """Where a plugin's values are kept in `app_settings` (one JSON object a plugin)."""
    return f"plugin_settings:{plugin_id}"


class SettingRefused(ValueError):
    """A value a setting does not take, or a setting the plugin does not declare; `args[0]` is the `Message`."""


@dataclass(frozen=True)
class SettingValue:
    """One setting as the settings page and `plugins settings ID` show it."""

    key: str
    field: SettingField
    value: Any
    """What runs see: the student's value, else the declared default."""
    changed: bool
    """The student set it (and it still fits its declaration)."""


class PluginSettings:
    """The settings table of every plugin: read, set, reset."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def stored(self, plugin_id: str) -> dict[str, Any]:
        """The values the student set for a plugin (unchecked; a corrupt entry reads as none)."""
        value = read_setting(self.store, _key(plugin_id))
        return value if isinstance(value, dict) else {}

    def listing(self, plugin_id: str, manifest: Manifest) -> list[SettingValue]:
        """Every declared setting with the value runs see, in the manifest's order."""
        stored = self.stored(plugin_id)
        out = []
        for key, field in manifest.settings.items():
            fits = key in stored and _fits(key, field, stored[key])
            out.append(SettingValue(key, field, stored[key] if fits else field.default, fits))
        return out

    def values(self, plugin_id: str, manifest: Manifest) -> dict[str, Any]:
        """`settings` for a run: each declared key, the student's value or the default."""
        return {s.key: s.value for s in self.listing(plugin_id, manifest)}

    def set(self, plugin_id: str, manifest: Manifest, key: str, value: Any) -> Any:
        """Check `value` against the setting's declaration and keep it; the value kept (text read as the type:
        `parse_text`).

        Raises:
            SettingRefused: the plugin has no such setting, or the value breaks its rule.
        """
        field = manifest.settings.get(key)
        if field is None:
            known = ", ".join(manifest.settings) or "—"
            raise SettingRefused(Message("setting_unknown", plugin=plugin_id, key=key, known=known))
        if isinstance(value, str):
            value = by_title(manifest, key, value)
        try:
            typed = value
            if isinstance(value, str) and (field.type or "string") != "string":  # typed text: read as its type
                typed = parse_text(field, value)
            checked = check_value("settings", key, field, typed)
        except ToolError:
            raise SettingRefused(refused(both(manifest, key, 0), field, both(manifest, key, 2))) from None
        with self.store.lock:  # read and write as one: two pages setting two keys keep both
            values = {**self.stored(plugin_id), key: checked}
            write_setting(self.store, _key(plugin_id), values)
        return checked

    def reset(self, plugin_id: str, key: str | None = None) -> None:
        """Back to the default: one setting, or (None) every setting of the plugin."""
        with self.store.lock:
            if key is None:
                self.store.db.execute("DELETE FROM app_settings WHERE key = ?", (_key(plugin_id),))
                return
            write_setting(self.store, _key(plugin_id), {k: v for k, v in self.stored(plugin_id).items() if k != key})


def by_title(manifest: Manifest, key: str, text: str) -> str:
    """Typed text with each choice given by its title, in either language, put as the choice itself ("PKU News,
    Student Affairs" → "新闻网,学工部"): the CLI listed the English titles and then refused them (an outsider's
    run). Text that names no title stays as it is."""
    field = manifest.settings[key]
    if not (field.enum or (field.items is not None and field.items.enum)):
        return text
    aliases: dict[str, str] = {}
    for locale in ("zh", "en"):
        for value, title in manifest.setting_text(key, locale)[2].items():
            aliases[str(title).strip().lower()] = str(value)
    if field.enum:
        return aliases.get(text.strip().lower(), text)
    parts = [part.strip() for part in re.split(r"[\n,，]", text) if part.strip()]
    return ",".join(aliases.get(part.lower(), part) for part in parts) if not text.lstrip().startswith("[") else text


def _fits(key: str, field: SettingField, value: Any) -> bool:
    try:
        check_value("settings", key, field, value)
    except ToolError:
        return False
    return True


def both(manifest: Manifest, key: str, part: int) -> dict[str, Any]:
    """A part of `Manifest.setting_text` (0 the label, 2 the value titles) in both languages, for a `Message`."""
    return {locale: manifest.setting_text(key, locale)[part] for locale in ("zh", "en")}


def rule_words(manifest: Manifest, key: str) -> Message:
    """What a setting takes, in words ("1 到 100 之间的整数", "one of: 今天, 明天"), its choices by their titles."""
    return rule_of(manifest.settings[key], both(manifest, key, 2))
