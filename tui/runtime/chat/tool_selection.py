"""Which tools a request offers the model when many plugins are installed.

Each tool's schema costs tokens on every request, and models choose worse among hundreds: with more than
`MAX_OFFERED` tools (or more than a small context window holds), a request offers those of the plugins
relevant to the conversation — a cheap match of the recent turns' words against each tool's title, summary,
description and plugin name — plus every tool already used in this chat and the ones the model asked for
through `plugins__tools` (which searches all of them).

Words are matched, not meanings: Chinese text as overlapping two-character pieces (二教 空教 教室), other text
as lower-case words of three letters or more; a tool scores one per piece found in its text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui.runtime.registry import ToolInfo

MAX_OFFERED = 40
#: Offered whatever the conversation: the way to every other tool.
ALWAYS = frozenset({"plugins.tools"})
SEARCH_RESULTS = 20

_WIDE = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
_COMMON = frozenset({"the", "and", "for", "what", "which", "with", "this", "that", "are", "you", "can", "how"})
_COMMON_WIDE = frozenset({"什么", "哪些", "今天", "一下", "可以", "现在", "我的", "帮我", "有没", "没有", "怎么"})


def pieces(text: str) -> set[str]:
    """The pieces of `text` that are matched (module docstring)."""
    out: set[str] = set()
    for run in _WIDE.findall(text):
        if len(run) == 1:
            continue
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    out.update(w for w in _WORD.findall(text.lower()) if w not in _COMMON)
    return out - _COMMON_WIDE


def haystack(tool: ToolInfo, plugin_name: str) -> str:
    """The text a tool is found by."""
    return " ".join([tool.id, tool.title, tool.summary or "", tool.description, plugin_name]).lower()


def score(tool: ToolInfo, plugin_name: str, wanted: set[str]) -> int:
    text = haystack(tool, plugin_name)
    return sum(1 for p in wanted if p in text)


def select(
    tools: list[ToolInfo],
    recent: str,
    keep: Iterable[str],
    plugin_name: Callable[[str], str],
    limit: int = MAX_OFFERED,
) -> list[ToolInfo]:
    """The tools to offer (all of them when there are `limit` or fewer), in their registry order.

    Args:
        tools: the tools the model may call.
        recent: the latest turns' text (the student's words weigh most: pass them first).
        keep: ids always offered (used in this chat, found through `plugins__tools`).
        plugin_name: a plugin's name in the app's language.
        limit: how many at most (a small context window takes fewer; `keep` may exceed it).
    """
    if len(tools) <= limit:
        return tools
    kept = set(keep) | ALWAYS
    chosen = {t.id for t in tools if t.id in kept}
    wanted = pieces(recent)
    ranked = sorted(
        ((score(t, plugin_name(t.plugin_id), wanted), -i, t.id) for i, t in enumerate(tools) if t.id not in chosen),
        reverse=True,
    )
    for points, _, tool_id in ranked:
        if points <= 0 or len(chosen) >= limit:
            break
        chosen.add(tool_id)
    return [t for t in tools if t.id in chosen]


def search(tools: list[ToolInfo], query: str, plugin_name: Callable[[str], str]) -> list[dict[str, Any]]:
    """`plugins__tools`: the tools matching `query` (all of them, up to `SEARCH_RESULTS`, when it is empty),
    best first, each as the model calls it."""
    wanted = pieces(query) | {w.lower() for w in query.split() if w}
    scored = [(score(t, plugin_name(t.plugin_id), wanted) if wanted else 1, -i, t) for i, t in enumerate(tools)]
    found = sorted((s for s in scored if s[0] > 0), key=lambda s: (s[0], s[1]), reverse=True)[:SEARCH_RESULTS]
    return [
        {"name": t.model_name, "title": t.title, "summary": t.summary or t.description[:160],
         "plugin": plugin_name(t.plugin_id), "effect": t.effect}
        for _, _, t in found
    ]  # fmt: skip
