"""The navigation contract: 1–4 and the palette reach every tab from anywhere, Esc returns from every screen and
dialog, and something useful has the focus when a tab, a screen or a form opens (issue 16 items 1 and 6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Input, TabbedContent, TabPane, TextArea

from tests.app.helpers import open_settings_section, settle, until
from tests.app.test_app import NOW, wait_for_widgets
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.prompts import ConfirmDialog
from tui.app.i18n import term
from tui.app.screens.plugin_screen import PluginScreen
from tui.app.screens.tool_form import ToolFormScreen
from tui.app.widgets.approval_card import ApprovalCard
from tui.app.widgets.chat_input import ChatInput
from tui.runtime.gate import ApprovalRequest
from widgets_render.textual_render import GenButton, WidgetFrame

TABS = {"1": "home", "2": "assistant", "3": "plugins", "4": "settings"}
PALETTE = {"home": "首页", "assistant": "助手", "plugins": "插件", "settings": "设置"}


@pytest.fixture
def app(tmp_path: Path) -> PkuHarnessApp:
    return make_app(demo=True, data_dir=tmp_path, now=NOW)


def active(app: PkuHarnessApp) -> str:
    return str(app.screen_stack[0].query_one(TabbedContent).active)


def keyboard_widgets(app: PkuHarnessApp, tab: str) -> list[Widget]:
    """Every focusable widget a student can reach with Tab on this tab, except text fields (digits type there)."""
    pane = app.screen_stack[0].query_one(f"TabPane#{tab}", TabPane)
    return [
        w
        for w in app.screen.focus_chain
        if not isinstance(w, (Input, TextArea)) and (pane in w.ancestors or type(w).__name__ == "ContentTabs")
    ]


async def show(pilot: Any, app: PkuHarnessApp, tab: str) -> None:
    """Bring a tab into view and let its lazily mounted body arrive."""
    app.action_tab(tab)
    shell = app.screen_stack[0]
    await until(pilot, lambda: active(app) == tab and not shell.query(f"TabPane#{tab} Lazy"))
    pane = shell.query_one(f"TabPane#{tab}", TabPane)
    await until(pilot, lambda: shell.focused is not None and pane in shell.focused.ancestors)  # its landing


async def palette(pilot: Any, app: PkuHarnessApp, text: str) -> None:
    """Ctrl+P, type, pick the first hit."""
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    for ch in text:
        await pilot.press(ch)
    await until(pilot, lambda: app.screen.query("CommandList") and app.screen.query_one("CommandList").option_count)
    await pilot.press("down", "enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette))
    await pilot.pause()


# -- item 1: the tab keys never die ---------------------------------------------------------------------------


async def test_digits_switch_tabs_from_a_focused_dashboard_widget(app: PkuHarnessApp) -> None:
    """Regression (16.1): with a widget focused, `2` switched to 助手 and Textual switched straight back."""
    async with app.run_test(size=(120, 40)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        frames[0].focus()
        await pilot.pause()
        await pilot.press("3")
        await pilot.pause()
        assert active(app) == "plugins"
        await pilot.press("1")
        await pilot.pause()
        assert active(app) == "home"


async def test_after_a_widget_screen_and_escape_the_tab_keys_still_work(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        shuttle = next(f for f in frames if f.file.startswith("shuttle/"))
        shuttle.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PluginScreen))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PluginScreen))
        assert app.focused is shuttle  # back where the student was
        await pilot.press("4")
        await pilot.pause()
        assert active(app) == "settings"


async def test_a_clicked_widget_does_not_trap_the_tab_keys(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        await pilot.click(next(f for f in frames if f.file.startswith("classrooms/")))
        await until(pilot, lambda: isinstance(app.screen, PluginScreen))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, PluginScreen))
        await pilot.press("2")
        await pilot.pause()
        assert active(app) == "assistant"


@pytest.mark.parametrize(
    "tab",
    [
        "home",
        "assistant",
        "plugins",
        "settings",  # was intermittent under load: a stale TabPane.Focused switched back (ShellTabs; the test below)
    ],
)
async def test_from_every_widget_of_every_tab_1_to_4_reach_their_tab(app: PkuHarnessApp, tab: str) -> None:
    """Every keyboard-reachable widget is tried with one of the other tabs' keys, in turn, so each key is pressed
    from several kinds of widget (the trap was the focused widget, never the key); then the palette's four."""
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        await show(pilot, app, tab)
        widgets = keyboard_widgets(app, tab)
        # (助手 in the demo: the tab bar and 发送 — the box types digits, and the demo's model needs no 运行工具 button)
        assert len(widgets) >= (2 if tab == "assistant" else 3)
        keys = [k for k, target in TABS.items() if target != tab]
        stuck = []
        for i, widget in enumerate(widgets):
            key = keys[i % len(keys)]
            app.screen.set_focus(widget)
            await pilot.press(key)
            if active(app) != TABS[key]:
                stuck.append((widget, key))
            await show(pilot, app, tab)
        assert stuck == []
        app.screen.set_focus(widgets[-1])
        for target, title in PALETTE.items():  # the palette's entries, from a focused widget of this tab
            await palette(pilot, app, title)
            assert active(app) == target, title
            await show(pilot, app, tab)
            app.screen.set_focus(widgets[-1])


