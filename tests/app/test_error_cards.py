"""Errors a student can act on (issue 16.8): outside the demo, each kind of failure shows one short sentence and
the action that helps — 登录 opens the login screen for that service, 重试 refetches, 详情 shows the technical
text — and never the file paths, step numbers and URLs first.

Each test runs the real app on a data folder where that failure really happens: no login (the loopback fake
campus), an unreachable campus (a closed loopback port), a service answering an error status (the fake campus),
and a plugin with a bug (a plugin folder whose tool reads a property of null).
"""

from __future__ import annotations

import html
import re
import socket
import textwrap
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, TextArea

from tests.app.helpers import until
from tests.runtime.fake_campus import FakeCampus
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.error_detail import ErrorDetailDialog
from tui.app.dialogs.login import LoginScreen
from widgets_render.textual_render import WidgetFrame

USER, PASSWORD = "2100012345", "correct horse"
SIZE = (120, 40)
WALLET = "wallet/balance"
#: What a student must not meet on a card: the technical detail (it is in 详情).
TECHNICAL = ("tools/", ".yaml", "step ", "https://", "TOOL_ERROR", "plugin validate", "widgets/", ".json")


def screen_text(app: Any) -> str:
    """What the screen shows, as plain text."""
    svg = app.export_screenshot()
    lines = re.findall(r"<text[^>]*>(.*?)</text>", svg, re.DOTALL)  # the cells, not the SVG's styles
    return html.unescape(" ".join(re.sub(r"<[^>]+>", "", line) for line in lines)).replace("\xa0", " ")


def only(app: PkuHarnessApp, keep: str) -> PkuHarnessApp:
    """The app with one widget on its dashboard (no public widget reaches the internet from a test)."""
    layout = app.runtime.layout
    ids = [f"{pid}/{name}" for pid, inst in app.runtime.registry.plugins.items() for name in inst.plugin.widgets]
    for other in ids:
        if other != keep:
            layout.remove(ids, other)
    return app


def frame(app: PkuHarnessApp) -> WidgetFrame | None:
    """The dashboard's one widget frame, once it has filled."""
    frames = list(app.screen.query(WidgetFrame)) if not app.screen.is_modal else []
    return frames[0] if frames else None


def card_text(app: PkuHarnessApp) -> str:
    shown = frame(app)
    assert shown is not None
    return " ".join(str(s.render()) for s in shown.query("Static, Button"))


async def error_card(pilot: Any, app: PkuHarnessApp, kind: str) -> WidgetFrame:
    """Wait for the widget's error card of this kind, and focus its frame."""
    await until(pilot, lambda: (f := frame(app)) is not None and f.error is not None and f.error.kind == kind, 20)
    shown = frame(app)
    assert shown is not None
    shown.focus()
    await pilot.pause(0.05)
    return shown


def closed_port() -> int:
    """A loopback port nothing listens on (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def audited(app: PkuHarnessApp, tool: str) -> int:
    return sum(1 for row in app.runtime.audit.recent(500) if row.tool == tool)


async def open_detail(pilot: Any, app: PkuHarnessApp) -> str:
    """Press d on the focused card: the detail dialog's full text."""
    await pilot.press("d")
    await until(pilot, lambda: isinstance(app.screen, ErrorDetailDialog))
    return app.screen.query_one("#error-detail", TextArea).text


async def test_not_logged_in_says_so_and_登录_opens_the_login_for_that_service(
    campus_env: FakeCampus, tmp_path: Path
) -> None:
    app = only(make_app(data_dir=tmp_path), WALLET)
    async with app.run_test(size=SIZE) as pilot:
        # The login screen opens by itself once; the student closes it and meets the card later.
        await until(pilot, lambda: isinstance(app.screen, LoginScreen), 10)
        await pilot.press("escape")
        card = await error_card(pilot, app, "login")
        text = card_text(app)
        assert "需要先登录校园卡" in text and "登录 l" in text and "详情 d" in text
        assert not [w for w in TECHNICAL if w in screen_text(app)], screen_text(app)
        assert "wallet.cardBalance" in await open_detail(pilot, app)  # the technical text is one key away
        await pilot.press("escape")
        card.focus()
        await pilot.press("l")  # explicit: it opens even in the quiet time after a cancel
        await until(pilot, lambda: isinstance(app.screen, LoginScreen))
        login = app.screen
        assert isinstance(login, LoginScreen) and login.services[0] == "card"
        assert "校园卡需要登录" in str(login.query_one("#login-reason").render())
        login.query_one("#login-user", Input).value = USER
        login.query_one("#login-password", Input).value = PASSWORD
        login.query_one("#login-go", Button).press()
        # logged in, the widget refetches by itself: the balance replaces the card
        await until(pilot, lambda: (f := frame(app)) is not None and f.error is None, 20)
        assert campus_env.count("/berserker-app/ykt/tsm/queryCard") >= 1


async def test_an_unreachable_campus_says_so_and_重试_refetches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PKU_HARNESS_CAMPUS_ORIGIN", f"http://127.0.0.1:{closed_port()}")
    monkeypatch.setenv("PKU_USERNAME", USER)
    monkeypatch.setenv("PKU_PASSWORD", PASSWORD)
    app = only(make_app(data_dir=tmp_path), WALLET)
    async with app.run_test(size=SIZE) as pilot:
        await error_card(pilot, app, "network")
        text = card_text(app)
        assert "连不上网络或服务" in text and "重试 r" in text
        assert not [w for w in TECHNICAL if w in screen_text(app)], screen_text(app)
        assert not any(isinstance(s, LoginScreen) for s in app.screen_stack)  # typing a password would not help
        before = audited(app, "wallet.cardBalance")
        await pilot.press("r")
        await until(pilot, lambda: audited(app, "wallet.cardBalance") == before + 1, 20)
        await error_card(pilot, app, "network")
        detail = await open_detail(pilot, app)
        assert "wallet.cardBalance" in detail and "tools/cardBalance.yaml" in detail


