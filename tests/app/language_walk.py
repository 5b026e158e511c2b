"""Walk every tab, screen and dialog of the demo app and read what a person sees (the language check).

`walk(app, pilot)` yields `(view, text)` pairs: the name of a view and the characters on the terminal while it
is shown. It drives the real app on the demo data, like `scripts/screenshots.py`, and also opens what the
screenshots skip: the key panel, the command palette, the notification centre, the login, check and
confirmation dialogs, and the tool form of the assistant tab.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

from tui.app.app import PkuHarnessApp
from tui.app.dialogs.check import CheckDialog
from tui.app.dialogs.conversation_search import ConversationSearch
from tui.app.dialogs.login import LoginScreen
from tui.app.dialogs.prompts import ChooseDialog, ConfirmDialog
from tui.app.dialogs.remote_login import RemoteLoginScreen
from tui.app.dialogs.review import InstallReviewDialog, UpdateApprovalDialog
from tui.app.i18n import t
from tui.app.samples import SAMPLE_INSTALL, SAMPLE_UPDATE
from tui.app.screens.tool_form import ToolFormScreen
from tui.lang.documents.manifest import Remote
from tui.runtime.chat.history import ChatHistory

ROOT = Path(__file__).resolve().parents[2]
SIZE = (120, 120)  # tall, so the settings page is read whole without scrolling

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]*[,.;:!?)]?")


def screen_text(app: Any) -> str:
    """The characters on the terminal now (the screen and the screens below a modal)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def plugin_data() -> str:
    """Every text the plugins carry — the official ones' manifests, specs, recordings and fixture pages, and the
    sample community plugin of the review dialogs (`tui/app/samples.py`): data, not the app's words."""
    parts = list(_strings([SAMPLE_INSTALL, SAMPLE_UPDATE]))
    for path in sorted((ROOT / "plugins_builtin").rglob("*")):
        if path.suffix in (".yaml", ".json", ".md", ".html", ".txt", ".xml"):
            parts.append(path.read_text(encoding="utf-8"))
    return "\n".join(parts)


def _strings(value: Any) -> Iterator[str]:
    """Every string inside a value made of dataclasses, dicts and lists."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _strings(getattr(value, f.name))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _strings(v)


async def _settle(pilot: Any, app: Any, rounds: int = 4) -> None:
    for _ in range(rounds):
        await pilot.pause(0.05)
        await app.workers.wait_for_complete()


async def filled(pilot: Any, app: PkuHarnessApp) -> None:
    """Wait until the dashboard's widgets are drawn."""
    from widgets_render.textual_render import WidgetFrame

    for _ in range(200):
        await pilot.pause(0.05)
        if len(app.query(WidgetFrame)) >= 7:
            break
    await _settle(pilot, app)


async def _modal(pilot: Any, app: PkuHarnessApp, screen: Any, name: str) -> tuple[str, str]:
    app.push_screen(screen)
    await _settle(pilot, app)
    seen = (name, screen_text(app))
    app.pop_screen()
    await _settle(pilot, app)
    return seen


async def walk(app: PkuHarnessApp, pilot: Any) -> AsyncIterator[tuple[str, str]]:
    """Every view of the demo app, with its text."""
    from textual.widgets import Select

    from widgets_render.textual_render import GenButton, WidgetFrame

    loc = app.locale
    await filled(pilot, app)
    yield "dashboard", screen_text(app)
    await pilot.press("f1")
    await _settle(pilot, app)
    yield "dashboard keys", screen_text(app)
    await pilot.press("f1")
    await pilot.press("ctrl+p")
    await _settle(pilot, app)
    yield "command palette", screen_text(app)
    await pilot.press("escape")
    await _settle(pilot, app)
    for key, tab in (("2", "assistant"), ("3", "plugins"), ("4", "settings")):
        await pilot.press(key)
        await _settle(pilot, app)
        yield tab, screen_text(app)
        await pilot.press("f1")
        await _settle(pilot, app)
        yield f"{tab} keys", screen_text(app)
        await pilot.press("f1")
    await pilot.press("1")
    await _settle(pilot, app)

    frame = next(f for f in app.query(WidgetFrame) if f.file.startswith("classrooms/"))
    frame.focus()
    await pilot.press("enter")
    await _settle(pilot, app)
    await pilot.click(app.screen.query_one(GenButton))
    await _settle(pilot, app)
    yield "plugin screen", screen_text(app)
    await pilot.press("f1")
    await _settle(pilot, app)
    yield "plugin screen keys", screen_text(app)
    await pilot.press("f1")
    await pilot.press("escape")
    await _settle(pilot, app)

    tool = app.runtime.registry.find("shuttle.timetable")
    assert tool is not None
    await app.push_screen(ToolFormScreen(app.runtime, tool, loc, app.now))
    await _settle(pilot, app)
    yield "tool form", screen_text(app)
    select = next(s for s in app.screen.query(Select) if s.name == "to")
    select.focus()
    await pilot.press("enter")
    await _settle(pilot, app)
    yield "tool form select", screen_text(app)
    await pilot.press("escape")
    select.value = "昌平校区"
    await pilot.click(app.screen.query_one(GenButton))
    await _settle(pilot, app)
    yield "tool form result", screen_text(app)
    app.pop_screen()
    await _settle(pilot, app)

    yield await _modal(pilot, app, InstallReviewDialog(SAMPLE_INSTALL, loc), "install review")
    yield await _modal(pilot, app, UpdateApprovalDialog(SAMPLE_UPDATE, loc), "update approval")
    campus = app.runtime.campus
    yield await _modal(pilot, app, LoginScreen(campus, app.runtime.campus_services(), loc), "login")
    for auth in ("bearer", "oauth"):  # a remote plugin's login (none is installed in the demo: shown as one)
        remote = Remote(mcp="https://mcp.example.com/mcp", auth=auth)
        yield await _modal(pilot, app, RemoteLoginScreen(app, "notes", remote), f"remote login ({auth})")
    # with the input a form gave: each field by its label, each stop by its title (English: no 燕园)
    given = {"from": "燕园", "to": "昌平校区"}
    yield await _modal(pilot, app, CheckDialog(app.runtime.store, tool, given, loc), "check dialog")
    yield await _modal(pilot, app, ConfirmDialog(t("delete_question", loc), loc), "confirm")
    yield await _modal(pilot, app, ChooseDialog(t("copy_which", loc), ["…"]), "choose")
    yield await _modal(pilot, app, ConversationSearch(ChatHistory(app.runtime.store), loc), "conversation search")
    await pilot.press("n")
    await _settle(pilot, app)
    yield "notifications", screen_text(app)
    await pilot.press("escape")
    await _settle(pilot, app)
    await pilot.press("ctrl+c")
    await _settle(pilot, app)
    yield "quit hint", screen_text(app)