async def test_a_focus_message_from_a_tab_just_left_does_not_switch_back(app: PkuHarnessApp) -> None:
    """4 then 1 on a busy machine: 设置's landing focus sent its `TabPane.Focused` before 1 was pressed, and the
    message, handled after it, made 设置 active again. Here that message is delivered late on purpose."""
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        await show(pilot, app, "settings")
        shell = app.screen_stack[0]
        settings = shell.query_one("TabPane#settings", TabPane)
        await pilot.press("1")
        await until(pilot, lambda: active(app) == "home")
        settings.post_message(TabPane.Focused(settings))  # the stale message, after the student moved on
        await settle(pilot, app)
        assert active(app) == "home"
        # while a widget of a pane has the focus, its message still shows that pane (Textual's own behaviour)
        target = settings.query_one("#settings-sections")
        shell.set_focus(target)
        await until(pilot, lambda: active(app) == "settings")


async def test_on_a_plugin_screen_1_to_4_go_back_to_the_shell_and_that_tab(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        for key, target in TABS.items():
            app.open_screen("shuttle", "timetable")
            await until(pilot, lambda: isinstance(app.screen, PluginScreen))
            await settle(pilot, app, rounds=1)
            app.screen.set_focus(None)
            await pilot.press(key)
            await until(pilot, lambda: not isinstance(app.screen, PluginScreen))
            assert active(app) == target
        app.open_screen("shuttle", "timetable")
        await until(pilot, lambda: isinstance(app.screen, PluginScreen))
        await palette(pilot, app, "插件")
        assert len(app.screen_stack) == 1 and active(app) == "plugins"


# -- Esc returns from every screen and dialog ---------------------------------------------------------------


def official_screens(app: PkuHarnessApp) -> list[tuple[str, str]]:
    return [
        (pid, name)
        for pid, inst in sorted(app.runtime.registry.plugins.items())
        if inst.official
        for name in inst.plugin.screens
    ]


async def escape_returns(pilot: Any, app: PkuHarnessApp, opened: type[Screen[Any]] | str) -> None:
    """The dialog or screen is up; Esc brings back the screen and the focus that were there before."""
    before = list(app.screen_stack[:-1])
    focus = before[-1].focused
    await pilot.press("escape")
    await until(pilot, lambda: app.screen_stack == before, seconds=3)
    await pilot.pause()
    assert app.focused is focus, opened


async def test_escape_returns_from_every_official_plugin_screen(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        frames[0].focus()
        await pilot.pause()
        screens = official_screens(app)
        assert len(screens) >= 4
        for pid, name in screens:
            app.open_screen(pid, name)
            await until(pilot, lambda: isinstance(app.screen, PluginScreen))
            await settle(pilot, app, rounds=1)
            await escape_returns(pilot, app, f"{pid}/{name}")
            assert active(app) == "home"


async def test_escape_returns_from_every_dialog_the_shell_opens(app: PkuHarnessApp) -> None:
    from tui.runtime.chat.history import ChatHistory

    history = ChatHistory(app.runtime.store)
    cid = history.start("二教有空教室吗？")
    history.append(cid, {"role": "user", "content": "二教有空教室吗？"})
    history.append(cid, {"role": "assistant", "content": "有：201、202。"})
    async with app.run_test(size=(120, 40)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        frames[0].focus()
        await pilot.press("x")  # a widget off the dashboard, so 添加小组件 has something to offer
        await wait_for_widgets(pilot, app, count=6)
        next(iter(app.query(WidgetFrame))).focus()
        await pilot.pause()
        for key in ("a", "n"):
            await pilot.press(key)
            await until(pilot, lambda: app.screen.is_modal)
            await escape_returns(pilot, app, key)
        await pilot.press("question_mark")
        await until(pilot, lambda: app.screen.query("KeyPanel"))
        await pilot.press("escape")
        await until(pilot, lambda: not app.screen.query("KeyPanel"))
        assert active(app) == "home"

        await show(pilot, app, "assistant")
        pane = app.query_one("#chat")
        await pane.resume(cid)  # type: ignore[attr-defined]
        app.query_one("#send", Button).focus()
        await pilot.pause()
        for key in ("ctrl+o", "ctrl+y", "ctrl+d", "ctrl+t"):
            await pilot.press(key)
            await until(pilot, lambda: app.screen.is_modal)
            await escape_returns(pilot, app, key)
        assert active(app) == "assistant"

        tool = app.runtime.registry.find("classrooms.free")
        assert tool is not None
        app.push_screen(ToolFormScreen(app.runtime, tool, app.locale, app.now))
        await until(pilot, lambda: isinstance(app.screen, ToolFormScreen) and app.screen.query(GenButton))
        app.screen.query_one(GenButton).press()
        await until(pilot, lambda: app.screen.query("#notify-me"), seconds=15)
        app.screen.query_one("#notify-me", Button).focus()
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.is_modal)
        await escape_returns(pilot, app, "check dialog")
        await escape_returns(pilot, app, ToolFormScreen)
        assert active(app) == "assistant"


# -- item 6: the focus lands somewhere useful -----------------------------------------------------------------


async def test_the_focus_lands_on_the_first_widget_the_chat_input_and_a_forms_first_field(
    app: PkuHarnessApp,
) -> None:
    """Regression (16.6): at start the tab bar had the focus; a screen and 助手 opened with nothing focused."""
    async with app.run_test(size=(120, 40)) as pilot:
        frames = await wait_for_widgets(pilot, app)
        await until(pilot, lambda: app.focused is frames[0] or app.focused is app.query_one("#slot-0"))
        await pilot.press("2")
        await until(pilot, lambda: app.focused is app.query_one("#chat-input"))
        await pilot.press("1")  # in the box a digit types…
        assert app.query_one("#chat-input", ChatInput).text == "1" and active(app) == "assistant"
        await pilot.press("escape", "1")  # …and Esc leaves the box for the tab bar
        await until(pilot, lambda: isinstance(app.focused, WidgetFrame))
        app.open_screen("classrooms", "search")
        await until(pilot, lambda: isinstance(app.screen, PluginScreen) and app.screen.query(".gen-input"))
        first = app.screen.query(".gen-input").first()
        await until(pilot, lambda: app.focused is first)


async def test_enter_in_a_form_field_submits_the_form(app: PkuHarnessApp) -> None:
    tool = app.runtime.registry.find("classrooms.free")
    assert tool is not None
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        app.push_screen(ToolFormScreen(app.runtime, tool, app.locale, app.now))
        await until(pilot, lambda: isinstance(app.screen, ToolFormScreen) and app.screen.query(Input))
        box = app.screen.query(Input).first()
        box.focus()
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: app.screen.query("#notify-me"))
        assert [e.tool for e in app.runtime.audit.recent(1)] == ["classrooms.free"]


@pytest.mark.parametrize(
    ("tool_id", "effect", "focused"),
    [("wallet.recharge", "money", "deny"), ("notices.latest", "public", "deny"), ("classrooms.free", "read", "once")],
)
async def test_the_approval_card_focuses_deny_for_money_and_public(
    app: PkuHarnessApp, tool_id: str, effect: str, focused: str
) -> None:
    """Regression (16.6): Enter on a fresh card allowed a payment, because "allow once" had the focus."""
    from dataclasses import replace

    from tui.app.widgets.chat_pane import ChatApprover, ChatPane

    found = app.runtime.registry.find(tool_id)
    assert found is not None
    tool = replace(found, effect=effect)  # no official tool publishes: the card only reads the effect
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        await show(pilot, app, "assistant")
        pane = app.query_one(ChatPane)
        request = ApprovalRequest(tool, {"amountYuan": 500}, "因为涉及金钱", "agent")
        asked = app.run_worker(ChatApprover(pane).approve(request))
        await until(pilot, lambda: app.query(ApprovalCard))
        await pilot.pause()
        assert app.focused is not None and app.focused.id == focused
        await pilot.press("enter")
        answer = await asked.wait()
        assert answer.allow is (focused == "once")


async def test_loosening_money_to_allow_asks_first_and_cancel_keeps_it(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for_widgets(pilot, app)
        await open_settings_section(pilot, app, "permissions")
        table = app.query_one("#permissions", DataTable)
        table.focus()
        row = sorted(app.runtime.registry.plugins).index("wallet")
        table.move_cursor(row=row, column=3)  # money: ask
        await pilot.pause()
        assert app.focused is table
        await pilot.press("enter")  # → deny: tightening needs no question
        await pilot.pause()
        assert app.runtime.gate.mode(app.runtime.registry.find("wallet.recharge")) == "deny"  # type: ignore[arg-type]
        await pilot.press("enter")  # → allow: asks
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmDialog))
        assert str(table.get_cell_at(table.cursor_coordinate)) == term(
            "deny", app.locale
        )  # the cell speaks the UI language
        assert app.runtime.grants.chosen() == {("wallet", "money"): "deny"}
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await until(pilot, lambda: not isinstance(app.screen, ConfirmDialog))
        assert str(table.get_cell_at(table.cursor_coordinate)) == term("allow", app.locale)
        assert app.runtime.grants.chosen() == {("wallet", "money"): "allow"}


