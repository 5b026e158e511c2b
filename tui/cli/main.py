"""Entry point of `pku-harness` and `python -m tui`.

Exit codes: 0 done, 1 an error the command reports (or an unexpected exception: one line naming it and where it was
raised, no traceback), 2 a usage error, 3 the data store cannot be used (a damaged, newer or read-only database, a
full disk: one sentence on stderr names the file and what to do, nothing changed). The app (`pku-harness`,
`--demo`, `widget preview`) exits 1 when it ended on an unhandled exception (Textual prints its traceback).
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tui import __version__
from tui.cli.dev import env_origins, origin_option, read_origins, warn_origins
from tui.cli.lazy import Lazy, LazyGroup
from tui.cli.output import CLICK_ENDINGS, bad_parameter, fail, fail_store, usage_error

if TYPE_CHECKING:
    from textual.app import App

    from tui.runtime.dev_origins import DevOrigin


# The commands, imported only when one runs (`--help` imports none): name -> where it is defined, and the first
# sentence of its docstring, which `--help` lists (tests/test_cli_lazy.py checks that they agree).
COMMANDS = {
    "audit": Lazy(
        "tui.cli.tools",
        "audit",
        "The newest tool calls: time (Beijing), tool, actor, effect, mode, decision, duration and outcome.",
    ),
    "chat": Lazy(
        "tui.cli.chat",
        "chat",
        "One turn of the assistant without the app (tools that would ask are not run: reported), or the list of "
        "earlier conversations.",
    ),
    "commands": Lazy(
        "tui.cli.commands",
        "commands",
        "Plugins' quick commands: the same ones the app offers in Ctrl+P and in 助手 (type /).",
    ),
    "login": Lazy(
        "tui.cli.campus",
        "login",
        "Log in to campus services (every one your plugins use, or SERVICE), or to a remote plugin's server (mcp-ID).",
    ),
    "logout": Lazy(
        "tui.cli.campus",
        "logout",
        "Forget campus sessions (all, or SERVICE), or with --forget-vault the choice of a vault file; `logout mcp-ID` "
        "forgets a remote plugin's server login (its token, OAuth tokens and client registration).",
    ),
    "model": Lazy(
        "tui.cli.chat",
        "model",
        "The assistant's model: an OpenAI-compatible provider and its API key (kept in keyring).",
    ),
    "open": Lazy(
        "tui.cli.plugins",
        "open_link",
        "Open a pkuharness:// link (today: pkuharness://plugin?src=… installs a plugin).",
    ),
    "permissions": Lazy(
        "tui.cli.tools", "permissions", "What the assistant may do, per plugin and effect: allow, ask or deny."
    ),
    "plugin": Lazy("tui.cli.plugin", "plugin", "Tools for plugin authors."),
    "plugins": Lazy("tui.cli.plugins", "plugins", "Install plugins from links, update, roll back and remove them."),
    "scheduler": Lazy(
        "tui.cli.scheduler", "scheduler", "Scheduled checks and assistant tasks (read-only, nobody watching)."
    ),
    "serve": Lazy(
        "tui.cli.serve",
        "serve",
        "Serve the app to a web browser, one app per tab (on this machine only unless --host says otherwise).",
    ),
    "status": Lazy("tui.cli.campus", "status", "Campus login state of every service, and where secrets are kept."),
    "tools": Lazy("tui.cli.tools", "tools", "Installed tools and calling them through the gate."),
}


class HarnessGroup(LazyGroup):
    """The command group: a fault of the data store, met by any command or the app's start, ends it plainly; any
    other unexpected exception is one line naming it and where it was raised (exit 1), not a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CLICK_ENDINGS:
            raise  # click's own (end of input at a prompt becomes "Aborted!")
        except Exception as e:
            # imported here, once something failed: the data store's code is no part of `--help`
            from tui.runtime.store_faults import StoreError, os_fault

            if isinstance(e, StoreError):  # its one sentence on stderr, exit code 3, no traceback
                raise fail_store(e) from None
            fault = os_fault(e, e.filename or "the data folder") if isinstance(e, OSError) else None
            if fault is not None:
                raise fail_store(fault) from None
            raise fail(unexpected(e)) from None


def unexpected(e: BaseException) -> str:
    """One line for an exception nothing handled: its type, message and the line that raised it."""
    where = ""
    import traceback  # only when something failed

    frames = traceback.extract_tb(e.__traceback__)
    if frames:
        path = Path(frames[-1].filename)
        root = Path(__file__).resolve().parents[2]  # the checkout or site-packages: show paths inside it
        shown = path.relative_to(root) if path.is_relative_to(root) else path.name
        where = f" ({shown}:{frames[-1].lineno})"
    bug = "This is a bug in pku-harness; please report it with the command you ran"
    return f"unexpected {type(e).__name__}: {e}{where}. {bug}"


