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
    """What a widget slot shows when its spec or data cannot be shown (genui.md §2.10).

    The student sees `summary` and the `actions` (the app fills both in its language from `kind`); the code, file,
    path and message are the technical detail, one key away (`detail()`)."""

    code: str
    """LOAD_TIMEOUT, EXPR_BUDGET, SPEC_INVALID, SPEC_TOO_NEW, INTERNAL, TOOL_ERROR …"""
    file: str
    path: str
    message: str
    kind: str = "plugin"
    """Whose move it is, classified where the error happened: login, network, timeout, service, plugin, input,
    internal or refused. A bad spec or template is the plugin's."""
    service: str | None = None
    """With kind 'login': the campus service to log in to."""
    summary: str = ""
    """One short sentence for the student (empty: the renderer shows a generic line)."""
    actions: list[tuple[str, str]] = field(default_factory=list)
    """(action, label) pairs, the first the one Enter takes: login, retry, detail."""

    def detail(self) -> str:
        """The technical text: what failed, where (file, JSON path), and the full message (step, file:line, URL)."""
        return f"{self.code} · {self.file} · {self.path or '/'}\n{self.message}"


@dataclass
class Resolved:
    """A resolved widget or screen: the title and the body (or an error card)."""

    title: str
    body: VNode | ErrorCard
    empty: bool = False
    """The widget said it has nothing to show (its `states.empty` is the body)."""
    warnings: list[str] = field(default_factory=list)
