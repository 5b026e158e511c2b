"""The dashboard: the official and installed plugins' widgets in a two-column grid, filled from data sources."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, VerticalScroll
from textual.widgets import Static

from tui.app.dialogs.prompts import ChooseDialog
from tui.app.genui_bridge import LangEvaluator, offloaded, widget_names
from tui.app.i18n import t
from tui.app.screens.plugin_screen import open_from_widget, pick_text
from tui.lang.documents.common import parse_duration
from tui.lang.expr import beijing_now
from tui.runtime.runtime import Runtime
from widgets_render.resolve import resolve
from widgets_render.safe_text import clean
from widgets_render.textual_render import WidgetFrame, plain
from widgets_render.viewmodel import ErrorCard, Resolved


@dataclass(frozen=True)
class Slot:
    """One widget on the dashboard."""

    plugin_id: str
    name: str
    spec: dict[str, Any]
    size: str | None = None
    """The size the student chose (None: the widget's default)."""

    @property
    def file(self) -> str:
        return f"{self.plugin_id}/widgets/{self.name}.json"

    @property
    def id(self) -> str:
        return f"{self.plugin_id}/{self.name}"

    @property
    def sizes(self) -> list[str]:
        declared = self.spec.get("sizes")
        return [s for s in declared if s in ("small", "medium", "large")] if isinstance(declared, list) else ["medium"]


def available(runtime: Runtime) -> list[Slot]:
    """Every widget of every installed plugin, plugins in id order (the default layout)."""
    out = []
    for pid, inst in sorted(runtime.registry.plugins.items()):
        for name, spec in inst.plugin.widgets.items():
            out.append(Slot(pid, name, spec))
    return out


def slots(runtime: Runtime) -> list[Slot]:
    """The widgets the student keeps on the dashboard, in their order and sizes."""
    every = {s.id: s for s in available(runtime)}
    placed = runtime.layout.placed(list(every))
    return [Slot(every[p.id].plugin_id, every[p.id].name, every[p.id].spec, p.size) for p in placed]


#: From this width the grid has two columns. Two medium widgets want ~124 cells; the grid shrinks them a little
#: rather than leave a 100–123 column terminal with one very wide column.
TWO_COLUMNS = 100
#: Below this width every widget renders small (genui.md §2.7).
SMALL_ONLY = 60


#: genui §2.6: a first load that has not answered by then becomes the LOAD_TIMEOUT error card.
LOAD_TIMEOUT_S = 15.0
#: genui §2.6: ticks are at least this far apart.
TICK_FLOOR_S = 30.0


def tick_seconds(spec: dict[str, Any]) -> float | None:
    """The widget's `refresh.every` in seconds, clamped to the floor; None when it does not tick."""
    refresh = spec.get("refresh")
    every = refresh.get("every") if isinstance(refresh, dict) else None
    if every is None:
        return None
    try:
        return max(TICK_FLOOR_S, parse_duration(every) / 1000)
    except ValueError:
        return None


def ago(ms: int, locale: str) -> str:
    """A compact age for the stale mark: '12 分钟前' / '12 min ago'."""
    minutes = ms // 60_000
    if minutes < 1:
        return "刚刚" if locale != "en" else "just now"
    if minutes < 60:
        return f"{minutes} 分钟前" if locale != "en" else f"{minutes} min ago"
    hours = minutes // 60
    if hours < 24:
        return f"{hours} 小时前" if locale != "en" else f"{hours} h ago"
    return f"{hours // 24} 天前" if locale != "en" else f"{hours // 24} d ago"


class Dashboard(VerticalScroll):
    """首页: a grid of widget frames; each fills itself from its data source in a worker.

    On a focused widget: `[` / `]` move it, `s` changes its size, `x` removes it; `a` adds a removed one back.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "move(-1)", "前移 Earlier"),
        Binding("right_square_bracket", "move(1)", "后移 Later"),
        Binding("s", "resize", "大小 Size"),
        Binding("x", "remove", "移除 Remove"),
        Binding("a", "add", "添加 Add"),
    ]

    DEFAULT_CSS = """
    Dashboard > Grid { grid-size: 2; grid-gutter: 0 1; height: auto; }
    Dashboard .loading { border: round $primary 30%; height: 5; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, runtime: Runtime, locale: str = "zh", now: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.runtime = runtime
        self.locale = locale
        self.now = now
        self.slots = slots(runtime)
        self.tiny = False
        self.ticks = 0
        self.load_timeout = LOAD_TIMEOUT_S
        self.focus_after: str | None = None
        """Ticks that re-evaluated a widget (for tests and the status line)."""
        """The terminal is narrower than SMALL_ONLY columns: widgets render at their small size."""

    def compose(self) -> ComposeResult:
        with Grid(id="widgets"):
            for i, slot in enumerate(self.slots):
                yield Static(
                    plain(f"{slot.plugin_id} · {t('loading', self.locale)}"), id=f"slot-{i}", classes="loading"
                )

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
        Nothing happens while the dashboard is hidden (another tab or a screen on top)."""
        if self.screen.is_current and self.region.area > 0:
            self.ticks += 1
            self.fill(index, slot, False)

    def on_resize(self, event: events.Resize) -> None:
        """Two columns when two medium widgets fit, else one; under 60 columns every widget is small (§2.7)."""
        grid = self.query_one("#widgets", Grid)
        grid.styles.grid_size_columns = 2 if event.size.width >= TWO_COLUMNS else 1
        tiny = event.size.width < SMALL_ONLY
        if tiny != self.tiny:
            self.tiny = tiny
            self.refresh_all()

    def refresh_all(self, force: bool = False) -> None:
        """Fill (or refill) every slot."""
        for i, slot in enumerate(self.slots):
            self.fill(i, slot, force)

    @work(group="dashboard", exit_on_error=False)
    async def fill(self, index: int, slot: Slot, force: bool) -> None:
        resolved, stale = await self.resolve_slot(slot, force)
        tap = slot.spec.get("tap") if isinstance(slot.spec.get("tap"), dict) else None
        frame = WidgetFrame(resolved, slot.file, stale=stale, tap=tap, id=f"slot-{index}")
        grid = self.query_one("#widgets", Grid)
        # Not `query_one`: its cache (1,024 entries) would keep every frame this replaces alive, and a
        # countdown widget replaces its frame on every tick.
        await grid.get_child_by_id(f"slot-{index}").remove()
        children = list(grid.children)
        before = next((c for c in children if c.id and c.id.startswith("slot-") and int(c.id[5:]) > index), None)
        await grid.mount(frame, before=before)
        if self.focus_after == slot.id:
            self.focus_after = None
            frame.focus()  # the widget the student just moved or resized keeps the focus

    def focused_slot(self) -> Slot | None:
        focused = self.app.focused
        if isinstance(focused, WidgetFrame) and focused.id and focused.id.startswith("slot-"):
            return self.slots[int(focused.id[5:])]
        return None

    async def relayout(self, keep_focus: str | None) -> None:
        """Rebuild from the stored layout; data comes back from the cache, so this is quick."""
        self.slots = slots(self.runtime)
        self.focus_after = keep_focus
        await self.recompose()
        self.refresh_all()

    async def action_move(self, step: int) -> None:
        slot = self.focused_slot()
        if slot is not None:
            self.runtime.layout.move([s.id for s in available(self.runtime)], slot.id, step)
            await self.relayout(slot.id)

    async def action_resize(self) -> None:
        slot = self.focused_slot()
        if slot is None or len(slot.sizes) < 2:
            return
        current = slot.size if slot.size in slot.sizes else slot.spec.get("defaultSize") or slot.sizes[0]
        following = (
            slot.sizes[(slot.sizes.index(current) + 1) % len(slot.sizes)] if current in slot.sizes else slot.sizes[0]
        )
        self.runtime.layout.resize([s.id for s in available(self.runtime)], slot.id, following)
        self.notify(clean(f"{slot.id}: {following}"), timeout=2, markup=False)
        await self.relayout(slot.id)

    async def action_remove(self) -> None:
        slot = self.focused_slot()
        if slot is not None:
            self.runtime.layout.remove([s.id for s in available(self.runtime)], slot.id)
            await self.relayout(None)

    @work(group="dashboard-add", exit_on_error=False)
    async def action_add(self) -> None:
        ids = [s.id for s in available(self.runtime)]
        hidden = self.runtime.layout.hidden(ids)
        if not hidden:
            self.notify(t("nothing_to_add", self.locale), timeout=2)
            return
        chosen = await self.app.push_screen_wait(ChooseDialog(t("add_widget", self.locale), hidden))
        if chosen:
            self.runtime.layout.add(ids, chosen)
            await self.relayout(chosen)

    def on_widget_frame_tapped(self, event: WidgetFrame.Tapped) -> None:
        """Enter or a click on a widget opens its screen."""
        index = int(str(event.frame.id).removeprefix("slot-"))
        open_from_widget(event.frame, self.runtime, self.slots[index].plugin_id, self.locale, self.now)

    async def resolve_slot(self, slot: Slot, force: bool) -> tuple[Resolved, str | None]:
        """The resolved widget and, when its data is the last good value, how old that is (the ⟳ mark).
        Failures become error cards."""
        now = self.now or beijing_now()
        source = slot.spec.get("source") if isinstance(slot.spec.get("source"), str) else None
        meta: dict[str, Any] = {"stale": False, "loading": False, "error": None, "fetchedAt": now}
        data: Any = None
        mark: str | None = None
        if source is not None:
            name = pick_text(slot.spec.get("title"), self.locale) or slot.name
            read = self.runtime.sources.read(f"{slot.plugin_id}.{source}", force=force, now=self.now)
            try:
                value = await asyncio.wait_for(read, self.load_timeout)
            except TimeoutError:
                # genui §2.6: a first load never spins forever.
                message = t("load_timeout", self.locale).format(seconds=f"{self.load_timeout:g}")
                return Resolved(str(name), ErrorCard("LOAD_TIMEOUT", slot.file, "/source", message)), None
            except (KeyError, RuntimeError) as e:
                return Resolved(
                    str(name), ErrorCard("TOOL_ERROR", slot.file, "/source", f"{t('load_failed', self.locale)}: {e}")
                ), None
            data = value.value
            age_ms = max(0, int(time.time() * 1000) - value.fetched_ms)
            meta["ageMs"] = age_ms
            mark = ago(age_ms, self.locale) if value.stale else None
            meta.update(stale=value.stale, error=value.error or None)
        plugin = self.runtime.registry.plugins[slot.plugin_id].plugin
        default = slot.spec.get("defaultSize") or (slot.spec.get("sizes") or ["medium"])[0]
        size = "small" if self.tiny else slot.size if slot.size in slot.sizes else default
        locale = self.locale

        def evaluate() -> Resolved:
            evaluator = LangEvaluator(now, locale)
            names = widget_names(plugin, evaluator.run, data, meta)
            return resolve(slot.spec, slot.file, evaluator, names, str(size), locale)

        # Templates are plugin code: evaluated on a worker thread, so a slow one holds up no key and no other widget.
        return await offloaded(self.runtime.offload, evaluate), mark
