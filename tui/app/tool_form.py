"""Run any plugin tool by hand: a form generated from its input fields, the result as a table or a JSON tree.

The form is an ordinary genui screen built in code (every field `fromTool`), so it shares the plugin screens'
validation, status-result handling (verification code, fields to fill) and `user` caller.
"""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual import on
from textual.widgets import Button, DataTable, Pretty, Static

from tui.app.i18n import t
from tui.app.plugin_screen import PluginScreen
from tui.runtime.registry import ToolInfo
from tui.runtime.runtime import Runtime
from widgets_render.safe_text import clean
from widgets_render.textual_render import literal

#: Rows shown when a result is a list of objects; the rest is counted, not dropped silently.
RESULT_ROWS = 200


def tool_form_spec(tool: ToolInfo, fields: list[str], locale: str) -> dict[str, Any]:
    """The genui screen spec of a tool's form: one `fromTool` field per input field, submit runs the tool."""
    return {
        "spec": 1,
        "kind": "screen",
        "title": tool.title,
        "state": {"form": {}, "result": None},
        "body": {
            "type": "column",
            "children": [
                {"type": "text", "text": tool.summary or tool.description, "tone": "muted", "wrap": True},
                {
                    "type": "form",
                    "bind": "form",
                    "submitLabel": t("run", locale),
                    "submit": {"invoke": tool.id, "input": "${state.form}", "then": {"set": "result"}},
                    "fields": [{"type": "field", "name": name, "fromTool": True, "label": name} for name in fields],
                },
                {"type": "notice", "tone": "bad", "when": "${state.error != null}", "text": "${state.error}"},
                {"type": "text", "tone": "muted", "when": "${state.pending}", "text": t("running", locale)},
            ],
        },
    }


class ToolFormScreen(PluginScreen):
    """One tool's form; below it the last result."""

    def __init__(self, runtime: Runtime, tool: ToolInfo, locale: str = "zh", now: str | None = None) -> None:
        plugin = runtime.registry.plugins[tool.plugin_id].plugin
        fields = list(plugin.tools[tool.name].definition.input)
        spec = tool_form_spec(tool, fields, locale)
        super().__init__(runtime, tool.plugin_id, f"tool:{tool.name}", {}, locale, now, spec=spec)
        self.tool = tool
        self.last_input: dict[str, Any] = {}
        """The input of the last successful run ("notify me when…" checks the same call)."""

    async def call_tool(self, target: str, payload: Any) -> Any:
        result = await super().call_tool(target, payload)
        if result is not None and isinstance(payload, dict):
            self.last_input = {k: v for k, v in payload.items() if k not in ("code", "method")}
        return result

    async def show_body(self) -> None:
        await super().show_body()
        result = (self.state or {}).get("result")
        if result is None:
            return
        body = self.query_one("#screen-body")
        await body.mount(Static(t("result", self.locale), markup=False, classes="tone-accent"))
        await body.mount(result_view(result))
        if self.tool.effect == "read" and not self.tool.user_only:  # checks run read tools only
            await body.mount(Button(t("notify_me_button", self.locale), id="notify-me"))

    @on(Button.Pressed, "#notify-me")
    def notify_me(self) -> None:
        from tui.app.checks_ui import CheckDialog
        from tui.runtime.scheduler.timing import beijing

        def created(check: Any) -> None:
            if check is not None:
                self.app.notify(clean(t("check_created", self.locale).format(at=beijing(check.next_ms))), markup=False)

        self.app.push_screen(CheckDialog(self.runtime.store, self.tool, self.last_input, self.locale), created)


def result_view(result: Any, widget_id: str = "result") -> DataTable[Text] | Pretty:
    """A list of flat objects as a table (one column per key); anything else as a JSON tree."""
    rows = result.get("items") if isinstance(result, dict) and isinstance(result.get("items"), list) else result
    if isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows):
        keys: list[str] = []
        for row in rows[:RESULT_ROWS]:
            keys.extend(k for k in row if k not in keys)
        table: DataTable[Text] = DataTable(zebra_stripes=True, classes="gen-table", id=widget_id)
        table.add_columns(*map(literal, keys))
        for row in rows[:RESULT_ROWS]:
            table.add_row(*[literal(_cell(row.get(k))) for k in keys])
        if len(rows) > RESULT_ROWS:
            table.add_row(literal(f"+{len(rows) - RESULT_ROWS}"), *[literal("")] * (len(keys) - 1))
        return table
    return Pretty(result, id=widget_id)


def _cell(value: Any) -> str:
    """One table cell's text: text as is, anything structured as compact JSON (shown through `literal()`)."""
    text = value if isinstance(value, str) else "" if value is None else json.dumps(value, ensure_ascii=False)
    return text[:200]
