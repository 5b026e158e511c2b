"""The campus account in the app: the login screen (password or QR code), the mobile token, where secrets live,
and 设置 → 校园账号 with every service's state.

The screens call the headless campus session; nothing here keeps a password longer than the form shows it.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, DataTable, Input, Static

from tui.app.dialogs import DIALOG_CSS
from tui.app.i18n import t
from tui.runtime.campus.iaaa import LoginError, OtpBinding, QrLogin
from tui.runtime.campus.qr_image import draw
from tui.runtime.campus.services import SERVICES, service
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.totp import BadSecret
from tui.runtime.campus.vault import FileVault, VaultError
from tui.runtime.settings import write_setting
from widgets_render.safe_text import clean
from widgets_render.textual_render import literal, plain

QR_POLLS, QR_EVERY = 60, 3.0  # about three minutes, as the IAAA page waits (campus.md §2.2)
SMS_COOLDOWN_S = 60.0


def qr_text(png: bytes) -> Text:
    """The QR code drawn dark-on-white whatever the terminal's theme (phones read that reliably)."""
    lines, drawn = draw(png, light_as_block=False)
    return Text("\n".join(lines), style="#000000 on #ffffff", no_wrap=True) if drawn else literal(lines[0])


class LoginScreen(ModalScreen[bool]):
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
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "取消 Cancel")]

    def __init__(self, session: CampusSession, services: list[str], locale: str, reason: str = "") -> None:
        super().__init__()
        self.session = session
        self.services = services
        self.locale = locale
        self.reason = reason

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
            yield Input(placeholder=t("otp_placeholder", loc), id="login-otp", max_length=6, restrict=r"\d*")
            yield Checkbox(t("remember_password", loc), value=True, id="login-remember")
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

    def action_cancel(self) -> None:
        self.workers.cancel_all()
        self.dismiss(False)

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
                self._error(str(e))
                return False
        return True

    @work(exclusive=True, group="login")
    async def log_in(self) -> None:
        user = self.query_one("#login-user", Input).value.strip()
        password = self.query_one("#login-password", Input).value
        otp = self.query_one("#login-otp", Input).value.strip() or None
        if not user or not password:
            self._error(t("login_fill", self.locale))
            return
        if not self._unlock():
            return
        self._error(t("logging_in", self.locale))
        for name in self.services:
            try:
                await self.session.login(name, user, password, otp)
            except LoginError as e:
                if e.kind == "otp":
                    self.query_one("#login-otp", Input).focus()
                    self._error(t("otp_needed", self.locale) + f"（{e}）")
                else:
                    self._error(str(e))
                return
        try:
            self.session.remember_account(user, password, self.query_one("#login-remember", Checkbox).value)
        except VaultError as e:
            self.app.notify(clean(str(e)), severity="warning", markup=False)
        self.query_one("#login-password", Input).value = ""
        self.dismiss(True)

    @on(Button.Pressed, "#login-qr-start")
    @work(exclusive=True, group="login")
    async def qr_login(self) -> None:
        name = next((s for s in self.services if SERVICES[s].app_id), "treehole")
        svc = service(name)
        assert svc.app_id is not None and svc.redirect is not None
        if not self._unlock():
            return
        flow = QrLogin(self.session.net, svc.app_id, svc.redirect.format(device=self.session.device()))
        try:
            picture = self.query_one("#login-qr", Static)
            picture.update(qr_text(await flow.start()))  # markup: a QR code the app drew (Text, half blocks)
            picture.display = True
            self._error(t("qr_scan", self.locale).format(service=svc.title))
            for _ in range(QR_POLLS):
                token = await flow.poll()
                if token:
                    await self.session.login_with_token(name, token)
                    self.dismiss(True)
                    return
                await asyncio.sleep(QR_EVERY)
            self._error(t("qr_timeout", self.locale))
        except LoginError as e:
            self._error(t("qr_timeout", self.locale) if e.kind == "expired" else str(e))