async def test_a_service_answering_an_error_status_says_so_and_offers_重试(
    campus_env: FakeCampus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PKU_USERNAME", USER)
    monkeypatch.setenv("PKU_PASSWORD", PASSWORD)
    campus_env.failing["/berserker-app/ykt/tsm/queryCard"] = 403
    app = only(make_app(data_dir=tmp_path), WALLET)
    async with app.run_test(size=SIZE) as pilot:
        await error_card(pilot, app, "service")
        text = card_text(app)
        assert "服务返回了错误" in text and "重试 r" in text
        assert not [w for w in TECHNICAL if w in screen_text(app)], screen_text(app)
        assert "HTTP 403" in await open_detail(pilot, app)
        await pilot.press("escape")
        del campus_env.failing["/berserker-app/ykt/tsm/queryCard"]  # the service is back
        shown = frame(app)
        assert shown is not None
        await pilot.click(shown.query_one("#error-retry", Button))  # the button, by mouse
        await until(pilot, lambda: (f := frame(app)) is not None and f.error is None, 20)


BUGGY_MANIFEST = """\
---
spec: 1
id: buggy
name: 有错的插件
description: A plugin whose tool reads a property of null.
version: 1.0.0
author: tests
tools:
  broken: tools/broken.yaml
widgets:
  box: widgets/box.json
dataSources:
  box: { tool: broken }
---
A test plugin.
"""
BUGGY_TOOL = """\
title: 坏工具
description: Reads a property of null.
effect: read
steps:
  - let: doc
    value: "({ a: null })"
  - value: "doc.a.b"
"""
BUGGY_WIDGET = '{"spec": 1, "kind": "widget", "title": "有错的小组件", "source": "box", ' \
    '"body": {"type": "text", "text": "${data}"}}'  # fmt: skip


def buggy_plugin(root: Path) -> Path:
    folder = root / "buggy"
    (folder / "tools").mkdir(parents=True)
    (folder / "widgets").mkdir()
    (folder / "PLUGIN.md").write_text(BUGGY_MANIFEST, encoding="utf-8")
    (folder / "tools" / "broken.yaml").write_text(textwrap.dedent(BUGGY_TOOL), encoding="utf-8")
    (folder / "widgets" / "box.json").write_text(BUGGY_WIDGET, encoding="utf-8")
    return folder


async def test_a_plugins_bug_is_the_plugins_and_only_then_plugin_validate(tmp_path: Path) -> None:
    app = only(make_app(data_dir=tmp_path / "data", extra=[buggy_plugin(tmp_path)]), "buggy/box")
    async with app.run_test(size=SIZE) as pilot:
        await error_card(pilot, app, "plugin")
        text = card_text(app)
        assert "插件出错了" in text and "详情 d" in text
        assert "重试" not in text and "登录" not in text  # neither would help
        assert not [w for w in TECHNICAL if w in screen_text(app)], screen_text(app)
        assert "有错的小组件" in screen_text(app) and "buggy" not in screen_text(app)  # the title, not the id
        await pilot.press("enter")  # Enter takes the card's first action: here 详情
        await until(pilot, lambda: isinstance(app.screen, ErrorDetailDialog))
        detail = app.screen.query_one("#error-detail", TextArea).text
        assert "buggy.broken" in detail and "tools/broken.yaml" in detail and "null" in detail
        assert "plugin validate" in detail  # for the author, in the detail only


async def test_english_cards_speak_english(campus_env: FakeCampus, tmp_path: Path) -> None:
    app = only(make_app(data_dir=tmp_path, locale="en"), WALLET)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LoginScreen), 10)
        await pilot.press("escape")
        await error_card(pilot, app, "login")
        text = card_text(app)
        assert "Log in to Campus card to see this" in text and "Log in l" in text and "Detail d" in text
        assert not re.search(r"[\u4e00-\u9fff]", text)


async def test_a_screen_shows_its_sources_error_as_a_card_with_登录(campus_env: FakeCampus, tmp_path: Path) -> None:
    from tui.app.screens.plugin_screen import PluginScreen

    app = only(make_app(data_dir=tmp_path), "shuttle/next")
    async with app.run_test(size=SIZE) as pilot:
        app.open_screen("grades", "scores")
        await until(pilot, lambda: isinstance(app.screen, LoginScreen), 10)  # it opens by itself once
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, PluginScreen) and bool(app.screen.query("ErrorView")), 20)
        text = screen_text(app)
        assert "需要先登录树洞" in text and "登录 l" in text
        assert not [w for w in TECHNICAL if w in text], text
        assert "成绩 — 成绩" not in text  # a screen named like its plugin shows the name once
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ErrorDetailDialog))
        assert "grades.scores" in app.screen.query_one("#error-detail", TextArea).text
        await pilot.press("escape")
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LoginScreen))
        assert isinstance(app.screen, LoginScreen) and app.screen.services[0] == "treehole"


def test_an_error_card_snapshot(snap_compare: Any, tmp_path: Path) -> None:
    """How a card looks: the sentence, the buttons with their keys, the red border (a plugin's bug: no network)."""
    app = only(make_app(data_dir=tmp_path / "data", extra=[buggy_plugin(tmp_path)]), "buggy/box")

    async def filled(pilot: Any) -> None:
        await until(pilot, lambda: (f := frame(app)) is not None and f.error is not None, 20)
        await pilot.pause(0.1)

    assert snap_compare(app, terminal_size=(80, 12), run_before=filled)
