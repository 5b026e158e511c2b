"""Entry point of `pku-harness` and `python -m tui`."""

from __future__ import annotations

import click

from tui import __version__
from tui.cli.plugin import plugin
from tui.cli.tools import audit, permissions, tools


@click.group(invoke_without_command=True)
@click.option("--demo", is_flag=True, help="Start with the embedded demo data (no network, no login).")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True, help="Language of the app.")
@click.version_option(__version__, prog_name="pku-harness")
@click.pass_context
def cli(ctx: click.Context, demo: bool, lang: str) -> None:
    """PKU harness at a terminal: an AI campus assistant whose abilities come from plugins."""
    if ctx.invoked_subcommand is not None:
        return
    # Textual is imported here, not at the top: the plugin and tool commands never need it.
    from tui.app.app import make_app

    make_app(demo=demo, locale=lang).run()


cli.add_command(plugin)
cli.add_command(tools)
cli.add_command(permissions)
cli.add_command(audit)


def main() -> None:
    """Run the command line."""
    cli(prog_name="pku-harness")
