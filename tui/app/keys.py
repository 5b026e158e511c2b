"""Keys and Textual's own texts in the app's one language.

Textual reads `BINDINGS` once per class, and its footer and key panel (F1) show each binding's description as
it is. So the app's bindings carry an i18n key as their description (`Binding("r", "refresh", "refresh")`), and
every screen of the app mixes in `LocalBindings`: its `active_bindings` — the one property the footer and the key
panel read — hands out copies with the description in the app's current locale (Textual's own English
descriptions through `TEXTUAL_ZH`). A language switch needs nothing more than a repaint.

`LocalTextual` does the same for the rest Textual says by itself: the command palette's placeholder and its
system entries (Theme, Quit, Keys, Screenshot, …) and the Ctrl+C "how to quit" hint.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import ActiveBinding, Binding, BindingType
from textual.screen import Screen

from tui.app.dialogs.base import CommandPalette, OnceScreen
from tui.app.i18n import STRINGS, t
from tui.app.textual_zh import TEXTUAL_EN, TEXTUAL_ZH
from tui.app.wide_chars import keep_wide_characters
from widgets_render.safe_text import clean


def app_locale(app: App[Any]) -> str:
    """The locale an app speaks ("zh" unless it says otherwise)."""
    locale = getattr(app, "locale", "zh")
    return locale if locale in ("zh", "en") else "zh"


def describe(description: str, locale: str) -> str:
    """A binding's description in `locale`: an i18n key is looked up, Textual's English is translated to zh."""
    if description in STRINGS:
        return t(description, locale)
    return (TEXTUAL_ZH if locale == "zh" else TEXTUAL_EN).get(description, description)


def localized(binding: Binding, locale: str) -> Binding:
    """A copy of `binding` whose description (and tooltip) speak `locale`."""
    tooltip = describe(binding.tooltip, locale) if binding.tooltip else binding.tooltip
    return dataclasses.replace(binding, description=describe(binding.description, locale), tooltip=tooltip)


if TYPE_CHECKING:
    _ScreenBase = Screen[Any]
else:
    _ScreenBase = object


class LocalBindings(_ScreenBase):
    """Mix into a Screen (before it): the footer and the key panel show its keys in the app's locale."""

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's active bindings, each described in the app's locale."""
        locale = app_locale(self.app)
        return {
            key: active._replace(binding=localized(active.binding, locale), tooltip=describe(active.tooltip, locale))
            for key, active in super().active_bindings.items()
        }


class LocalScreen(LocalBindings, OnceScreen[Any]):
    """The app's default screen (the tabs): its keys in the app's locale."""


#: Textual's system commands (by their help text, which is unique) → the i18n keys of title and help.
SYSTEM_COMMANDS = {
    "Change the current theme": ("sys_theme", "sys_theme_help"),
    "Quit the application as soon as possible": ("quit", "sys_quit_help"),
    "Hide the keys and widget help panel": ("sys_keys", "sys_keys_hide"),
    "Show help for the focused widget and a summary of available keys": ("sys_keys", "sys_keys_show"),
    "Minimize the widget and restore to normal size": ("sys_minimize", "sys_minimize_help"),
    "Maximize the focused widget": ("sys_maximize", "sys_maximize_help"),
    "Save an SVG 'screenshot' of the current screen": ("sys_screenshot", "sys_screenshot_help"),
}


class LocalTextual(App[None]):
    """An app whose command palette, system commands and quit hint speak its locale, on `LocalScreen`; Tab and
    Shift+Tab move the focus in the order they were typed."""

    # Textual binds Tab on the screen, reached only once the key has bubbled up from the focused widget — while
    # the keys typed after it are already on their way to that same widget: a fast "二教⇥13" wrote 二教13 into one
    # box (an outsider's run). As priority bindings the app moves the focus the moment the key comes, before the
    # next key is sent anywhere. No widget of the app uses Tab itself (no TextArea indents with it).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "focus_next", "Focus Next", show=False, priority=True),
        Binding("shift+tab", "focus_previous", "Focus Previous", show=False, priority=True),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        keep_wide_characters()  # Chinese text under a toast or dialog would lose characters (tui/app/wide_chars.py)

    def get_default_screen(self) -> Screen[Any]:
        """The tabs' screen, with its keys described in the app's locale."""
        return LocalScreen(id="_default")

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's system commands, titled and explained in the app's locale."""
        locale = app_locale(self)
        for command in super().get_system_commands(screen):
            keys = SYSTEM_COMMANDS.get(command.help)
            if keys is not None:
                command = command._replace(title=t(keys[0], locale), help=t(keys[1], locale))
            yield command

    @on(events.DeliveryComplete)
    @on(events.DeliveryFailed)
    def screenshot_delivered(self, event: events.DeliveryComplete | events.DeliveryFailed) -> None:
        """The palette's 截图 saved (or not), said in the app's locale instead of Textual's English toast."""
        if event.name != "screenshot":
            return
        event.prevent_default()  # Textual's own handler, on `App`, would say it again in English
        locale = app_locale(self)
        if isinstance(event, events.DeliveryFailed):
            self.notify(
                t("screenshot_failed", locale), title=t("sys_screenshot", locale), severity="error", markup=False
            )
        elif event.path is None:
            self.notify(t("screenshot_saved", locale), title=t("sys_screenshot", locale), markup=False)
        else:
            said = t("screenshot_saved_to", locale).format(path=event.path)
            self.notify(clean(said), title=t("sys_screenshot", locale), markup=False)

    def action_command_palette(self) -> None:
        """The command palette (Ctrl+P) with its placeholder in the app's locale."""
        # Not only the top screen (Textual's `is_open`): a palette still on the stack under a screen one of its
        # commands opened made Ctrl+P push a second one with the same id (DuplicateIds; MASH_SCALE=20, seed 3).
        if self.use_command_palette and not any(s.id == "--command-palette" for s in self.screen_stack):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=t("palette_search", app_locale(self))))

    def search_themes(self) -> None:
        """Textual's theme picker with its placeholder in the app's locale."""
        from textual.theme import ThemeProvider

        self.push_screen(CommandPalette(providers=[ThemeProvider], placeholder=t("theme_search", app_locale(self))))

    def action_help_quit(self) -> None:
        """Ctrl+C no longer quits: say which key does, in the app's locale (no markup: the key is shown as is)."""
        locale = app_locale(self)
        for active in self.active_bindings.values():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(
                    clean(t("quit_hint", locale).format(key=self.get_key_display(active.binding))),
                    title=t("quit_title", locale),
                    markup=False,
                )
                return
