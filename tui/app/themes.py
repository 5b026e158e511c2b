"""The app's two themes: Textual's dark and light, with every colour that is used for text readable.

Textual's own themes draw the amber accent and the green and red tones on light grey at 1.5–3:1, and muted,
placeholder and inactive-tab text at 2.5–4.4:1. Here each colour that reaches text is tuned until it has at
least 4.5:1 (WCAG relative luminance) against the background, surface and panel of its theme; the shape of
the theme (which colour is which) stays Textual's. `tests/app/test_readable.py` holds every scene to it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.terminal_theme import TerminalTheme
from textual.app import App
from textual.theme import BUILTIN_THEMES, Theme

PKU_DARK: Theme = replace(
    BUILTIN_THEMES["textual-dark"],
    name="pku-dark",
    error="#F2708A",  # Textual's #B93C5B is 3:1 on the surface
    variables={
        "text-muted": "auto 70%",
        "text-disabled": "auto 62%",  # placeholders are drawn in it: they have to be read
        "foreground-muted": "#E0E0E0B3",
    },
)

PKU_LIGHT: Theme = replace(
    BUILTIN_THEMES["textual-light"],
    name="pku-light",
    accent="#864300",  # Textual's amber #FFA62B is 1.5:1 on light grey
    warning="#864300",
    error="#A12448",
    success="#00641E",
    variables={
        "footer-key-foreground": "#004578",  # the primary; Textual's #0178D4 is 2.9:1 on the panel
        "text-muted": "auto 76%",
        "text-disabled": "auto 70%",
        "foreground-muted": "#1F1F1FC0",
    },
)

#: ANSI colours in the light theme (rich's highlighting of a JSON result, a plugin's ANSI tones): Textual's
#: Alabaster with every colour darkened to 4.5:1 on light grey (its green is 3.2:1, its yellow 2:1).
ANSI_LIGHT = TerminalTheme(
    (247, 247, 247),
    (0, 0, 0),
    [(0, 0, 0), (161, 36, 72), (21, 101, 0), (134, 67, 0), (0, 83, 170), (110, 40, 140), (0, 96, 132),
     (247, 247, 247), (80, 80, 80)],
    [(161, 36, 72), (21, 101, 0), (134, 67, 0), (0, 83, 170), (110, 40, 140), (0, 96, 132), (247, 247, 247)],
)  # fmt: skip

#: The student's theme choice (settings: "dark" / "light") → the theme's name.
THEMES = {"dark": PKU_DARK.name, "light": PKU_LIGHT.name}


def register_themes(app: App[Any]) -> None:
    """Make both themes known to a Textual app (the shell, the widget preview)."""
    for theme in (PKU_DARK, PKU_LIGHT):
        app.register_theme(theme)
    app.ansi_theme_light = ANSI_LIGHT
