"""A plugin's `screens/<name>.json` as a page (genui.md §2.2, §2.5): its sources fetched, its local state kept,
its actions run as the `user` caller through the runtime's one gate.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from tui.app.failures import explain, failed
from tui.app.genui_bridge import LangEvaluator, offloaded, widget_names
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.app.navigation import ScrollStop
from tui.app.screens.screen_actions import ScreenActions
from tui.app.screens.screen_spec import evaluate_tree, with_tool_fields, with_toolbar
from tui.app.watchers import forget_closed_watchers
from tui.app.widgets.footer import FittingFooter
from tui.app.widgets.header import SteadyHeader
from tui.lang.expr import beijing_now
from tui.runtime.datasources import SourceError
from tui.runtime.runtime import Runtime
from widgets_render.error_view import ErrorView
from widgets_render.failed_sources import without_failed
from widgets_render.resolve import resolve
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain
from widgets_render.textual_render import WidgetFrame, build
from widgets_render.viewmodel import ErrorCard


class PluginScreen(LocalBindings, ScreenActions):
    """One plugin screen. Escape goes back; `r` refetches its sources."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "key_back"),
        Binding("r", "reload", "refresh"),
        Binding("l", "error('login')", "login", show=False),
        Binding("d", "error('detail')", "detail", show=False),
    ]
    CSS_PATH = Path(__file__).with_name("plugin_screen.tcss")

    def __init__(
        self,
        runtime: Runtime,
        plugin_id: str,
        name: str,
        params: dict[str, Any] | None = None,
        locale: str = "zh",
        now: str | None = None,
        spec: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.runtime = runtime
        self.plugin_id = plugin_id
        self.screen_name = name
        self.locale = locale
        self.fixed_now = now
        self.file = f"{plugin_id}/screens/{name}.json"
        plugin = runtime.registry.plugins[plugin_id].plugin
        self.plugin = plugin
        self.spec: Any = with_toolbar(
            with_tool_fields(spec if spec is not None else plugin.screens.get(name), plugin, plugin_id, locale)
        )
        self.params = self._params(params or {})
        self.state: dict[str, Any] | None = None
        self.ran_tool = False
        """A tool of the plugin ran to a result on this screen (what the plugin's widgets show may have changed)."""
        self.on_closed: Callable[[PluginScreen], None] | None = None
        """Called once when the screen goes away, however it goes (Esc, a tab key, `close`)."""
        self.sources: dict[str, Any] = {}
        self.meta: dict[str, Any] = {}
        self.triggered: set[str] = set()
        """Sources with `auto: false` that a `refresh` has asked for."""
        self.pending = False
        self.error: str | None = None
        self.failures: dict[str, ErrorCard] = {}
        """What failed, shown above the body as error cards: each source by its alias, the last action as "$action"
        (its sentence is also `state.error`)."""
        self.invalid: set[str] = set()
        self.to_invalid = False
        """The next rebuild focuses the first marked field (a submit was refused: the focus stayed on 运行)."""
        self.last_refresh = 0.0
        self.last_ok: Any = None
        """The last successful call's outcome (whether it was stale or cut short at its page limit)."""
        self.last_action: tuple[dict[str, Any], dict[str, Any], str | None] | None = None
        """The last action that invoked a tool, the names it ran with and its form's bind: 重试 on its card."""
        self._body_lock = asyncio.Lock()

    def _params(self, given: dict[str, Any]) -> dict[str, Any]:
        declared = self.spec.get("params") if isinstance(self.spec, dict) else None
        out: dict[str, Any] = {}
        if isinstance(declared, dict):
            for key, field in declared.items():
                if isinstance(field, dict) and "default" in field:
                    out[key] = field["default"]
        out.update(given)
        return out

    def compose(self) -> ComposeResult:
        yield SteadyHeader(show_clock=False)
        with ScrollStop(id="screen-body"):
            yield Static(t("loading", self.locale), markup=False, classes="tone-muted")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.load(False)

    def on_unmount(self) -> None:
        # The Header watches the app's title: without this the app keeps every closed screen's widgets alive.
        forget_closed_watchers(self.app)
        closed, self.on_closed = self.on_closed, None
        if closed is not None:
            closed(self)

    # -- names and templates ------------------------------------------------------------------------------

    @property
    def now(self) -> str:
        return self.fixed_now or beijing_now()

    def names(self, evaluator: LangEvaluator, **extra: Any) -> dict[str, Any]:
        """What the screen's templates see (genui.md §2.3)."""
        state = {**(self.state or {}), "pending": self.pending, "error": self.error}
        primary = self.sources.get("$data")
        meta = {**self.meta.get("$data", {}), **{k: v for k, v in self.meta.items() if k != "$data"}}
        sources = {k: v for k, v in self.sources.items() if k != "$data"}
        return widget_names(
            self.plugin,
            evaluator.run,
            primary,
            meta,
            {"sources": sources, "params": self.params, "state": state, "locale": self.locale, **extra},
            self.runtime.plugin_settings.values(self.plugin_id, self.plugin.manifest),
        )

    def open_page(self, name: str, params: dict[str, Any]) -> None:
        self.app.push_screen(PluginScreen(self.runtime, self.plugin_id, name, params, self.locale, self.fixed_now))

    # -- loading ------------------------------------------------------------------------------------------

    @work(exclusive=True, group="plugin-screen", exit_on_error=False)
    async def load(self, force: bool) -> None:
        """Fetch the sources (named data sources through the cache, inline tools through the gate), then show."""
        if not isinstance(self.spec, dict):
            await self.show_body()
            return
        evaluator = LangEvaluator(self.now, self.locale)
        if self.state is None:
            raw_state = self.spec.get("state")
            try:
                value = self.evaluate(
                    raw_state if isinstance(raw_state, dict) else {}, self.names(evaluator), evaluator
                )
            except Exception as e:  # a bad state template must not take the screen down
                self.error = f"state: {e}"
                value = {}
            self.state = value if isinstance(value, dict) else {}
        wanted: dict[str, Any] = (
            dict(self.spec.get("sources") or {}) if isinstance(self.spec.get("sources"), dict) else {}
        )
        if isinstance(self.spec.get("source"), str):
            wanted["$data"] = {"source": self.spec["source"]}
        for alias, source in wanted.items():
            await self.fetch(alias, source, force, evaluator)
        await self.show_body()

    async def fetch(self, alias: str, source: Any, force: bool, evaluator: LangEvaluator) -> None:
        if not isinstance(source, dict):
            return
        if isinstance(source.get("source"), str):
            try:
                got = await self.runtime.sources.read(
                    f"{self.plugin_id}.{source['source']}", force=force, now=self.fixed_now
                )
            except SourceError as e:
                self.fail_source(alias, str(e), e.cause, e.service, e.summary)
                return
            except KeyError as e:  # the screen names a source its plugin does not have
                self.fail_source(alias, str(e), "plugin", None, "")
                return
            self.failures.pop(alias, None)
            self.sources[alias] = got.value
            self.meta[alias] = {"stale": got.stale, "error": got.error or None, "fetchedAt": self.now}
            return
        tool = source.get("tool")
        if not isinstance(tool, str):
            return
        if source.get("auto") is False and alias not in self.triggered:
            self.sources.setdefault(alias, None)
            return
        try:
            args = self.evaluate(source.get("args") or {}, self.names(evaluator), evaluator)
        except Exception as e:
            self.fail_source(alias, f"args: {e}", "plugin", None, "")
            return
        outcome = await self.runtime.gate.call(f"{self.plugin_id}.{tool}", args, actor="user", now=self.fixed_now)
        if outcome.status != "ok":
            self.fail_source(alias, outcome.message, outcome.cause or "internal", outcome.service, outcome.summary)
            return
        self.failures.pop(alias, None)
        self.sources[alias] = outcome.result
        self.meta[alias] = {"stale": outcome.stale, "error": None, "fetchedAt": self.now}

    def fail_source(self, alias: str, message: str, cause: str, service: str | None, words: str) -> None:
        """A source that could not be read: no data, its card above the body, its sentence as `meta.error`."""
        card = failed("TOOL_ERROR", self.file, f"/sources/{alias}", message, cause, service, self.locale, words)
        self.failures[alias] = card
        self.sources[alias], self.meta[alias] = None, {"error": card.summary, "stale": False}

    async def show_body(self) -> None:
        """Resolve the spec against the current sources and state, and mount it in place of the old body.

        One rebuild at a time: a rebuild waits on a thread (the templates) and on removing the old body, and two
        that overlapped (a tool's `pending` state, then its result) read the focus while the other had taken the
        body away, so where the focus ended up depended on the machine's load."""
        async with self._body_lock:
            await self.build_body()

    async def build_body(self) -> None:
        """One rebuild of the body (`show_body` runs these one at a time)."""
        evaluator = LangEvaluator(self.now, self.locale)
        names = self.names(evaluator)  # a snapshot of state and sources, taken here: workers change them
        # Templates are plugin code: evaluated in a thread, so a slow one never holds up the app's keys.
        spec, file, locale = self.spec, self.file, self.locale
        failed = [alias for alias in self.failures if alias != "$action"]
        if failed and isinstance(spec, dict):  # what shows a failed source is left out: its card says why
            spec = {**spec, "body": without_failed(spec.get("body"), failed)}
        resolved = await offloaded(self.runtime.offload, lambda: resolve(spec, file, evaluator, names, "large", locale))
        self.title = clean(resolved.title or self.screen_name)
        plugin_name = self.runtime.registry.plugin_name(self.plugin_id)
        # The header reads "title — plugin"; a screen named like its plugin shows the name once.
        self.sub_title = clean(plugin_name if plugin_name != self.title else "")
        body = self.query_one("#screen-body", VerticalScroll)
        was = self.focus_place(body)
        await body.remove_children()
        if isinstance(resolved.body, ErrorCard):
            await body.mount(ErrorView(explain(resolved.body, self.locale)))
            return
        shown = {card.summary: card for card in self.failures.values()}  # one card per sentence
        if self.error and "$action" not in self.failures:
            shown.setdefault(self.error, ErrorCard("", self.file, "", self.error, summary=self.error))
        for card in shown.values():
            await body.mount(ErrorView(card, focusable=True))
        try:
            await body.mount(build(resolved.body, screen=True))
        except Exception as e:  # the renderer's last guard: a screen never takes the app down
            await body.mount(Static(plain(f"⚠ {self.file} · INTERNAL: {type(e).__name__}: {e}"[:300]), markup=False))
        marked = [w for w in body.query(".gen-input") if w.name in self.invalid]
        for widget in marked:
            widget.add_class("-invalid")
        if marked and self.to_invalid:  # a refused submit: the focus goes to what has to be put right
            self.to_invalid = False
            self.set_focus(marked[0])
        else:
            self.refocus(body, was)

    def focus_place(self, body: Widget) -> tuple[str, int] | None:
        """Which widget of the body has the focus, as its name (a form field's, a button's label) and how many
        widgets of that name come before it: the body is rebuilt on each change, so the place is found again in
        the new body by name, not by its position in the focus chain (a result table above shifts that)."""
        focused = self.focused
        if focused is None or body not in focused.ancestors:
            return None
        same = [w for w in _focusables(body) if _focus_name(w) == _focus_name(focused)]
        return (_focus_name(focused), same.index(focused)) if focused in same else None

    def refocus(self, body: Widget, place: tuple[str, int] | None) -> None:
        """The focus back on the same widget of the rebuilt body; on a first show (or when it has gone), the
        first form field, else the first thing that takes the focus, so the student can type or press Enter.

        The widgets just mounted are not laid out yet (not all of them in Textual's focus chain), so they are
        read from the body itself, in their order."""
        candidates = _focusables(body)
        if not candidates:
            return
        if place is not None:
            same = [w for w in candidates if _focus_name(w) == place[0]]
            if same:
                self.set_focus(same[min(place[1], len(same) - 1)], scroll_visible=False)
                return
        if self.focused is None or body not in self.focused.ancestors:
            fields = [w for w in candidates if w.has_class("gen-input")]
            self.set_focus((fields or candidates)[0], scroll_visible=False)

    # -- actions ------------------------------------------------------------------------------------------


def open_from_widget(
    frame: WidgetFrame,
    runtime: Runtime,
    plugin_id: str,
    locale: str,
    now: str | None,
    on_closed: Callable[[PluginScreen], None] | None = None,
) -> None:
    """Run a widget's `tap` (genui.md §2.2): open one of its plugin's screens with literal or template params;
    `on_closed` is told when the screen goes away."""
    tap = frame.tap or {}
    target = tap.get("open")
    plugin = runtime.registry.plugins[plugin_id].plugin
    name = str(target).removeprefix("screen:") if isinstance(target, str) else ""
    if name not in plugin.screens:
        frame.notify(clean(f"{plugin_id}: {t('no_screen', locale)} {name}"), severity="warning", markup=False)
        return
    evaluator = LangEvaluator(now or beijing_now(), locale)
    settings = runtime.plugin_settings.values(plugin_id, plugin.manifest)
    names = widget_names(plugin, evaluator.run, None, {}, settings=settings)
    raw = tap.get("params")
    try:
        params = evaluate_tree(raw, names, evaluator) if isinstance(raw, dict) else {}
    except Exception:  # a bad params template opens the screen with its defaults
        params = {}
    screen = PluginScreen(runtime, plugin_id, name, params, locale, now)
    screen.on_closed = on_closed
    frame.app.push_screen(screen)


__all__ = ["PluginScreen", "open_from_widget"]


def _focusables(body: Widget) -> list[Widget]:
    """The widgets in `body` that can take the focus, in document order."""
    return [w for w in body.query("*") if w.focusable]


def _focus_name(widget: Widget) -> str:
    """What identifies a widget across rebuilds of a screen's body: its field name, id, or type and label."""
    label = getattr(widget, "label", "")
    return widget.name or widget.id or f"{type(widget).__name__}:{label}"
