"""A plugin screen's spec before it is shown: its I18n texts picked, its templates evaluated, and its form fields
labelled from the tool they submit to (genui.md §2.4 `fromTool`)."""

from __future__ import annotations

from typing import Any

from tui.app.genui_bridge import LangEvaluator
from tui.lang.documents.tool import InputField, enum_keys
from widgets_render.resolve import display, pick


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
            label = plugin.manifest.field_title(tool, node["name"], field, locale)
            titles = plugin.manifest.option_titles(tool, node["name"], field, locale) if field.enum else {}
            derived = field_props(field, label, titles)
            out = {**derived, **out}
    return out


def with_toolbar(spec: Any) -> Any:
    """A screen's `toolbar` (genui.md: buttons for the header) as a row of buttons at the top of its body, where
    the student meets them first; the spec as it is without one."""
    if not isinstance(spec, dict) or not isinstance(spec.get("toolbar"), list) or not spec["toolbar"]:
        return spec
    bar = {"type": "row", "children": spec["toolbar"]}
    body = spec.get("body")
    return {**spec, "body": {"type": "column", "children": [bar] + ([body] if body is not None else [])}}


def field_props(field: InputField, label: str, titles: dict[str, str] | None = None) -> dict[str, Any]:
    """A form field's props from a tool's input field: its label, requiredness, default, kind (select, number,
    toggle), options with their titles (`titles`: keyed as the plugin keys them, `enum_keys`) and bounds."""
    derived: dict[str, Any] = {"label": label, "required": not field.optional and field.default is None}
    if field.default is not None:
        derived["default"] = field.default
    if field.enum:
        derived.update(input="select", options=list(field.enum))
        # keyed as the renderer looks them up (str of the option), titled as the plugin keys them (String())
        keys = zip(field.enum, enum_keys(field.enum), strict=True)
        labels = {str(v): (titles or {})[k] for v, k in keys if k in (titles or {})}
        if labels:
            derived["optionLabels"] = labels
    elif field.type in ("number", "integer"):
        derived["input"] = "number"
    elif field.type == "boolean":
        derived["input"] = "toggle"
    for key in ("min", "max", "pattern"):
        if getattr(field, key) is not None:
            derived[key] = getattr(field, key)
    return derived
