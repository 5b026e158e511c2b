"""The view model: what a spec resolves to, ready to mount — plain data, no Textual, no expressions left."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class VNode:
    """A resolved component: its kind, its resolved props (text already sanitised) and children."""

    kind: str
    props: dict[str, Any] = field(default_factory=dict)
    children: list[VNode] = field(default_factory=list)
    tone: str | None = None
    grow: float | None = None
    warnings: list[str] = field(default_factory=list)
    """Props that failed and fell back (shown as a dim ⚠ by the renderer)."""


@dataclass
class ErrorCard:
    """What a widget slot shows when its spec or data cannot be shown (genui.md §2.10)."""

    code: str
    """LOAD_TIMEOUT, EXPR_BUDGET, SPEC_INVALID, SPEC_TOO_NEW, INTERNAL, TOOL_ERROR …"""
    file: str
    path: str
    message: str


@dataclass
class Resolved:
    """A resolved widget or screen: the title and the body (or an error card)."""

    title: str
    body: VNode | ErrorCard
    empty: bool = False
    """The widget said it has nothing to show (its `states.empty` is the body)."""
    warnings: list[str] = field(default_factory=list)
