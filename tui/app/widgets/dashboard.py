"""The dashboard: the official and installed plugins' widgets in a two-column grid, filled from data sources."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid
from textual.widget import Widget
from textual.widgets import Static, Tabs

from tui.app.failures import act, explain
from tui.app.i18n import t
from tui.app.screens.plugin_screen import PluginScreen, open_from_widget
from tui.app.screens.screen_spec import pick_text
from tui.app.screens.tool_form import ToolFormScreen
from tui.app.widgets.dashboard_edits import DashboardEdits
from tui.app.widgets.dashboard_slots import LOAD_TIMEOUT_S, Slot, slots, tick_seconds
from tui.app.widgets.widget_data import WidgetData
from tui.lang.expr import beijing_now
from tui.runtime.runtime import Runtime
from widgets_render.error_view import ErrorView
from widgets_render.simple_widgets import plain
from widgets_render.states import loading_spec
from widgets_render.textual_render import WidgetFrame
from widgets_render.viewmodel import ErrorCard, Resolved

#: From this width the grid has two columns. Two medium widgets want ~124 cells; the grid shrinks them a little
#: rather than leave a 100–123 column terminal with one very wide column.
TWO_COLUMNS = 100
#: Below this width every widget renders small (genui.md §2.7).
SMALL_ONLY = 60


class Dashboard(DashboardEdits):
    """首页: a grid of widget frames; each fills itself from its data source in a worker.

    On a focused widget: `[` / `]` move it, `s` changes its size, `x` removes it (`u` undoes that, in its old
    place); `a` adds a removed one back.

    One widget per slot, whatever the keys' speed: every change of the grid (a relayout, a frame put in its slot)
    happens under one lock, a relayout starts a new generation, and a fill places its frame only if no relayout
    and no newer fill of the same slot came after it was asked for. Before, a fill begun for the old layout (a
    refresh, a tick, the previous relayout) landed in the new one by index: after `x` `a` 校园卡 was lost and
    去昌平的校车 shown twice.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "move(-1)", "key_earlier"),
        Binding("right_square_bracket", "move(1)", "key_later"),
        Binding("s", "resize", "key_size"),
        Binding("x", "remove", "key_remove"),
        Binding("a", "add", "key_add"),
        Binding("u", "undo", "key_undo"),
    ]

    DEFAULT_CSS = """
    Dashboard > Grid { grid-size: 2; grid-gutter: 0 1; height: auto; }
    Dashboard .loading { border: round $primary 30%; height: 5; padding: 0 1; color: $text-muted; }
    Dashboard .grid-gap { height: 1; }
    """

    def allow_focus(self) -> bool:
        """A Tab stop only while it shows no widget (the focus must have somewhere to go when the last one is
        removed, and while the grid is rebuilt); with widgets, Tab goes from widget to widget and the pane
        follows — its own stop was one a student saw nothing at (Textual draws no focus on a scroll container)."""
        return self.can_focus and (self.rebuilding or not self.slots)  # cheap: asked on every focus-chain walk

    def __init__(self, runtime: Runtime, locale: str = "zh", now: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.runtime = runtime
        self.locale = locale
        self.now = now
        self.data = WidgetData(runtime, locale, now)
        """Reads each widget's source and resolves it (widget_data.py)."""
        self.slots = slots(runtime)
        self.tiny = False
        """The terminal is narrower than SMALL_ONLY columns: widgets render at their small size."""
        self.ticks = 0
        """Ticks that re-evaluated a widget (for tests and the status line)."""
        self.load_timeout = LOAD_TIMEOUT_S
        self.columns = 2
        """The grid's columns for the present width (a recomposed grid starts with them, not with the CSS's)."""
        self.shown_columns = 2
        """The columns the grid was last composed for (its spans and gaps follow them)."""
        self.kept: dict[str, tuple[Resolved, str | None, dict[str, Any] | None]] = {}
        """Each widget's last frame by slot id: a relayout shows it until the refill, instead of 加载中."""
        self.generation = 0
        """Bumped by every relayout: a fill asked for under an older layout is dropped."""
        self.asked = 0
        self.latest: dict[int, int] = {}
        """Per slot index, the number of the newest fill asked for (an older fill that answers later is dropped)."""
        self.grid_lock = asyncio.Lock()
        """Held while the grid changes: a relayout and a frame being put in place never interleave."""
        self.adding = False
        """The add dialog is open: a second `a` opens no second one."""
        self.rebuilding = False
        """The grid is being composed again (see `allow_focus`)."""
        self.undo: tuple[dict[str, Any], str] | None = None
        """The layout before the last `x` and the widget it removed: what `u` puts back."""
        self.focus_after: str | None = None
        """The slot whose new frame takes the focus (the widget just moved, resized or added)."""
        self.focus_first = True
        """The first widget takes the focus when it arrives, once, if the student has not moved it elsewhere."""

    def compose(self) -> ComposeResult:
        grid = Grid(id="widgets")
        grid.styles.grid_size_columns = self.columns
        with grid:
            for i, (slot, (span, gap)) in enumerate(zip(self.slots, self.placing(), strict=True)):
                if gap:
                    yield Static("", classes="grid-gap")
                kept = self.kept.get(slot.id)
                if kept is not None:  # what it showed before the relayout, until its refill: no 加载中 flash
                    resolved, stale, tap = kept
                    widget: Widget = WidgetFrame(resolved, slot.file, stale=stale, tap=tap, id=f"slot-{i}")
                else:
                    text = plain(f"{self.title_of(slot)} · {t('loading', self.locale)}")
                    widget = Static(text, id=f"slot-{i}", classes="loading")
                widget.styles.column_span = span
                yield widget

    async def realign(self) -> None:
        """Each widget's span and the gaps before large ones, for the present columns, without rebuilding."""
        async with self.grid_lock:
            grids = self.query_children(Grid)
            if not grids:
                return
            grid = grids.first()
            await grid.query_children(".grid-gap").remove()
            placing = self.placing()
            for child in list(grid.children):
                index = int(str(child.id)[5:]) if child.id and child.id.startswith("slot-") else -1
                if not 0 <= index < len(placing):
                    continue
                span, gap = placing[index]
                child.styles.column_span = span
                if gap:
                    await grid.mount(Static("", classes="grid-gap"), before=child)

    def placing(self) -> list[tuple[int, bool]]:
        """Each slot's span and whether a gap goes before it, in slot order. Textual's grid clips a two-column
        widget that starts in the right column to that column (食堂人流 stayed half-wide on `s`): a gap sends it
        to a row of its own."""
        out, column = [], 0
        for slot in self.slots:
            span = self.span(slot)
            gap = span == 2 and column % 2 == 1
            column += span + gap
            out.append((span, gap))
        return out

    def span(self, slot: Slot) -> int:
        """Columns the widget takes: a large one the whole row, as on the phone."""
        return 2 if self.columns == 2 and self.shown_size(slot) == "large" else 1

    def title_of(self, slot: Slot) -> str:
        """The widget's title in the locale, as the student sees it (never its id)."""
        return pick_text(slot.spec.get("title"), self.locale) or self.runtime.registry.plugin_name(slot.plugin_id)

    def on_mount(self) -> None:
        # After the first paint: by then the app's own styles are applied. A widget drawn before them (a demo
        # widget fills in a few ms) kept Textual's transparent default colour: text in the background colour.
        self.call_after_refresh(self.refresh_all)
        for i, slot in enumerate(self.slots):
            every = tick_seconds(slot.spec)
            if every is not None:
                self.set_interval(every, lambda i=i, slot=slot: self.tick(i, slot), name=f"tick-{slot.file}")

    def tick(self, index: int, slot: Slot) -> None:
        """Re-evaluate one widget with a new `now`; its source refetches only once its ttl has passed (§2.6).
        Nothing happens while the dashboard is hidden (another tab or a screen on top). The widget is found by
        its id: since the timer was set, it may have moved, or left the dashboard."""
        index = next((i for i, s in enumerate(self.slots) if s.id == slot.id), -1)
        if index >= 0 and self.screen.is_current and self.region.area > 0:
            self.ticks += 1
            self.fill(index, self.slots[index], False)

    def on_resize(self, event: events.Resize) -> None:
        """Two columns when two medium widgets fit, else one; under 60 columns every widget is small (§2.7)."""
        self.columns = columns = 2 if event.size.width >= TWO_COLUMNS else 1
        # A resize can arrive while the grid is being recomposed (no grid, or the old one on its way out).
        for grid in self.query_children(Grid):
            grid.styles.grid_size_columns = self.columns
        tiny = event.size.width < SMALL_ONLY
        if columns != self.shown_columns or tiny != self.tiny:
            # which widgets span the row, and the gaps before them, follow the columns: set in place (a relayout
            # here rebuilt the grid each time F1's panel narrowed the page, and the memory tour counted the grids)
            self.shown_columns = columns
            self.run_worker(self.realign(), group="dashboard-columns", exit_on_error=False)
        if tiny != self.tiny:
            self.tiny = tiny
            self.refresh_all()

    def refresh_all(self, force: bool = False) -> None:
        """Fill (or refill) every slot."""
        for i, slot in enumerate(self.slots):
            self.fill(i, slot, force)

    def fill(self, index: int, slot: Slot, force: bool) -> None:
        """Fill slot `index` (holding `slot` in the present layout) in a worker. The generation and the fill's
        number are taken now, not when the worker starts: a relayout may come in between."""
        self.asked += 1
        self.latest[index] = self.asked
        self._fill(index, slot, force, self.generation, self.asked)

    @work(group="dashboard", exit_on_error=False)
    async def _fill(self, index: int, slot: Slot, force: bool, generation: int, number: int) -> None:
        loading = loading_spec(slot.spec) if isinstance(slot.spec, dict) else None
        if loading is not None and self.query(f"Static#slot-{index}.loading"):  # the first load: its own state
            now = self.now or beijing_now()
            meta = {"loading": True, "stale": False, "error": None, "fetchedAt": now}
            shown = await self.data.state(slot, loading, meta, self.shown_size(slot))
            async with self.grid_lock:
                if generation == self.generation and self.latest.get(index) == number and self.is_attached:
                    await self._swap(index, slot, WidgetFrame(shown, slot.file, id=f"slot-{index}", classes="loading"))
        resolved, stale = await self.data.slot(
            slot, force, self.shown_size(slot), self.title_of(slot), self.load_timeout
        )
        if isinstance(resolved.body, ErrorCard) and not resolved.body.summary:
            explain(resolved.body, self.locale)  # a bad spec or template: the renderer's card, in our words
        tap = slot.spec.get("tap") if isinstance(slot.spec.get("tap"), dict) else None
        async with self.grid_lock:
            if generation != self.generation or self.latest.get(index) != number or not self.is_attached:
                return  # a relayout or a newer fill of this slot came after: its frame is the one to show
            frame = WidgetFrame(resolved, slot.file, stale=stale, tap=tap, id=f"slot-{index}")
            self.kept[slot.id] = (resolved, stale, tap)
            had_focus = await self._swap(index, slot, frame)
        # A frame is focused only while the dashboard is in view: focusing a widget of a hidden tab makes
        # TabbedContent switch back to that tab (a refill finishing after the student pressed 2 would undo it).
        shown = self.screen.is_current and all(n.display for n in self.ancestors_with_self if isinstance(n, Widget))
        if self.focus_after == slot.id or had_focus:
            self.focus_after = None
            if shown:
                self.screen.set_focus(frame)  # the widget the student just moved, resized or refreshed keeps it
                # and stays in sight: set_focus scrolled before the new frame had a place (`]` moved a widget
                # below the screen's edge and the page did not follow).
                frame.call_after_refresh(frame.scroll_visible, animate=False)
        elif index == 0 and self.focus_first:
            self.focus_first = False
            if shown and (self.app.focused is None or isinstance(self.app.focused, Tabs)):
                self.screen.set_focus(frame)  # the dashboard opens on its first widget: Enter opens it

    async def _swap(self, index: int, slot: Slot, frame: Widget) -> bool:
        """Put `frame` in slot `index` in place of what is there (under the grid lock); whether that had focus."""
        # large takes the row, as on the phone (`s` between medium and large changed nothing to be seen)
        frame.styles.column_span = self.span(slot)
        grid = self.query_one("#widgets", Grid)
        # Not `query_one`: its cache (1,024 entries) would keep every frame this replaces alive, and a
        # countdown widget replaces its frame on every tick.
        old = grid.query_children(f"#slot-{index}")
        had_focus = any(w.has_focus for w in old)
        children = list(grid.children)
        if old:  # in its place: just before what followed it (a gap before a large widget, or the next slot)
            at = children.index(old.first())
            before = children[at + 1] if at + 1 < len(children) else None
        else:
            before = next((c for c in children if c.id and c.id.startswith("slot-") and int(c.id[5:]) > index), None)
        await old.remove()
        await grid.mount(frame, before=before)
        return had_focus

    def focused_slot(self) -> Slot | None:
        focused = self.app.focused
        found = self.slot_of(focused) if isinstance(focused, WidgetFrame) else None
        return found[1] if found is not None else None

    async def relayout(self, keep_focus: str | None, change: Callable[[], object] | None = None) -> None:
        """Apply `change` to the stored layout and rebuild from it, as one step under the grid's lock; data comes
        back from the cache, so this is quick."""
        async with self.grid_lock:
            if change is not None:
                change()
            await self._rebuild(keep_focus)
        self.refresh_all()

    async def _rebuild(self, keep_focus: str | None) -> None:
        """A new generation of the grid from the stored layout (the caller holds the lock)."""
        self.generation += 1
        self.latest.clear()
        self.slots = slots(self.runtime)
        self.focus_after = keep_focus
        self.rebuilding = True  # the focused frame goes: the pane keeps the focus, and the keys that follow
        try:
            await self.recompose()
        finally:
            self.rebuilding = False

    def on_widget_frame_tapped(self, event: WidgetFrame.Tapped) -> None:
        """Enter or a click on a widget opens its screen."""
        found = self.slot_of(event.frame)
        if found is None:
            return
        _, slot = found
        if event.frame.tap is not None:
            open_from_widget(event.frame, self.runtime, slot.plugin_id, self.locale, self.now, self.screen_closed)
            return
        # No screen of its own (校园卡, 食堂人流): its data source's tool, run with the same input, as its form —
        # the whole result, 提醒我… under it. Enter did nothing while F1 said ⏎ 打开.
        source = slot.spec.get("source")
        plugin = self.runtime.registry.plugins[slot.plugin_id].plugin
        declared = plugin.manifest.dataSources.get(source) if isinstance(source, str) else None
        tool = self.runtime.registry.find(f"{slot.plugin_id}.{declared.tool}") if declared and declared.tool else None
        if declared is None or tool is None:
            self.notify(t("widget_no_detail", self.locale), timeout=3, markup=False)
            return
        form = ToolFormScreen(self.runtime, tool, self.locale, self.now, given=declared.args, run=True)
        form.on_closed = self.screen_closed
        self.app.push_screen(form)

    def screen_closed(self, screen: PluginScreen) -> None:
        """Back from a plugin's screen where one of its tools ran: that plugin's widgets fetch anew, so 我的绩点
        shows the GPA once the grades screen was verified, and a booking made there shows at once."""
        if screen.ran_tool:
            self.refill_plugin(screen.plugin_id)

    def refill_plugin(self, plugin_id: str) -> None:
        """Every widget of a plugin fetches anew."""
        if not self.is_attached:
            return
        for i, slot in enumerate(self.slots):
            if slot.plugin_id == plugin_id:
                self.fill(i, slot, True)

    @work(group="dashboard-error", exit_on_error=False)
    async def on_error_view_chosen(self, event: ErrorView.Chosen) -> None:
        """登录, 重试 or 详情 on a widget's error card."""
        frame = next((a for a in event.control.ancestors if isinstance(a, WidgetFrame)), None)
        found = self.slot_of(frame) if frame is not None else None
        if found is None:
            return
        index, slot = found
        await act(self.app, event.card, event.action, self.locale, lambda: self.fill(index, slot, True))

    def slot_of(self, frame: WidgetFrame) -> tuple[int, Slot] | None:
        """The slot a frame shows, if it still does: a tap or a card's button from a frame that a relayout has
        replaced (its widget removed with `x` a moment before) names a slot that is gone or holds another widget —
        an IndexError ended the app (MASH_SCALE=20, seed 4, after 10,912 keys)."""
        if not frame.id or not frame.id.startswith("slot-"):
            return None
        index = int(frame.id.removeprefix("slot-"))
        if index >= len(self.slots) or self.slots[index].file != frame.file:
            return None
        return index, self.slots[index]

    def shown_size(self, slot: Slot) -> str:
        """The size a widget is drawn at: the student's choice, else its default; small on a tiny terminal."""
        default = slot.spec.get("defaultSize") or (slot.spec.get("sizes") or ["medium"])[0]
        return "small" if self.tiny else slot.size if slot.size in slot.sizes else str(default)