async def test_a_tab_opens_with_its_focused_widget_in_sight(tmp_path: Path) -> None:
    """At 80×24 a student scrolled 插件 down to the tools table, went to 设置 and back with 3: the focus landed on
    the screens list, scrolled out of view, while the tools table showed its cursor — Enter opened a screen the
    student could not see. Whatever has the focus when a tab opens is on screen."""
    app = make_app(demo=True, data_dir=tmp_path, now="2026-11-30T12:00:00+08:00", locale="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_widgets(pilot, app)
        await show(pilot, app, "plugins")
        tools = app.query_one("#tools", DataTable)
        tools.focus()
        await pilot.press(*["down"] * 17)
        await pilot.pause()
        pane = app.query_one("TabPane#plugins VerticalScroll")
        assert pane.scroll_y > 0  # the tools table scrolled the pane down
        for key in ("4", "3"):
            await pilot.press(key)
            await pilot.pause(0.2)
        focused = app.focused
        assert focused is not None and active(app) == "plugins"
        shown = pane.content_region
        assert focused.region.y < shown.bottom and focused.region.bottom > shown.y, (focused, focused.region, shown)


async def test_switching_language_from_the_palette_stays_on_the_tab(app: PkuHarnessApp) -> None:
    """Ctrl+P 切换语言 on 首页 switched to English and landed on Settings."""
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_widgets(pilot, app)
        await palette(pilot, app, "切换语言")
        await until(pilot, lambda: app.locale == "en" and bool(app.screen_stack[0].query(TabbedContent)), 10)
        await settle(pilot, app)
        assert active(app) == "home"


async def unseen_stops(pilot: Any, screen: Screen[Any]) -> list[str]:
    """Tab stops a student would see nothing at: a scrolling pane that has nothing to scroll, or that draws no
    focus (its tint, app.tcss) when it has it."""
    from textual.containers import ScrollableContainer
    from textual.scroll_view import ScrollView

    found = []
    for widget in screen.focus_chain:  # a ScrollView (a table, a text area) is a control, not a pane
        if isinstance(widget, ScrollableContainer) and not isinstance(widget, ScrollView):
            if widget.max_scroll_y <= 0 and widget.max_scroll_x <= 0:
                found.append(f"{widget!r}: nothing to scroll")
            widget.focus()
            await pilot.pause()
            if not widget.has_focus or widget.styles.background_tint.a == 0:
                found.append(f"{widget!r}: no visible focus")
    return found


@pytest.mark.parametrize("size", [(80, 24), (160, 45)])
async def test_every_tab_stop_of_the_tabs_and_a_tool_form_is_seen(app: PkuHarnessApp, size: tuple[int, int]) -> None:
    """Found by a new student: Tab on 首页 and on a tool form stopped on the scrolling pane itself, which Textual
    draws no differently, so the key seemed to do nothing. A pane is a stop only when it has something to
    scroll (then it is tinted); the dashboard's never while it shows widgets."""
    async with app.run_test(size=size) as pilot:
        await wait_for_widgets(pilot, app)
        for tab in TABS.values():
            await show(pilot, app, tab)
            await settle(pilot, app)
            assert await unseen_stops(pilot, app.screen) == [], tab
        from tui.app.widgets.dashboard import Dashboard

        assert app.query_one(Dashboard) not in app.screen.focus_chain
        # nor 插件's page: its box and tables scroll it; a stop there showed nothing and ran shortcuts on letters
        assert app.query_one("#plugins-pane") not in app.screen.focus_chain
        tool = app.runtime.registry.find("classrooms.free")
        assert tool is not None
        await app.push_screen(ToolFormScreen(app.runtime, tool, now=NOW))
        await settle(pilot, app)
        assert await unseen_stops(pilot, app.screen) == []
        body = app.screen.query_one("#screen-body")
        assert (body in app.screen.focus_chain) == (body.max_scroll_y > 0)  # 80×24: it scrolls; 160×45: it does not


async def test_the_palettes_themes_are_the_apps_two_and_a_choice_is_kept(app: PkuHarnessApp) -> None:
    """Found by a new student: Ctrl+P → 主题 listed Textual's twenty themes (ansi-dark, catppuccin…), chosen for the
    session only, while 设置 offered two and kept them."""
    async with app.run_test(size=(120, 40)) as pilot:
        commands = list(app.get_system_commands(app.screen))
        titles = [str(c.title) for c in commands]
        assert "主题：深色" in titles and "主题：浅色" in titles
        assert not [title for title in titles if "ansi" in title.lower() or "theme" in title.lower()]
        # Textual's own entry (titled 更换主题 in the app's words) opened its twenty themes: MASH_SCALE=20 set
        # tokyo-night through it
        assert not [c.title for c in commands if c.callback in (app.action_change_theme, app.search_themes)]
        assert [t for t in titles if "主题" in t] == ["主题：深色", "主题：浅色"]
        await palette(pilot, app, "浅色")
        assert app.theme == "pku-light" and app.runtime.settings.get("theme") == "light"


async def test_esc_leaves_the_plugins_link_box_and_the_tab_keys_work_again(app: PkuHarnessApp) -> None:
    """README: 1–4 type inside a text box, Esc leaves the box (an outsider typed "abc", Esc, 2: the box had "abc2")."""
    async with app.run_test(size=(120, 40)) as pilot:
        await show(pilot, app, "plugins")
        box = app.screen.query_one("#install-link", Input)
        await pilot.click(box)
        await pilot.press("a", "b", "c", "escape", "2")
        await until(pilot, lambda: active(app) == "assistant")
        assert box.value == "abc"  # kept, not lost with the focus
