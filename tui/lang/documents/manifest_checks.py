"""The validator's checks of the manifest against the rest of the plugin: data sources and commands name tools
and screens that exist, i18n texts name what is there, tools do not call each other in a loop, declared
ability groups are used, and no `network` entry covers a public suffix."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from tui.lang.documents.calls import find_cycle
from tui.lang.documents.loader import MANIFEST_FILE
from tui.lang.documents.problems import did_you_mean
from tui.lang.documents.tool import AbilityStep, CallStep, enum_keys
from tui.lang.documents.yamlsafe import Path
from tui.lang.public_suffix import is_public_suffix
from widgets_render.screen_params import param_problems

if TYPE_CHECKING:
    from tui.lang.documents.validator import Checker


def check_network(c: Checker) -> None:
    """A `network` entry may not cover a whole public suffix (`*.edu.cn`, `*.github.io`, `edu.cn`)."""
    loc = c.plugin.manifest_located
    for i, pattern in enumerate(c.plugin.manifest.network):
        base = pattern.removeprefix("*.")
        if not is_public_suffix(base):
            continue
        what = "covers a whole public suffix" if pattern.startswith("*.") else "is itself a public suffix"
        c.add(
            (MANIFEST_FILE, loc.pos(("network", i))),
            f"network entry {pattern!r} {what}: anyone can register a site under {base}, so it would let "
            "the plugin reach all of them",
            "NETWORK_PUBLIC_SUFFIX",
            f"name your own domain (like *.example.{base})",
        )


def check_manifest(c: Checker) -> None:
    """Every name the manifest gives resolves; see the module's docstring."""
    m = c.plugin.manifest
    loc = c.plugin.manifest_located

    def add(path: Path, message: str, code: str, hint: str = "") -> None:
        c.add((MANIFEST_FILE, loc.pos(path)), message, code, hint)

    for name, ds in m.dataSources.items():
        if ds.tool is None:
            continue
        tool = c.plugin.tools.get(ds.tool)
        at: Path = ("dataSources", name, "tool")
        if tool is None:
            if ds.tool not in m.tools:  # declared but broken: reported where it is
                add(
                    at,
                    f"data source {name!r} names no tool {ds.tool!r}",
                    "DATASOURCE_UNKNOWN_TOOL",
                    did_you_mean(ds.tool, m.tools),
                )
        elif tool.definition.effect != "read":
            said = f"data source {name!r} names {ds.tool!r}, a {tool.definition.effect} tool"
            add(at, said + "; data sources must be read tools", "DATASOURCE_NOT_READ")
    for name, cmd in m.commands.items():
        if cmd.tool is not None and cmd.tool not in m.tools:
            add(
                ("commands", name, "tool"),
                f"command {name!r} names no tool {cmd.tool!r}",
                "COMMAND_UNKNOWN_TOOL",
                did_you_mean(cmd.tool, m.tools),
            )
        if cmd.screen is not None and cmd.screen not in m.screens:
            add(
                ("commands", name, "screen"),
                f"command {name!r} names no screen {cmd.screen!r}",
                "COMMAND_UNKNOWN_SCREEN",
                did_you_mean(cmd.screen, m.screens),
            )
        # the names a command gives must be the tool's inputs / the screen's params: a typo would be dropped
        tool = c.plugin.tools.get(cmd.tool) if cmd.tool else None
        declared = tool.definition.input if tool else None
        for key in sorted(set(cmd.args) - set(declared)) if isinstance(declared, dict) else ():
            add(
                ("commands", name, "args", key),
                f"command {name!r}: tool {cmd.tool!r} has no input {key!r}",
                "COMMAND_UNKNOWN_ARG",
                did_you_mean(key, list(declared or ())),
            )
        spec = c.plugin.screens.get(cmd.screen) if cmd.screen else None
        if isinstance(spec, dict):  # a screen that did not load says what is wrong with it in its own file
            # the same check as an `open:` action's: the palette opens the screen with exactly these params
            for p in param_problems(str(cmd.screen), spec.get("params"), cmd.params, "the command"):
                at = ("commands", name, "params", p.key) if p.key is not None else ("commands", name, "screen")
                hint = f"add params: {{ {p.missing}: … }}" if p.missing else p.hint  # YAML, not JSON, here
                place = loc.key_pos(at) if p.code == "OPEN_PARAM_UNKNOWN" else loc.pos(at)  # the name is wrong
                c.add((MANIFEST_FILE, place), f"command {name!r}: {p.message}", p.code, hint)
    _i18n(c, add)
    graph = {
        name: {s.model.call for s in _all_steps(t.steps) if isinstance(s.model, CallStep)}
        for name, t in c.plugin.tools.items()
    }
    cycle = find_cycle(graph)
    if cycle:
        add(("tools",), f"tools call each other in a loop: {' → '.join(cycle)}", "TOOL_CYCLE")
    if m.abilities:
        # a tool that did not load counts as it stands (its steps as far as they loaded): its own problem is said,
        # and an ability it uses is not "never used" because of it
        used = {
            s.model.ability.split(".")[0]
            for t in [*c.plugin.tools.values(), *c.plugin.salvaged.values()]
            for s in _all_steps(t.steps)
            if isinstance(s.model, AbilityStep)
        }
        if any(_has_key(spec, "openUrl") for spec in [*c.plugin.widgets.values(), *c.plugin.screens.values()]):
            used.add("browser")  # a widget's or screen's openUrl opens its link through browser.open
        for group in sorted(set(m.abilities) - used):
            c.warn(
                MANIFEST_FILE,
                loc.pos(("abilities",)),
                f"ability group {group!r} is declared but never used",
                "ABILITY_UNUSED",
                f"remove {group} from abilities",
            )


