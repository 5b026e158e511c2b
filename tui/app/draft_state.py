"""What the app shows of one plugin draft, read without Textual: its files, the validation the assistant's
`draftValidate` returns (the same report, so the student and the model read the same problems), and its widgets
rendered on the data of its recorded tests by the `widget preview` machinery (`PreviewData`).

Also which draft a conversation works on: the `draft` argument of its latest `plugins__draft*` call. Everything
here is the draft's own text (untrusted): the callers show it as plain text only.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tui.app.preview import widget_size
from tui.app.preview_reading import Finding, read_plugin
from tui.runtime.message import say_error
from tui.runtime.plugins.drafts import DraftError, DraftFile, Drafts
from tui.runtime.plugins.report import validation_report
from widgets_render.viewmodel import Resolved

if TYPE_CHECKING:
    from tui.app.preview_render import PreviewData
    from tui.runtime.chat.agent import ToolView

#: The prefix of the assistant's draft tools as the model names them, and as the gate names them.
MODEL_PREFIX, TOOL_PREFIX = "plugins__draft", "plugins.draft"


@dataclass(frozen=True)
class Preview:
    """One widget of the draft, resolved on its recorded data at its default size, and what to note about it."""

    name: str
    size: str
    resolved: Resolved
    notes: list[Finding]


@dataclass
class DraftView:
    """One reading of a draft: everything the panel shows."""

    id: str
    name: str | None = None
    files: list[DraftFile] = field(default_factory=list)
    ok: bool = False
    problems: list[dict[str, Any]] = field(default_factory=list)
    """The report's problems and claims, as `draftValidate` returns them (file, line, column, code, message…)."""
    errors: int = 0
    loads: bool = False
    """The manifest reads (with or without errors elsewhere): its widgets can be tried."""
    previews: list[Preview] = field(default_factory=list)
    missing: str | None = None
    """Why there is no draft to show (it was discarded, or the id is refused), as the store says it."""
    absent: bool = False
    """No folder for it (yet): the assistant asked to write its first file and waits for the student's yes, or it
    was discarded."""

    @property
    def count(self) -> int:
        """How many problems the one-line summary counts (errors and warnings)."""
        return len(self.problems)


def _inspect(drafts: Drafts, draft_id: str, locale: str) -> tuple[DraftView, Any]:
    """Files, validation and the plugin as far as it loads (on a worker thread: it reads and checks files)."""
    view = DraftView(draft_id)
    try:
        drafts.check_id(draft_id)  # a refused id says why, below
        if not drafts.exists(draft_id):
            view.absent = True
            view.missing = ""
            return view, None
        folder = drafts.folder(draft_id)
        view.files = drafts.files(draft_id)
    except DraftError as e:
        view.missing = say_error(e, locale)
        return view, None
    report = validation_report(folder)
    view.ok, view.errors = report.ok, report.errors
    view.problems = report.to_json()["problems"]
    reading = read_plugin(folder)
    plugin = reading.plugin
    if plugin is not None and "id" not in plugin.stand_ins:
        view.loads = True
        view.name = plugin.manifest.name
    return view, reading


async def read_draft(drafts: Drafts, draft_id: str, data: PreviewData | None, locale: str = "zh") -> DraftView:
    """The draft as it is now. With `data` (a `PreviewData` on the draft's folder), its widgets are rendered on
    the draft's recorded tests; a plugin with errors renders on the data it read last (the notes say so), and
    not at all before it ever ran."""
    view, reading = await asyncio.to_thread(_inspect, drafts, draft_id, locale)
    if data is None or reading is None or reading.plugin is None or not view.loads:
        return view
    if not reading.valid and not data.last:  # errors, and no data read before: the problems say it all
        return view
    plugin = reading.plugin
    for name in plugin.widgets:
        size = widget_size(plugin.widgets[name])
        resolved, notes = await data.widget(plugin, reading.valid, name, size)
        view.previews.append(Preview(name, size, resolved, notes))
    return view


def problem_text(problem: dict[str, Any]) -> str:
    """One problem as the panel lists it: `file:line:column · CODE`, the message, the hint (plain text)."""
    where = str(problem.get("file") or "")
    for part in ("line", "column"):
        if problem.get(part):
            where += f":{problem[part]}"
    code = problem.get("code")
    head = " · ".join(x for x in (where, str(code) if code else "") if x)
    lines = [head, str(problem.get("message") or "")]
    if problem.get("hint"):
        lines.append(str(problem["hint"]))
    return "\n".join(line for line in lines if line)


def size_text(size: int) -> str:
    """A file's size for the panel: bytes below 1 KB, else KB with one decimal."""
    return f"{size} B" if size < 1024 else f"{size / 1024:.1f} KB"


def draft_of_call(view: ToolView) -> str | None:
    """The draft a tool call works on: a `plugins__draft*` call with a `draft` argument (or result)."""
    if not (view.tool_id.startswith(TOOL_PREFIX) or view.name.startswith(MODEL_PREFIX)):
        return None
    for source in (view.arguments, view.result):
        if isinstance(source, dict) and isinstance(source.get("draft"), str) and source["draft"]:
            return str(source["draft"])
    return None


def draft_in(messages: list[dict[str, Any]]) -> str | None:
    """The draft the latest draft call of a stored conversation named (None: it never worked on one)."""
    for m in reversed(messages):
        for tool_call in reversed(m.get("tool_calls") or []):
            function = tool_call.get("function") if isinstance(tool_call, dict) else None
            if not isinstance(function, dict) or not str(function.get("name", "")).startswith(MODEL_PREFIX):
                continue
            try:
                args = json.loads(function.get("arguments") or "{}")
            except (TypeError, ValueError):
                continue
            if isinstance(args, dict) and isinstance(args.get("draft"), str) and args["draft"]:
                return str(args["draft"])
    return None


def diff_counts(diff: str) -> tuple[int, int]:
    """Lines added and removed in a unified diff: after its first `@@` (the `---`/`+++` header is no change, and a
    removed YAML `---` line reads `----`)."""
    added = removed = 0
    hunks = False
    for line in diff.splitlines():
        hunks = hunks or line.startswith("@@")
        if hunks and line.startswith("+"):
            added += 1
        elif hunks and line.startswith("-"):
            removed += 1
    return added, removed