@click.group(cls=HarnessGroup, invoke_without_command=True, lazy=COMMANDS)
@click.option("--demo", is_flag=True, help="Start with the embedded demo data (no network, no login).")
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default=None,
    help="Language of the app (default: the one saved in 设置).",
)
@click.option(
    "--with",
    "extra",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="With --demo: also show this plugin folder's widgets and screens on its recorded data (for authors).",
)
@click.version_option(__version__, prog_name="pku-harness")
@click.pass_context
def cli(ctx: click.Context, demo: bool, lang: str | None, extra: tuple[str, ...]) -> None:
    """PKU harness at a terminal: an AI campus assistant whose abilities come from plugins.

    PKU_HARNESS_DEV_ORIGINS=HOST=URL[,…] maps hosts plugins declare to servers on this machine (dev mode)."""
    if ctx.invoked_subcommand is not None:
        return
    if extra and not demo:
        # The real app would keep layout, grants and data of a plugin nobody installed; the demo's are thrown away.
        raise usage_error("--with works with --demo only (to use a plugin in the app, install it)")
    origins = env_origins()
    # Textual is imported here, not at the top: the plugin and tool commands never need it.
    from tui.app.app import make_app

    opened: dict[str, Any] = {"dev_origins": origins, "extra": [Path(p) for p in extra]}
    if not demo:
        app = _made(lambda: make_app(locale=lang, **opened))
        warn_origins(origins)
        _run_app(ctx, app)
        return
    # The demo's throw-away data lives exactly as long as the app: removed on quit, on a crash, on Ctrl+C, and when
    # the terminal closes or the process is asked to end (SIGHUP, SIGTERM ended it at once and left the folder).
    import tempfile  # only the demo needs it (5 ms at every start of the command line)

    with tempfile.TemporaryDirectory(prefix="pku-harness-demo-", ignore_cleanup_errors=True) as data:
        app = _made(lambda: make_app(demo=True, locale=lang, data_dir=Path(data), throwaway=True, **opened))
        warn_origins(origins)
        with _ends_on_hangup(app):
            _run_app(ctx, app)


def _made(make: Callable[[], App[Any]]) -> App[Any]:
    """The app, or exit 2 before it starts: a --with folder with errors (every problem listed, as `plugin validate`
    lists them: an author fixes them in the files, not in a half-working app), or a mapped host no plugin declares."""
    from tui.runtime.dev_origins import ENV, DevOriginError
    from tui.runtime.runtime import PluginLoadError

    try:
        return make()
    except PluginLoadError as e:
        raise bad_parameter(e, "--with") from None
    except DevOriginError as e:
        raise bad_parameter(e, ENV) from None


@contextmanager
def _ends_on_hangup(app: App[Any]) -> Iterator[None]:
    """While the app runs, SIGHUP and SIGTERM quit it as `q` does (so what it holds is cleaned up)."""

    def end(_signal: int, _frame: object) -> None:
        app.call_later(app.exit)

    kept = {sig: signal.signal(sig, end) for sig in (signal.SIGHUP, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)


def _run_app(ctx: click.Context, app: App[Any]) -> None:
    """Run a Textual app; one that ended on an unhandled exception exits non-zero.

    Textual catches the exception, restores the terminal, prints the traceback and returns from `run()` as if
    the app had quit; only `return_code` (1 for such a crash, whatever `exit()` was given otherwise) tells.
    """
    app.run()
    if app.return_code:
        ctx.exit(app.return_code)


@cli.group()
def widget() -> None:
    """Tools for widget authors and QA."""


@widget.command("preview")
@click.argument("path")
@click.argument("name", required=False)
@click.option("--size", type=click.Choice(["small", "medium", "large"]), help="Render widgets at this size.")
@click.option(
    "--data",
    "data",
    type=click.Path(exists=True, dir_okay=False),
    help="JSON to use as the data: a widget's `data`, a screen's `data` (its `source`; `sources` still run).",
)
@click.option("--params", help="""A screen's params, JSON or @FILE.json: '{"id": "3"}' (over the declared defaults).""")
@click.option("--now", help="Pin the clock, as recorded tests do: '2026-11-30 09:00' or ISO (default: now).")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True)
@origin_option
def widget_preview(
    path: str,
    name: str | None,
    size: str | None,
    data: str | None,
    params: str | None,
    now: str | None,
    lang: str,
    origins: tuple[str],
) -> None:
    """Show a plugin's widgets (or NAME: one widget or screen) beside every validation problem of the plugin,
    re-rendered whenever a file of the plugin or the --data file is saved.

    NAME is a widget, else a screen (screen:NAME when a widget has the same name). Data comes from --data, else
    from the plugin's data sources answered by its recorded tests (no network). For a screen, --data is what its
    templates read as `data` (in place of its `source`); its `sources` still run, with --params as its params
    (a screen that requires params and is given none says which). A --data file that is not JSON
    is refused before the app starts, naming the line and column; saved broken later, it is a problem shown.
    With --origin, the plugin's data sources run live, requests for the mapped hosts going to those local servers.
    """
    from tui.app.preview import PreviewApp

    folder = _plugin_folder(path)
    if data:
        _check_json(data)
    pinned = _pinned_now(now) if now else None
    mappings = read_origins(origins)
    if mappings:
        _check_preview_origins(folder, mappings)
    warn_origins(mappings)
    given = _json_object(params, "--params") if params is not None else None
    app = PreviewApp(folder, name, size, Path(data) if data else None, lang, pinned, mappings, given)
    _run_app(click.get_current_context(), app)


