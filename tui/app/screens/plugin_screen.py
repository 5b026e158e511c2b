"""A plugin's `screens/<name>.json` as a page (genui.md §2.2, §2.5): its sources fetched, its local state kept,
its actions run as the `user` caller through the runtime's one gate.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Input, ListView, Static

from tui.app.dialogs.base import OnceScreen
from tui.app.dialogs.prompts import CodePrompt, ConfirmDialog
from tui.app.failures import act, explain, failed
from tui.app.genui_bridge import LangEvaluator, offloaded, widget_names
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.app.navigation import ScrollStop
from tui.app.watchers import forget_closed_watchers
from tui.app.widgets.footer import FittingFooter
from tui.app.widgets.header import SteadyHeader
from tui.app.words import refusals
from tui.lang.documents.tool import enum_keys
from tui.lang.expr import beijing_now
from tui.lang.steps.errors import ToolError
from tui.lang.steps.inputs import parse_text
from tui.runtime.datasources import SourceError
from tui.runtime.runtime import Runtime
from widgets_render.error_view import ErrorView
from widgets_render.failed_sources import without_failed
from widgets_render.form_values import FormValues, read_form
from widgets_render.resolve import display, pick, resolve
from widgets_render.safe_text import clean
from widgets_render.textual_render import GenButton, GenList, GenTable, WidgetFrame, build, plain
from widgets_render.viewmodel import ErrorCard

#: A `refresh` action runs at most once per this many seconds (genui.md §2.5).
REFRESH_FLOOR_S = 10.0


def pick_text(value: Any, locale: str) -> str:
    """An I18nString in the locale, as text (the renderer's rule: Chinese when English is missing)."""
    return display(pick(value, locale))


def evaluate_tree(value: Any, names: dict[str, Any], evaluator: LangEvaluator) -> Any:
    """Evaluate the templates inside a JSON value (action inputs, params, source args)."""
    if isinstance(value, str):
        return evaluator.template(value, names) if "${" in value else value
    if isinstance(value, dict):
        return {k: evaluate_tree(v, names, evaluator) for k, v in value.items()}
    if isinstance(value, list):
        return [evaluate_tree(v, names, evaluator) for v in value]
    return value


def with_tool_fields(node: Any, plugin: Any, plugin_id: str, locale: str = "zh", tool: str | None = None) -> Any:
    """A copy of the spec where each `fromTool: true` field takes its label, options, kind, bounds and
    requiredness from the input of the tool its form submits to (genui.md §2.4 `field`). Explicit props win."""
    if isinstance(node, list):
        return [with_tool_fields(n, plugin, plugin_id, locale, tool) for n in node]
    if not isinstance(node, dict):
        return node
    if node.get("type") == "form":
        submit = node.get("submit")
        target = submit.get("invoke") if isinstance(submit, dict) else None
        if isinstance(target, str) and target.startswith(f"{plugin_id}."):
            tool = target.removeprefix(f"{plugin_id}.")
    out = {k: with_tool_fields(v, plugin, plugin_id, locale, tool) for k, v in node.items()}
    if node.get("type") == "field" and node.get("fromTool") is True and tool in plugin.tools:
        field = plugin.tools[tool].definition.input.get(node.get("name"))
        if field is not None:
            derived: dict[str, Any] = {
                "label": plugin.manifest.field_title(tool, node["name"], field, locale),
                "required": not field.optional and field.default is None,
            }
            if field.default is not None:
                derived["default"] = field.default
            if field.enum:
                derived.update(input="select", options=list(field.enum))
                titles = plugin.manifest.option_titles(tool, node["name"], field, locale)
                # keyed as the renderer looks them up (str of the option), titled as the plugin keys them (String())
                keys = zip(field.enum, enum_keys(field.enum), strict=True)
                labels = {str(v): titles[k] for v, k in keys if k in titles}
                if labels:
                    derived["optionLabels"] = labels
            elif field.type in ("number", "integer"):
                derived["input"] = "number"
            elif field.type == "boolean":
                derived["input"] = "toggle"
            for key in ("min", "max", "pattern"):
                if getattr(field, key) is not None:
                    derived[key] = getattr(field, key)
            out = {**derived, **out}
    return out


class PluginScreen(LocalBindings, OnceScreen[None]):
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
        self.spec: Any = with_tool_fields(
            spec if spec is not None else plugin.screens.get(name), plugin, plugin_id, locale
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

    def evaluate(self, value: Any, names: dict[str, Any], evaluator: LangEvaluator) -> Any:
        return evaluate_tree(value, names, evaluator)

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
            await body.mount(ErrorView(card))
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

    def action_back(self) -> None:
        self.dismiss(None)

    def action_reload(self) -> None:
        """`r`: 重试 of the first error card (a failed action's runs it again), else fetch the sources again."""
        if not any(view.choose("retry") for view in self.query(ErrorView)):
            self.load(True)

    def action_error(self, action: str) -> None:
        """`l` / `d`: log in, or the detail, of the first error card that offers it."""
        for view in self.query(ErrorView):
            if view.choose(action):
                return

    @work(group="plugin-error", exit_on_error=False)
    async def on_error_view_chosen(self, event: ErrorView.Chosen) -> None:
        """登录, 重试 or 详情 on one of the screen's error cards: 重试 on a source's card fetches the sources again,
        on a failed action's card runs that action again (with the form as it is now)."""
        if event.card is self.failures.get("$action") and self.last_action is not None:
            await act(self.app, event.card, event.action, self.locale, self.run_again)
        else:
            await act(self.app, event.card, event.action, self.locale, lambda: self.load(True))

    def run_again(self) -> None:
        """重试 on a failed action's card: a form's submit is pressed again (its fields read and checked as they
        are now), any other action runs again as it ran."""
        if self.last_action is None:
            return
        action, extra, bind = self.last_action
        again = [b for b in self.query(GenButton) if bind is not None and b.gen_form == bind]
        if again:
            again[0].press()
        else:
            self.perform(action, extra)

    @on(GenButton.Pressed)
    def pressed(self, event: GenButton.Pressed) -> None:
        button = event.button
        if not isinstance(button, GenButton) or button.gen_action is None or self.pending:
            return
        event.stop()
        if button.gen_form is not None and button.parent is not None:
            form = read_form(button.parent)
            if form.missing:  # genui.md §2.5: a required empty field blocks the submit (an empty code went through)
                self.invalid, self.error, self.to_invalid = form.missing, t("needs_input", self.locale), True
                self.run_worker(self.show_body(), group="plugin-screen-body", exit_on_error=False)
                return
            self.collect(button.gen_form, form)
        self.perform(button.gen_action, {}, button.gen_form)

    @on(Input.Submitted, ".gen-input")
    def field_submitted(self, event: Input.Submitted) -> None:
        """Enter in a form's text field submits the form, as its button would."""
        event.stop()
        form = next((a for a in event.input.ancestors if a.has_class("gen-form")), None)
        if form is not None:
            for button in form.query(GenButton):
                if button.gen_form is not None:
                    button.press()
                    return

    @on(DataTable.RowSelected)
    def row_chosen(self, event: DataTable.RowSelected) -> None:
        table = event.data_table
        if isinstance(table, GenTable) and table.gen_action is not None:
            index = int(str(event.row_key.value))
            self.perform(table.gen_action, {"item": table.gen_items[index], "index": float(index)})

    @on(ListView.Selected)
    def item_chosen(self, event: ListView.Selected) -> None:
        listed = event.list_view
        if isinstance(listed, GenList) and event.index is not None and 0 <= event.index < len(listed.gen_items):
            item = listed.gen_items[event.index]
            names = {"item": item, "index": float(event.index)}
            if listed.gen_alias:
                names[listed.gen_alias] = item
            self.perform(listed.gen_action, names)

    def collect(self, bind: str, form: FormValues) -> None:
        """Copy a form's values into `state.<bind>`; an empty field is dropped, so tool defaults apply."""
        values: dict[str, Any] = dict((self.state or {}).get(bind) or {})
        for name in form.empty:
            values.pop(name, None)
        values.update(form.given)
        self.state = {**(self.state or {}), bind: values}

    @work(group="plugin-action", exit_on_error=False)
    async def perform(self, action: dict[str, Any], extra: dict[str, Any], form: str | None = None) -> None:
        """Run one genui action (open, invoke, refresh, set, ask, openUrl) with `item` bound when a row chose it
        (`form`: the bind of the form whose submit it is)."""
        evaluator = LangEvaluator(self.now, self.locale)
        names = self.names(evaluator, **extra)
        if "invoke" in action:
            self.last_action = (action, extra, form)  # what 重试 on its error card runs again
        try:
            if "open" in action:
                await self.open_screen(action, names, evaluator)
            elif "invoke" in action:
                await self.invoke_tool(action, names, evaluator)
            elif "refresh" in action:
                if time.monotonic() - self.last_refresh >= REFRESH_FLOOR_S:
                    self.last_refresh = time.monotonic()
                    self.triggered.update(self.sources)
                    self.load(True)
            elif "set" in action:
                self.assign(str(action["set"]), self.evaluate(action.get("value"), names, evaluator))
                await self.show_body()
            elif "ask" in action:
                prompt = clean(str(self.evaluate(pick_text(action["ask"], self.locale), names, evaluator)))
                ask = getattr(self.app, "ask_assistant", None)
                if callable(ask):
                    ask(prompt)
                else:
                    self.notify(prompt, markup=False)
            elif "openUrl" in action:
                url = clean(str(self.evaluate(action["openUrl"], names, evaluator)))
                self.notify(
                    clean(url if url.startswith("https://") else f"{t('bad_url', self.locale)}: {url}"), markup=False
                )
        except Exception as e:  # a broken action shows inline, it never ends the app
            card = failed("ACTION_ERROR", self.file, "", clean(str(e))[:500], "plugin", None, self.locale)
            self.failures["$action"] = card
            self.error = card.summary
            await self.show_body()

    async def open_screen(self, action: dict[str, Any], names: dict[str, Any], evaluator: LangEvaluator) -> None:
        target = str(action["open"])
        name = target.removeprefix("screen:")
        if name not in self.plugin.screens:
            raise LookupError(f"{self.plugin_id} has no screen {name!r}")
        params = self.evaluate(action.get("params") or {}, names, evaluator)
        self.app.push_screen(PluginScreen(self.runtime, self.plugin_id, name, params, self.locale, self.fixed_now))

    async def invoke_tool(self, action: dict[str, Any], names: dict[str, Any], evaluator: LangEvaluator) -> None:
        target = action["invoke"]
        if not isinstance(target, str) or not target.startswith(f"{self.plugin_id}."):
            raise PermissionError(f"a screen may only invoke its own plugin's tools, not {target!r}")
        if "confirm" in action:
            question = clean(str(self.evaluate(pick_text(action["confirm"], self.locale), names, evaluator)))
            if not await self.app.push_screen_wait(ConfirmDialog(question, self.locale)):
                return
        payload = self.evaluate(action.get("input") or {}, names, evaluator)
        self.pending, self.error, self.invalid = True, None, set()
        self.failures.pop("$action", None)
        await self.show_body()
        try:
            result = await self.call_tool(target, payload)
        finally:
            self.pending = False
        if result is not None:
            await self.after(action.get("then"), result, names, evaluator)
        await self.show_body()

    def typed(self, target: str, payload: Any) -> tuple[Any, dict[str, tuple[int, int]]]:
        """A form's text as its tool's fields take it: a list one item per line or comma (or as JSON), an object
        as JSON (`parse_text`); and the fields whose JSON does not parse, with where (line, column). A text field
        can only hold text; sent as it was, a list was refused as not being one."""
        tool = self.plugin.tools.get(target.removeprefix(f"{self.plugin_id}."))
        if tool is None or not isinstance(payload, dict):
            return payload, {}
        fields = tool.definition.input
        out, bad = dict(payload), {}
        for name, value in payload.items():
            field = fields.get(name)
            if field is not None and field.type in ("array", "object") and isinstance(value, str):
                try:
                    out[name] = parse_text(field, value)
                except ToolError:
                    bad[name] = _json_place(value)
        return out, bad

    async def call_tool(self, target: str, payload: Any) -> Any:
        """Call through the gate as the user; status results are handled here (genui.md §2.5)."""
        payload, bad = self.typed(target, payload)
        if bad:  # JSON that does not parse: marked and said at its field, as any refused input
            info = self.runtime.registry.find(target)
            labels = info.labels if info is not None else {}
            self.invalid, self.to_invalid = set(bad), True
            self.error = "；".join(
                t("input_not_json", self.locale).format(field=labels.get(name, name), line=line, column=column)
                for name, (line, column) in bad.items()
            )
            return None
        while True:
            outcome = await self.runtime.gate.call(target, payload, actor="user", now=self.fixed_now)
            if outcome.status != "ok":
                card = failed("TOOL_ERROR", self.file, target, outcome.message, outcome.cause, outcome.service,
                              self.locale, outcome.summary)  # fmt: skip
                self.failures["$action"] = card
                self.error = card.summary
                if outcome.cause == "input" and outcome.fields:
                    self.invalid = set(outcome.fields)  # the fields that are wrong are marked, as empty required ones
                    self.to_invalid = True
                    said = refusals(self.runtime.registry.find(target), outcome.fields, self.locale)
                    card.summary = said or card.summary  # each with its rule: "节次要填1 到 12 之间的整数"
                    self.error = card.summary
                return None
            result = outcome.result
            status = result.get("status") if isinstance(result, dict) else None
            if status == "verification_required" and isinstance(payload, dict):
                code = await self.app.push_screen_wait(CodePrompt(clean(str(result.get("message", ""))), self.locale))
                if not code:
                    self.error = t("cancelled", self.locale)
                    return None
                payload = {**payload, "code": code}
                continue
            if status == "needs_input":
                fields = result.get("fields") if isinstance(result.get("fields"), list) else []
                self.invalid, self.to_invalid = {str(f) for f in fields}, True
                self.error = clean(str(result.get("message") or t("needs_input", self.locale)))
                return None
            self.ran_tool = True
            self.last_ok = outcome
            return result

    async def after(self, then: Any, result: Any, names: dict[str, Any], evaluator: LangEvaluator) -> None:
        if isinstance(then, dict) and isinstance(then.get("set"), str):
            self.assign(then["set"], result)
        elif isinstance(then, dict) and "open" in then:
            await self.open_screen(then, names, evaluator)
        elif then == "toast":  # the tool's own sentence when it gives one ("验证码已发送"), else "done"
            said = result.get("message") if isinstance(result, dict) else None
            shown = clean(said)[:200] if isinstance(said, str) and said.strip() else t("done", self.locale)
            self.notify(shown, timeout=3, markup=False)
        elif then == "refresh":
            self.load(True)
        elif then == "close":
            self.dismiss(None)

    def assign(self, path: str, value: Any) -> None:
        """Set `state.a.b` (or `a.b`) to the value, creating objects on the way."""
        keys = [k for k in path.removeprefix("state.").split(".") if k]
        if not keys:
            return
        state = dict(self.state or {})
        node = state
        for key in keys[:-1]:
            child = node.get(key)
            node[key] = dict(child) if isinstance(child, dict) else {}
            node = node[key]
        node[keys[-1]] = value
        self.state = state


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


__all__ = ["PluginScreen", "evaluate_tree", "open_from_widget", "pick_text"]


def _json_place(text: str) -> tuple[int, int]:
    """Where JSON text stops parsing (line, column), for a sentence in the app's language (json's own is
    English)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return e.lineno, e.colno
    return 1, 1


def _focusables(body: Widget) -> list[Widget]:
    """The widgets in `body` that can take the focus, in document order."""
    return [w for w in body.query("*") if w.focusable]


def _focus_name(widget: Widget) -> str:
    """What identifies a widget across rebuilds of a screen's body: its field name, id, or type and label."""
    label = getattr(widget, "label", "")
    return widget.name or widget.id or f"{type(widget).__name__}:{label}"
