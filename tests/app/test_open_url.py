"""`openUrl` in a plugin's screen goes through the plugin's `browser.open` ability (genui.md): a new tab when the
app is served, the desktop's browser when there is a display, never a text browser taking over the terminal; the
address is always said. Without the declaration the validator says so and the tap shows why it cannot open."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.app.helpers import said_by, settle, until
from tests.app.test_app import NOW
from tui.app.app import PkuHarnessApp, make_app
from tui.app.screens.plugin_screen import PluginScreen
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import check
from widgets_render.textual_render import GenButton

URL = "https://lib.example.org/new?q=二"


def link_plugin(folder: Path, declared: bool) -> Path:
    (folder / "screens").mkdir(parents=True)
    abilities = "abilities: [browser]\n" if declared else ""
    (folder / "PLUGIN.md").write_text(
        "---\nspec: 1\nid: links\nname: 链接\ndescription: Opens a link.\nversion: 1.0.0\nauthor: tests\n"
        f"{abilities}screens:\n  main: screens/main.json\n---\nA plugin for the tests.\n",
        encoding="utf-8",
    )
    screen = {
        "spec": 1,
        "kind": "screen",
        "title": "链接",
        "body": {"type": "button", "label": "打开新书", "action": {"openUrl": URL}},
    }
    (folder / "screens" / "main.json").write_text(json.dumps(screen, ensure_ascii=False, indent=1), encoding="utf-8")
    return folder


def app_with(tmp_path: Path, declared: bool) -> tuple[PkuHarnessApp, list[str]]:
    folder = link_plugin(tmp_path / "links", declared)
    app = make_app(demo=True, data_dir=tmp_path / "data", now=NOW, extra=[folder])
    opened: list[str] = []
    app.open_url = lambda url, **_: opened.append(url)  # type: ignore[method-assign]
    return app, opened


async def press_link(pilot: Any, app: PkuHarnessApp) -> None:
    app.open_screen("links", "main")
    await until(pilot, lambda: isinstance(app.screen, PluginScreen) and bool(app.screen.query(GenButton)))
    await settle(pilot, app)
    app.screen.query_one(GenButton).focus()
    await pilot.press("enter")
    await settle(pilot, app)


async def test_in_a_terminal_without_a_display_the_link_is_said_not_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("webbrowser.open", lambda *a, **k: pytest.fail("a browser was started in the terminal"))
    app, opened = app_with(tmp_path, declared=True)
    said = said_by(app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await press_link(pilot, app)
        await until(pilot, lambda: any(URL in s for s in said))
    assert opened == []
    assert any(s == f"这里打不开浏览器，请复制链接: {URL}" for s in said), said


async def test_served_the_link_opens_in_a_new_tab_of_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PkuHarnessApp, "is_web", property(lambda self: True))
    app, opened = app_with(tmp_path, declared=True)
    said = said_by(app)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await press_link(pilot, app)
        await until(pilot, lambda: opened == [URL])
    assert any(s == f"已在浏览器中打开: {URL}" for s in said), said


async def test_with_a_display_the_desktop_browser_opens_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    started: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: started.append(url) or True)
    app, opened = app_with(tmp_path, declared=True)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await press_link(pilot, app)
        await until(pilot, lambda: started == [URL])
    assert opened == []  # not Textual's own open_url: it would pick a text browser without a display


def test_the_validator_wants_browser_open_declared(tmp_path: Path) -> None:
    folder = link_plugin(tmp_path / "links", declared=False)
    _, problems = check(DirectorySource(folder))
    found = [p for p in problems if p.code == "OPENURL_ABILITY"]
    assert len(found) == 1, problems
    assert found[0].file == "screens/main.json" and found[0].line == 9 and found[0].severity == "error"
    assert "abilities: [browser]" in found[0].hint
    _, problems = check(DirectorySource(link_plugin(tmp_path / "ok", declared=True)))
    assert problems == []  # nor "browser is declared but never used": openUrl uses it (an outsider met both)
