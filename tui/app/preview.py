"""`pku-harness widget preview`: a plugin's widgets (or one of its screens) alone, with every validation problem
beside them, re-rendered whenever a file of the plugin or the data file is saved — the QA loop for widget authors.

Whatever the author saves, the preview stays up: a file that does not parse is a problem in the list (file, line,
column) and what cannot be rendered now keeps its last good render, marked as such, until the file is fixed.
The problems list shows each problem as where it is and how bad, what is wrong, and the hint; all of it is the
plugin's own text or names from it, so all of it goes in as plain text, never markup.
"""

from __future__ import annotations

import asyncio
import traceback
from pathlib import Path
from typing import Any, ClassVar

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, Static
from textual.worker import Worker

from tui.app.i18n import t
from tui.app.keys import LocalTextual
from tui.app.preview_reading import Finding, Reading, Stamps, Target, choose, finding, no_such, read_plugin, stamps
from tui.app.preview_render import PreviewData
from tui.app.themes import THEMES, register_themes
from tui.app.widgets.footer import FittingFooter
from tui.app.widgets.header import SteadyHeader
from tui.lang.documents.loader import Plugin
from tui.runtime.dev_origins import DevOrigin
from widgets_render.error_view import ErrorView
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain
from widgets_render.textual_render import GenButton, WidgetFrame, build
from widgets_render.viewmodel import ErrorCard, Resolved

#: Cell width of each size (genui.md §2.7).
WIDTHS = {"small": 32, "medium": 62, "large": 62}
SIZES = ("small", "medium", "large")
#: Entries the problems list shows at most (a plugin that does not parse has a handful; thousands only slow it).
MAX_SHOWN = 200
#: Cells of an expression shown around its caret: the line under it must not wrap, or the caret points elsewhere.
EXCERPT_CELLS = 36


