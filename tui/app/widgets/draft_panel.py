"""The draft panel in 助手: the plugin draft the conversation works on, beside the chat.

At wide terminals it is a column right of the log; at narrow ones (80×24, the phone page) a block above the input
that starts collapsed to one line (`草稿 libnew · ✓`, `草稿 libnew · 3 个问题`). Open, it lists the draft's files
(Enter opens one read-only), the latest validation (the report `draftValidate` returns: the student reads what
the model reads) and its widgets rendered on the recorded tests' data (`PreviewData`, as `widget preview` does);
安装 opens the normal install review, 丢弃 asks, then deletes the folder.

The panel reads the draft again after every draft tool call of the chat and on r, on a worker: checking files and
rendering templates never hold up typing. One reading at a time; a request during one is read when it ends.
Every text from the draft (names, paths, problems, widget text) is the draft's own: plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, OptionList, Static
from textual.worker import Worker

from tui.app.draft_state import DraftView, Preview, problem_text, read_draft, size_text
from tui.app.i18n import t
from tui.app.preview import WIDTHS
from tui.app.preview_render import PreviewData
from widgets_render.safe_text import clean, one_line
from widgets_render.simple_widgets import plain
from widgets_render.steady_options import SteadyOptionList
from widgets_render.textual_render import WidgetFrame

if TYPE_CHECKING:
    from tui.app.harness import HarnessApp

#: Seconds between looks at the draft's files on disk (edits made outside the app).
WATCH_S = 2.0


def disk_stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Each file under `folder` with its modification time and size (empty when there is no folder)."""
    try:
        found = [p for p in folder.rglob("*") if p.is_file()]
        return tuple(sorted((str(p.relative_to(folder)), p.stat().st_mtime_ns, p.stat().st_size) for p in found))
    except OSError:
        return ()


#: From this many columns of the chat pane the open panel is a column beside the log (a medium widget is 62
#: wide; the log keeps ~60).
WIDE = 110


