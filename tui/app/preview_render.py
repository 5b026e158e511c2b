"""What `widget preview` shows of one widget or screen: its data read, its spec resolved — as the dashboard and the
app's screens do it, without Textual.

The data is the `--data` file, or the plugin's own data sources run on a demo runtime (answered from the plugin's
recorded tests, never the network; with `--origin`, live, the mapped hosts answered by the author's local
server). A plugin with errors does not run: the validator refuses it, and the preview shows the data read last
instead (saying so), so an author who breaks a template still sees it on real data.
"""

from __future__ import annotations

import asyncio
import json
import re
from functools import partial
from pathlib import Path
from typing import Any

from tui.app.genui_bridge import LangEvaluator, offloaded, widget_names
from tui.app.i18n import t
from tui.app.preview_reading import Finding, finding, read_data, render_findings
from tui.app.screens.screen_spec import evaluate_tree, with_tool_fields, with_toolbar
from tui.lang.documents.loader import Plugin
from tui.lang.documents.source import DirectorySource
from tui.lang.expr import beijing_now
from tui.runtime.datasources import SourceError
from tui.runtime.dev_origins import DevOrigin
from tui.runtime.registry import InstalledPlugin
from tui.runtime.runtime import Runtime, builtin_folders
from widgets_render.failed_sources import PRIMARY, widget_sources, without_failed
from widgets_render.resolve import resolve
from widgets_render.screen_params import required_params
from widgets_render.states import with_states
from widgets_render.viewmodel import ErrorCard, Resolved

#: Seconds a data source may take (recorded answers take milliseconds; past this something is stuck).
SOURCE_SECONDS = 15.0


