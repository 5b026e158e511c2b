"""Run any plugin tool by hand: a form generated from its input fields, the result below it."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.widgets import Button, Static

from tui.app.i18n import t
from tui.app.screens.plugin_screen import PluginScreen
from tui.app.screens.screen_spec import field_props
from tui.app.widgets.result_view import fitting_width, result_view
from tui.lang.documents.tool import InputField
from tui.runtime.registry import ToolInfo
from tui.runtime.runtime import Runtime
from widgets_render.safe_text import clean


def field_hint(field: InputField, locale: str) -> str:
    """The hint inside a field's empty box, in the app's words: its bounds, how a list or an object is typed, and
    whether it must be filled or may stay empty. Not the
    field's `description`: that is for the model and "never shown to the user" (seed 003) — it was, and the
    Chinese form showed English sentences written for the model."""
    parts: list[str] = []
    low, high = _number(field.min), _number(field.max)
    if field.enum:
        pass  # a select: its options say it all
    elif field.type in ("number", "integer"):
        if low is not None or high is not None:
            key = "field_between" if None not in (low, high) else "field_at_least" if high is None else "field_at_most"
            parts.append(t(key, locale).format(min=low, max=high))
    elif field.type == "string" and high is not None:
        key = "field_chars_between" if low is not None else "field_chars_at_most"
        parts.append(t(key, locale).format(min=low, max=high))
    elif field.type == "array":
        parts.append(t("field_list_hint", locale))  # the box is one line: a list is typed comma by comma
    elif field.type == "object":
        parts.append(t("field_json_hint", locale))
    if field.optional and field.default is None:
        parts.append(t("field_optional", locale))
    elif field.default is None and field.type != "boolean":
        parts.append(t("field_required", locale))  # the form refuses to run while it is empty
    return ("，" if locale == "zh" else ", ").join(parts)


def acts_now(effect: str, locale: str) -> str:
    """The line over the form of a tool that changes something: it runs at once, the press is the consent."""
    return t("form_acts_now", locale).format(effect=t(f"acts_{effect}", locale))


def _number(value: float | None) -> int | float | None:
    """A bound as a person writes it: 1, not 1.0."""
    return int(value) if value is not None and value == int(value) else value


def _field(name: str, field: InputField, locale: str, tool: ToolInfo | None = None) -> dict[str, Any]:
    """One input field of the form, labelled from the tool's input (`with_tool_fields`: its title, else its name),
    its bounds and whether it may stay empty as the hint inside the empty box. A remote tool's fields come from
    its server's schema (`remote_fields`), so their props are written out here rather than looked up."""
    spec: dict[str, Any] = {"type": "field", "name": name, "fromTool": True}
    if tool is not None and tool.remote is not None:
        spec = {"type": "field", "name": name, **field_props(field, tool.labels.get(name, name))}
    hint = field_hint(field, locale)
    if hint:
        spec["placeholder"] = hint
    return spec


def submit_action(tool: ToolInfo) -> dict[str, Any]:
    """What 运行 does: run the tool with the form's values, the result into `state.result`."""
    return {"invoke": tool.id, "input": "${state.form}", "then": {"set": "result"}}


def tool_form_spec(tool: ToolInfo, fields: dict[str, InputField], locale: str) -> dict[str, Any]:
    """The genui screen spec of a tool's form: one `fromTool` field per input field (name → its declaration),
    submit runs the tool. A failure shows as the screen's error card (its sentence, 登录 or 详情), above the form."""
    return {
        "spec": 1,
        "kind": "screen",
        "title": tool.title,
        "state": {"form": {}, "result": None},
        "body": {
            "type": "column",
            "children": [
                # The summary is the line for people; the description is for the model only and "never shown to
                # the user" (seed 003), so a tool without a summary shows none.
                *([{"type": "text", "text": tool.summary, "tone": "muted", "wrap": True}] if tool.summary else []),
                # A student's own press never asks (seed 000: "用户的调用从不询问"), so a tool that changes
                # something says so before it is pressed: 发送验证短信 "ran without asking" surprised a new student.
                *(
                    [{"type": "text", "text": acts_now(tool.effect, locale), "tone": "warn", "wrap": True}]
                    if tool.effect != "read"
                    else []
                ),
                {
                    "type": "form",
                    "bind": "form",
                    "submitLabel": t("run", locale),
                    "submit": submit_action(tool),
                    "fields": [_field(name, field, locale, tool) for name, field in fields.items()],
                },
                {"type": "text", "tone": "muted", "when": "${state.pending}", "text": t("running", locale)},
            ],
        },
    }


