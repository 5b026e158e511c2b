"""The app's own UI strings in Chinese (default) and English: one table merged from the parts' tables
(`tui/app/strings/`), and the lookups."""

from __future__ import annotations

from tui.app.strings import campus, checks, drafts, pages, plugins, preview, remote, remote_login, shell, web


def _merged(*tables: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """The tables as one; a key in two of them is a mistake (one would hide the other), refused at import."""
    out: dict[str, dict[str, str]] = {}
    for table in tables:
        twice = sorted(set(out) & set(table))
        if twice:
            raise ValueError(f"UI string keys in two tables: {', '.join(twice)}")
        out.update(table)
    return out


STRINGS = _merged(
    shell.STRINGS,
    plugins.STRINGS,
    campus.STRINGS,
    checks.STRINGS,
    drafts.STRINGS,
    pages.STRINGS,
    preview.STRINGS,
    remote.STRINGS,
    remote_login.STRINGS,
    web.STRINGS,
)


def t(key: str, locale: str) -> str:
    """A UI string in the locale (Chinese when English is missing)."""
    entry = STRINGS.get(key, {})
    return entry.get(locale) or entry.get("zh") or key


def term(value: str, locale: str) -> str:
    """A word of the permission model (an effect, a mode, an audit value) in the locale; unknown ones as they are."""
    key = f"term_{value}"
    return t(key, locale) if key in STRINGS else value
