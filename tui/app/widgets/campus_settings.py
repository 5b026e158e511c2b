"""设置 → 校园账号: who is logged in to which service, the mobile token, where secrets live, log in and out."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Static

from tui.app.dialogs.credentials import TokenScreen, VaultFileScreen
from tui.app.dialogs.login import LoginScreen
from tui.app.i18n import t
from tui.app.widgets.tables import Table
from tui.runtime.campus.services import SERVICES
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.vault import FileVault
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal, plain


class CampusSettings(Vertical):
    """设置 → 校园账号: who is logged in, every service's state, and the buttons to change it."""

    DEFAULT_CSS = """
    CampusSettings { height: auto; padding: 0 1; }
    CampusSettings Horizontal { height: auto; }
    CampusSettings Button { margin-right: 1; }
    CampusSettings .muted { color: $text-muted; }
    CampusSettings #campus-note, CampusSettings #campus-demo { color: $warning; }
    CampusSettings DataTable { height: auto; max-height: 14; }
    """

    def __init__(
        self, session: CampusSession, services: list[str], locale: str, data_dir: Path, demo: bool = False
    ) -> None:
        super().__init__(id="campus-settings")
        self.session = session
        self.services = services
        self.locale = locale
        self.data_dir = data_dir
        self.demo = demo
        """The demo answers from recordings and never goes online: logging in is offered, and would fail, no more."""

    def compose(self) -> ComposeResult:
        loc = self.locale
        yield Static(plain(self.account_text()), markup=False, classes="muted", id="campus-account")
        if self.demo:
            yield Static(t("demo_no_login", loc), markup=False, id="campus-demo")
        if self.session.vault_note:
            yield Static(t("no_keyring", loc), markup=False, id="campus-note")
        table = Table(empty=t("no_services_yet", loc), id="campus-services", cursor_type="row", zebra_stripes=True)
        table.add_columns(t("service", loc), t("name", loc), t("state", loc), t("until", loc))
        yield table
        if self.demo:  # nothing to log in to (disabled buttons were left unreadable, and unexplained)
            return
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
        tables = list(self.query("#campus-services").results(DataTable))
        if not tables:  # shown while the app tears its screens down (CI: SIGTERM to the demo): nothing to fill
            return
        table = tables[0]
        table.clear()
        for row in self.session.status():
            until = ""
            if row.expires_at and row.state == "logged_in":
                until = datetime.fromtimestamp(row.expires_at).strftime("%Y-%m-%d %H:%M")
            title = SERVICES[row.name].title_for(self.locale)
            cells = (row.name, title, t(f"campus_{row.state}", self.locale), until)
            table.add_row(*map(literal, cells), key=row.name)
        for account in self.query("#campus-account").results(Static):
            account.update(plain(self.account_text()))

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
        from tui.app.dialogs.prompts import ConfirmDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self.session.logout(forget_account=True)
                self.fill()

        self.app.push_screen(ConfirmDialog(t("logout_confirm", self.locale), self.locale), answered)
