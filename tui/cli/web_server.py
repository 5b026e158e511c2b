"""The web server of `pku-harness serve`: textual-serve's `Server`, which starts one app process per browser
session (its command line is `python -m tui …`, with the options given to `serve`), changed where this app needs:

* every request passes the `Guard` first (tui/cli/web_guard.py: the token, this machine's names, the origin);
* the page is this package's own (tui/cli/web/app_index.html): its words in the app's language, no font fetched
  from elsewhere, the phone frame with `--phone` or `?phone=1` (`?phone=0` turns it off);
* the page's links and websocket address come from the address the browser used (textual-serve builds them from
  the bound one, which for 0.0.0.0 a phone cannot reach);
* the app's `notify` and `title` messages (tui/app/attention.py, under the web driver) reach the page, which
  shows a browser notification where it is allowed to, and sets the tab's title;
* stopping the server closes every session's websocket first, so each app quits as when its tab closes (its
  data saved), rather than being left to end with the server; the page then says the server stopped (it said
  the session ended, and its 重新打开 led to the browser's "can't be reached"), and with `--demo` that a demo
  keeps nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import textual_serve
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from tui.app.i18n import t
from tui.cli.web_guard import Guard

log = logging.getLogger("pku-harness.serve")

#: textual-serve's own files (the terminal's script and styles), served as they are.
STATICS = Path(textual_serve.__file__).parent / "static"
#: This package's page.
TEMPLATES = Path(__file__).with_name("web")
#: The app's messages the page acts on, and the longest text of one (a notification is a nudge).
PAGE_MESSAGES = ("notify", "title")
MAX_TEXT = 200
#: The terminal's size a browser may ask for, in cells: past this an app process would draw for nobody.
MAX_CELLS = 1000
#: How long a session's app has to quit when its tab closes (before it is asked to end, then ended).
QUIT_WAIT_S = 10.0
#: Font size (CSS px) of the terminal: a phone's screen holds about 40 columns of it, as a phone's terminal does.
FONT_SIZE = 16


class PageSession(AppService):
    """One browser session's app process; its `notify` and `title` messages go on to the page, and stopping it
    waits for the process to end (textual-serve's leaves it to the garbage collector)."""

    async def run(self) -> None:
        """Relay the app's output until its process ends, then close the page's connection: an app that could not
        start (a damaged data folder: its sentence is on the server's terminal) ends its session rather than
        leaving the page saying it starts."""
        await super().run()
        await self.remote_close()

    async def stop(self) -> None:
        """Ask the app to quit (it saves as with `q`); one still running after `QUIT_WAIT_S` is ended."""
        task, process = self._task, self._process
        if task is None or process is None:
            return
        self._task = None
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        await self.send_meta({"type": "quit"})
        for end in (None, process.terminate, process.kill):
            if end is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    end()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), QUIT_WAIT_S)
                break
        await task  # the rest of its output, then the end of its stdout

    async def on_meta(self, data: bytes) -> None:
        """Pass the app's own messages to the page (texts cut short and made strings); the rest as before."""
        meta: dict[str, Any] = json.loads(data)
        kind = meta.get("type")
        if kind in PAGE_MESSAGES:
            fields = {key: str(meta.get(key, ""))[:MAX_TEXT] for key in ("title", "body")}
            await self.remote_write_str(json.dumps([kind, fields]))
            return
        await super().on_meta(data)


class HarnessServer(Server):
    """textual-serve's server with the changes listed in the module's docstring."""

    def __init__(
        self, command: str, host: str, port: int, *, guard: Guard, phone: bool, locale: str, demo: bool = False
    ) -> None:
        super().__init__(command, host=host, port=port, title="PKU harness", statics_path=STATICS)
        self.templates_path = TEMPLATES
        self.guard = guard
        self.phone = phone
        self.locale = locale
        self.demo = demo
        self.sockets: set[web.WebSocketResponse] = set()

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.insert(0, self.guard.middleware)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Nothing: `pku-harness serve` says where the page is itself (textual-serve prints a logo)."""

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every session's websocket: each app then quits as when its tab is closed."""
        for socket in list(self.sockets):
            await socket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, with its addresses on the origin the browser used."""
        origin = f"{request.scheme}://{request.host}"
        asked = request.query.get("phone")
        phone = self.phone if asked is None else asked not in ("", "0", "false", "no")
        names = ("title", "starting", "start", "ended", "stopped", "restart")
        words = {name: t(f"web_{name}", self.locale) for name in names}
        if self.demo:
            words["ended"] = t("web_ended_demo", self.locale)
        return {
            "font_size": min(max(to_int(request.query.get("fontsize", str(FONT_SIZE)), FONT_SIZE), 6), 48),
            "app_websocket_url": ("wss" if request.scheme == "https" else "ws") + f"://{request.host}/ws",
            "config": {"static": {"url": f"{origin}/static/"}},
            "lang": self.locale,
            "phone": phone,
            "words": words,
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """The websocket that drives one session's app process (textual-serve's, with `PageSession`, the size
        bounded, and the socket known to `on_shutdown`)."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = min(max(to_int(request.query.get("width", "80"), 80), 1), MAX_CELLS)
        height = min(max(to_int(request.query.get("height", "24"), 24), 1), MAX_CELLS)
        session: PageSession | None = None
        self.sockets.add(websocket)

        async def close() -> None:  # the app has quit (`q`): the page shows its session ended
            await websocket.close()

        try:
            await websocket.prepare(request)
            session = PageSession(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=close,
                download_manager=self.download_manager,
            )
            await session.start(width, height)
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a browser's bad message ends its own session, never the server
            log.warning("a session ended on %s: %s", type(error).__name__, error)
        finally:
            self.sockets.discard(websocket)
            if session is not None:
                await session.stop()
        return websocket