class TokenScreen(ModalScreen[bool]):
    """The mobile token (手机令牌): type an existing secret, or bind a new one through IAAA with a texted code."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="TokenScreen")
        + """
    TokenScreen > Vertical { width: 72; }
    TokenScreen .title { text-style: bold; margin-top: 1; }
    TokenScreen #token-error { color: $error; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "取消 Cancel")]

    def __init__(self, session: CampusSession, locale: str) -> None:
        super().__init__()
        self.session = session
        self.locale = locale
        self.binding: OtpBinding | None = None

    def compose(self) -> ComposeResult:
        loc = self.locale
        with Vertical():
            yield Static(t("token_have", loc), markup=False, classes="title")
            with Horizontal():
                yield Input(password=True, placeholder=t("token_secret", loc), id="token-secret")
                yield Button(t("save", loc), id="token-save", variant="primary")
            yield Static(t("token_bind", loc), markup=False, classes="title")
            yield Input(clean(self.session.username() or ""), placeholder=t("student_id", loc), id="token-user")
            yield Input(password=True, placeholder=t("iaaa_password", loc), id="token-password")
            with Horizontal():
                yield Input(placeholder=t("sms_code", loc), id="token-sms", max_length=6, restrict=r"\d*")
                yield Button(t("send_code", loc), id="token-send")
                yield Button(t("bind", loc), id="token-bind", variant="primary")
            yield Static("", markup=False, id="token-error")
            with Horizontal():
                if self.session.otp_secret():
                    yield Button(t("token_forget", loc), id="token-forget", variant="error")
                yield Button(t("close", loc), id="token-close")

    def action_cancel(self) -> None:
        self.dismiss(False)

    def _error(self, message: str) -> None:
        self.query_one("#token-error", Static).update(plain(message))

    @on(Button.Pressed, "#token-close")
    def closed(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#token-forget")
    def forget(self) -> None:
        self.session.set_otp_secret(None)
        self.dismiss(True)

    @on(Button.Pressed, "#token-save")
    def save(self) -> None:
        box = self.query_one("#token-secret", Input)
        try:
            self.session.set_otp_secret(box.value)
        except (BadSecret, VaultError) as e:
            self._error(str(e))
            return
        finally:
            box.value = ""
        self.dismiss(True)

    @on(Button.Pressed, "#token-send")
    @work(exclusive=True, group="token")
    async def send(self) -> None:
        user = self.query_one("#token-user", Input).value.strip()
        self.binding = OtpBinding(self.session.net, user)
        try:
            mask = await self.binding.start(self.query_one("#token-password", Input).value)
        except LoginError as e:
            self._error(str(e))
            return
        self._error(t("code_sent_to", self.locale).format(phone=mask or "…"))
        self.query_one("#token-sms", Input).focus()
        button = self.query_one("#token-send", Button)
        button.disabled = True  # one text a minute: IAAA refuses faster resends anyway
        self.set_timer(SMS_COOLDOWN_S, lambda: setattr(button, "disabled", False))

    @on(Button.Pressed, "#token-bind")
    @work(exclusive=True, group="token")
    async def bind(self) -> None:
        if self.binding is None:
            self._error(t("send_code_first", self.locale))
            return
        try:
            bound = await self.binding.finish(self.query_one("#token-sms", Input).value.strip())
            self.session.set_otp_secret(bound["secret"], bound["personId"])
        except (LoginError, VaultError) as e:
            self._error(str(e))
            return
        self.query_one("#token-password", Input).value = ""
        self.dismiss(True)


class VaultFileScreen(ModalScreen[bool]):
    """Choose (or unlock) a password-protected file for campus secrets, where no keyring exists."""

    DEFAULT_CSS = DIALOG_CSS.format(name="VaultFileScreen") + "VaultFileScreen #vault-error { color: $error; }"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "取消 Cancel")]

    def __init__(self, session: CampusSession, default: Path, locale: str) -> None:
        super().__init__()
        self.session = session
        self.default = default
        self.locale = locale

    def compose(self) -> ComposeResult:
        loc = self.locale
        current = self.session.vault
        path = str(current.path) if isinstance(current, FileVault) else str(self.default)
        with Vertical():
            yield Static(t("vault_explain", loc), markup=False)
            yield Input(clean(path), id="vault-path")
            yield Input(password=True, placeholder=t("vault_password", loc), id="vault-password")
            yield Static("", markup=False, id="vault-error")
            with Horizontal():
                yield Button(t("cancel", loc), id="vault-cancel")
                yield Button(t("vault_use", loc), id="vault-go", variant="primary")

    def action_cancel(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#vault-cancel")
    def cancelled(self) -> None:
        self.dismiss(False)

    @on(Input.Submitted)
    @on(Button.Pressed, "#vault-go")
    def chosen(self) -> None:
        path = Path(self.query_one("#vault-path", Input).value.strip()).expanduser()
        vault = FileVault(path)
        try:
            vault.unlock(self.query_one("#vault-password", Input).value)
        except VaultError as e:
            self.query_one("#vault-error", Static).update(plain(str(e)))
            return
        write_setting(self.session.store, "campus.vaultFile", str(path.resolve()))
        self.session.use_vault(vault)
        self.dismiss(True)


class CampusSettings(Vertical):
    """设置 → 校园账号: who is logged in, every service's state, and the buttons to change it."""

    DEFAULT_CSS = """
    CampusSettings { height: auto; padding: 0 1; }
    CampusSettings Horizontal { height: auto; }
    CampusSettings Button { margin-right: 1; }
    CampusSettings .muted { color: $text-muted; }
    CampusSettings #campus-note { color: $warning; }
    CampusSettings DataTable { height: auto; max-height: 14; }
    """

    def __init__(self, session: CampusSession, services: list[str], locale: str, data_dir: Path) -> None:
        super().__init__(id="campus-settings")
        self.session = session
        self.services = services
        self.locale = locale
        self.data_dir = data_dir

    def compose(self) -> ComposeResult:
        loc = self.locale
        yield Static(plain(self.account_text()), markup=False, classes="muted", id="campus-account")
        if self.session.vault_note:
            yield Static(t("no_keyring", loc), markup=False, id="campus-note")
        table: DataTable[Text] = DataTable(id="campus-services", cursor_type="row", zebra_stripes=True)
        table.add_columns(t("service", loc), t("name", loc), t("state", loc), t("until", loc))
        yield table
        with Horizontal():
            yield Button(t("login", loc), id="campus-login", variant="primary")
            yield Button(t("token", loc), id="campus-token")
            yield Button(t("logout", loc), id="campus-logout")
            vault = self.session.vault
            if self.session.vault_note or isinstance(vault, FileVault):
                yield Button(t("vault_choose", loc), id="campus-vault")

    def on_mount(self) -> None:
        self.fill()

    def on_show(self) -> None:
        self.fill()  # logins happen elsewhere too (the login screen, re-logins): show the state as it is now

    def account_text(self) -> str:
        loc = self.locale
        user = self.session.username()
        vault = self.session.vault
        where = t(f"vault_{vault.kind}", loc)
        if isinstance(vault, FileVault) and vault.locked:
            where += " · " + t("vault_locked", loc)
        token = t("token_bound", loc) if self.session.otp_secret() else t("token_none", loc)
        return clean(f"{t('student_id', loc)}: {user or '—'} · {token} · {where}")

    def fill(self) -> None:
        table = self.query_one("#campus-services", DataTable)
        table.clear()
        for row in self.session.status():
            until = ""
            if row.expires_at and row.state == "logged_in":
                until = datetime.fromtimestamp(row.expires_at).strftime("%Y-%m-%d %H:%M")
            title = SERVICES[row.name].title_for(self.locale)
            cells = (row.name, title, t(f"campus_{row.state}", self.locale), until)
            table.add_row(*map(literal, cells), key=row.name)
        self.query_one("#campus-account", Static).update(plain(self.account_text()))

    def _after(self, changed: bool | None) -> None:
        if changed:
            self.fill()
            self.app.notify(t("campus_saved", self.locale), markup=False)

    @on(Button.Pressed, "#campus-login")
    def login(self) -> None:
        self.app.push_screen(LoginScreen(self.session, self.services, self.locale), self._after)

    @on(Button.Pressed, "#campus-token")
    def token(self) -> None:
        self.app.push_screen(TokenScreen(self.session, self.locale), self._after)

    @on(Button.Pressed, "#campus-vault")
    def vault(self) -> None:
        self.app.push_screen(VaultFileScreen(self.session, self.data_dir / "campus.vault", self.locale), self._after)

    @on(Button.Pressed, "#campus-logout")
    def logout(self) -> None:
        from tui.app.dialogs import ConfirmDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.logout(forget_account=True)
                self.fill()

        self.app.push_screen(ConfirmDialog(t("logout_confirm", self.locale), self.locale), answered)
