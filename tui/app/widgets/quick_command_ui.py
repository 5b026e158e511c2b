"""Carrying out a plugin's quick command in the app, wherever it was chosen (the palette, 助手's `/` list): a prompt
is sent in 助手 (without a model it waits in the box, and the pane says why), a tool runs in its form through the
gate as the student's own run, a screen opens with the command's params."""

from __future__ import annotations

from collections.abc import Callable

from tui.app.harness import HarnessApp
from tui.app.i18n import t
from tui.app.screens.plugin_screen import PluginScreen
from tui.app.screens.tool_form import ToolFormScreen
from tui.runtime.commands import QuickCommand


def carry_out(app: HarnessApp, command: QuickCommand, send: Callable[[str], None]) -> None:
    """Do what `command` declares; `send` puts a prompt in 助手 and sends it."""
    if command.kind == "prompt":
        send(command.prompt or "")
        return
    if command.kind == "screen":
        assert command.target is not None
        app.push_screen(PluginScreen(app.runtime, command.plugin_id, command.target, command.args, app.locale, app.now))
        return
    tool = app.runtime.registry.find(command.target or "")
    if tool is None:  # the plugin was removed while the palette was open
        app.notify(t("command_gone", app.locale), severity="warning", timeout=5)
        return
    app.push_screen(ToolFormScreen(app.runtime, tool, app.locale, app.now, given=command.args, run=True))
