"""`--origin HOST=http://127.0.0.1:PORT` and `PKU_HARNESS_DEV_ORIGINS`: a plugin author's mapping of declared hosts
to a server on this machine (tui/runtime/dev_origins.py), read and refused here as usage errors, and said loudly."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import click

from tui.cli.output import bad_parameter, echo

if TYPE_CHECKING:
    from tui.runtime.dev_origins import DevOrigin

# The runtime's module (httpx, httpcore) is imported when a mapping is read: most commands never need it.

origin_option = click.option(
    "--origin",
    "origins",
    multiple=True,
    metavar="HOST=URL",
    help="For plugin authors: send requests for HOST (declared in the plugin's network) to a server on this "
    "machine, like api.example.com=http://127.0.0.1:8000. Repeatable.",
)


def read_origins(values: Iterable[str]) -> tuple[DevOrigin, ...]:
    """The `--origin` values as mappings; a malformed one is a usage error naming it (exit 2)."""
    if not values:
        return ()
    from tui.runtime.dev_origins import DevOriginError, parse_all

    try:
        return parse_all(values)
    except DevOriginError as e:
        raise bad_parameter(e, "--origin") from None


def env_origins() -> tuple[DevOrigin, ...]:
    """The app's mappings from PKU_HARNESS_DEV_ORIGINS; a malformed one is a usage error naming it (exit 2)."""
    import os

    from tui.runtime.dev_origins import ENV, DevOriginError, from_env

    if not os.environ.get(ENV, "").strip():
        return ()
    try:
        return from_env()
    except DevOriginError as e:
        raise bad_parameter(e, ENV) from None


def check_origins(mappings: tuple[DevOrigin, ...], networks: Mapping[str, Iterable[str]], hint: str) -> None:
    """Refuse (exit 2) a mapping of a host none of these plugins declares."""
    from tui.runtime.dev_origins import DevOriginError, check_declared

    try:
        check_declared(mappings, networks)
    except DevOriginError as e:
        raise bad_parameter(e, hint) from None


def warn_origins(mappings: tuple[DevOrigin, ...]) -> None:
    """The one warning line on stderr while mappings are in force."""
    from tui.runtime.dev_origins import describe

    if mappings:
        echo(f"warning: dev mode: requests for declared hosts go to this machine: {describe(mappings)}", err=True)
