"""What a plugin screen's actions do (genui.md §2.5): open a screen, invoke one of the plugin's tools as the
`user` through the runtime's one gate (a form's text typed as the tool's fields, `verification_required` and
`needs_input` handled in the page), refresh, set state, ask the assistant, open a link; and the error cards'
登录 / 重试 / 详情. `PluginScreen` (plugin_screen.py) is the page these act on.
"""

from __future__ import annotations

import json
import time
from typing import Any

from textual import on, work
from textual.widgets import DataTable, Input, ListView

from tui.app.dialogs.base import OnceScreen
from tui.app.dialogs.prompts import CodePrompt, ConfirmDialog
from tui.app.failures import act, failed
from tui.app.genui_bridge import LangEvaluator
from tui.app.i18n import t
from tui.app.screens.screen_spec import evaluate_tree, pick_text
from tui.app.words import refusals
from tui.lang.steps.errors import ToolError
from tui.lang.steps.inputs import parse_text
from tui.runtime.runtime import Runtime
from widgets_render.error_view import ErrorView
from widgets_render.form_values import FormValues, read_form
from widgets_render.safe_text import clean
from widgets_render.textual_render import GenButton, GenList, GenTable
from widgets_render.viewmodel import ErrorCard

#: A `refresh` action runs at most once per this many seconds (genui.md §2.5).
REFRESH_FLOOR_S = 10.0


class ScreenActions(OnceScreen[None]):
    """The actions of a plugin screen; the page itself (sources, state, body) is `PluginScreen`'s."""

    runtime: Runtime
    plugin: Any
    plugin_id: str
    file: str
    locale: str
    fixed_now: str | None
    state: dict[str, Any] | None
    sources: dict[str, Any]
    triggered: set[str]
    pending: bool
    error: str | None
    failures: dict[str, ErrorCard]
    invalid: set[str]
    to_invalid: bool
    last_refresh: float
    last_ok: Any
    last_action: tuple[dict[str, Any], dict[str, Any], str | None] | None
    ran_tool: bool

    @property
    def now(self) -> str:
        raise NotImplementedError

    def names(self, evaluator: LangEvaluator, **extra: Any) -> dict[str, Any]:
        raise NotImplementedError

    def load(self, force: bool) -> Any:
        raise NotImplementedError

    async def show_body(self) -> None:
        raise NotImplementedError

    def open_page(self, name: str, params: dict[str, Any]) -> None:
        """Open another screen of the plugin on top of this one."""
        raise NotImplementedError

    def evaluate(self, value: Any, names: dict[str, Any], evaluator: LangEvaluator) -> Any:
        return evaluate_tree(value, names, evaluator)

    def action_back(self) -> None:
        self.dismiss(None)

    def cards(self) -> list[ErrorView]:
        """The page's error cards, the focused one first (its keys are its own), then in their order."""
        views = list(self.query(ErrorView))
        return sorted(views, key=lambda view: not view.has_focus)

    def action_reload(self) -> None:
        """`r`: 重试 of the focused (else the first) error card — a failed action's runs it again — else fetch the
        sources again."""
        if not any(view.choose("retry") for view in self.cards()):
            self.load(True)

    def action_error(self, action: str) -> None:
        """`l` / `d`: log in, or the detail, of the focused (else the first) error card that offers it."""
        for view in self.cards():
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
        self.perform(button.gen_action, {}, button.gen_form, button.gen_confirm)

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
    async def perform(
        self, action: dict[str, Any], extra: dict[str, Any], form: str | None = None, confirm: str | None = None
    ) -> None:
        """Run one genui action (open, invoke, refresh, set, ask, openUrl) with `item` bound when a row chose it
        (`form`: the bind of the form whose submit it is; `confirm`: the pressed button's question, asked first —
        in place of the action's own, so the student is asked once)."""
        if confirm is not None:
            if not await self.app.push_screen_wait(ConfirmDialog(clean(confirm), self.locale)):
                return
            action = {k: v for k, v in action.items() if k != "confirm"}
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
                await self.open_link(clean(str(self.evaluate(action["openUrl"], names, evaluator))))
        except Exception as e:  # a broken action shows inline, it never ends the app
            card = failed("ACTION_ERROR", self.file, "", clean(str(e))[:500], "plugin", None, self.locale)
            self.failures["$action"] = card
            self.error = card.summary
            await self.show_body()

    async def open_link(self, url: str) -> None:
        """`openUrl`: through the plugin's `browser.open` ability (genui.md), as its tools would open one — in the
        browser the app runs in when served, else the desktop's (`AppPerson.open_url` says the address too)."""
        if not url.startswith("https://"):
            self.notify(clean(f"{t('bad_url', self.locale)}: {url}"), markup=False)
            return
        if "browser" not in self.plugin.manifest.abilities:
            raise PermissionError(
                f"openUrl opens links with the browser ability, which {self.plugin_id} does not declare"
            )
        await self.runtime.abilities.call(self.plugin_id, "browser.open", {"url": url})

    async def open_screen(self, action: dict[str, Any], names: dict[str, Any], evaluator: LangEvaluator) -> None:
        target = str(action["open"])
        name = target.removeprefix("screen:")
        if name not in self.plugin.screens:
            raise LookupError(f"{self.plugin_id} has no screen {name!r}")
        params = self.evaluate(action.get("params") or {}, names, evaluator)
        self.open_page(name, params)

    async def invoke_tool(self, action: dict[str, Any], names: dict[str, Any], evaluator: LangEvaluator) -> None:
        target = action["invoke"]
        # its own tools: `<plugin>.<tool>`, or `mcp-<plugin>.<tool>` of its remote server (a remote tool's form)
        own = isinstance(target, str) and "." in target and self.runtime.registry.plugin_of(target) == self.plugin_id
        if not own:
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
        remote = self.runtime.registry.find(target) if target.startswith("mcp-") else None
        if (tool is None and remote is None) or not isinstance(payload, dict):
            return payload, {}
        fields = remote.input if remote is not None else tool.definition.input
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
                    card.summary = said or card.summary  # each with its rule: "节次要填 1 到 12 之间的整数"
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


def _json_place(text: str) -> tuple[int, int]:
    """Where JSON text stops parsing (line, column), for a sentence in the app's language (json's own is
    English)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return e.lineno, e.colno
    return 1, 1