def _plugin_folder(path: str) -> Path:
    """The plugin folder PATH names (the folder, or its PLUGIN.md); a usage error when it is not one."""
    folder = Path(path)
    if folder.name == "PLUGIN.md" and folder.is_file():
        folder = folder.parent
    if not folder.exists():
        raise bad_parameter(f"{path} does not exist", "PATH")
    if not folder.is_dir():
        raise bad_parameter(f"{path} is not a folder", "PATH")
    if not (folder / "PLUGIN.md").is_file():
        raise bad_parameter(f"{path} is not a plugin folder: it has no PLUGIN.md", "PATH")
    return folder


def _check_preview_origins(folder: Path, mappings: tuple[DevOrigin, ...]) -> None:
    """Refuse a mapped host the plugin's manifest does not declare (when the manifest loads: a broken one is a
    problem the preview shows, and a host it no longer declares is then simply not mapped)."""
    from tui.cli.dev import check_origins
    from tui.lang.documents.source import DirectorySource
    from tui.lang.documents.validator import validate

    plugin, _ = validate(DirectorySource(folder), specs=False)
    if plugin is not None:
        check_origins(mappings, {plugin.manifest.id: plugin.manifest.network}, "--origin")


def _pinned_now(text: str) -> str:
    """--now as ISO Beijing time, read as the plugin language reads a date (a recorded test's `now:` form)."""
    from tui.lang.expr import LangError, Run
    from tui.lang.expr.stdlib.dates import iso, parse

    try:
        return iso(parse(Run("2026-01-01T00:00:00+08:00"), text))
    except LangError as e:
        raise bad_parameter(f"{text!r} is not a date and time: {e}", "--now") from None


def _json_object(text: str, option: str) -> dict[str, Any]:
    """An option's JSON object, given inline or as @FILE; a usage error naming what is wrong otherwise."""
    import json

    where = text[1:] if text.startswith("@") else option
    try:
        raw = Path(text[1:]).read_text("utf-8") if text.startswith("@") else text
        value = json.loads(raw)
    except OSError as e:
        raise bad_parameter(f"{where} cannot be read ({e.strerror})", option) from None
    except UnicodeDecodeError as e:
        raise bad_parameter(f"{where} is not UTF-8 text (byte {e.start + 1})", option) from None
    except json.JSONDecodeError as e:
        raise bad_parameter(f"{where}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}", option) from None
    if not isinstance(value, dict):
        raise bad_parameter(f'{where} must be a JSON object, like \'{{"id": "3"}}\'', option)
    return value


def _check_json(path: str) -> None:
    """Refuse a --data file that is not JSON text, with file:line:column (the app would fail on it later)."""
    import json

    try:
        json.loads(Path(path).read_bytes().decode("utf-8"))
    except UnicodeDecodeError as e:
        raise bad_parameter(f"{path} is not UTF-8 text (byte {e.start + 1})", "--data") from None
    except json.JSONDecodeError as e:
        raise bad_parameter(f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}", "--data") from None
    except OSError as e:
        raise bad_parameter(f"{path} cannot be read ({e.strerror})", "--data") from None


def main() -> None:
    """Run the command line."""
    cli(prog_name="pku-harness")


if __name__ == "__main__":  # `python -m tui.cli.main`, as the timer line uses when no script is on PATH
    main()
