"""A click group whose subcommands are imported only when one of them runs (or its own help is asked for).

Importing every command module up front pulled in the whole runtime, httpx and the plugin language before
`--help` could print a line: a third of a second and more. The group instead knows each command by name, the
module and attribute that define it, and the one line `--help` lists it with, so listing the commands imports
nothing; `tests/test_cli_lazy.py` checks that each line is still the one the command's own docstring gives.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from gettext import gettext as _
from typing import Any

import click


@dataclass(frozen=True)
class Lazy:
    """Where a subcommand is defined, and the summary `--help` lists it with until it is imported.

    `summary` is the first sentence of the command's docstring (click shortens it to the terminal's width the
    same way either way).
    """

    module: str
    attribute: str
    summary: str

    def load(self) -> click.Command:
        """Import the module and return the command it defines."""
        command = getattr(importlib.import_module(self.module), self.attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.module}.{self.attribute} is not a click command")
        return command


class LazyGroup(click.Group):
    """A group with commands added by name (`lazy=`) that are imported the first time click asks for them."""

    def __init__(self, *args: Any, lazy: Mapping[str, Lazy] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, Lazy] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.add_command(self.lazy[cmd_name].load(), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing of the commands, with a command not yet imported listed by its summary (not loaded)."""
        listed: list[tuple[str, click.Command]] = []
        for name in self.list_commands(ctx):
            command = self.commands.get(name)
            if command is None and name in self.lazy:
                command = click.Command(name, help=self.lazy[name].summary)  # a stand-in that only lists
            if command is not None and not command.hidden:
                listed.append((name, command))
        if not listed:
            return
        # as click does: the short help gets what the widest name and three times the default spacing leave
        limit = formatter.width - 6 - max(len(name) for name, _ in listed)
        with formatter.section(_("Commands")):  # click's own words, translated as click does
            formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in listed])
