"""Everything the command line prints, asks or fails with goes through here, cleaned in this one place.

Much of what a command shows was chosen by someone else: a plugin's titles and errors, a tool's result, a campus
or model server's message, an audit row's detail. Printed as they are, their ESC, CSI, OSC 52 (write the
clipboard), C1, bidi and zero-width characters act on the student's terminal instead of being read
(threats.md T1). So no command calls `print`, `click.echo`, `click.prompt` or `sys.stdout` itself
(`tests/test_cli_output.py` scans `tui/cli` for it): text goes through `echo()`, one record per line through
`line()` (columns padded to terminal cells with `pad()`), data through `echo_json()`, questions through `ask()` /
`confirm()` and errors through `fail()`. All of them clean with `widgets_render.safe_text`; JSON escapes instead
of removing, so the data stays intact.
"""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.cells import cell_len

from widgets_render.js_text import json_text
from widgets_render.safe_text import clean, escape_json, one_line


def echo(text: object = "", *, err: bool = False, nl: bool = True) -> None:
    """Print text (several lines are fine) with every character a terminal would act on removed."""
    click.echo(clean(str(text)), err=err, nl=nl)


def line(text: object, *, err: bool = False) -> None:
    """Print one record (a table row, an audit entry) as exactly one line: cleaned, and a line break inside a
    value becomes a space, so a title or an error message cannot print a row of its own that looks real."""
    click.echo(one_line(str(text)), err=err)


def cells(text: object) -> int:
    """How many terminal cells `text` takes once cleaned to one line: a Chinese character takes two, so `len()`
    (what `str.ljust` and format widths count) misaligns every column after a Chinese name."""
    return cell_len(one_line(str(text)))


def pad(text: object, width: int, *, right: bool = False) -> str:
    """`text` cleaned to one line and padded with spaces to `width` terminal cells (on the right, or the left)."""
    shown = one_line(str(text))
    fill = " " * max(0, width - cell_len(shown))
    return fill + shown if right else shown + fill


def echo_json(value: Any, indent: int | None = 2) -> None:
    """Print a value as JSON (numbers as JavaScript writes them, as the plugin language promises); characters a
    terminal would act on are written as `\\u` escapes (same data)."""
    echo_json_text(json_text(value, indent=indent))


def echo_json_text(text: str) -> None:
    """Print JSON text made elsewhere (the plugin language's `stringify`), escaped the same way."""
    click.echo(escape_json(text))


def ask(text: str, **options: Any) -> Any:
    """`click.prompt` on standard error with the question (and a shown text default) cleaned."""
    if isinstance(options.get("default"), str):
        options["default"] = one_line(options["default"])
    return click.prompt(one_line(text), err=True, **options)


def confirm(text: str, *, default: bool = False, err: bool = False) -> bool:
    """`click.confirm` with the question cleaned."""
    return click.confirm(clean(text), default=default, err=err)


def fail(message: object) -> click.ClickException:
    """The error to raise for a failed command: click prints `Error: <message>` and exits 1; the message is
    cleaned, since it usually carries the failing plugin's or server's own words."""
    return click.ClickException(clean(str(message)))


#: The exit code of a command that met a data store it cannot use (a damaged, newer or read-only database, a full
#: disk); click uses 1 for other errors and 2 for usage errors.
STORE_EXIT = 3


class _StoreFailure(click.ClickException):
    exit_code = STORE_EXIT


def fail_store(message: object) -> click.ClickException:
    """`fail()` for a data store the command cannot use: one sentence on stderr, exit code 3."""
    return _StoreFailure(clean(str(message)))


#: What ends a command the way click means it to (its errors, `ctx.exit`, "Aborted!", end of input at a prompt):
#: a handler of unexpected exceptions lets these through.
CLICK_ENDINGS: tuple[type[BaseException], ...] = (click.ClickException, click.exceptions.Exit, click.Abort, EOFError)


def bad_parameter(message: object, hint: str) -> click.BadParameter:
    """A refused command-line value (exit 2), naming the parameter; the message is cleaned."""
    return click.BadParameter(clean(str(message)), param_hint=hint)


def argument_text(text: str, hint: str) -> str:
    """The text of a JSON argument: as written, read from a file for `@file.json`, or from standard input for
    `-` (a large input does not fit on a command line)."""
    if text == "-":
        return sys.stdin.read()
    if text.startswith("@"):
        try:
            with open(text[1:], encoding="utf-8") as f:
                return f.read()
        except OSError as e:
            raise bad_parameter(f"cannot read {text[1:]}: {e.strerror}", hint) from None
        except UnicodeDecodeError:
            raise bad_parameter(f"{text[1:]} is not UTF-8 text", hint) from None
    return text


def usage_error(message: str) -> click.UsageError:
    """A command used the wrong way (exit 2)."""
    return click.UsageError(clean(message))


__all__ = [
    "CLICK_ENDINGS",
    "ask",
    "bad_parameter",
    "cells",
    "confirm",
    "echo",
    "echo_json",
    "echo_json_text",
    "fail",
    "fail_store",
    "line",
    "pad",
    "usage_error",
]
