"""Plugins' quick commands (快捷指令, seed 003): each a prompt for the assistant, a tool run with fixed input, or a
plugin screen. The app offers them in the Ctrl+P palette and in 助手 (typing `/`), the CLI in `pku-harness
commands`; what a command does is the same everywhere, only who carries it out differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tui.runtime.registry import Registry

Kind = Literal["prompt", "tool", "screen"]


@dataclass(frozen=True)
class QuickCommand:
    """One command of one plugin, in the reader's language."""

    id: str
    """`<plugin>.<name>`: what `pku-harness commands run` takes."""
    plugin_id: str
    plugin: str
    """The plugin's name, shown beside the command's title."""
    title: str
    kind: Kind
    prompt: str | None = None
    """For a prompt: the text the assistant is sent."""
    target: str | None = None
    """For a tool: its id (`notices.latest`); for a screen: its name in the plugin."""
    args: dict[str, Any] = field(default_factory=dict)
    """The tool's input, or the screen's params."""

    @property
    def label(self) -> str:
        """ "通知 · 今天的通知": the plugin, then the command."""
        return f"{self.plugin} · {self.title}"


def quick_commands(registry: Registry) -> list[QuickCommand]:
    """Every loaded plugin's commands, plugins in id order, commands in the manifest's order; titles in the
    registry's language."""
    out = []
    for pid, installed in sorted(registry.plugins.items()):
        manifest = installed.plugin.manifest
        for name, command in manifest.commands.items():
            base: dict[str, Any] = {
                "id": f"{pid}.{name}",
                "plugin_id": pid,
                "plugin": registry.plugin_name(pid),
                "title": manifest.command_title(name, registry.locale),
            }
            if command.prompt is not None:
                out.append(QuickCommand(**base, kind="prompt", prompt=command.prompt))
            elif command.tool is not None:
                out.append(QuickCommand(**base, kind="tool", target=f"{pid}.{command.tool}", args=dict(command.args)))
            elif command.screen is not None:
                out.append(QuickCommand(**base, kind="screen", target=command.screen, args=dict(command.params)))
    return out


def matching(commands: list[QuickCommand], typed: str) -> list[QuickCommand]:
    """The commands a `/…` typed in 助手 names: all for a bare `/`, else those whose title, plugin or id contains
    what follows it (case does not matter)."""
    words = typed.removeprefix("/").strip().lower()
    if not words:
        return list(commands)
    return [c for c in commands if words in c.title.lower() or words in c.plugin.lower() or words in c.id.lower()]