class PreviewApp(LocalTextual):  # keys described in its locale (a widget frame's "open")
    """Shows widgets at one size (or a screen) with the plugin's problems; looks at the files once a second."""

    CSS_PATH = Path(__file__).with_name("preview.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [("q", "quit", "quit"), ("r", "reload", "key_reload")]
    #: Below 100 columns the problems go under the widgets (a medium widget is 62 wide, problems need ~30).
    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] | None = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012

    def __init__(
        self,
        folder: Path,
        widget: str | None = None,
        size: str | None = None,
        data: Path | None = None,
        locale: str = "zh",
        now: str | None = None,
        dev_origins: tuple[DevOrigin, ...] = (),
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.folder = folder
        self.widget = widget
        """The widget or screen asked for (None: every widget)."""
        self.widget_size = size
        self.locale = locale
        self.data = PreviewData(folder, data, locale, now, dev_origins, params)
        self.stamps: Stamps = {}
        self.targets: list[Target] = []
        """What the last reading that loaded the manifest chose (kept while the manifest does not load)."""
        self.shown: dict[Target, tuple[Resolved, str]] = {}
        """Each target's last render from a spec that loaded, with its size: shown while its file does not load."""
        self._wanted = False
        """A reload was asked for since the running one began."""
        self._reloading: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Horizontal(id="preview-body"):
            yield VerticalScroll(id="widgets")
            yield ProblemsPanel(self.locale, id="problems")
        yield FittingFooter()

    def on_mount(self) -> None:
        register_themes(self)
        self.theme = THEMES["dark"]
        self.title = clean(t("preview_title", self.locale).format(folder=self.folder.name))
        mappings = ", ".join(f"{m.host} → {m.origin}" for m in self.data.dev_origins)
        self.sub_title = clean(t("dev_mode", self.locale).format(mappings=mappings)) if mappings else ""
        self.stamps = stamps(self.folder, self.data.data_file)
        self.set_interval(1.0, self.check_files)
        self.reload()

    def on_unmount(self) -> None:
        self.data.close()

    async def check_files(self) -> None:
        """Reload when a watched file was saved, added or removed since the last look."""
        now = await asyncio.to_thread(stamps, self.folder, self.data.data_file)
        if now != self.stamps:
            self.stamps = now
            self.reload()

    def action_reload(self) -> None:
        self.reload()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, GenButton):  # a screen's button: its action belongs to the app, not here
            self.notify(t("preview_actions", self.locale), markup=False)

    # -- one reload -----------------------------------------------------------------------------------------

    @property
    def settled(self) -> bool:
        """No reload is running or asked for: what is shown is what the files say (tests wait for this)."""
        return not self._wanted and (self._reloading is None or self._reloading.is_finished)

    def reload(self) -> None:
        """Read the plugin again and show it, on a worker (the keys stay live while a data source runs). One
        reload at a time: a save during one is read when it ends, never by a second one mounting beside it."""
        self._wanted = True
        if self._reloading is None or self._reloading.is_finished:
            self._reloading = self.run_worker(self._reload_while_wanted(), group="preview-reload")

    async def _reload_while_wanted(self) -> None:
        """Reload until no save came in meanwhile. Never fails for what is in the plugin's files; a failure of the
        preview's own code is shown in the problems list (a bug to report) and the next save is read as always."""
        while self._wanted:
            self._wanted = False
            try:
                await self._reload()
            except Exception as e:
                await self.query_one(ProblemsPanel).show([internal(e, self.locale)])

    async def _reload(self) -> None:
        reading = await asyncio.to_thread(read_plugin, self.folder)
        if reading.plugin is not None and "id" not in reading.plugin.stand_ins:
            # the plugin's id once its manifest reads (the folder's name until then, and while it does not)
            self.title = clean(t("preview_title", self.locale).format(folder=reading.plugin.manifest.id))
        findings = [finding(p) for p in reading.problems]
        parts = self._choose(reading.plugin, findings)
        for target in self.targets:
            part, notes = await self._part(reading, target)
            parts.append(part)
            findings += notes
        findings = without_known(findings)
        screen_only = bool(self.targets) and all(target.kind == "screen" for target in self.targets)
        self.query_one("#preview-body").set_class(screen_only, "-screen")
        await self.query_one(ProblemsPanel).show(findings)
        box = self.query_one("#widgets", VerticalScroll)
        await box.remove_children()
        await box.mount_all(parts)

    def _choose(self, plugin: Plugin | None, findings: list[Finding]) -> list[Widget]:
        """Choose what to show, noting a name the plugin does not have; what goes where the widgets would be.
        While the manifest does not load, what was chosen before stays chosen (its last good render shows)."""
        if plugin is None:
            return [] if self.targets else [notice(t("preview_not_shown", self.locale).format(name="PLUGIN.md"))]
        chosen = choose(plugin, self.widget)
        self.targets = chosen or []
        if chosen is None:
            missing = no_such(plugin, str(self.widget), self.locale)
            findings.insert(0, missing)
            return [notice(f"{missing.message}\n{missing.hint}")]  # where the widget would be, too
        if not chosen:
            findings.append(Finding("", "note", t("preview_nothing", self.locale)))
        return []

    async def _part(self, reading: Reading, target: Target) -> tuple[Widget, list[Finding]]:
        """The view of one target, and what to note about its data: rendered anew when its spec loads, else its
        last good render (marked), else a line saying nothing loaded yet."""
        plugin = reading.plugin
        specs = (plugin.widgets if target.kind == "widget" else plugin.screens) if plugin is not None else {}
        if target.name in specs and plugin is not None:
            if target.kind == "widget":
                size = self.size_of(specs[target.name])
                resolved, notes = await self.data.widget(plugin, reading.valid, target.name, size)
            else:
                size = "large"
                resolved, notes = await self.data.screen(plugin, reading.valid, target.name)
            self.shown[target] = (resolved, size)
            return self._view(target, resolved, size), notes
        file = "PLUGIN.md"  # the manifest does not load: it is what cannot be read now
        if plugin is not None:
            file = (plugin.manifest.widgets if target.kind == "widget" else plugin.manifest.screens).get(
                target.name, file
            )
        last = self.shown.get(target)
        if last is None:
            return notice(t("preview_not_shown", self.locale).format(name=file)), []
        said = t("preview_last_good", self.locale).format(name=file)
        return self._view(target, *last, kept=said), []

    def size_of(self, spec: object) -> str:
        """The size asked for, else the widget's default, else its first size, else medium."""
        return widget_size(spec, self.widget_size)

    def _view(self, target: Target, resolved: Resolved, size: str, kept: str | None = None) -> Widget:
        """A target's label, the notice over a kept render, and the render: a widget in its frame at its size's
        width, a screen's body as the app lays it out."""
        if target.kind == "widget":
            label = f"{target.name} · {size}"
            frame = WidgetFrame(resolved, f"widgets/{target.name}.json")
            frame.styles.width = WIDTHS.get(size, 62)
            body: Widget = frame
        else:
            label = t("preview_screen", self.locale).format(name=target.name)
            body = Vertical(screen_body(resolved), classes="preview-screen")
            body.border_title = plain(resolved.title or target.name)
        parts: list[Widget] = [Static(plain(label), markup=False)]
        if kept is not None:
            parts.append(notice(kept))
            body.add_class("-kept")
        return Vertical(*parts, body, classes="preview-target")


def widget_size(spec: object, asked: str | None = None) -> str:
    """The size `asked` for, else the widget's default, else its first size, else medium (also the draft panel's)."""
    declared = spec if isinstance(spec, dict) else {}
    sizes = declared.get("sizes")
    for size in (asked, declared.get("defaultSize"), *(sizes if isinstance(sizes, list) else [])):
        if size in SIZES:
            return str(size)
    return "medium"


