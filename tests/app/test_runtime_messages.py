"""The runtime's errors on the app's screens speak the app's one language: a failed install's notice and the login
dialog's error are Chinese in the Chinese UI and English in the English one (the runtime says them as messages)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from textual.widgets import Button, Input, Static

from tests.app.helpers import settle, until
from tui.app.app import make_app
from tui.app.dialogs.login import LoginScreen
from tui.runtime.campus.net import CampusNet

NOW = "2026-11-30T12:00:00+08:00"
SIZE = (120, 45)
LINK = "https://example.com/plugins/notes"

SAID = {
    "zh": {
        "install": f"无法安装：{LINK}：网址必须指向一个 PLUGIN.md 文件；可以填：GitHub 文件夹",
        "login": "连不上 IAAA（ConnectError）",
    },
    "en": {
        "install": f"Cannot install: {LINK}: a URL must point at a PLUGIN.md file; accepted: a GitHub folder",
        "login": "cannot reach IAAA (ConnectError)",
    },
}


@pytest.mark.parametrize("locale", ["zh", "en"])
async def test_a_failed_install_and_a_failed_login_speak_the_apps_language(tmp_path: Path, locale: str) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    app.demo = False  # recorded data for the dashboard, but a link is tried (the offline demo refuses links)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: bool(app.query("#install-link")))
        app.query_one("#install-link", Input).value = LINK
        app.query_one("#install-link", Input).focus()
        await pilot.press("enter")
        await settle(pilot, app)
        notices = [str(n.message) for n in app._notifications]
        assert any(n.startswith(SAID[locale]["install"]) for n in notices), notices

        def unreachable(request: httpx.Request) -> httpx.Response:
            raise httpx.ConnectError("no route to the campus", request=request)

        campus = app.runtime.campus
        campus.net = CampusNet(transport=httpx.MockTransport(unreachable))
        campus.net.secrets = campus.secrets
        screen = LoginScreen(campus, ["treehole"], app.locale)
        app.push_screen(screen)
        await until(pilot, lambda: bool(screen.query("#login-go")))
        screen.query_one("#login-user", Input).value = "2100012345"
        screen.query_one("#login-password", Input).value = "correct horse"
        screen.query_one("#login-go", Button).press()

        def shown() -> str:
            return str(screen.query_one("#login-error", Static).render())

        await until(pilot, lambda: SAID[locale]["login"] in shown(), 10)
        assert shown() == SAID[locale]["login"]
