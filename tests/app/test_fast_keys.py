"""Keys typed faster than the app answers them (issue 16 items 2 and 4): a dialog answers once, the dashboard
keeps one widget per slot.

Each test sends its keys with `burst` (all queued at once), the way a student's fast fingers or a held key do;
`pilot.press` waits for the app to go idle after every key and never found these.
"""

from __future__ import annotations

import ast
import asyncio
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import pytest
from textual.screen import ModalScreen
from textual.widgets import Button

from tests.app.helpers import burst, settle, until
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.base import Dialog, OnceScreen
from tui.app.dialogs.notifications import NotificationCentre
from tui.app.dialogs.prompts import ChooseDialog, ConfirmDialog
from tui.app.screens.plugin_screen import PluginScreen
from tui.app.widgets.dashboard import Dashboard, tick_seconds
from widgets_render.textual_render import WidgetFrame

NOW = "2026-11-30T12:00:00+08:00"
APP = Path(__file__).resolve().parents[2] / "tui" / "app"


@pytest.fixture
def app(tmp_path: Path) -> PkuHarnessApp:
    return make_app(demo=True, data_dir=tmp_path, now=NOW)


async def filled(pilot: Any, app: PkuHarnessApp, count: int = 7) -> None:
    await until(pilot, lambda: len(app.query(WidgetFrame)) >= count, seconds=10)
    await settle(pilot, app)


def misplaced(app: PkuHarnessApp) -> list[str]:
    """Frames whose widget is not the one their slot holds."""
    dashboard = app.query_one(Dashboard)
    return [
        f"{f.id}: {f.file}" for f in dashboard.query(WidgetFrame) if dashboard.slots[int(str(f.id)[5:])].file != f.file
    ]


def frames_by_file(app: PkuHarnessApp) -> Counter[str]:
    return Counter(f.file for f in app.query_one(Dashboard).query(WidgetFrame))


def test_every_modal_screen_of_the_app_is_a_dialog_that_answers_once() -> None:
    """The root fix: no screen of the app subclasses Textual's ModalScreen or Screen directly."""
    direct = []
    for path in APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b).split("[")[0] for b in node.bases]
                if {"ModalScreen", "Screen"} & set(bases) and path.name != "base.py":
                    direct.append(f"{path.relative_to(APP)}:{node.name}")
    assert direct == []
    assert issubclass(ChooseDialog, Dialog) and issubclass(ChooseDialog, ModalScreen)
    assert issubclass(PluginScreen, OnceScreen)


async def test_enter_enter_in_the_add_widget_dialog_adds_once_and_the_app_lives(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await filled(pilot, app)
        wallet = next(f for f in app.query(WidgetFrame) if f.file.startswith("wallet/"))
        wallet.focus()
        await pilot.press("x")
        await filled(pilot, app, 6)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
        burst(app, ["enter", "enter"])  # the second Enter reached the list before the first answer closed it
        await filled(pilot, app)
        assert app.return_code is None and app._exception is None
        assert not isinstance(app.screen, ChooseDialog)
        assert frames_by_file(app)["wallet/widgets/balance.json"] == 1


async def test_a_second_answer_does_not_close_the_plugin_page_below(app: PkuHarnessApp) -> None:
    """Before: a double click on 确定 over a plugin page answered, then popped the page too."""
    async with app.run_test(size=(120, 40)) as pilot:
        await filled(pilot, app)
        app.open_screen("shuttle", next(iter(app.runtime.registry.plugins["shuttle"].plugin.screens)))
        await until(pilot, lambda: isinstance(app.screen, PluginScreen))
        page = app.screen
        answers: list[bool | None] = []
        app.push_screen(ConfirmDialog("?", "zh"), answers.append)
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and app.screen.query("#yes"))
        yes = app.screen.query_one("#yes", Button)
        yes.press()  # a double click: each click presses (only the key binding waits out the press effect)
        yes.press()
        await settle(pilot, app)
        assert answers == [True]
        assert app.screen is page


