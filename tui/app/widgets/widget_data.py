"""A dashboard widget's data, and the widget resolved with it: its source read through the cache (with the
first-load deadline), failures turned into error cards in the student's words, the widget's own states applied
(widgets_render/states.py), and its templates evaluated off the UI loop."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tui.app.failures import failed
from tui.app.genui_bridge import LangEvaluator, offloaded, widget_names
from tui.app.i18n import t
from tui.app.widgets.dashboard_slots import Slot, ago
from tui.lang.expr import beijing_now, from_json
from tui.runtime.datasources import SourceError
from tui.runtime.runtime import Runtime
from widgets_render.failed_sources import widget_sources, without_failed
from widgets_render.resolve import resolve
from widgets_render.safe_text import clean
from widgets_render.states import error_spec, said, with_states
from widgets_render.viewmodel import Resolved


class WidgetData:
    """Resolves the dashboard's widgets for one runtime, locale and clock."""

    def __init__(self, runtime: Runtime, locale: str, now: str | None) -> None:
        self.runtime = runtime
        self.locale = locale
        self.now = now
        """The pinned clock (`--demo`, `--now`), else None: Beijing time now."""

    async def state(self, slot: Slot, spec: dict[str, Any] | None, meta: dict[str, Any], size: str) -> Any:
        """A widget resolved as one of its states (`loading_spec`, `error_spec`), off the UI loop; None without it."""
        if spec is None:
            return None
        return await self._resolve(slot, spec, None, meta, size)

    async def sentence(self, slot: Slot, spec: dict[str, Any] | None, meta: dict[str, Any], size: str) -> str:
        """A state's text as one sentence (the error state is said in the app's error card)."""
        resolved = await self.state(slot, spec, meta, size)
        return clean(said(resolved.body))[:200] if resolved is not None else ""

    async def _resolve(
        self, slot: Slot, spec: Any, data: Any, meta: dict[str, Any], size: str, sources: dict[str, Any] | None = None
    ) -> Resolved:
        plugin = self.runtime.registry.plugins[slot.plugin_id].plugin
        settings = self.runtime.plugin_settings.values(slot.plugin_id, plugin.manifest)
        now, locale = meta.get("fetchedAt") or self.now or beijing_now(), self.locale
        extra = {"sources": from_json(sources)} if sources is not None else None

        def evaluate() -> Resolved:
            evaluator = LangEvaluator(str(now), locale)
            names = widget_names(plugin, evaluator.run, data, meta, extra, settings=settings)
            return resolve(spec, slot.file, evaluator, names, size, locale)

        # Templates are plugin code: evaluated on a worker thread, so a slow one holds up no key and no other widget.
        return await offloaded(self.runtime.offload, evaluate)

    async def slot(self, slot: Slot, force: bool, size: str, name: str, timeout: float) -> tuple[Resolved, str | None]:
        """The resolved widget (titled `name`) and, when its data is the last good value, how old that is (the ⟳
        mark). Failures become error cards; a failed one of its `sources` leaves out what shows it."""
        aliases = widget_sources(slot.spec)
        # the other sources are read while the primary one is
        side = asyncio.ensure_future(self._aliases(slot, aliases, force, timeout)) if aliases else None
        try:
            return await self._slot(slot, force, size, name, timeout, side)
        finally:
            if side is not None and not side.done():
                side.cancel()  # the primary source failed: its card is all that shows
            elif side is not None and not side.cancelled():
                side.exception()  # retrieved, so that asyncio does not log what the card already says

    async def _slot(
        self,
        slot: Slot,
        force: bool,
        size: str,
        name: str,
        timeout: float,
        side: asyncio.Future[tuple[dict[str, Any], list[str]]] | None,
    ) -> tuple[Resolved, str | None]:
        now = self.now or beijing_now()
        source = slot.spec.get("source") if isinstance(slot.spec.get("source"), str) else None
        meta: dict[str, Any] = {"stale": False, "loading": False, "error": None, "fetchedAt": now}
        data: Any = None
        mark: str | None = None
        if source is not None:
            read = self.runtime.sources.read(f"{slot.plugin_id}.{source}", force=force, now=self.now)
            try:
                value = await asyncio.wait_for(read, timeout)
            except TimeoutError:
                # genui §2.6: a first load never spins forever.
                message = t("load_timeout", self.locale).format(seconds=f"{timeout:g}")
                card = failed("LOAD_TIMEOUT", slot.file, "/source", message, "timeout", None, self.locale)
                return Resolved(name, card), None
            except SourceError as e:
                message = f"{t('load_failed', self.locale)}: {e}"
                card = failed("TOOL_ERROR", slot.file, "/source", message, e.cause, e.service, self.locale, e.summary)
                # the widget's own `states.error` words it; the card keeps the actions that help (states.py)
                own = await self.sentence(slot, error_spec(slot.spec), {**meta, "error": card.summary}, size)
                card.summary = own or card.summary
                return Resolved(name, card), None
            except KeyError as e:  # the widget names a source its plugin does not have
                message = f"{t('load_failed', self.locale)}: {e}"
                card = failed("TOOL_ERROR", slot.file, "/source", message, "plugin", None, self.locale)
                return Resolved(name, card), None
            data = value.value
            age_ms = max(0, int(time.time() * 1000) - value.fetched_ms)
            meta["ageMs"] = age_ms
            mark = ago(age_ms, self.locale) if value.stale else None
            meta.update(stale=value.stale, error=value.error or None)
        values, failed_aliases = await side if side is not None else ({}, [])
        if source is None and failed_aliases and len(failed_aliases) == len(values):
            message = f"{t('load_failed', self.locale)}: {', '.join(failed_aliases)}"
            card = failed("TOOL_ERROR", slot.file, "/sources", message, "network", None, self.locale)
            return Resolved(name, card), None
        spec, own_stale = with_states(slot.spec, data, bool(meta["stale"]))
        if own_stale:
            mark = None  # the widget's `states.stale` says it, in place of the ⟳ mark
        if failed_aliases:
            # What shows a source that did not answer is left out, as on a screen; the title says it is partial.
            spec = {**spec, "body": without_failed(spec.get("body"), failed_aliases)}
            if isinstance(spec.get("layouts"), dict):
                spec["layouts"] = {k: without_failed(v, failed_aliases) for k, v in spec["layouts"].items()}
            mark = t("widget_part_missing", self.locale)
            meta["error"] = meta.get("error") or t("load_failed", self.locale)
        return await self._resolve(slot, spec, data, meta, size, values if side is not None else None), mark

    async def _aliases(
        self, slot: Slot, aliases: dict[str, str], force: bool, timeout: float
    ) -> tuple[dict[str, Any], list[str]]:
        """The widget's `sources` read side by side (each through its cache, within the first-load deadline): each
        alias's value (None when it failed), and the aliases that failed."""
        if not aliases:
            return {}, []

        async def one(name: str) -> Any:
            read = self.runtime.sources.read(f"{slot.plugin_id}.{name}", force=force, now=self.now)
            return (await asyncio.wait_for(read, timeout)).value

        results = await asyncio.gather(*(one(name) for name in aliases.values()), return_exceptions=True)
        values: dict[str, Any] = {}
        failed_aliases: list[str] = []
        for alias, result in zip(aliases, results, strict=True):
            if isinstance(result, TimeoutError | SourceError | KeyError):
                values[alias] = None
                failed_aliases.append(alias)
            elif isinstance(result, BaseException):
                raise result  # cancelled (the app closing), or the app's own fault: not the source's
            else:
                values[alias] = result
        return values, failed_aliases
