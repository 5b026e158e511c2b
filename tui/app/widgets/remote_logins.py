"""设置 → 远程登录: every installed remote plugin's server, how it logs in and whether a login is kept, with
登录 / Log in and 退出登录 / Log out for the chosen row (the dialogs are dialogs/remote_login.py)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Static

from tui.app.dialogs.remote_login import confirm_remote_logout, host_of, open_remote_login
from tui.app.harness import HarnessApp
from tui.app.i18n import t
from tui.app.widgets.tables import Table
from tui.lang.documents.manifest import Remote
from tui.runtime.plugins.mcp.tokens import kept_login
from widgets_render.simple_widgets import literal


def remote_plugins(app: HarnessApp) -> list[tuple[str, Remote]]:
    """(plugin id, its `remote`) of every installed remote plugin, by id."""
    found = [(pid, inst.plugin.manifest.remote) for pid, inst in app.runtime.registry.plugins.items()]
    return sorted((pid, remote) for pid, remote in found if remote is not None)


class RemoteLogins(Vertical):
    """The table of remote plugins' servers and the two buttons."""

    DEFAULT_CSS = """
    RemoteLogins { height: auto; padding: 0 1; }
    RemoteLogins Horizontal { height: auto; }
    RemoteLogins Button { margin-right: 1; }
    RemoteLogins .muted { color: $text-muted; }
    RemoteLogins DataTable { height: auto; max-height: 14; }
    """

    def __init__(self, app: HarnessApp) -> None:
        super().__init__(id="remote-logins")
        self.harness = app
        self.locale = app.locale

    def compose(self) -> ComposeResult:
        loc = self.locale
        yield Static(t("remote_explain", loc), markup=False, classes="muted")
        table = Table(empty=t("no_remote_plugins", loc), id="remote-table", cursor_type="row", zebra_stripes=True)
        table.add_columns(t("plugin", loc), t("remote_server", loc), t("remote_auth", loc), t("state", loc))
        yield table
        if self.harness.demo:  # the demo never goes online: nothing to log in to
            return
        with Horizontal():
            yield Button(t("login", loc), id="remote-login", variant="primary")
            yield Button(t("logout", loc), id="remote-logout")

    def on_mount(self) -> None:
        self.fill()

    def on_show(self) -> None:
        self.fill()  # a login from the plugin page or the command line shows here as it is now

    def fill(self) -> None:
        """(Re)list the servers with the state keyring says (whether a login is kept, not whether it still works)."""
        tables = list(self.query("#remote-table").results(DataTable))
        if not tables:
            return
        table, loc = tables[0], self.locale
        table.clear()
        for pid, remote in remote_plugins(self.harness):
            if remote.auth == "none":
                state = "—"
            else:
                state = t("remote_logged_in" if kept_login(pid, remote.auth) else "remote_logged_out", loc)
            cells = (f"mcp-{pid}", host_of(remote), t(f"remote_auth_{remote.auth}", loc), state)
            table.add_row(*map(literal, cells), key=pid)

    def chosen(self) -> str | None:
        """The plugin id of the highlighted row, or None."""
        table = self.query_one("#remote-table", DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def _after(self, changed: bool | None) -> None:
        if changed:
            self.fill()

    @on(Button.Pressed, "#remote-login")
    @on(DataTable.RowSelected, "#remote-table")
    def login(self) -> None:
        pid = self.chosen()
        if self.harness.demo:
            return
        if pid is None or not open_remote_login(self.harness, pid, self._after):
            self.app.notify(t("remote_pick", self.locale), markup=False)

    @on(Button.Pressed, "#remote-logout")
    def logout(self) -> None:
        pid = self.chosen()
        if pid is None:
            self.app.notify(t("remote_pick", self.locale), markup=False)
            return
        confirm_remote_logout(self.harness, pid, self._after)