async def test_the_notification_centre_closes_once_under_fast_keys(app: PkuHarnessApp) -> None:
    app.runtime.notices.add("demo", "校车", "去昌平的校车 12:30 发车")
    async with app.run_test(size=(120, 40)) as pilot:
        await filled(pilot, app)
        closed: list[None] = []
        app.push_screen(NotificationCentre(app.runtime.notices, "zh"), closed.append)
        await until(pilot, lambda: isinstance(app.screen, NotificationCentre) and app.screen.query("#notices-close"))
        close = app.screen.query_one("#notices-close", Button)
        close.press()  # a double click on 关闭, then Escape
        close.press()
        burst(app, ["escape"])
        await settle(pilot, app)
        assert app.return_code is None and app._exception is None
        assert closed == [None]
        assert app.screen is app.screen_stack[0]


async def test_a_dismiss_while_covered_is_given_when_the_dialog_is_back_on_top(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await filled(pilot, app)
        answers: list[bool | None] = []
        dialog = ConfirmDialog("?", "zh")
        app.push_screen(dialog, answers.append)
        cover = ConfirmDialog("login?", "zh")
        app.push_screen(cover)
        await until(pilot, lambda: app.screen is cover)
        dialog.dismiss(True)  # e.g. a worker finished while a login screen had opened on top
        await settle(pilot, app)
        assert answers == [] and app.screen is cover
        cover.dismiss(False)
        await until(pilot, lambda: answers == [True])
        assert app.screen is app.screen_stack[0]


async def test_remove_add_enter_and_tabs_fast_keep_one_widget_per_slot(app: PkuHarnessApp) -> None:
    """The probe's keys without a pause, and the widgets' refresh timers firing as they do every 30 s. Before,
    a fill asked for under an older layout (a timer set at start, a refresh, the previous relayout) replaced
    whatever frame had its slot number in the new one: 校园卡 vanished and 去昌平的校车 showed twice."""
    async with app.run_test(size=(120, 40)) as pilot:
        await filled(pilot, app)
        dashboard = app.query_one(Dashboard)
        every = sorted(frames_by_file(app))
        at_start = list(enumerate(dashboard.slots))  # what each timer was set with
        next(f for f in app.query(WidgetFrame) if f.file.startswith("shuttle/")).focus()
        burst(app, ["r", "x", "a"])  # refresh, remove the bus, open 添加小组件
        await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
        burst(app, ["enter", "tab", "tab", "shift+tab"])  # add it back (at the end), move on
        await until(pilot, lambda: not isinstance(app.screen, ChooseDialog))
        await settle(pilot, app, rounds=4)
        for index, slot in at_start:
            if tick_seconds(slot.spec) is not None:
                dashboard.tick(index, slot)  # what the slot's interval does
        await settle(pilot, app, rounds=4)
        await until(pilot, lambda: not app.query(".loading"), seconds=10)
        assert app.return_code is None and app._exception is None
        counts = frames_by_file(app)
        assert sorted(counts) == every and set(counts.values()) == {1}, counts  # none lost, none twice
        assert misplaced(app) == []
        assert [s.id for s in dashboard.slots][-1] == "shuttle/next"


async def test_resizing_while_the_dashboard_recomposes_does_not_raise(app: PkuHarnessApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await filled(pilot, app)
        next(iter(app.query(WidgetFrame))).focus()
        for size in ((80, 24), (50, 15), (120, 40), (99, 30)):
            burst(app, ["s", "right_square_bracket"])
            await pilot.resize_terminal(*size)
        await settle(pilot, app, rounds=6)
        assert app.return_code is None and app._exception is None
        dashboard = app.query_one(Dashboard)
        grid = dashboard.query_one("#widgets")
        assert grid.styles.grid_size_columns == 1  # 99 columns: one column, also after the last recompose
        assert sorted(frames_by_file(app).values()) == [1] * 7


async def test_the_command_palette_answers_once() -> None:
    """Found by the key masher: the palette's Enter handler dismissed it twice (ScreenStackError)."""
    from textual.app import App

    from tui.app.dialogs.base import CommandPalette

    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        palette = CommandPalette(id="--command-palette")
        app.push_screen(palette)
        await until(pilot, lambda: app.screen is palette and palette.query("CommandList"))
        palette.dismiss()
        palette.dismiss()
        await pilot.pause()
        assert app._exception is None and app.screen is app.screen_stack[0]


async def test_page_down_on_a_list_not_laid_out_yet_is_ignored() -> None:
    """Found by the key masher: PgDn on an option list mounted a moment ago raised KeyError: 0."""
    from textual.app import App, ComposeResult

    from widgets_render.steady_options import SteadyOptionList

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield SteadyOptionList("a", "b", "c", id="opts")

    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        options = app.query_one(SteadyOptionList)
        options.highlighted = 0
        options._line_cache.clear()  # the state of a list before its first layout
        options.styles.display = "none"  # no region: the line map cannot be built
        await pilot.pause()
        options.action_page_down()
        assert app._exception is None and options.highlighted == 0


@pytest.mark.parametrize("steady", [True, False])
async def test_page_down_in_a_select_opened_a_moment_ago_is_ignored(steady: bool) -> None:
    """Found by the key masher (seed 0): a select opened and PgDn in one burst raised KeyError: 0 in its list."""
    from textual.app import App, ComposeResult
    from textual.widgets import Select
    from textual.widgets._select import SelectOverlay

    from widgets_render.steady_select import SteadySelect

    kind = SteadySelect if steady else Select

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield kind([("a", 1), ("b", 2), ("c", 3)], value=1, allow_blank=False)

    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        overlay = app.query_one(SelectOverlay)
        overlay.highlighted = 0
        overlay._line_cache.clear()  # the state of the list before its first layout
        await pilot.pause()
        if steady:
            overlay.action_page_down()
            assert app._exception is None and overlay.highlighted == 0
        else:  # the plain Textual select: the crash this guards against
            with pytest.raises(KeyError):
                overlay.action_page_down()


@pytest.mark.parametrize("guarded", [True, False])
async def test_a_focus_given_to_a_widget_being_removed_does_not_kill_the_keys(guarded: bool) -> None:
    """Found by the key masher: `1` landed the focus on a dashboard frame that a refill was replacing; the focus
    stayed on a widget outside the app, and every app key (`1`–`4`) went dead."""
    from textual.app import App
    from textual.binding import Binding, BindingType
    from textual.screen import Screen
    from textual.widgets import Button

    from tui.app.dialogs.base import OnceScreen

    kind = OnceScreen if guarded else Screen

    class Shell(kind):  # type: ignore[misc, valid-type]
        def compose(self) -> Any:
            yield Button("old", id="old")
            yield Button("other", id="other")

    class Host(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("3", "bell", "three")]

        def get_default_screen(self) -> Screen[Any]:
            return Shell()

    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        old = app.query_one("#old", Button)
        app.set_focus(None)
        removal = old.remove()  # the removal has started (Textual moved the focus off it already)
        app.screen.set_focus(old)  # and a late landing focuses it
        await removal
        await pilot.pause()
        if guarded:
            assert app.focused is None or app.focused.is_attached
            assert "3" in app.active_bindings
        else:
            assert app.focused is old and not old.is_attached and "3" not in app.active_bindings


@pytest.mark.parametrize("steady", [True, False])
async def test_a_title_set_while_the_header_closes_is_dropped(steady: bool) -> None:
    """Found by the key masher at MASH_SCALE=20: a plugin page set its title as it closed; Textual's header
    looked up its title child, which was gone, and `NoMatches` ended the app."""
    from textual.app import App, ComposeResult
    from textual.widgets import Header
    from textual.widgets._header import HeaderTitle

    from tui.app.widgets.header import SteadyHeader

    kind = SteadyHeader if steady else Header

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield kind()

    app = Host()

    async def scene() -> None:
        async with app.run_test(size=(40, 6)) as pilot:
            await app.query_one(HeaderTitle).remove()  # the header's children are gone (the page is closing)
            app.screen.title = "空闲教室"  # and the page's title arrives
            await pilot.pause()
            await pilot.pause()
            assert app._exception is None

    if steady:
        await scene()
    else:  # Textual's own header: the crash this guards against
        from textual.css.query import NoMatches

        with pytest.raises(NoMatches):
            await scene()


@pytest.mark.parametrize("steady", [True, False])
async def test_a_select_whose_list_went_before_its_mount_handler_does_not_raise(steady: bool) -> None:
    """Seen in the suite: a tool form closed as its selects mounted; Textual's select filled its option list in
    its mount handler, the list was gone, and NoMatches ended the app."""
    from textual.app import App, ComposeResult
    from textual.css.query import NoMatches
    from textual.widgets import Select
    from textual.widgets._select import SelectOverlay

    from widgets_render.steady_select import SteadySelect

    kind = SteadySelect if steady else Select

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield kind([("a", 1), ("b", 2)], value=1, allow_blank=False)

    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        select = app.query_one(kind)
        await select.query_one(SelectOverlay).remove()
        await pilot.pause()
        if steady:
            select._setup_options_renderables()  # what the mount handler does first
        else:
            with pytest.raises(NoMatches):
                select._setup_options_renderables()


@pytest.mark.parametrize("tab", ["settings", "assistant", "home"])
async def test_a_tab_key_while_the_shell_is_composed_again_reaches_its_tab(app: PkuHarnessApp, tab: str) -> None:
    """After an install, an update or a language switch the shell is composed again; a tab key that came while
    the new tab bar had no tabs yet raised `ValueError: No Tab with id '--content-tab-settings'` and ended the
    app (seen in a suite run under load). The key is tried at every step of the rebuild; it waits for the bar."""
    async with app.run_test(size=(120, 40)) as pilot:
        await filled(pilot, app)
        rebuild = app.run_worker(app.rebuild("plugins"))  # what an install does
        steps = 0
        while not rebuild.is_finished and steps < 2000:
            app.action_tab(tab)  # the tab key, at this step of the rebuild
            await asyncio.sleep(0)
            steps += 1
        app.action_tab(tab)
        await until(pilot, lambda: app.query_one("TabbedContent").active == tab, seconds=10)
        await settle(pilot, app)
        assert app.is_running and app.query_one("TabbedContent").active == tab


async def test_two_rebuilds_of_the_shell_at_once_leave_one_whole_shell(app: PkuHarnessApp) -> None:
    """Rebuilds of the shell asked for at once end in one whole shell on the last one's tab. Two suite runs under
    load ended `test_a_wider_update_waits_for_approval_then_rollback_and_uninstall` with `ValueError: No Tab with
    id '--content-tab-settings'` in `Tabs._on_mount` — a tab bar whose tabs were removed while it mounted, which
    only a second rebuild removing the first one's tree does. Rebuilds now take turns (`shell_lock`); this run
    did not reproduce the crash without the lock on an idle machine, so it guards the outcome, not the timing."""
    async with app.run_test(size=(120, 40)) as pilot:
        await filled(pilot, app)
        for tab in ("settings", "plugins", "settings"):
            app.run_worker(app.rebuild(tab))
            await asyncio.sleep(0)
        await until(pilot, lambda: not app.workers._workers, seconds=15)
        await settle(pilot, app)
        assert app.is_running and app._exception is None
        assert len(app.query("TabbedContent")) == 1 and app.query_one("TabbedContent").active == "settings"


@pytest.mark.parametrize("keys", [["tab", "tab"], ["tab", "shift+tab", "tab", "tab"]])
async def test_keys_typed_fast_after_tab_land_in_the_box_tab_moved_to(app: PkuHarnessApp, keys: list[str]) -> None:
    """Found by a new student: "二教⇥⇥13⇥50" typed without pauses wrote 二教1350 into the first box (Tab was
    handled only once it had bubbled up from the box, while the digits after it were sent to the box)."""
    from textual.widgets import Input

    from tui.app.screens.tool_form import ToolFormScreen

    async with app.run_test(size=(80, 24)) as pilot:
        tool = app.runtime.registry.find("classrooms.free")
        assert tool is not None
        form = ToolFormScreen(app.runtime, tool, now=NOW)
        await app.push_screen(form)
        await settle(pilot, app)
        assert app.focused is not None and app.focused.name == "building"
        burst(app, ["二", "教", *keys, "1", "3", "tab", "5", "0"])  # all queued at once, as a fast typist sends them
        await settle(pilot, app)
        boxes = {box.name: box.value for box in form.query(Input)}
        assert boxes == {"building": "二教", "period": "13", "minSeats": "50"}


def test_every_option_list_of_the_app_is_the_steady_one() -> None:
    """The settings' section list was a plain `OptionList`: PgDn reached it before its first layout (a burst
    with `4` in it) and the app ended with `KeyError: 0` (key masher, seed 4). Every list the app defines pages
    only once laid out."""
    import importlib
    import pkgutil

    from textual.widgets import OptionList

    import tui.app
    from widgets_render.steady_options import SteadyOptionList

    for info in pkgutil.walk_packages(tui.app.__path__, "tui.app."):
        importlib.import_module(info.name)
    plain = []
    stack = list(OptionList.__subclasses__())
    while stack:
        cls = stack.pop()
        stack += cls.__subclasses__()
        if cls.__module__.startswith("tui.") and not issubclass(cls, SteadyOptionList):
            plain.append(f"{cls.__module__}.{cls.__qualname__}")
    assert plain == []


@pytest.mark.parametrize("steady", [True, False])
async def test_an_app_ending_as_a_lazy_tab_mounts_ends_cleanly(steady: bool) -> None:
    """Found by the demo's SIGTERM test on a loaded machine: the app was told to end as the settings tab mounted
    lazily, and Textual's Lazy raised MountError (a traceback, exit code 1). The app's tabs use SteadyLazy."""
    from textual.app import App, ComposeResult
    from textual.containers import Vertical
    from textual.lazy import Lazy
    from textual.widget import MountError
    from textual.widgets import Static

    from tui.app.lazy_pane import SteadyLazy

    kind = SteadyLazy if steady else Lazy

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            with Vertical(id="pane"):
                yield kind(Static("late"))

        def on_mount(self) -> None:
            self.exit()  # as SIGTERM does, before the lazy mount has run

    app = Host()
    if steady:
        async with app.run_test() as pilot:
            await pilot.pause(0.2)
        assert app._exception is None
    else:  # Textual's own: the failure this guards against
        with pytest.raises(MountError):
            async with app.run_test() as pilot:
                await pilot.pause(0.2)


async def test_ctrl_p_with_a_palette_under_another_screen_opens_no_second_one(app: PkuHarnessApp) -> None:
    """MASH_SCALE=20, seed 3, after 3,945 keys: a palette stayed on the stack under a screen opened above it, and
    Ctrl+P pushed a second palette with the same id (DuplicateIds ended the app)."""
    from textual.command import CommandPalette

    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await app.push_screen(ConfirmDialog("?", "zh"))  # a screen above the palette
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app._exception is None
        assert sum(isinstance(s, CommandPalette) for s in app.screen_stack) == 1


@pytest.mark.parametrize("steady", [True, False])
async def test_a_choice_list_squeezed_to_no_width_is_measured_without_raising(steady: bool) -> None:
    """MASH_SCALE=20, seed 4, after 12,446 keys at 50×15: a 选择 dialog's list laid out at width 0 wrapped its
    options' text at width 0 (`range() arg 3 must not be zero`) and ended the app."""
    from textual.app import App, ComposeResult
    from textual.geometry import Size
    from textual.widgets import OptionList

    from widgets_render.steady_options import SteadyOptionList

    kind = SteadyOptionList if steady else OptionList

    class Host(App[None]):
        def compose(self) -> ComposeResult:
            yield kind("Campus card", "食堂", id="opts")

    app = Host()
    async with app.run_test(size=(50, 15)) as pilot:
        await pilot.pause()
        options = app.query_one("#opts", OptionList)
        if steady:
            assert options.get_content_height(Size(0, 10), Size(50, 15), 0) == 2
        else:  # Textual's own: what this guards against
            with pytest.raises(ValueError, match="range"):
                options.get_content_height(Size(0, 10), Size(50, 15), 0)


async def test_a_tap_from_a_frame_whose_widget_was_removed_is_ignored(app: PkuHarnessApp) -> None:
    """MASH_SCALE=20, seed 4, after 10,912 keys: Enter reached a frame as `x` removed its widget; the tap named a
    slot the new layout no longer has (IndexError ended the app), or one that holds another widget now."""
    async with app.run_test(size=(120, 40)) as pilot:
        dashboard = app.query_one(Dashboard)
        await until(pilot, lambda: len(app.query(WidgetFrame)) >= 7, 30)
        last = app.query(WidgetFrame).last()
        gone = WidgetFrame(last.resolved, last.file, id=f"slot-{len(dashboard.slots)}")  # past the end
        moved = WidgetFrame(last.resolved, "elsewhere/widgets/x.json", id="slot-0")  # slot 0 holds another
        for frame in (gone, moved):
            dashboard.on_widget_frame_tapped(WidgetFrame.Tapped(frame))
            assert dashboard.slot_of(frame) is None
        await pilot.pause()
        assert app._exception is None and app.screen is app.screen_stack[0]  # nothing opened
