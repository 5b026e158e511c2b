"""A screen whose source failed: the parts that show that source's data are left out, the rest stays.

When a source cannot be read the screen says so once, in an error card with 重试 and 详情 (the app's
`PluginScreen`). Each component that shows the missing data would otherwise say it again, in its own way: a
table of `${sources.rooms}` read null as "数据格式不符", a text of `${sources.rooms.length}` as "— ⚠" — the marks
of a plugin's bug, for what is a service that did not answer (issue 18 item 3). Here those components are left out
of the body; forms, buttons and everything that does not read the failed source stay usable.

A component "shows" a source when one of its own props names it (`sources.rooms`, `sources['rooms']`, or `data`
for the screen's primary source). Its `when`, its actions and its children do not count: a `when` that names the
source is the author's own handling of it (`${sources.rooms != null}`), an action runs later with what is there,
and a child is judged by itself.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Keys of a component that hold other components, conditions or actions — not what the component itself shows.
NOT_SHOWN = frozenset(
    {
        "type",
        "children",
        "template",
        "tabs",
        "body",
        "item",
        "fields",
        "empty",
        "fallback",
        "when",
        "action",
        "tap",
        "submit",
        "itemAction",
        "rowAction",
    }
)
#: Keys that hold lists of components (or of tabs with a body) to look through; a one-component slot (a list's
#: `item`, `empty`, `fallback`) stays as it is: its component goes or stays with it.
CONTAINERS = frozenset({"children", "tabs", "body"})
#: The name the screen gives its primary source (`"source": "…"`), whose data templates read as `data`.
PRIMARY = "$data"


def mentions(alias: str) -> re.Pattern[str]:
    """How a template names the source `alias`."""
    if alias == PRIMARY:
        return re.compile(r"(?<![\w.$])data\b")
    name = re.escape(alias)
    return re.compile(rf"\bsources\s*(?:\?\.|\.)\s*{name}\b|\bsources\s*\[\s*['\"]{name}['\"]\s*\]")


def shows(node: dict[str, Any], patterns: list[re.Pattern[str]]) -> bool:
    """Whether a component's own props read one of the failed sources."""
    own = {k: v for k, v in node.items() if k not in NOT_SHOWN}
    text = json.dumps(own, ensure_ascii=False)
    return any(p.search(text) for p in patterns)


def without_failed(body: Any, failed: list[str]) -> Any:
    """The body with every component that shows a failed source left out (an empty column for a body that is
    such a component itself)."""
    if not failed:
        return body
    patterns = [mentions(alias) for alias in failed]

    def prune(value: Any) -> Any:
        if isinstance(value, list):
            left = [prune(v) for v in value]
            return [v for v in left if v is not None]
        if not isinstance(value, dict):
            return value
        if isinstance(value.get("type"), str) and shows(value, patterns):
            return None
        return {k: kept(prune(v)) if k in CONTAINERS else v for k, v in value.items()}

    return kept(prune(body))


def kept(value: Any) -> Any:
    """A slot whose one component was left out holds an empty column (a tab keeps its label)."""
    return {"type": "column", "children": []} if value is None else value


def widget_sources(spec: Any) -> dict[str, str]:
    """A widget's `sources`: alias → the name of a data source of its manifest (entries of another shape are the
    validator's to report, and are not read)."""
    sources = spec.get("sources") if isinstance(spec, dict) else None
    if not isinstance(sources, dict):
        return {}
    return {str(alias): name for alias, name in sources.items() if isinstance(name, str)}
