"""A widget's `states` (genui.md §2.6): what it shows while loading, when it has nothing, when its data is the
last good value (stale), and when its source failed.

Each state applies on its own condition, and a widget without it gets the app's default:

- `loading`: the first load, before any data (default: "标题 · 加载中…");
- `empty`: `emptyWhen` is true, or — without `emptyWhen` — the data is empty (null, `[]`, `{}`, `""`) (default:
  the body as it is; with `emptyWhen`, "没有内容");
- `stale`: the data is the last good value after a failed refresh; shown above the body, and it takes the place of
  the "⟳ 2 天前" mark in the frame's title (`meta.ageMs` says how old the data is);
- `error`: the source failed and nothing was ever stored; its text becomes the sentence of the app's error card,
  which keeps the actions that help (登录, 重试, 详情) — the author words it, the app acts on it.

These are spec transforms: the state's node becomes (part of) the body and the widget is resolved as always, so a
state's templates are evaluated, budgeted and made safe like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from widgets_render.viewmodel import VNode

#: Text props gathered when a state's node is said as one sentence.
SAID = ("text", "label", "title", "subtitle")


def _states(spec: Mapping[str, Any]) -> dict[str, Any]:
    states = spec.get("states")
    return states if isinstance(states, dict) else {}


def _node(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("type"), str)


def is_empty(data: Any) -> bool:
    """No data to show: null, an empty list, object or text."""
    return data is None or (isinstance(data, list | dict | str) and not data)


def has_state(spec: Any, state: str) -> bool:
    """Whether the widget declares `states.<state>` as a component."""
    return isinstance(spec, dict) and _node(_states(spec).get(state))


def loading_spec(spec: dict[str, Any]) -> dict[str, Any] | None:
    """The widget as it shows while it loads for the first time, or None (the app's default) without
    `states.loading`."""
    if not has_state(spec, "loading"):
        return None
    out = {k: v for k, v in spec.items() if k not in ("layouts", "emptyWhen")}
    out["body"] = _states(spec)["loading"]
    return out


def with_states(spec: Any, data: Any, stale: bool) -> tuple[Any, bool]:
    """The spec to resolve for this data, and whether it shows its own stale state (then the frame's ⟳ mark is
    left out: the state takes its place)."""
    if not isinstance(spec, dict):
        return spec, False
    states = _states(spec)
    out = spec
    shows_stale = False
    if stale and _node(states.get("stale")):
        note = states["stale"]

        def above(body: Any) -> dict[str, Any]:
            return {"type": "column", "children": [note, body]}

        out = {**out, "body": above(spec.get("body"))}
        if isinstance(spec.get("layouts"), dict):
            out["layouts"] = {size: above(body) for size, body in spec["layouts"].items()}
        shows_stale = True
    if "emptyWhen" not in spec and _node(states.get("empty")) and is_empty(data):
        out = {**out, "emptyWhen": "${true}"}
    return out, shows_stale


def error_spec(spec: Any) -> dict[str, Any] | None:
    """The widget resolved as its error state (its `states.error` as the body), or None without one."""
    if not has_state(spec, "error"):
        return None
    out = {k: v for k, v in spec.items() if k not in ("layouts", "emptyWhen")}
    out["body"] = _states(spec)["error"]
    return out


def said(node: Any) -> str:
    """A resolved node's text as one sentence (a notice's text; a column's texts one after the other)."""
    if not isinstance(node, VNode):
        return ""
    parts = [str(node.props[k]) for k in SAID if isinstance(node.props.get(k), str) and node.props[k].strip()]
    parts += [s for s in (said(c) for c in node.children) if s]
    return " ".join(parts)