def _has_key(value: Any, key: str) -> bool:
    """Whether a mapping with `key` is anywhere in a JSON-like value."""
    if isinstance(value, dict):
        return key in value or any(_has_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(_has_key(v, key) for v in value)
    return False


def _i18n(c: Checker, add: Callable[..., None]) -> None:
    m = c.plugin.manifest
    if not (m.i18n and m.i18n.en):
        return
    en = m.i18n.en
    for name, text in en.tools.items():
        if name not in m.tools:
            add(
                ("i18n", "en", "tools", name),
                f"i18n names no tool {name!r}",
                "I18N_UNKNOWN",
                did_you_mean(name, m.tools),
            )
            continue
        known = c.plugin.tools[name].definition.input if name in c.plugin.tools else None
        for field in text.input:
            if known is not None and field not in known:
                add(
                    ("i18n", "en", "tools", name, "input", field),
                    f"i18n names no input field {field!r} of tool {name!r}",
                    "I18N_UNKNOWN",
                    did_you_mean(field, known),
                )
        for field, titles in text.enumTitles.items():
            if known is None:
                continue
            declared = known.get(field)
            if declared is None or not declared.enum:
                add(
                    ("i18n", "en", "tools", name, "enumTitles", field),
                    f"i18n names no enum field {field!r} of tool {name!r}",
                    "I18N_UNKNOWN",
                )
                continue
            values = enum_keys(declared.enum)
            for value in sorted(set(titles) - set(values)):
                add(
                    ("i18n", "en", "tools", name, "enumTitles", field, value),
                    f"i18n gives a title to {value!r}, not a value of {name}'s {field!r}",
                    "I18N_UNKNOWN",
                    did_you_mean(value, values),
                )
    for key, setting in en.settings.items():
        where = ("i18n", "en", "settings", key)
        declared_setting = m.settings.get(key)
        if declared_setting is None:
            add(where, f"i18n names no setting {key!r}", "I18N_UNKNOWN", did_you_mean(key, m.settings))
            continue
        choices = declared_setting.enum or (declared_setting.items.enum if declared_setting.items else None)
        allowed = set(enum_keys(choices)) if choices else set()
        for value in sorted(set(setting.enumTitles) - allowed):
            add(where, f"i18n gives a title to {value!r}, not a value of setting {key!r}", "I18N_UNKNOWN")
    for name in en.commands:
        if name not in m.commands:
            add(
                ("i18n", "en", "commands", name),
                f"i18n names no command {name!r}",
                "I18N_UNKNOWN",
                did_you_mean(name, m.commands),
            )


def _all_steps(steps: list[Any]) -> Iterable[Any]:
    for s in steps:
        yield s
        for children in s.children.values():
            yield from _all_steps(children)
