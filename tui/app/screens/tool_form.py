"""Run any plugin tool by hand: a form generated from its input fields, the result below it."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.widgets import Button, Static

from tui.app.i18n import t
from tui.app.screens.plugin_screen import PluginScreen
from tui.app.widgets.result_view import result_view
from tui.runtime.registry import ToolInfo
from tui.runtime.runtime import Runtime
from widgets_render.safe_text import clean


def _field(name: str, description: str | None) -> dict[str, Any]:
    """One input field of the form: named as the tool names it, its description (what the author wrote for the
    model: units, examples) as the hint inside the empty box, so the student knows what to type."""
    field: dict[str, Any] = {"type": "field", "name": name, "fromTool": True, "label": name}
    if description:
        field["placeholder"] = description if len(description) <= 80 else description[:79] + "…"
    return field


def tool_form_spec(tool: ToolInfo, fields: dict[str, str | None], locale: str) -> dict[str, Any]:
    """The genui screen spec of a tool's form: one `fromTool` field per input field (name → its description),
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
                {
                    "type": "form",
                    "bind": "form",
                    "submitLabel": t("run", locale),
                    "submit": {"invoke": tool.id, "input": "${state.form}", "then": {"set": "result"}},
                    "fields": [_field(name, described) for name, described in fields.items()],
                },
                {"type": "text", "tone": "muted", "when": "${state.pending}", "text": t("running", locale)},
            ],
        },
    }


class ToolFormScreen(PluginScreen):
    """One tool's form; below it the last result."""

    def __init__(self, runtime: Runtime, tool: ToolInfo, locale: str = "zh", now: str | None = None) -> None:
        plugin = runtime.registry.plugins[tool.plugin_id].plugin
        fields = {name: f.description for name, f in plugin.tools[tool.name].definition.input.items()}
        spec = tool_form_spec(tool, fields, locale)
        super().__init__(runtime, tool.plugin_id, f"tool:{tool.name}", {}, locale, now, spec=spec)
        self.tool = tool
        self.shown_result: Any = None
        """The result last scrolled into sight (a rebuild of the same result leaves the scroll where it is)."""
        self.last_input: dict[str, Any] = {}
        """The input of the last successful run ("notify me when…" checks the same call)."""

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
        await body.mount(result_view(result, locale=self.locale))
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
