"""What a plugin may reach, in words a student reads: campus services by their names, app abilities by what they
do. The manifest's ids (`card`, `verify`, `campusPage`) are for plugin authors; the install review and
设置 → 权限范围 showed them as they were."""

from __future__ import annotations

from collections.abc import Iterable

from tui.app.i18n import STRINGS, t
from tui.runtime.campus.services import SERVICES


def campus_names(services: Iterable[str], locale: str) -> list[str]:
    """Each campus service by its name in `locale` (an unknown id as written)."""
    return [SERVICES[s].title_for(locale) if s in SERVICES else s for s in services]


def ability_names(abilities: Iterable[str], locale: str) -> list[str]:
    """Each app ability by what it lets the plugin do, in `locale` (an unknown id as written)."""
    return [t(f"ability_{a}", locale) if f"ability_{a}" in STRINGS else a for a in abilities]


def reach_words(kind: str, values: Iterable[str], locale: str) -> list[str]:
    """`values` of a manifest's `campus`, `network` or `abilities`, as a student reads them (sites as written)."""
    if kind == "campus":
        return campus_names(values, locale)
    if kind == "abilities":
        return ability_names(values, locale)
    return list(values)


__all__ = ["ability_names", "campus_names", "reach_words"]
