"""What the app hands widgets_render: the plugin language as its Evaluator, with the plugin's shared names."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from tui.lang.documents.loader import Plugin
from tui.lang.expr import LangError, LimitError, Run, compile_template, from_json
from tui.lang.expr.stdlib.dates import BEIJING
from tui.lang.steps.scope import make_functions
from tui.runtime.offload import Offload
from widgets_render.evaluator import BudgetExceeded

T = TypeVar("T")

#: Expression operations one widget may spend per tick (genui.md §2.3).
WIDGET_BUDGET = 20_000
#: Seconds one resolution of a widget or screen may take: past it the templates stop with an error card, so a slow
#: template never keeps a worker thread for long (the budget alone bounds operations, not their cost).
WIDGET_SECONDS = 2.0


class LangEvaluator:
    """Evaluates genui templates with the plugin language, read-only, within one tick's budget."""

    def __init__(
        self, now: str, locale: str = "zh", budget: int = WIDGET_BUDGET, seconds: float = WIDGET_SECONDS
    ) -> None:
        self.run = Run(now, limit=budget, locale=locale, deadline=time.monotonic() + seconds)

    def template(self, text: str, names: Mapping[str, Any]) -> Any:
        try:
            return compile_template(text).evaluate(names, self.run)
        except LimitError as e:
            if "budget" in e.msg:
                raise BudgetExceeded(e.msg) from None
            raise


def widget_names(
    plugin: Plugin,
    run: Run,
    data: Any,
    meta: dict[str, Any],
    extra: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The names a widget's templates see: data, meta, now, today, constants, the plugin's functions and its
    settings (the student's values; None: the declared defaults), as its tools see them."""
    constants = from_json(plugin.shared_constants)
    if settings is None:
        settings = {k: f.default for k, f in plugin.manifest.settings.items()}
    values = from_json(settings)
    functions = make_functions(plugin.shared_functions, {**constants, "settings": values, "now": run.now}, run)
    names: dict[str, Any] = {
        **constants,
        **functions,
        "constants": constants,
        "functions": functions,
        "settings": values,
        "data": from_json(data),
        "meta": from_json(meta),
        "now": run.now,
        "today": run.now[:10],
        **(extra or {}),
    }
    return names


async def offloaded(offload: Offload | None, work: Callable[[], T]) -> T:
    """`work()` (resolving a widget or a screen: its templates are plugin code) on the runtime's worker threads, or
    on a thread of the loop's own pool when it has none, so a slow template never holds the app's loop."""
    if offload is not None:
        return await offload(work)
    return await asyncio.to_thread(work)


__all__ = ["BEIJING", "LangError", "LangEvaluator", "offloaded", "widget_names"]
