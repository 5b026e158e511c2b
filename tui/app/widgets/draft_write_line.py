"""The chat's line of a `plugins__draftWrite` call: collapsed, the file and the size of the change
(`写入 widgets/books.json（+12 −3）`); expanded, the diff the tool returned, + lines green and − lines red.

The diff is the draft's text, written by the model: it is drawn as a Rich `Text` whose styles come from the
first character of each line, never parsed as markup, and cleaned of terminal control codes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Collapsible, Static

from tui.app.draft_state import diff_counts
from tui.app.i18n import t
from widgets_render.js_text import json_text
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain

if TYPE_CHECKING:
    from tui.runtime.chat.agent import ToolView

#: The gate's id of the tool whose line this is.
DRAFT_WRITE = "plugins.draftWrite"
#: The style of a diff line by its first character (a header line, `---`/`+++`, is dimmed instead).
STYLES = {"+": "green", "-": "red", "@": "cyan"}


def is_draft_write(view: ToolView) -> bool:
    return view.tool_id == DRAFT_WRITE or view.name == "plugins__draftWrite"


def diff_text(diff: str) -> Text:
    """The diff as styled text: + lines green, − lines red, hunk heads cyan, the two header lines dim."""
    out = Text()
    hunks = False
    for line in clean(diff).splitlines():
        hunks = hunks or line.startswith("@@")
        style = STYLES.get(line[:1], "") if hunks else "dim"
        out.append(line, style=style)
        out.append("\n")
    out.rstrip()
    return out


def draft_write_line(view: ToolView, locale: str, said: str = "") -> Collapsible:
    """The line of one draftWrite call (see the module docstring); `said`: the gate's words for the student when
    it did not run. Failures start expanded, as any tool line."""
    result = view.result if isinstance(view.result, dict) else {}
    args = view.arguments if isinstance(view.arguments, dict) else {}
    path = str(result.get("path") or args.get("path") or "?")
    diff = result.get("diff")
    status = t(f"status_{view.status}", locale)
    if isinstance(diff, str):
        added, removed = diff_counts(diff)
        what = t("draft_write_line", locale).format(path=path, added=added, removed=removed)
    else:
        what = t("draft_write_running", locale).format(path=path)
    title = f"{what} · {status}"
    if view.status not in ("running", "stopped"):
        title += f" · {view.duration_ms} ms"
    body: list[Static] = []
    if isinstance(diff, str):
        body.append(Static(diff_text(diff), markup=False, classes="result draft-diff"))
    else:  # not written (refused, declined, running): what was asked, as any tool line shows it
        shown = {k: v for k, v in args.items() if k != "content"}
        body.append(Static(plain(f"{t('arguments', locale)}: {json_text(shown)}"), markup=False))
    if said:
        body.append(Static(plain(said), markup=False, classes="tone-bad"))
    failed = view.status in ("error", "refused", "declined")
    classes = f"tool tool-{view.status} tool-draft-write"
    return Collapsible(*body, title=plain(clean(title)), collapsed=not failed, classes=classes)  # type: ignore[arg-type]
