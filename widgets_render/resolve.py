"""resolve(spec, data, now, size, locale) → view model (genui.md §2.1 pipeline step 3). Pure and total:
whatever the spec or the data, it returns a `Resolved` whose body is a VNode tree or an ErrorCard.

Failures stay small: a prop that fails shows its fallback or "—" (with a warning), a failing `when` hides
its node, an unknown type shows its fallback or a "[不支持: …]" chip, and anything worse turns only this
widget into an error card.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from widgets_render.catalog import COMPONENTS
from widgets_render.evaluator import BudgetExceeded, Evaluator
from widgets_render.js_text import json_text, num_to_str
from widgets_render.safe_text import clean
from widgets_render.viewmodel import ErrorCard, Resolved, VNode

#: Items a list, table or bars shows at most, whatever `limit` says.
HARD_LIST_CAP = 200
DEFAULT_LIST_LIMIT = 50
#: Props evaluated once per item (with `item` bound), never at the node itself.
_PER_ITEM = {"bars": frozenset({"label", "value", "max", "display", "tone"}), "kv": frozenset({"key", "value"}),
             "list": frozenset({"key"})}  # fmt: skip
#: Props always shown as text.
_TEXT_PROPS = frozenset(
    {"text", "label", "unit", "subtitle", "title", "alt", "placeholder", "display", "prefix", "past"}
)
#: Props that hold structure, actions or names rather than text to resolve.
_STRUCTURAL = frozenset(
    {
        "type",
        "children",
        "item",
        "template",
        "columns",
        "fields",
        "tabs",
        "action",
        "tap",
        "submit",
        "itemAction",
        "rowAction",
        "id",
        "sizes",
        "grow",
        "when",
        "fallback",
        "as",
        "empty",
        "items",
        "rows",
        "pairs",
        "key",
        "bind",
        "name",
        "optionLabels",
        "options",
    }
)


def pick(v: Any, locale: str) -> Any:
    """An I18nString in the app's language; anything else unchanged. English falls back to Chinese only when it
    is missing: an empty English text is a deliberate translation, e.g. a unit English does not write."""
    if isinstance(v, dict) and "zh" in v and set(v) <= {"zh", "en"}:
        return v["en"] if locale == "en" and v.get("en") is not None else v["zh"]
    return v


def display(value: Any) -> str:
    """A resolved value as display text: null is '', numbers as JavaScript prints them, lists as JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return num_to_str(value) if math.isfinite(value) else "—"
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, list | dict):
        try:
            return clean(json_text(value, separators=(",", ":"))[:2000])
        except (TypeError, ValueError, RecursionError):
            return "—"
    return clean(str(value))


@dataclass
class _Ctx:
    evaluator: Evaluator
    size: str
    locale: str
    file: str
    warnings: list[str] = field(default_factory=list)

    def pick(self, v: Any) -> Any:
        return pick(v, self.locale)

    def value(self, v: Any, names: Mapping[str, Any], where: str) -> Any:
        """Resolve a prop: templates evaluated, i18n picked; raises only BudgetExceeded."""
        v = self.pick(v)
        if isinstance(v, str):
            if "${" not in v.replace("$${", ""):
                return v.replace("$${", "${")
            try:
                return self.evaluator.template(v, names)
            except BudgetExceeded:
                raise
            except Exception as e:
                self.warnings.append(f"{where}: {type(e).__name__}: {e}"[:300])
                raise _PropFailed from None
        return v

    def text(self, v: Any, names: Mapping[str, Any], where: str, fallback: Any = None) -> str:
        try:
            return display(self.value(v, names, where))
        except _PropFailed:
            return display(self.pick(fallback)) if isinstance(fallback, str | dict) else "—"

    def truthy(self, v: Any, names: Mapping[str, Any], where: str) -> bool:
        try:
            r = self.value(v, names, where)
        except _PropFailed:
            return False  # a failing when/emptyWhen counts as false (Adaptive Cards #3823)
        return bool(r) and r == r if not isinstance(r, list | dict) else True


class _PropFailed(Exception):
    pass


def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def _as_dict(v: Any) -> dict[Any, Any]:
    return v if isinstance(v, dict) else {}