class DraftPanel(Vertical):
    """The panel (module docstring). `show(id)` shows a draft; `hide()` takes the panel away."""

    DEFAULT_CSS = """
    DraftPanel { display: none; height: auto; max-height: 70%; border-top: solid $primary 50%; }
    DraftPanel.-shown { display: block; }
    DraftPanel #draft-head { width: 1fr; height: 1; text-align: left; content-align: left middle;
        background: $boost; text-style: bold; }
    DraftPanel #draft-body { height: auto; max-height: 14; padding: 0 1; }
    DraftPanel.-collapsed #draft-body { display: none; }
    DraftPanel .draft-heading { color: $text-muted; margin-top: 1; }
    DraftPanel #draft-buttons { height: auto; }
    DraftPanel #draft-buttons Button { margin-right: 1; }
    DraftPanel #draft-files { height: auto; max-height: 8; border: none; padding: 0; }
    DraftPanel #draft-previews { height: auto; }
    DraftPanel .draft-note { color: $text-muted; }
    DraftPanel .draft-bad { color: $error; }
    DraftPanel .draft-good { color: $success; }
    DraftPanel WidgetFrame { max-width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("r", "reload", "key_recheck")]

    def __init__(self, shell: HarnessApp, arrange: Callable[[], None]) -> None:
        super().__init__(id="draft-panel")
        self.shell = shell
        self.locale = shell.locale
        self._arrange = arrange
        """The chat pane lays itself out again (side column or block) when the panel opens, closes or goes."""
        self.draft_id: str | None = None
        self.view: DraftView | None = None
        self.expanded: bool | None = None
        """The student's choice (收起/展开); None: open at wide terminals, one line at narrow ones."""
        self.wide = False
        self.data: PreviewData | None = None
        self._wanted = False
        self._reading: Worker[None] | None = None
        self._stamp: tuple[tuple[str, int, int], ...] | None = None
        self.seen: set[str] = set()
        """Drafts this panel has shown with files: one without a folder now was discarded, not yet to be written."""

    def compose(self) -> ComposeResult:
        yield Button("", id="draft-head", compact=True)
        with VerticalScroll(id="draft-body"):
            yield Static("", markup=False, id="draft-title")
            with Horizontal(id="draft-buttons"):
                yield Button(t("draft_install", self.locale), id="draft-install", variant="primary", compact=True)
                yield Button(t("draft_discard", self.locale), id="draft-discard", variant="error", compact=True)
                yield Button(t("draft_collapse", self.locale), id="draft-toggle", compact=True)
            yield Static(t("draft_files", self.locale), markup=False, classes="draft-heading")
            yield SteadyOptionList(id="draft-files")
            yield Static(t("draft_check", self.locale), markup=False, classes="draft-heading")
            yield Static("", markup=False, id="draft-problems")
            yield Static(t("draft_preview", self.locale), markup=False, classes="draft-heading")
            yield Vertical(id="draft-previews")

    # -- what is shown -------------------------------------------------------------------------------------

    @property
    def open(self) -> bool:
        """The panel shows its body (not only its one line)."""
        return self.expanded if self.expanded is not None else self.wide

    def set_wide(self, wide: bool) -> None:
        """The chat pane's width crossed `WIDE`: a panel the student did not open or close follows it."""
        if wide != self.wide:
            self.wide = wide
            self._paint_head()

    def show(self, draft_id: str) -> None:
        """Show `draft_id` (read anew; another draft's preview data is let go)."""
        if draft_id != self.draft_id:
            self.close_data()
            self.draft_id, self.view, self._stamp = draft_id, None, None
            self.data = PreviewData(self.shell.runtime.drafts.root / draft_id, None, self.locale, self.shell.now)
        self.add_class("-shown")
        self._paint_head()
        self.reload()

    def hide(self) -> None:
        """No draft in this conversation: the panel goes."""
        self.close_data()
        self.draft_id, self.view = None, None
        self.remove_class("-shown")
        self._arrange()

    def close_data(self) -> None:
        if self.data is not None:
            self.data.close()
            self.data = None

    def on_unmount(self) -> None:
        self.close_data()

    def on_mount(self) -> None:
        self.set_interval(WATCH_S, self._watch)

    def _watch(self) -> None:
        """A draft is also written in an editor, or discarded from the command line (the README says to go on
        there): what changed on disk is read again, as `widget preview` does. A few stat calls every WATCH_S."""
        if self.draft_id is None:
            return
        stamp = disk_stamp(self.shell.runtime.drafts.root / self.draft_id)
        if self._stamp is not None and stamp != self._stamp:
            self.reload()
        self._stamp = stamp

    def summary(self) -> str:
        """The one line: `草稿 <id> · ✓`, `· N 个问题`, `· 检查中…`."""
        head = t("draft_head", self.locale).format(id=self.draft_id or "")
        view = self.view
        if view is None:
            state = t("draft_checking", self.locale)
        elif view.absent:
            state = t("draft_gone" if view.id in self.seen else "draft_not_yet", self.locale)
        elif view.missing is not None:
            state = t("draft_refused", self.locale)
        elif view.count:
            state = t("draft_problem_count", self.locale).format(count=view.count)
        else:
            state = t("draft_ok", self.locale)
        return f"{head} · {state}"

    def _paint_head(self) -> None:
        self.set_class(not self.open, "-collapsed")
        mark = "▾" if self.open else "▸"
        for head in self.query("#draft-head").results(Button):
            head.label = plain(one_line(f"{mark} {self.summary()}"))
        for toggle in self.query("#draft-toggle").results(Button):
            toggle.label = plain(t("draft_collapse" if self.open else "draft_expand", self.locale))
        self._arrange()

    # -- reading -------------------------------------------------------------------------------------------

    @property
    def settled(self) -> bool:
        """No reading is running or asked for (tests wait for this)."""
        return not self._wanted and (self._reading is None or self._reading.is_finished)

    def action_reload(self) -> None:
        self.reload()

    def reload(self) -> None:
        """Read the draft again on a worker; one reading at a time (module docstring)."""
        if self.draft_id is None:
            return
        self._wanted = True
        if self._reading is None or self._reading.is_finished:
            self._reading = self.run_worker(self._read_while_wanted(), group="draft-panel", exit_on_error=False)

    async def _read_while_wanted(self) -> None:
        while self._wanted and self.draft_id is not None:
            self._wanted = False
            draft_id = self.draft_id
            try:
                view = await read_draft(self.shell.runtime.drafts, draft_id, self.data, self.locale)
            except Exception as e:  # a bug of the app's own code: said in the panel, never the app's end
                view = DraftView(draft_id, missing=f"{type(e).__name__}: {e}")
            if draft_id == self.draft_id:  # not another draft chosen meanwhile
                await self._fill(view)

    async def _fill(self, view: DraftView) -> None:
        self.view = view
        if not view.absent and view.missing is None:
            self.seen.add(view.id)
        self._paint_head()
        title = view.id if view.name is None else f"{view.id} · {view.name}"
        self.query_one("#draft-title", Static).update(plain(clean(title)))
        files = self.query_one("#draft-files", OptionList)
        files.clear_options()
        files.add_options([plain(one_line(f"{f.path}  {size_text(f.bytes)}")) for f in view.files])
        problems = self.query_one("#draft-problems", Static)
        if view.absent and view.id not in self.seen:  # its first file waits for the student's yes
            problems.update(t("draft_not_yet_body", self.locale))
            problems.set_classes("draft-note")
        elif view.absent:
            problems.update(t("draft_gone", self.locale))
            problems.set_classes("draft-bad")
        elif view.missing is not None:
            problems.update(plain(clean(view.missing)))
            problems.set_classes("draft-bad")
        elif not view.problems:
            problems.update(t("no_problems", self.locale))
            problems.set_classes("draft-good")
        else:
            problems.update(plain(clean("\n\n".join(problem_text(p) for p in view.problems))))
            problems.set_classes("draft-bad")
        box = self.query_one("#draft-previews", Vertical)
        await box.remove_children()
        await box.mount_all(self._previews(view))

    def _previews(self, view: DraftView) -> list[Widget]:
        """Each widget on its recorded data (its notes under it), or a line saying why there is none."""
        if view.missing is not None:
            return []
        if not view.previews and (view.errors or not view.loads):
            return [Static(t("draft_preview_blocked", self.locale), markup=False, classes="draft-note")]
        if not view.previews:
            return [Static(t("draft_no_widgets", self.locale), markup=False, classes="draft-note")]
        out: list[Widget] = []
        for preview in view.previews:
            out.append(Static(plain(clean(f"{preview.name} · {preview.size}")), markup=False, classes="draft-note"))
            out.append(_frame(preview))
            for note in preview.notes:
                # a note's hint is the command line's (`--data`); the panel says what the note says
                hint = note.hint if note.severity != "note" else ""
                said = " · ".join(x for x in (note.where, note.message, hint) if x)
                out.append(Static(plain(clean(said)), markup=False, classes="draft-note"))
        return out

    # -- the student's actions -----------------------------------------------------------------------------

    @on(Button.Pressed, "#draft-head")
    @on(Button.Pressed, "#draft-toggle")
    def toggle(self, event: Button.Pressed) -> None:
        event.stop()
        self.expanded = not self.open
        self._paint_head()

    @on(Button.Pressed, "#draft-install")
    def install(self, event: Button.Pressed) -> None:
        event.stop()
        if self.draft_id is not None:
            self.shell.install_draft(self.draft_id, "assistant")

    @on(Button.Pressed, "#draft-discard")
    def discard(self, event: Button.Pressed) -> None:
        event.stop()
        if self.draft_id is not None:
            self.shell.discard_draft(self.draft_id)

    @on(OptionList.OptionSelected, "#draft-files")
    def open_file(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        view = self.view
        if self.draft_id is None or view is None or event.option_index >= len(view.files):
            return
        from tui.app.dialogs.draft_file import DraftFileDialog

        path = view.files[event.option_index].path
        self.app.push_screen(DraftFileDialog(self.shell.runtime.drafts, self.draft_id, path, self.locale))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()  # a preview's own buttons (a widget's actions) do nothing here: the plugin is not installed

    def on_widget_frame_tapped(self, event: WidgetFrame.Tapped) -> None:
        event.stop()  # the same: a draft's widget opens no screen before it is installed


def _frame(preview: Preview) -> WidgetFrame:
    """A widget in its frame at its size's width (narrower when the panel is), as the dashboard draws it."""
    frame = WidgetFrame(preview.resolved, f"widgets/{preview.name}.json")
    frame.styles.width = WIDTHS.get(preview.size, 62)
    return frame
