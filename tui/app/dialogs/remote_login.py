"""Logging in to a remote plugin's server: a masked box for a bearer token, or the browser for OAuth.

The login itself is the runtime's (`tui.runtime.plugins.mcp.auth.login`): it checks the token with one connection
before keeping it in keyring, or runs the OAuth flow with a loopback redirect. This dialog only asks, waits and
says how it went; the token leaves the box as soon as it is handed over. `open_remote_login` and
`confirm_remote_logout` are what any page (设置, 插件) calls for an installed remote plugin.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar
from urllib.parse import urlsplit

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from tui.app.dialogs.base import Dialog
from tui.app.dialogs.prompts import DIALOG_CSS, ConfirmDialog
from tui.app.harness import HarnessApp
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.lang.documents.manifest import Remote
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain

Browser = Callable[[str], Awaitable[None]]


def host_of(remote: Remote) -> str:
    """The server's host, as the review showed it."""
    try:
        return urlsplit(remote.mcp).hostname or remote.mcp
    except ValueError:
        return remote.mcp


class RemoteLoginScreen(LocalBindings, Dialog[bool]):
    """Log in to the server of remote plugin `plugin_id`: answers True once a login is kept."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="RemoteLoginScreen")
        + """
    RemoteLoginScreen > Vertical { width: 76; max-height: 100%; overflow-y: auto; }
    RemoteLoginScreen .title { text-style: bold; }
    RemoteLoginScreen #remote-error { color: $error; }
    RemoteLoginScreen #remote-url { color: $text-muted; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(self, app: HarnessApp, plugin_id: str, remote: Remote, browser: Browser | None = None) -> None:
        super().__init__()
        self.harness = app
        self.plugin_id = plugin_id
        self.remote = remote
        self.locale = app.locale
        self.browser = browser
        """Opens the authorization URL (the system browser unless a test gives its own)."""

    def compose(self) -> ComposeResult:
        loc = self.locale
        title = t("remote_login_title", loc).format(server=f"mcp-{self.plugin_id}", host=host_of(self.remote))
        with Vertical():
            yield Static(plain(clean(title)), markup=False, classes="title")
            if self.remote.auth == "bearer":
                yield Static(t("remote_token_explain", loc), markup=False)
                yield Input(password=True, placeholder=t("remote_token_placeholder", loc), id="remote-token")
            else:
                yield Static(t("remote_oauth_explain", loc), markup=False)
            for part in ("remote-status", "remote-url", "remote-error"):
                yield Static("", markup=False, id=part).set_styles("display: none;")
            with Horizontal():
                yield Button(t("cancel", loc), id="remote-cancel")
                go = "login" if self.remote.auth == "bearer" else "remote_oauth_start"
                yield Button(plain(t(go, loc)), id="remote-go", variant="primary")

    def on_mount(self) -> None:
        for box in self.query("#remote-token").results(Input):
            box.focus()

    def action_cancel(self) -> None:
        self.workers.cancel_group(self, "remote-login")  # a browser login stops waiting, its listener closes
        self.dismiss(False)

    @on(Button.Pressed, "#remote-cancel")
    def cancelled(self) -> None:
        self.action_cancel()

    def _say(self, where: str, text: str) -> None:
        for part in self.query(f"#{where}").results(Static):
            part.update(plain(text))
            part.display = bool(text)  # an empty line would push the buttons down for nothing

    @on(Input.Submitted, "#remote-token")
    @on(Button.Pressed, "#remote-go")
    def go(self) -> None:
        buttons = list(self.query("#remote-go").results(Button))
        if not buttons or buttons[0].disabled:
            return  # a login is under way (a second Enter would cancel it and start one with an empty box)
        token: str | None = None
        for box in self.query("#remote-token").results(Input):
            token, box.value = box.value, ""  # the box holds it no longer than it takes to hand it over
        self._say("remote-error", "")
        buttons[0].disabled = True
        self.run_login(token)

    @work(exclusive=True, group="remote-login")
    async def run_login(self, token: str | None) -> None:
        from tui.runtime.plugins.mcp.auth import KeyringMissing, LoginFailed, login, system_browser
        from tui.runtime.plugins.mcp.oauth import LOGIN_TIMEOUT

        loc, rt, server = self.locale, self.harness.runtime, f"mcp-{self.plugin_id}"
        opener = self.browser or system_browser

        async def browser(url: str) -> None:
            self._say("remote-status", t("remote_oauth_waiting", loc).format(minutes=round(LOGIN_TIMEOUT / 60)))
            self._say("remote-url", clean(url))  # the server's address: shown as text, never a link or markup
            await opener(url)

        if token is not None:
            self._say("remote-status", t("remote_checking", loc))
        try:
            checked = await login(
                self.plugin_id, self.remote, token=token, open_browser=browser, dev=rt.dev_origins, secrets=rt.secrets
            )
        except LoginFailed as e:
            self._failed(t(f"remote_fail_{e.kind}", loc).format(detail=clean(str(e))))
            return
        except KeyringMissing as e:
            self._failed(t("remote_no_keyring", loc).format(detail=clean(str(e))))
            return
        except ValueError as e:
            self._failed(t("remote_bad_token", loc).format(detail=clean(str(e))))
            return
        rt.remote.login_changed(self.plugin_id)  # its connection is made again with the login kept now
        if checked.state.kind == "ready":
            said = t("remote_done", loc).format(server=server, tools=checked.tools)
        else:
            said = t("remote_done_unchecked", loc).format(reason=clean(checked.state.reason or checked.state.kind))
        self.app.notify(clean(said), markup=False)
        self.dismiss(True)

    def _failed(self, message: str) -> None:
        self._say("remote-status", "")
        self._say("remote-url", "")
        self._say("remote-error", message)
        for button in self.query("#remote-go").results(Button):
            button.disabled = False


def installed_remote(app: HarnessApp, plugin_id: str) -> Remote | None:
    """The `remote` of the installed plugin `plugin_id`, or None."""
    installed = app.runtime.registry.plugins.get(plugin_id)
    return installed.plugin.manifest.remote if installed is not None else None


def open_remote_login(
    app: HarnessApp, plugin_id: str, done: Callable[[bool | None], None] | None = None, browser: Browser | None = None
) -> bool:
    """Show the login of remote plugin `plugin_id` (`done` gets True once a login is kept); False when the plugin
    is not an installed remote plugin with a login (nothing shown)."""
    remote = installed_remote(app, plugin_id)
    if remote is None or remote.auth == "none":
        return False
    app.push_screen(RemoteLoginScreen(app, plugin_id, remote, browser), done)
    return True


def confirm_remote_logout(app: HarnessApp, plugin_id: str, done: Callable[[bool], None] | None = None) -> None:
    """Ask, then forget every credential of the server of `plugin_id` (`done` gets whether it logged out)."""
    from tui.runtime.plugins.mcp.auth import KeyringMissing, logout

    server = f"mcp-{plugin_id}"

    def answered(yes: bool | None) -> None:
        if not yes:
            return
        try:
            logout(plugin_id)
        except KeyringMissing as e:
            app.notify(clean(t("remote_no_keyring", app.locale).format(detail=str(e))), markup=False)
            return
        app.runtime.remote.login_changed(plugin_id)  # its connection now says it needs a login
        app.notify(clean(t("remote_logged_out_of", app.locale).format(server=server)), markup=False)
        if done is not None:
            done(True)

    question = t("remote_logout_confirm", app.locale).format(server=server)
    app.push_screen(ConfirmDialog(question, app.locale), answered)