def _number(v: Any, default: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        return default
    return int(v)


def _node(ctx: _Ctx, n: Any, names: dict[str, Any], path: str) -> VNode | None:
    if not isinstance(n, dict):
        return VNode("text", {"text": display(n) if isinstance(n, str) else "—"})
    sizes = n.get("sizes")
    if isinstance(sizes, list) and sizes and ctx.size not in sizes:
        return None
    if "when" in n and not ctx.truthy(n["when"], names, f"{path}/when"):
        return None
    kind = n.get("type")
    if kind not in COMPONENTS:
        fb = n.get("fallback")
        if isinstance(fb, dict) and fb.get("type") in COMPONENTS:
            return _node(ctx, fb, names, f"{path}/fallback")
        label = display(ctx.pick(fb)) if isinstance(fb, str | dict) else f"[不支持: {display(kind)}]"
        return VNode("text", {"text": label}, tone="muted")
    node = VNode(str(kind))
    per_item = _PER_ITEM.get(str(kind), frozenset())
    tone = n.get("tone") if "tone" not in per_item else None
    if tone is not None:
        try:
            t = ctx.value(tone, names, f"{path}/tone")
            node.tone = t if isinstance(t, str) else None
        except _PropFailed:
            node.tone = None
    node.grow = n.get("grow") if isinstance(n.get("grow"), int | float) else None
    for key, raw in n.items():
        if key in _STRUCTURAL or key == "tone" or key in per_item:
            continue
        try:
            resolved = ctx.value(raw, names, f"{path}/{key}")
        except _PropFailed:
            fb = n.get("fallback")
            node.props[key] = display(ctx.pick(fb)) if isinstance(fb, str | dict) else "—"
            node.warnings.append(key)
            continue
        node.props[key] = (
            display(resolved)
            if isinstance(resolved, str)
            or key in ("text", "label", "unit", "subtitle", "title", "alt", "placeholder", "display", "prefix", "past")
            else resolved
        )
    for action_key in ("action", "tap", "submit", "itemAction", "rowAction"):
        if isinstance(n.get(action_key), dict):
            node.props[action_key] = n[action_key]  # resolved when activated, with the item of that moment
    if "id" in n:
        node.props["id"] = n["id"]
    if isinstance(n.get("as"), str):
        node.props["as"] = n["as"]  # the loop's alias, bound again when an itemAction runs
    _children(ctx, n, node, names, path)
    return node


def _items(ctx: _Ctx, n: dict[str, Any], key: str, names: dict[str, Any], path: str) -> list[Any] | None:
    try:
        items = ctx.value(n.get(key), names, f"{path}/{key}")
    except _PropFailed:
        return None
    return items if isinstance(items, list) else None


def _window(ctx: _Ctx, n: dict[str, Any], items: list[Any], names: dict[str, Any], path: str) -> tuple[list[Any], int]:
    try:
        limit = _number(ctx.value(n.get("limit"), names, f"{path}/limit"), DEFAULT_LIST_LIMIT)
        offset = _number(ctx.value(n.get("offset"), names, f"{path}/offset"), 0)
    except _PropFailed:
        limit, offset = DEFAULT_LIST_LIMIT, 0
    limit = max(0, min(limit, HARD_LIST_CAP))
    shown = items[max(0, offset) :][:limit]
    return shown, max(0, len(items) - max(0, offset) - len(shown))


def _loop_names(n: dict[str, Any], names: dict[str, Any], item: Any, index: int) -> dict[str, Any]:
    local = {**names, "item": item, "index": float(index)}
    if isinstance(n.get("as"), str):
        local[n["as"]] = item
    return local


def _children(ctx: _Ctx, n: dict[str, Any], node: VNode, names: dict[str, Any], path: str) -> None:
    kind = node.kind
    if kind == "grid" and isinstance(n.get("columns"), int) and not isinstance(n.get("columns"), bool):
        node.props["columns"] = n["columns"]  # a grid's count (a table's `columns` are structure, below)
    if kind in ("column", "row", "grid", "card"):
        for i, c in enumerate(_as_list(n.get("children"))):
            child = _node(ctx, c, names, f"{path}/children/{i}")
            if child is not None:
                node.children.append(child)
        if isinstance(n.get("template"), dict) and "items" in n:
            items = _items(ctx, n, "items", names, path)
            for i, item in enumerate(_as_list(items)[:HARD_LIST_CAP]):
                child = _node(ctx, n["template"], _loop_names(n, names, item, i), f"{path}/template")
                if child is not None:
                    node.children.append(child)
    elif kind in ("list", "bars", "table"):
        key = "rows" if kind == "table" else "items"
        items = _items(ctx, n, key, names, path)
        if items is None:
            node.props["error"] = "数据格式不符" if ctx.locale != "en" else "Data does not fit"
            return
        shown, more = _window(ctx, n, items, names, path)
        node.props["more"] = more
        if not items:
            empty = n.get("empty")
            if isinstance(empty, dict) and empty.get("type") in COMPONENTS:
                child = _node(ctx, empty, names, f"{path}/empty")
                if child is not None:
                    node.children.append(child)
            else:
                node.props["emptyText"] = ctx.text(empty, names, f"{path}/empty") if empty else ""
        for i, item in enumerate(shown):
            local = _loop_names(n, names, item, i)
            if kind == "list" and isinstance(n.get("item"), dict):
                child = _node(ctx, n["item"], local, f"{path}/item")
                if child is not None:
                    node.children.append(child)
                    # Raw loop items beside the rows, kept only so an itemAction can be evaluated when one is chosen.
                    node.props.setdefault("itemValues", []).append(item)
            elif kind == "bars":
                value = _safe(ctx, n.get("value"), local, f"{path}/value")
                top = _safe(ctx, n.get("max"), local, f"{path}/max")
                row = VNode(
                    "bar",
                    {
                        "label": ctx.text(n.get("label"), local, f"{path}/label"),
                        "value": value if isinstance(value, int | float) and not isinstance(value, bool) else 0,
                        "max": top if isinstance(top, int | float) and not isinstance(top, bool) else None,
                        "display": ctx.text(n.get("display"), local, f"{path}/display") if n.get("display") else None,
                    },
                )
                tone = _safe(ctx, n.get("tone"), local, f"{path}/tone")
                row.tone = tone if isinstance(tone, str) else None
                node.children.append(row)
            elif kind == "table":
                cols = _as_list(n.get("columns"))
                node.children.append(
                    VNode(
                        "tablerow",
                        {
                            "cells": [
                                ctx.text(c.get("value"), local, f"{path}/columns/{j}/value")
                                if isinstance(c, dict)
                                else "—"
                                for j, c in enumerate(cols)
                            ],
                            # Raw loop item, kept only so a rowAction can be evaluated when the row is chosen.
                            "item": item,
                        },
                    )
                )
        if kind == "table":
            cols = _as_list(n.get("columns"))
            node.props["headers"] = [
                ctx.text(c.get("header"), names, f"{path}/columns/{j}/header") if isinstance(c, dict) else ""
                for j, c in enumerate(cols)
            ]
            node.props["aligns"] = [c.get("align") if isinstance(c, dict) else None for c in cols]
            node.props["widths"] = [c.get("width") if isinstance(c, dict) else None for c in cols]
    elif kind == "kv":
        pairs = n.get("pairs")
        if isinstance(pairs, list):
            for j, p in enumerate(pairs[:HARD_LIST_CAP]):
                if isinstance(p, dict):
                    node.children.append(
                        VNode(
                            "pair",
                            {
                                "k": ctx.text(p.get("k"), names, f"{path}/pairs/{j}/k"),
                                "v": ctx.text(p.get("v"), names, f"{path}/pairs/{j}/v"),
                            },
                        )
                    )
        elif "items" in n:
            for i, item in enumerate(_as_list(_items(ctx, n, "items", names, path))[:HARD_LIST_CAP]):
                local = _loop_names(n, names, item, i)
                node.children.append(
                    VNode(
                        "pair",
                        {
                            "k": ctx.text(n.get("key"), local, f"{path}/key"),
                            "v": ctx.text(n.get("value"), local, f"{path}/value"),
                        },
                    )
                )
    elif kind == "tabs":
        for j, tab in enumerate(_as_list(n.get("tabs"))):
            if isinstance(tab, dict):
                body = _node(ctx, tab.get("body"), names, f"{path}/tabs/{j}/body")
                node.children.append(
                    VNode(
                        "tab",
                        {"label": ctx.text(tab.get("label"), names, f"{path}/tabs/{j}/label")},
                        [body] if body else [],
                    )
                )
    elif kind == "form":
        bind = n.get("bind") if isinstance(n.get("bind"), str) else None
        state = names.get("state")
        values = state.get(bind) if bind and isinstance(state, dict) else None
        node.props["bind"] = bind
        for j, f in enumerate(_as_list(n.get("fields"))):
            child = _node(ctx, f, names, f"{path}/fields/{j}")
            if child is not None:
                if isinstance(values, dict) and child.props.get("name") in values:
                    child.props["value"] = values[child.props["name"]]  # the form's current state
                node.children.append(child)
    if kind == "countdown":
        node.props["seconds"] = _seconds_until(node.props.get("to"), names.get("now"))
        node.props["minutes"] = None if node.props["seconds"] is None else math.floor(node.props["seconds"] / 60)
        node.props["tickSeconds"] = tick_seconds(n.get("tick"))
        node.props["locale"] = ctx.locale
    if kind == "kv":
        node.props["locale"] = ctx.locale  # "GPA: 3.71" in English, "总绩点：3.71" in Chinese
    if kind == "field":
        labels = _as_dict(n.get("optionLabels"))
        node.props["locale"] = ctx.locale  # the blank choice's prompt is the app's words, in its language
        node.props["name"] = n.get("name")
        node.props["optionLabels"] = {k: ctx.text(v, names, f"{path}/optionLabels/{k}") for k, v in labels.items()}
        options = _safe(ctx, n.get("options"), names, f"{path}/options")
        node.props["options"] = options if isinstance(options, list) else None


def _seconds_until(to: Any, now: Any) -> float | None:
    """Seconds from `now` to `to` (both ISO text); None when either is not a time (or they cannot be compared)."""
    try:
        return (datetime.fromisoformat(str(to)) - datetime.fromisoformat(str(now))).total_seconds()
    except (TypeError, ValueError):
        return None


def tick_seconds(tick: Any) -> float | None:
    """A countdown's `tick` (`1s`, `30s`, `1m`) in seconds, at least 1; None for no tick or an unreadable one."""
    if not isinstance(tick, str):
        return None
    m = re.fullmatch(r"\s*(\d{1,4})\s*(s|m)\s*", tick)
    if m is None:
        return None
    return max(1.0, float(m.group(1)) * (60 if m.group(2) == "m" else 1))


def _safe(ctx: _Ctx, v: Any, names: Mapping[str, Any], where: str) -> Any:
    try:
        return ctx.value(v, names, where)
    except _PropFailed:
        return None


def resolve(
    spec: Any, file: str, evaluator: Evaluator, names: dict[str, Any], size: str = "medium", locale: str = "zh"
) -> Resolved:
    """Resolve a widget or screen spec with its names bound (`data`, `meta`, `now`, `params`, `state` …).

    Never raises: anything that cannot be shown becomes an ErrorCard in the body.
    """
    title = ""
    try:
        if not isinstance(spec, dict):
            return Resolved("", ErrorCard("SPEC_INVALID", file, "", "the spec is not a JSON object"))
        ctx = _Ctx(evaluator, size, locale, file)
        title = ctx.text(spec.get("title"), names, "/title")
        if spec.get("spec") != 1:
            code = "SPEC_TOO_NEW" if isinstance(spec.get("spec"), int) and spec["spec"] > 1 else "SPEC_INVALID"
            return Resolved(title, ErrorCard(code, file, "/spec", f"spec version {spec.get('spec')!r} is not 1"))
        scope = {**names, "size": size, "locale": locale}
        lets = _as_dict(spec.get("let"))
        for name, text in lets.items():
            scope[name] = _safe(ctx, text, scope, f"/let/{name}")  # a failing let is null, with a warning
        layouts = _as_dict(spec.get("layouts"))
        body_spec = layouts.get(size) or spec.get("body")
        if body_spec is None:
            return Resolved(title, ErrorCard("SPEC_INVALID", file, "/body", "no body"))
        states = _as_dict(spec.get("states"))
        if "emptyWhen" in spec and ctx.truthy(spec["emptyWhen"], scope, "/emptyWhen"):
            empty = states.get("empty")
            node = (
                _node(ctx, empty, scope, "/states/empty")
                if empty
                else VNode("notice", {"text": "没有内容" if locale != "en" else "Nothing to show"}, tone="muted")
            )
            return Resolved(title, node or VNode("notice", {"text": ""}), empty=True, warnings=ctx.warnings)
        body = _node(ctx, body_spec, scope, "/body") or VNode("column")
        return Resolved(title, body, warnings=ctx.warnings)
    except BudgetExceeded:
        return Resolved(title, ErrorCard("EXPR_BUDGET", file, "", "the widget's expressions ran out of budget"))
    except RecursionError:
        return Resolved(title, ErrorCard("SPEC_INVALID", file, "", "the spec nests too deeply"))
    except Exception as e:
        return Resolved(title, ErrorCard("INTERNAL", file, "", f"{type(e).__name__}: {e}"[:300], kind="internal"))