class PreviewData:
    """Reads widgets' and screens' data and resolves their specs for one plugin folder, locale and clock."""

    def __init__(
        self,
        folder: Path,
        data_file: Path | None,
        locale: str,
        now: str | None,
        dev_origins: tuple[DevOrigin, ...] = (),
        params: dict[str, Any] | None = None,
    ) -> None:
        self.folder = folder
        self.params = params or {}
        """`--params`: what a screen is opened with, over its declared defaults (as a tap's `params` would)."""
        self.data_file = data_file
        self.locale = locale
        self.now = now
        """The pinned clock (`--now`), else None: Beijing time now."""
        self.runtime: Runtime | None = None
        """Opened at the first data source a valid plugin reads; the plugin is registered anew at each read."""
        self.dev_origins = dev_origins
        """`--origin`: the plugin's data sources run live, its mapped hosts answered by local servers."""
        self.last: dict[str, Any] = {}
        """Each source's (or screen tool source's) last value, shown while the plugin has errors."""

    def close(self) -> None:
        """Let the runtime's threads and store go."""
        if self.runtime is not None:
            self.runtime.close()
            self.runtime = None

    async def _runtime(self, plugin: Plugin) -> Runtime:
        """The demo runtime with this version of the plugin in place of any other of its id (a copy of a built-in
        runs its own files, not the built-in's)."""
        if self.runtime is None:
            opened = partial(Runtime.open, ":memory:", demo=True, locale=self.locale, offload=True)
            self.runtime = await asyncio.to_thread(opened)
            self.runtime.map_origins(self.dev_origins)  # checked against the manifest by the command
        official = any(self.folder.resolve() == b.resolve() for b in builtin_folders())
        self.runtime.registry.add(InstalledPlugin(plugin, official, DirectorySource(self.folder)))
        self.runtime.folders[plugin.manifest.id] = self.folder
        return self.runtime

    # -- data ---------------------------------------------------------------------------------------------

    async def source(self, plugin: Plugin, valid: bool, name: str, file: str, notes: list[Finding]) -> Any:
        """A named data source's value; a failure raises `Failed` with its error card (and is noted)."""
        key = f"source:{name}"
        if not valid:
            return self._kept(key, notes)
        runtime = await self._runtime(plugin)
        read = runtime.sources.read(f"{plugin.manifest.id}.{name}", force=True, now=self.now)
        try:
            value = await asyncio.wait_for(read, SOURCE_SECONDS)
        except TimeoutError:
            message = t("load_timeout", self.locale).format(seconds=f"{SOURCE_SECONDS:g}")
            raise self._failed(name, file, "LOAD_TIMEOUT", message, "timeout", None, notes) from None
        except SourceError as e:
            raise self._failed(name, file, "TOOL_ERROR", str(e), e.cause, e.service, notes) from None
        except KeyError as e:  # the spec names a source its plugin does not declare (the validator says so too)
            raise self._failed(name, file, "TOOL_ERROR", str(e), "plugin", None, notes) from None
        if value.stale:
            word = t("preview_source_stale", self.locale).format(source=name)
            notes.append(Finding(file, "warning", word, value.error))
        self.last[key] = value.value
        return value.value

    async def tool_source(
        self,
        plugin: Plugin,
        valid: bool,
        alias: str,
        source: dict[str, Any],
        names: dict[str, Any],
        file: str,
        notes: list[Finding],
    ) -> Any:
        """A screen's inline `{ tool, args }` source, run as the student's own read; not run when it waits for a
        `refresh` (`auto: false`), is not a read tool, or the plugin has errors. A failure raises `Failed` (and is
        noted): the screen leaves out what shows it, as the app's screen does."""
        key = f"tool:{alias}"
        tool = plugin.tools.get(str(source.get("tool")))
        if tool is None or source.get("auto") is False or tool.definition.effect != "read":
            return None
        if not valid:
            return self._kept(key, notes)
        evaluator = LangEvaluator(self.now or beijing_now(), self.locale)
        where = f"/sources/{alias}"
        try:
            args = evaluate_tree(source.get("args") or {}, names, evaluator)
        except Exception as e:  # a template of the args fails: the source fails, the author told why
            raise self._failed(alias, file, "TOOL_ERROR", f"args: {e}", "plugin", None, notes, where) from None
        runtime = await self._runtime(plugin)
        call = runtime.gate.call(f"{plugin.manifest.id}.{tool.name}", args, actor="user", now=self.now)
        try:
            outcome = await asyncio.wait_for(call, SOURCE_SECONDS)
        except TimeoutError:
            message = t("load_timeout", self.locale).format(seconds=f"{SOURCE_SECONDS:g}")
            raise self._failed(alias, file, "LOAD_TIMEOUT", message, "timeout", None, notes, where) from None
        if outcome.status != "ok":
            cause = outcome.cause or "internal"
            raise self._failed(alias, file, "TOOL_ERROR", str(outcome.message), cause, outcome.service, notes, where)
        self.last[key] = outcome.result
        return outcome.result

    def _kept(self, key: str, notes: list[Finding]) -> Any:
        """The value read last for `key` while the plugin cannot run, noted as such."""
        said = t("preview_data_kept" if key in self.last else "preview_data_none", self.locale)
        notes.append(Finding("", "note", said, t("preview_data_hint", self.locale)))
        return self.last.get(key)

    def _failed(
        self,
        name: str,
        file: str,
        code: str,
        message: str,
        cause: str | None,
        service: str | None,
        notes: list[Finding],
        where: str = "/source",
    ) -> Failed:
        """A source's failure, noted, as the widget's error card. The card is not put in a student's words: the
        preview is for the author, who reads its detail (genui §2.10)."""
        notes.append(Finding(file, "error", t("preview_source_failed", self.locale).format(source=name), message))
        return Failed(ErrorCard(code, file, where, message, kind=cause or "internal", service=service))

    def data_file_value(self, notes: list[Finding]) -> Any:
        """The `--data` file's JSON (None, noted, while it does not read)."""
        assert self.data_file is not None
        value, problem = read_data(self.data_file)
        if problem is not None:
            notes.append(finding(problem))
        return value

    # -- resolving ----------------------------------------------------------------------------------------

    async def widget(self, plugin: Plugin, valid: bool, name: str, size: str) -> tuple[Resolved, list[Finding]]:
        """The widget resolved at `size` on its data, as the dashboard would show it; and what to note."""
        spec = plugin.widgets[name]
        file = plugin.manifest.widgets.get(name, f"widgets/{name}.json")
        notes: list[Finding] = []
        meta = {"stale": False, "loading": False, "error": None, "fetchedAt": self.now or beijing_now()}
        data: Any = None
        if self.data_file is not None:
            data = self.data_file_value(notes)
        elif isinstance(spec, dict) and isinstance(spec.get("source"), str):
            try:
                data = await self.source(plugin, valid, spec["source"], file, notes)
            except Failed as e:
                return Resolved(name, e.card), notes
        extra: dict[str, Any] = {}
        aliases = widget_sources(spec)
        if aliases:  # the widget's other sources, as the dashboard reads them: a failed one leaves out what shows it
            extra["sources"], failed_aliases = {}, []
            for alias, source in aliases.items():
                try:
                    extra["sources"][alias] = await self.source(plugin, valid, source, file, notes)
                except Failed:
                    extra["sources"][alias] = None
                    failed_aliases.append(alias)
            if failed_aliases:
                spec = {**spec, "body": without_failed(spec.get("body"), failed_aliases)}
        shown, _ = with_states(spec, data, False)
        resolved = await self._resolve(plugin, shown, file, data, meta, extra, size)
        return resolved, notes + render_findings(plugin, file, resolved.warnings)

    async def screen(self, plugin: Plugin, valid: bool, name: str) -> tuple[Resolved, list[Finding]]:
        """The screen resolved on its sources with its params and its first state; and what to note. A source that
        fails leaves out the components that show it, as the app's screen does (`without_failed`); a source whose
        args read a param the screen requires and was not given is not run, and the note names the params."""
        spec = with_toolbar(with_tool_fields(plugin.screens[name], plugin, plugin.manifest.id, self.locale))
        file = plugin.manifest.screens.get(name, f"screens/{name}.json")
        notes: list[Finding] = []
        if not isinstance(spec, dict):  # not a JSON object: the renderer says so in its error card
            return await self._resolve(plugin, spec, file, None, {}, {}, "large"), notes
        extra = self._screen_start(plugin, spec, file, notes)
        missing = [p for p in required_params(spec.get("params")) if p not in extra["params"]]
        if missing:
            example = json.dumps({p: "…" for p in missing}, ensure_ascii=False)
            said = t("preview_params_missing", self.locale).format(screen=name, params=", ".join(missing))
            notes.append(Finding(file, "error", said, t("preview_params_hint", self.locale).format(example=example)))
        data = self.data_file_value(notes) if self.data_file is not None else None
        failed: list[str] = []
        for alias, source in _object(spec.get("sources")).items():
            if not isinstance(source, dict):
                continue
            if missing and "source" not in source and _reads_params(source.get("args")):
                extra["sources"][alias] = None  # it would only fail on the missing params: the note says why
                failed.append(alias)
                continue
            try:
                if isinstance(source.get("source"), str):
                    extra["sources"][alias] = await self.source(plugin, valid, source["source"], file, notes)
                else:
                    evaluator = LangEvaluator(self.now or beijing_now(), self.locale)
                    names = widget_names(plugin, evaluator.run, data, {}, extra)
                    extra["sources"][alias] = await self.tool_source(plugin, valid, alias, source, names, file, notes)
            except Failed:  # noted; the screen shows without it, as the app's screen does
                extra["sources"][alias] = None
                failed.append(alias)
        if self.data_file is None and isinstance(spec.get("source"), str):
            try:
                data = await self.source(plugin, valid, spec["source"], file, notes)
            except Failed:
                failed.append(PRIMARY)
        if failed:
            spec = {**spec, "body": without_failed(spec.get("body"), failed)}
        meta = {"stale": False, "error": None, "fetchedAt": self.now or beijing_now()}
        resolved = await self._resolve(plugin, spec, file, data, meta, extra, "large")
        return resolved, notes + render_findings(plugin, file, resolved.warnings)

    def _screen_start(self, plugin: Plugin, spec: dict[str, Any], file: str, notes: list[Finding]) -> dict[str, Any]:
        """What a screen's templates see besides data and meta, before its sources are read: its params (`--params`
        over the declared defaults, as a tap's `params` would open it), its first state, the locale."""
        declared = _object(spec.get("params"))
        params = {k: f["default"] for k, f in declared.items() if isinstance(f, dict) and "default" in f}
        params.update(self.params)
        extra: dict[str, Any] = {"params": params, "sources": {}, "locale": self.locale}
        evaluator = LangEvaluator(self.now or beijing_now(), self.locale)
        try:
            state = evaluate_tree(
                _object(spec.get("state")), widget_names(plugin, evaluator.run, None, {}, extra), evaluator
            )
        except Exception as e:  # as the app: a bad state template leaves the state empty, and the author is told
            notes.append(Finding(file, "error", f"state: {e}"))
            state = {}
        extra["state"] = {**_object(state), "pending": False, "error": None}
        return extra

    async def _resolve(
        self, plugin: Plugin, spec: Any, file: str, data: Any, meta: dict[str, Any], extra: dict[str, Any], size: str
    ) -> Resolved:
        now, locale = self.now or beijing_now(), self.locale
        qualified = f"{plugin.manifest.id}/{file}"

        def work() -> Resolved:
            evaluator = LangEvaluator(now, locale)
            names = widget_names(plugin, evaluator.run, data, meta, extra)
            return resolve(spec, qualified, evaluator, names, size, locale)

        # Templates are plugin code: evaluated on a worker thread, so a slow one never holds up the preview's keys.
        return await offloaded(self.runtime.offload if self.runtime else None, work)


def _reads_params(args: Any) -> bool:
    """Whether a source's args read the screen's params."""
    return bool(re.search(r"(?<![\w.$])params\b", json.dumps(args, ensure_ascii=False)))


def _object(value: Any) -> dict[str, Any]:
    """A spec's value that should be a JSON object, or {} when it is not (the validator reports that)."""
    return value if isinstance(value, dict) else {}


class Failed(Exception):
    """A data source failed: the widget shows this error card, as the dashboard would."""

    def __init__(self, card: ErrorCard) -> None:
        super().__init__(card.message)
        self.card = card
