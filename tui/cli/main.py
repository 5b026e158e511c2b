"""Entry point of `pku-harness` and `python -m tui`."""

from __future__ import annotations

import click

from tui import __version__
from tui.cli.plugin import plugin
from tui.cli.tools import audit, permissions, tools


@click.group(invoke_without_command=True)
@click.option("--demo", is_flag=True, help="Start with the embedded demo data (no network, no login).")
@click.version_option(__version__, prog_name="pku-harness")
@click.pass_context
def cli(ctx: click.Context, demo: bool) -> None:
    """PKU harness at a terminal: an AI campus assistant whose abilities come from plugins."""
    if ctx.invoked_subcommand is not None:
        return
    # The Textual app arrives with issue 6; until then say so plainly instead of pretending.
    click.echo(
        "The terminal app is not built yet. Available now:\n"
        "  pku-harness plugin validate|test|run|eval …   (tools for plugin authors)\n"
        "  pku-harness tools list|call …                 (installed tools, through the permission gate)\n"
        "  pku-harness permissions list|set …, pku-harness audit",
        err=True,
    )
    ctx.exit(2)


cli.add_command(plugin)
cli.add_command(tools)
cli.add_command(permissions)
cli.add_command(audit)


def main() -> None:
    """Run the command line."""
    cli(prog_name="pku-harness")
