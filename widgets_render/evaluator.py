"""The protocols widgets_render needs from the app: an expression evaluator (the plugin language)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class BudgetExceeded(Exception):
    """The op budget of one widget per tick ran out (EXPR_BUDGET)."""


class Evaluator(Protocol):
    """Evaluates templates of the plugin language, read-only, with a per-widget budget."""

    def template(self, text: str, names: Mapping[str, Any]) -> Any:
        """The value of a template: a whole `${e}` keeps its type, a mixed one gives text.

        Raises:
            BudgetExceeded: the widget's budget for this tick is spent.
            Exception: any other failure of the expression (the resolver shows a fallback).
        """
        ...