def without_known(findings: list[Finding]) -> list[Finding]:
    """The findings less a render error at a prop the validator already reports (a template that does not parse
    fails at render time too): one mistake, one entry."""
    said = {f.message.split(":", 1)[0] for f in findings if f.severity in ("error", "warning")}
    return [f for f in findings if f.severity != "render" or f"at {f.hint}" not in said]


def notice(text: str) -> Static:
    """A line of the preview's own where the widgets are: the last good render, a name that is not there."""
    return Static(plain(text), markup=False, classes="preview-notice")


def screen_body(resolved: Resolved) -> Widget:
    """A resolved screen's body as widgets, or its error card; the renderer's last guard keeps a bug in building
    one node from taking the preview down (as the app's screens do)."""
    if isinstance(resolved.body, ErrorCard):
        return ErrorView(resolved.body)  # not explained: the author reads its detail (genui §2.10)
    try:
        return build(resolved.body, screen=True)
    except Exception as e:
        return Static(plain(f"⚠ INTERNAL: {type(e).__name__}: {e}"[:300]), markup=False, classes="tone-bad")


def internal(e: BaseException, locale: str) -> Finding:
    """A failure of the preview's own code as an entry of the problems list: what and where it was raised."""
    frames = traceback.extract_tb(e.__traceback__)
    where = f" ({Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return Finding("", "error", t("preview_internal", locale), f"{type(e).__name__}: {e}{where}")


class ProblemsPanel(VerticalScroll):
    """The list; `show()` replaces what it lists."""

    can_focus = True  # the list can be long: the author scrolls it with the keys

    def __init__(self, locale: str, **kwargs: str) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.locale = locale
        self.findings: list[Finding] = []

    async def show(self, findings: list[Finding]) -> None:
        """List these findings (each once, in order), under a line counting the errors and warnings; or say there
        are none."""
        # what failed while rendering is listed after the validation problems and notes, apart from them
        self.findings = sorted(dict.fromkeys(findings), key=lambda f: f.severity == "render")
        await self.remove_children()
        await self.mount_all([self._summary(), *(entry(f, self.locale) for f in self.findings[:MAX_SHOWN])])
        if len(self.findings) > MAX_SHOWN:
            more = t("preview_more", self.locale).format(count=len(self.findings) - MAX_SHOWN)
            await self.mount(Static(plain(more), markup=False, classes="problem-hint"))

    def _summary(self) -> Static:
        """'✓ 没有问题' (notes about the data are not problems of the plugin), else how many of each."""
        problems = [f for f in self.findings if f.severity in ("error", "warning")]
        rendering = sum(f.severity == "render" for f in self.findings)
        if not problems and not rendering:
            return Static(t("no_problems", self.locale), markup=False, classes="problems-summary -none")
        errors = sum(f.severity == "error" for f in problems)
        said = t("preview_counts", self.locale).format(errors=errors, warnings=len(problems) - errors)
        if rendering:  # the plugin validates, and yet a template fails on this data: not "no problems"
            said += "\n" + t("preview_render_counts", self.locale).format(count=rendering)
        return Static(plain(said), markup=False, classes="problems-summary")

    def text(self) -> str:
        """What the list says, as plain text (what a test or a screen reader reads)."""
        return "\n".join(str(s.render()) for s in self.query(Static))


def entry(found: Finding, locale: str) -> Widget:
    """One entry: `file:line:column · 错误`, the message, and the hint (an expression's excerpt kept on one line)."""
    severity = t(f"preview_{found.severity}", locale)
    head = f"{found.where} · {severity}" if found.where else severity
    parts = [
        Static(plain(head), markup=False, classes="problem-where"),
        Static(plain(found.message), markup=False, classes="problem-message"),
    ]
    if found.hint:
        parts.append(Static(plain(excerpt(found.hint)), markup=False, classes="problem-hint"))
    return Vertical(*parts, classes=f"problem -{found.severity}")


def excerpt(hint: str, cells: int = EXCERPT_CELLS) -> str:
    """The hint with an expression's line and the caret under it cut to `cells` around the caret: a long line
    wrapped in the narrow list would leave the caret pointing at the wrong character."""
    lines = hint.split("\n")
    if len(lines) < 2 or lines[-1].strip() != "^":
        return hint
    source, caret = lines[-2], len(lines[-1]) - 1
    if cell_len(source) <= cells:
        return hint
    start = max(0, min(caret - cells // 2, len(source) - cells))
    shown = source[start : start + cells]
    lead = "…" if start else ""
    tail = "…" if start + cells < len(source) else ""
    pointer = " " * (len(lead) + cell_len(source[start:caret])) + "^"
    return "\n".join([*lines[:-2], lead + shown + tail, pointer])
