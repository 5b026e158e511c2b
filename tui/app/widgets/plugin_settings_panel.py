"""设置 → 插件设置: each plugin's settings (设置项, seed 003), every one drawn from its declaration and applied as
it is changed.

A choice (an enum) is a select of its values' titles, several choices (a list of an enum) a list of check boxes,
yes/no a switch, anything else a box — a list one item per comma, an object as JSON — applied on Enter or when the
box is left. Each change is checked with the declaration's rules (`Runtime.set_plugin_setting`): a refusal says
the rule in words under the setting and keeps what the student typed; a change is kept, the plugin's cached data
is dropped and its widgets fetch anew, so the next run sees it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

from rich.segment import Segment
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Input, Select, SelectionList, Static, Switch
from textual.widgets._toggle_button import ToggleButton
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import SelectionType

from tui.app.i18n import t
from tui.lang.documents.manifest import Manifest
from tui.lang.documents.tool import enum_keys
from tui.runtime.message import say_error
from tui.runtime.plugin_settings import SettingRefused, SettingValue
from tui.runtime.runtime import Runtime
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal, plain
from widgets_render.steady_options import SteadyOptionList
from widgets_render.steady_select import SteadySelect


class CheckList(SelectionList[SelectionType], SteadyOptionList):
    """A list of check boxes (paging only once laid out, as every list of the app) whose unticked boxes are
    empty: Textual draws an X in both states, only the colour differs (an outsider could not tell them apart, and
    a copy of the screen as text shows no difference)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("space", "select", "key_tick", show=False)]

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        try:
            option = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return line
        segments = list(line)
        if option.value not in self._selected and len(segments) > 1 and segments[1].text == ToggleButton.BUTTON_INNER:
            segments[1] = Segment(" ", segments[1].style)
            return Strip(segments, line.cell_length)
        return line


def box_text(value: Any) -> str:
    """A value as its box shows it: text as is, a list as `a, b`, anything else as JSON (null: empty)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(v if isinstance(v, str) else json.dumps(v) for v in value)
    return json.dumps(value, ensure_ascii=False)


def shown_value(setting: SettingValue) -> Any:
    """What a setting's control holds when it is drawn, as `PluginSettingsPanel.read` gives it."""
    field, value = setting.field, setting.value
    if field.enum is not None:
        return value if value in field.enum else None
    if field.type == "array" and field.items is not None and field.items.enum is not None:
        return [v for v in field.items.enum if isinstance(value, list) and v in value]
    if field.type == "boolean":
        return bool(value)
    return clean(box_text(value))


def setting_widget(setting: SettingValue, titles: dict[str, str], locale: str) -> Widget:
    """The control for one setting, showing its value."""
    field, value = setting.field, setting.value
    items = field.items
    if field.enum is not None:
        options = [(literal(titles.get(k, k)), v) for k, v in zip(enum_keys(field.enum), field.enum, strict=True)]
        prompt = "Select" if locale == "en" else "请选择"
        chosen = value if value in field.enum else Select.NULL
        return SteadySelect(options, value=chosen, allow_blank=field.default is None, prompt=prompt)
    if field.type == "array" and items is not None and items.enum is not None:
        picked = value if isinstance(value, list) else []
        keys = enum_keys(items.enum)
        choices = [(literal(titles.get(k, k)), v, v in picked) for k, v in zip(keys, items.enum, strict=True)]
        return CheckList[Any](*choices)
    if field.type == "boolean":
        return Switch(bool(value))
    number = field.type in ("number", "integer")
    shown = clean(box_text(value))
    return Input(shown, type="number" if number else "text", placeholder=clean(box_text(field.default)))