class ToolFormScreen(PluginScreen):
    """One tool's form; below it the last result."""

    def __init__(
        self,
        runtime: Runtime,
        tool: ToolInfo,
        locale: str = "zh",
        now: str | None = None,
        given: dict[str, Any] | None = None,
        run: bool = False,
    ) -> None:
        """`given` fills the form (a widget's data-source arguments); with `run` the tool runs as the form opens."""
        plugin = runtime.registry.plugins[tool.plugin_id].plugin
        # a remote tool's fields come from its server's input schema (the registry made them)
        fields = dict(tool.input) if tool.remote is not None else dict(plugin.tools[tool.name].definition.input)
        spec = tool_form_spec(tool, fields, locale)
        super().__init__(runtime, tool.plugin_id, f"tool:{tool.name}", {}, locale, now, spec=spec)
        # set here, not as the spec's state templates: those are read by the first load, which a run at once
        # could overtake (it read an empty form)
        self.state = {"form": {k: v for k, v in (given or {}).items() if k in fields}, "result": None}
        self.tool = tool
        self.run_at_once = run
        self.shown_result: Any = None
        """The result last scrolled into sight (a rebuild of the same result leaves the scroll where it is)."""
        self.last_input: dict[str, Any] = {}
        """The input of the last successful run ("notify me when…" checks the same call)."""

    def on_mount(self) -> None:
        super().on_mount()
        if self.run_at_once:
            self.perform(submit_action(self.tool), {})

    async def call_tool(self, target: str, payload: Any) -> Any:
        result = await super().call_tool(target, payload)
        if result is not None and isinstance(payload, dict):
            self.last_input = {k: v for k, v in payload.items() if k not in ("code", "method")}
        return result

    async def build_body(self) -> None:
        await super().build_body()
        result = (self.state or {}).get("result")
        if result is None:
            return
        body = self.query_one("#screen-body")
        heading = Static(t("result", self.locale), markup=False, classes="tone-accent")
        await body.mount(heading)
        view = result_view(result, locale=self.locale, width=fitting_width(body), titles=self.tool.result_titles)
        await body.mount(view)
        ran = self.last_ok  # the result is not the whole answer, or not today's: said under it
        if ran is not None and ran.truncated:
            await body.mount(Static(t("result_truncated", self.locale), markup=False, classes="tone-warn"))
        if ran is not None and ran.stale:
            await body.mount(Static(t("result_stale", self.locale), markup=False, classes="tone-warn"))
        if result is not self.shown_result:  # a new result: bring it into sight (it appeared below the screen)
            self.shown_result = result
            self.call_after_refresh(heading.scroll_visible, top=True, animate=False)
        if self.tool.effect == "read" and not self.tool.user_only:  # checks run read tools only
            await body.mount(Button(t("notify_me_button", self.locale), id="notify-me"))

    @on(Button.Pressed, "#notify-me")
    def notify_me(self) -> None:
        from tui.app.dialogs.check import CheckDialog
        from tui.app.words import when_text

        def created(check: Any) -> None:
            if check is not None:
                at = when_text(check.next_ms, self.locale)
                self.app.notify(clean(t("check_created", self.locale).format(at=at)), markup=False)

        result = (self.state or {}).get("result")
        dialog = CheckDialog(self.runtime.store, self.tool, self.last_input, self.locale, result)
        self.app.push_screen(dialog, created)
