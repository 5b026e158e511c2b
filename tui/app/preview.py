"""`pku-harness widget preview`: one plugin's widgets alone, beside their validation problems, re-rendered
whenever the spec or the data file is saved — the QA loop for widget authors."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from tui.app.genui_bridge import LangEvaluator, widget_names
from tui.app.i18n import t
from tui.app.keys import LocalTextual
from tui.app.themes import THEMES, register_themes
from tui.app.widgets.footer import FittingFooter
from tui.app.widgets.header import SteadyHeader
from tui.lang.documents.loader import Loader, Plugin
from tui.lang.documents.problems import DocumentError
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.lang.expr import beijing_now
from tui.runtime.runtime import Runtime
from widgets_render.resolve import resolve
from widgets_render.safe_text import clean
from widgets_render.textual_render import WidgetFrame, plain

#: Cell width of each size (genui.md §2.7).
WIDTHS = {"small": 32, "medium": 62, "large": 62}


class PreviewApp(LocalTextual):  # keys described in its locale (a widget frame's "open")
    """Shows widgets at one size with their problems; polls the files once a second."""

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
    ) -> None:
        super().__init__()
        self.folder = folder
        self.widget = widget
        self.widget_size = size
        self.data_file = data
        self.locale = locale
        self.now = now
        self.stamps: dict[Path, float] = {}

    def compose(self) -> ComposeResult:
        yield SteadyHeader()
        with Horizontal(id="preview-body"):
            yield VerticalScroll(id="widgets")
            yield Static("", id="problems", markup=False)
        yield FittingFooter()

    def on_mount(self) -> None:
        register_themes(self)
        self.theme = THEMES["dark"]
        self.title = clean(f"widget preview · {self.folder.name}")
        self.stamps = self._stamps()
        self.set_interval(1.0, self.check_files)
        self.call_later(self.reload)

    def _watched(self) -> list[Path]:
        paths = list(self.folder.rglob("*.json")) + list(self.folder.rglob("*.yaml")) + [self.folder / "PLUGIN.md"]
        if self.data_file is not None:
            paths.append(self.data_file)
        return paths

    def _stamps(self) -> dict[Path, float]:
        return {p: p.stat().st_mtime for p in self._watched() if p.exists()}

    async def check_files(self) -> None:
        """Reload when a watched file changed since the last look."""
        stamps = self._stamps()
        if stamps != self.stamps:
            self.stamps = stamps
            await self.reload()

    async def action_reload(self) -> None:
        await self.reload()

    def _plugin(self) -> tuple[Plugin | None, list[str]]:
        source = DirectorySource(self.folder)
        _, problems = validate(source)
        lines = [str(p) for p in problems]
        try:
            return Loader(source).load(), lines
        except DocumentError as e:
            return e.partial, lines  # show what loads, with every problem beside it

    async def _data(self, plugin: Plugin, spec: dict[str, Any], now: str) -> Any:
        if self.data_file is not None:
            return json.loads(self.data_file.read_text("utf-8"))
        source = spec.get("source")
        if not isinstance(source, str):
            return None
        runtime = Runtime.open(":memory:", demo=True)
        if plugin.manifest.id not in runtime.registry.plugins:
            runtime.add_folder(self.folder, official=False)
        try:
            return (await runtime.sources.read(f"{plugin.manifest.id}.{source}", now=now)).value
        except (KeyError, RuntimeError) as e:
            return {"error": str(e)}
        finally:
            runtime.close()

    async def reload(self) -> None:
        """Load the plugin again and re-render every chosen widget."""
        box = self.query_one("#widgets", VerticalScroll)
        await box.remove_children()
        plugin, problems = self._plugin()
        shown = self.query_one("#problems", Static)
        shown.update(plain("\n".join(problems) or t("no_problems", self.locale)))
        shown.set_class(not problems, "-none")
        if plugin is None:
            return
        now = self.now or beijing_now()
        names = [self.widget] if self.widget else list(plugin.widgets)
        for name in names:
            spec = plugin.widgets.get(name)
            if spec is None:
                await box.mount(Static(plain(f"no widget {name!r} in {self.folder}"), markup=False))
                continue
            size = self.widget_size or spec.get("defaultSize") or (spec.get("sizes") or ["medium"])[0]
            try:
                data = await self._data(plugin, spec, now)
            except ValueError as e:  # the data file saved half-written or not JSON: a problem to show, not a crash
                problems.append(f"{self.data_file}: {e}")
                self.query_one("#problems", Static).update(plain("\n".join(problems)))
                data = None
            evaluator = LangEvaluator(now, self.locale)
            scope = widget_names(plugin, evaluator.run, data, {"stale": False, "fetchedAt": now})
            resolved = await asyncio.to_thread(
                resolve, spec, f"{plugin.manifest.id}/widgets/{name}.json", evaluator, scope, str(size), self.locale
            )
            frame = WidgetFrame(resolved, f"widgets/{name}.json")
            frame.styles.width = WIDTHS.get(str(size), 62)
            await box.mount(Vertical(Static(plain(f"{name} · {size}"), markup=False), frame))
