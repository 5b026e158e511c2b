"""Where the campus secrets come from: binding the mobile token, and the password-protected vault file."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from tui.app.dialogs.base import Dialog
from tui.app.dialogs.login import SMS_COOLDOWN_S
from tui.app.dialogs.prompts import DIALOG_CSS
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.runtime.campus.iaaa import LoginError, OtpBinding
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.totp import BadSecret
from tui.runtime.campus.vault import FileVault, VaultError
from tui.runtime.message import say_error
from tui.runtime.settings import write_setting
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain


class TokenScreen(LocalBindings, Dialog[bool]):
    """The mobile token (手机令牌): type an existing secret, or bind a new one through IAAA with a texted code."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="TokenScreen")
        + """
    TokenScreen > Vertical { width: 72; max-height: 100%; overflow-y: auto; }
    TokenScreen .title { text-style: bold; margin-top: 1; }
    TokenScreen Horizontal Input { width: 1fr; }  /* beside its buttons: a box takes the row and pushed them off */
    TokenScreen #token-error { color: $error; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

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

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        """Enter in a box presses the button it belongs to: the secret saves, the password texts the code, the
        code binds (Enter in the secret box did nothing)."""
        button = {"token-secret": "#token-save", "token-password": "#token-send", "token-sms": "#token-bind"}
        target = button.get(event.input.id or "")
        if target is not None:
            self.query_one(target, Button).press()

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
            self._error(say_error(e, self.locale))
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
            self._error(say_error(e, self.locale))
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
            self._error(say_error(e, self.locale))
            return
        self.query_one("#token-password", Input).value = ""
        self.dismiss(True)


class VaultFileScreen(LocalBindings, Dialog[bool]):
    """Choose (or unlock) a password-protected file for campus secrets, where no keyring exists."""

    DEFAULT_CSS = DIALOG_CSS.format(name="VaultFileScreen") + "VaultFileScreen #vault-error { color: $error; }"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]

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
            self.query_one("#vault-error", Static).update(plain(say_error(e, self.locale)))
            return
        write_setting(self.session.store, "campus.vaultFile", str(path.resolve()))
        self.session.use_vault(vault)
        self.dismiss(True)
