"""The campus login dialog: password or QR code (drawn dark on white), the SMS code and its cool-down."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Static

from tui.app.dialogs.base import Dialog
from tui.app.dialogs.prompts import DIALOG_CSS
from tui.app.harness import HarnessApp
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.runtime.campus.iaaa import LoginError, QrLogin
from tui.runtime.campus.qr_image import draw
from tui.runtime.campus.services import SERVICES, service
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.vault import FileVault, MemoryVault, VaultError
from tui.runtime.message import say, say_error
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal, plain

QR_POLLS, QR_EVERY = 60, 3.0  # about three minutes, as the IAAA page waits (campus.md §2.2)


SMS_COOLDOWN_S = 60.0


def qr_text(png: bytes, locale: str) -> Text:
    """The QR code drawn dark-on-white whatever the terminal's theme (phones read that reliably)."""
    lines, drawn = draw(png, light_as_block=False)
    return Text("\n".join(lines), style="#000000 on #ffffff", no_wrap=True) if drawn else literal(say(lines[0], locale))


class LoginScreen(LocalBindings, Dialog[bool]):
    """IAAA login for the services the plugins use: student id, hidden password, an optional mobile-token code,
    "remember" (the vault), or a QR code to scan with the 北京大学 app. Dismisses True once logged in."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="LoginScreen")
        + """
    LoginScreen > Vertical { width: 72; }
    LoginScreen .title { text-style: bold; }
    LoginScreen .muted { color: $text-muted; }
    LoginScreen #login-error { color: $error; }
    LoginScreen #login-qr { width: auto; height: auto; margin: 1 0; display: none; }
    LoginScreen #login-code-row { height: auto; }
    LoginScreen #login-otp { width: 1fr; }
    LoginScreen #login-sms { width: 18; min-width: 18; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

    def __init__(
        self, session: CampusSession, services: list[str], locale: str, reason: str = "", otp: bool = False
    ) -> None:
        """`reason`: why the screen opened by itself; `otp`: for the mobile-token code, which only the student
        can give (from another window they are told: attention.py)."""
        super().__init__()
        self.session = session
        self.services = services
        self.locale = locale
        self.reason = reason
        self.otp = otp
        self.sms_sent_at: float | None = None
        """When this dialog last texted a code (the loop's clock): the code field then holds an SMS code."""

    def compose(self) -> ComposeResult:
        loc = self.locale
        titles = ("、" if loc == "zh" else ", ").join(SERVICES[s].title_for(loc) for s in self.services)
        with Vertical():
            yield Static(t("login_title", loc), markup=False, classes="title")
            yield Static(plain(self.reason or t("login_for", loc).format(services=titles)),
                         markup=False, classes="muted", id="login-reason")  # fmt: skip
            vault = self.session.vault
            if isinstance(vault, FileVault) and vault.locked:
                yield Input(password=True, placeholder=t("vault_password", loc), id="login-vault")
            yield Input(clean(self.session.username() or ""), placeholder=t("student_id", loc), id="login-user")
            yield Input(password=True, placeholder=t("iaaa_password", loc), id="login-password")
            with Horizontal(id="login-code-row"):
                yield Input(placeholder=t("otp_placeholder", loc), id="login-otp", max_length=6, restrict=r"\d*")
                yield Button(t("sms_send", loc), id="login-sms")
            # where it is kept, said: without a keyring "保存在系统钥匙串" was not true
            where = (
                "remember_password_file"
                if isinstance(vault, FileVault)
                else "remember_password_memory"
                if isinstance(vault, MemoryVault)
                else "remember_password"
            )
            yield Checkbox(plain(t(where, loc)), value=True, id="login-remember")
            if self.session.vault_note:
                yield Static(t("no_keyring", loc), markup=False, classes="muted", id="login-note")
            yield Static("", markup=False, id="login-error")
            yield Static("", id="login-qr")
            with Horizontal():
                yield Button(t("cancel", loc), id="login-cancel")
                yield Button(t("qr_login", loc), id="login-qr-start")
                yield Button(t("login", loc), id="login-go", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#login-password" if self.session.username() else "#login-user", Input).focus()
        if self.otp and isinstance(self.app, HarnessApp):
            self.app.attention.waiting("code", self.reason)

    def action_cancel(self) -> None:
        self.workers.cancel_all()
        self.dismiss(False)

    async def _wait_for_scan(self, flow: QrLogin, name: str) -> bool:
        """Poll until the code is scanned (then log `name` in with its token); False when the time ran out."""
        for _ in range(QR_POLLS):
            token = await flow.poll()
            if token:
                await self.session.login_with_token(name, token)
                return True
            await asyncio.sleep(QR_EVERY)
        return False

    def _error(self, message: str) -> None:
        self.query_one("#login-error", Static).update(plain(message))

    @on(Button.Pressed, "#login-cancel")
    def cancelled(self) -> None:
        self.action_cancel()

    @on(Input.Submitted)
    @on(Button.Pressed, "#login-go")
    def submitted(self) -> None:
        self.log_in()

    def _unlock(self) -> bool:
        box = self.query("#login-vault")
        vault = self.session.vault
        if box and isinstance(vault, FileVault):
            try:
                vault.unlock(self.query_one("#login-vault", Input).value)
            except VaultError as e:
                self._error(say_error(e, self.locale))
                return False
        return True

    @work(exclusive=True, group="login")
    async def log_in(self) -> None:
        user = self.query_one("#login-user", Input).value.strip()
        password = self.query_one("#login-password", Input).value
        code = self.query_one("#login-otp", Input).value.strip() or None
        sms = code if self.sms_sent_at is not None else None
        otp = None if sms else code
        if not user or not password:
            self._error(t("login_fill", self.locale))
            return
        if not self._unlock():
            return
        self._error(t("logging_in", self.locale))
        for name in self.services:
            try:
                await self.session.login(name, user, password, otp, sms)
            except LoginError as e:
                if e.kind in ("otp", "sms"):
                    self.query_one("#login-sms" if e.kind == "sms" and not sms else "#login-otp").focus()
                    key = "otp_needed_because" if e.kind == "otp" else "sms_needed_because"
                    self._error(t(key, self.locale).format(error=say_error(e, self.locale)))
                elif e.kind == "captcha":  # the app cannot show IAAA's picture code: a browser login clears it
                    self._error(t("captcha_needed", self.locale).format(error=say_error(e, self.locale)))
                else:
                    self._error(say_error(e, self.locale))
                return
        try:
            self.session.remember_account(user, password, self.query_one("#login-remember", Checkbox).value)
        except VaultError as e:
            self.app.notify(clean(say_error(e, self.locale)), severity="warning", markup=False)
        self.query_one("#login-password", Input).value = ""
        self.dismiss(True)

    @on(Button.Pressed, "#login-sms")
    @work(exclusive=True, group="sms")
    async def send_sms(self) -> None:
        """Text IAAA's login code, then count down the 60 s before another (the IAAA client's rule)."""
        user = self.query_one("#login-user", Input).value.strip()
        if not user:
            self._error(t("login_fill", self.locale))
            return
        name = next((s for s in self.services if SERVICES[s].app_id), "treehole")
        button = self.query_one("#login-sms", Button)
        button.disabled = True
        try:
            phone = await self.session.send_sms_code(name, user)
        except LoginError as e:
            button.disabled = False
            self._error(say_error(e, self.locale))
            return
        loop = asyncio.get_running_loop()
        self.sms_sent_at = loop.time()
        self._error(t("sms_sent", self.locale).format(phone=phone or "…", seconds=int(SMS_COOLDOWN_S)))
        self.query_one("#login-otp", Input).focus()
        while (left := SMS_COOLDOWN_S - (loop.time() - self.sms_sent_at)) > 0:
            button.label = plain(t("sms_wait", self.locale).format(seconds=int(left) + 1))
            await asyncio.sleep(min(1.0, left))
        button.label = t("sms_send", self.locale)
        button.disabled = False

    @on(Button.Pressed, "#login-qr-start")
    @work(exclusive=True, group="login")
    async def qr_login(self) -> None:
        """One scan per service: IAAA's QR login hands out a token for one app only (`targetAppId`), and its QR
        session does not log the other apps in (pkucli logs each service in with its own scan). So the screen says
        so and shows the next service's code after each scan."""
        names = [s for s in self.services if SERVICES[s].app_id] or ["treehole"]
        if not self._unlock():
            return
        picture = self.query_one("#login-qr", Static)
        try:
            for number, name in enumerate(names, 1):
                svc = service(name)
                assert svc.app_id is not None and svc.redirect is not None
                flow = QrLogin(self.session.net, svc.app_id, svc.redirect.format(device=self.session.device()))
                png = await flow.start()
                picture.update(qr_text(png, self.locale))  # markup: a QR code the app drew (Text, half blocks)
                picture.display = True
                title = svc.title_for(self.locale)
                scan = t("qr_scan", self.locale).format(service=title)
                if len(names) > 1:
                    scan += t("qr_each", self.locale).format(number=number, count=len(names))
                self._error(scan)
                if not await self._wait_for_scan(flow, name):
                    self._error(t("qr_timeout", self.locale))
                    return
            self.dismiss(True)
        except LoginError as e:
            self._error(t("qr_timeout", self.locale) if e.kind == "expired" else say_error(e, self.locale))
