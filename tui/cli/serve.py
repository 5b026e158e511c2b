"""`pku-harness serve`: the app in a web page, through textual-serve (tui/cli/web_server.py), for a browser on
this machine or, with `--host`, on the student's own phone on the same network.

Each browser tab gets its own app process (`python -m tui` with the options given here); they share the data
folder as several terminals would (the store takes concurrent writers). Closing a tab quits its app as `q` does.
With `--demo` each tab starts its own demo on throw-away data, as `pku-harness --demo` does.

Bound to loopback (the default) the page is for this machine only. Any other address must be asked for with
`--host`; then the page wants a random token (tui/cli/web_guard.py), and the link with it is printed once, with a
QR code of it for the phone's camera. The token lives as long as the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shlex
import signal
import socket
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from tui.cli.output import echo, fail, usage_error

if TYPE_CHECKING:
    from tui.cli.web_guard import Guard  # aiohttp: imported when `serve` runs

DEFAULT_PORT = 8000


@click.command()
@click.option("--demo", is_flag=True, help="Serve the demo (embedded data, no network, no login), one per tab.")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but loopback (0.0.0.0 for every network) needs the printed link's token.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True)
@click.option("--phone", is_flag=True, help="Show the app in a phone's frame (about 390x844), as a page's ?phone=1.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default=None, help="Language of the app and the page.")
@click.option(
    "--with",
    "extra",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="With --demo: also show this plugin folder's widgets and screens on its recorded data (for authors).",
)
def serve(demo: bool, host: str, port: int, phone: bool, lang: str | None, extra: tuple[str, ...]) -> None:
    """Serve the app to a web browser, one app per tab (on this machine only unless --host says otherwise).

    Stop it with Ctrl+C: every open tab's app quits as with `q`, keeping its data.
    """
    from tui.cli.web_guard import Guard, is_loopback, new_token

    if extra and not demo:
        raise usage_error("--with works with --demo only (to use a plugin in the app, install it)")
    token = None if is_loopback(host) else new_token()
    command = app_command(demo, lang, extra)
    guard = Guard(host, port, token)
    locale = lang or ("zh" if demo else saved_language()) or "zh"
    asyncio.run(_serve(command, host, port, guard, phone, locale, demo))


def app_command(demo: bool, lang: str | None, extra: tuple[str, ...]) -> str:
    """The shell command that starts one session's app: this Python running this package, as given here."""
    argv = [sys.executable, "-m", "tui"]
    argv += ["--demo"] if demo else []
    argv += ["--lang", lang] if lang else []
    for folder in extra:
        argv += ["--with", str(Path(folder).resolve())]
    return "exec " + shlex.join(argv)  # textual-serve runs it through a shell: the app is then its process


def saved_language() -> str | None:
    """The language chosen in 设置 (for the page's own few words), read without opening the store for writing;
    None when there is none or the file cannot be read."""
    from tui.runtime.store import default_path

    db = default_path()
    if not db.is_file():
        return None
    try:
        with contextlib.closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
            row = conn.execute("SELECT value FROM app_settings WHERE key = 'language'").fetchone()
        value = json.loads(row[0]) if row else None
    except (sqlite3.Error, ValueError):
        return None
    return value if value in ("zh", "en") else None


def page_url(host: str, port: int, token: str | None) -> str:
    """The link to print: for a bind on every address, this machine's address on its network."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    shown = f"[{shown}]" if ":" in shown else shown
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def lan_address() -> str:
    """This machine's address on the network its default route leaves by (a UDP socket's `connect` sends
    nothing); its name's address when there is no such route."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
        return str(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        return socket.gethostbyname(socket.gethostname())
    return "127.0.0.1"


def tell(host: str, port: int, token: str | None, demo: bool = False) -> None:
    """Say where the page is; for a bind beyond this machine, the warning (the demo has no campus login to give
    away, but its link still starts apps on this machine), the link with its token and its QR."""
    url = page_url(host, port, token)
    if token is None:
        echo(f"serving PKU harness on {url} (this machine only). Ctrl+C stops it.")
        return
    from tui.runtime.campus.qr_image import half_blocks, modules

    who = (
        "the demo (recorded data, no campus login; each visit starts an app on this machine)"
        if demo
        else "the app as you, campus login included"
    )
    echo(
        f"warning: serving PKU harness on {host}:{port}, beyond this machine. Whoever has this link can use {who}; "
        "it is plain HTTP, so use it on a network you trust.",
        err=True,
    )
    echo(f"open {url}  (its token is shown this once; scan the code with a phone on the same network)")
    echo("\n".join(half_blocks(modules(url.encode()))))  # light blocks: right for a dark terminal
    echo("Ctrl+C stops it.")


async def _serve(command: str, host: str, port: int, guard: Guard, phone: bool, locale: str, demo: bool) -> None:
    """Run the server until SIGINT or SIGTERM, then close every session (their apps quit and save)."""
    from aiohttp import web

    from tui.cli.web_server import HarnessServer

    server = HarnessServer(command, host, port, guard=guard, phone=phone, locale=locale, demo=demo)
    runner = web.AppRunner(await server._make_app(), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as e:
        await runner.cleanup()
        raise fail(f"cannot listen on {host}:{port}: {e.strerror or e} (another port: --port)") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    tell(host, port, guard.token, demo)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