class PluginSettingsPanel(Vertical):
    """Every plugin's settings, grouped under its name; `changed(plugin_id)` after a setting of it was kept."""

    DEFAULT_CSS = """
    PluginSettingsPanel { height: auto; padding: 0 1; }
    PluginSettingsPanel .plugin-name { text-style: bold; margin-top: 1; }
    PluginSettingsPanel .setting-label { color: $text-muted; margin-top: 1; }
    PluginSettingsPanel .setting-help { color: $text-muted; }
    PluginSettingsPanel .setting-note { color: $success; height: auto; }
    PluginSettingsPanel .setting-note.-refused { color: $error; }
    PluginSettingsPanel Input, PluginSettingsPanel Select { width: 60; max-width: 100%; }
    PluginSettingsPanel SelectionList { width: 60; max-width: 100%; height: auto; }
    PluginSettingsPanel .-invalid { border: tall $error; }
    PluginSettingsPanel Select.-invalid { border: none; }
    PluginSettingsPanel Select.-invalid > SelectCurrent { border: tall $error; }
    PluginSettingsPanel .reset-row { height: auto; }
    """

    def __init__(self, runtime: Runtime, locale: str, changed: Callable[[str], None]) -> None:
        super().__init__(id="plugin-settings")
        self.runtime = runtime
        self.locale = locale
        self.changed = changed
        self.controls: dict[Widget, tuple[str, str]] = {}
        """Each control → the plugin and setting it sets."""
        self.applied: dict[Widget, Any] = {}
        """What each control last applied (or showed first): a control that did not change applies nothing."""

    def compose(self) -> ComposeResult:
        loc = self.locale
        plugins = [(pid, inst.plugin.manifest) for pid, inst in sorted(self.runtime.registry.plugins.items())]
        with_settings = [(pid, m) for pid, m in plugins if m.settings]
        if not with_settings:
            yield Static(t("no_plugin_settings", loc), markup=False, classes="setting-help")
            return
        for pid, manifest in with_settings:
            yield Static(plain(self.runtime.registry.plugin_name(pid)), markup=False, classes="plugin-name")
            for setting in self.runtime.plugin_settings.listing(pid, manifest):
                yield from self.setting(pid, manifest, setting)
            with Horizontal(classes="reset-row"):
                yield Button(t("settings_reset", loc), name=pid, classes="settings-reset")

    def setting(self, pid: str, manifest: Manifest, setting: SettingValue) -> ComposeResult:
        title, help_line, titles = manifest.setting_text(setting.key, self.locale)
        yield Static(plain(title), markup=False, classes="setting-label")
        control = setting_widget(setting, titles, self.locale)
        self.controls[control] = (pid, setting.key)
        self.applied[control] = shown_value(setting)  # not read(): a select takes its value only once mounted
        yield control
        if help_line:
            yield Static(plain(help_line), markup=False, classes="setting-help")
        yield Static("", markup=False, classes="setting-note")

    @staticmethod
    def read(control: Widget) -> Any:
        """A control's value as it would be applied."""
        if isinstance(control, Input):
            return control.value
        if isinstance(control, SelectionList):
            return list(control.selected)
        if isinstance(control, Switch):
            return control.value
        if isinstance(control, Select):
            return None if control.value is Select.NULL else control.value
        return None

    def note_of(self, control: Widget) -> Static:
        """The line under a control that says whether its value was kept."""
        siblings = list(control.parent.children) if control.parent else []
        after = siblings[siblings.index(control) + 1 :]
        return next(w for w in after if isinstance(w, Static) and w.has_class("setting-note"))

    def apply(self, control: Widget) -> None:
        """Keep the control's value if it changed; say what happened under it."""
        where = self.controls.get(control)
        value = self.read(control)
        if where is None or value == self.applied.get(control):
            return
        pid, key = where
        note = self.note_of(control)
        items = self.runtime.registry.plugins[pid].plugin.manifest.settings[key].items
        if isinstance(control, SelectionList) and items is not None and items.enum is not None:
            value = [v for v in items.enum if v in value]  # the declaration's order, not the order of the ticks
        try:
            kept = self.runtime.set_plugin_setting(pid, key, value)
        except SettingRefused as e:
            control.add_class("-invalid")
            note.add_class("-refused")
            note.update(clean(say_error(e, self.locale)))
            return
        self.applied[control] = value
        control.remove_class("-invalid")
        note.remove_class("-refused")
        note.update(t("setting_saved", self.locale))
        if isinstance(control, Input):
            control.value = clean(box_text(kept))  # as it is kept: "10" for " 10 "
            self.applied[control] = control.value
        self.changed(pid)

    @on(Select.Changed)
    @on(Switch.Changed)
    @on(SelectionList.SelectedChanged)
    def chosen(self, event: Select.Changed | Switch.Changed | SelectionList.SelectedChanged[Any]) -> None:
        event.stop()
        self.apply(event.control)

    @on(Input.Submitted)
    @on(Input.Blurred)
    def typed(self, event: Input.Submitted | Input.Blurred) -> None:
        event.stop()
        self.apply(event.input)

    @on(Button.Pressed, ".settings-reset")
    async def reset(self, event: Button.Pressed) -> None:
        """恢复默认: every setting of that plugin back to its default, the controls with it."""
        event.stop()
        pid = str(event.button.name)
        self.runtime.reset_plugin_setting(pid)
        self.changed(pid)
        self.controls.clear()
        self.applied.clear()
        await self.recompose()
        name = clean(self.runtime.registry.plugin_name(pid))
        self.notify(clean(t("settings_were_reset", self.locale).format(plugin=name)), markup=False)
