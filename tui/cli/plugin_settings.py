"""`pku-harness plugins settings ID [KEY VALUE]`: a plugin's settings (设置项), listed, set and reset from the
command line with the same checks as 设置."""

from __future__ import annotations

import json
from typing import Any

import click

from tui.cli.output import echo, echo_json, fail, line, pad
from tui.cli.tools import _open, _with
from tui.runtime.message import say_error
from tui.runtime.plugin_settings import SettingRefused, rule_words
from tui.runtime.runtime import Runtime


@click.command("settings")
@click.argument("plugin_id")
@click.argument("key", required=False)
@click.argument("value", required=False)
@click.option("--reset", "reset", metavar="KEY", help="Put KEY back to its default ('all' for every setting).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_with
def plugin_settings(
    plugin_id: str, key: str | None, value: str | None, reset: str | None, as_json: bool, extra: tuple[str, ...]
) -> None:
    """List a plugin's settings with their values, or set KEY to VALUE (checked as 设置 checks it).

    VALUE is read as the setting's type: a number, true/false, one of its choices, a list as JSON or separated by
    commas, an object as JSON."""
    rt = _open(extra)
    if plugin_id not in rt.registry.plugins:
        raise fail(f"no plugin {plugin_id!r} (see `pku-harness plugins list`)")
    if reset is not None:
        if key is not None:
            raise fail("give --reset KEY alone, not with a KEY VALUE to set")
        _reset(rt, plugin_id, None if reset == "all" else reset)
    elif key is not None:
        if value is None:
            raise fail(f"give the value to set {key} to (or --reset {key})")
        try:
            kept = rt.set_plugin_setting(plugin_id, key, value)
        except SettingRefused as e:
            raise fail(say_error(e, "en")) from None
        echo(f"{plugin_id}.{key} = {json.dumps(kept, ensure_ascii=False)}")
        return
    _list(rt, plugin_id, as_json)


def _reset(rt: Runtime, plugin_id: str, key: str | None) -> None:
    manifest = rt.registry.plugins[plugin_id].plugin.manifest
    if key is not None and key not in manifest.settings:
        raise fail(f"plugin {plugin_id} has no setting {key} (it has: {', '.join(manifest.settings) or '—'})")
    rt.reset_plugin_setting(plugin_id, key)
    echo(f"{plugin_id}: {'every setting' if key is None else key} back to the default")


def _list(rt: Runtime, plugin_id: str, as_json: bool) -> None:
    manifest = rt.registry.plugins[plugin_id].plugin.manifest
    rows: list[dict[str, Any]] = []
    for setting in rt.plugin_settings.listing(plugin_id, manifest):
        title, help_line, _ = manifest.setting_text(setting.key, "en")
        rows.append(
            {
                "key": setting.key,
                "title": title,
                "value": setting.value,
                "default": setting.field.default,
                "changed": setting.changed,
                "takes": str(rule_words(manifest, setting.key)),
                "help": help_line,
            }
        )
    if as_json:
        echo_json(rows)
        return
    if not rows:
        echo(f"{plugin_id} has no settings")
        return
    for row in rows:
        shown = json.dumps(row["value"], ensure_ascii=False)
        note = "" if row["changed"] else "  (default)"
        line(f"{pad(row['key'], 14)} {pad(shown, 12)} {row['takes']}{note}")
