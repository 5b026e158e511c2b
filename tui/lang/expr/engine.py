"""The public face of the evaluator: compile once (cached by source), evaluate many times under a Run."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import TracebackType
from typing import Any

from tui.lang.expr import ast
from tui.lang.expr.compiler import LINEMAP, Compiler, install_runtime, new_filename
from tui.lang.expr.errors import LangError, LimitError
from tui.lang.expr.inlining import Helpers
from tui.lang.expr.limits import Run
from tui.lang.expr.parser import parse
from tui.lang.expr.stdlib import apply, call_method, has_method
from tui.lang.expr.stdlib.dates import BEIJING, iso
from tui.lang.expr.values import to_str

install_runtime(_method=call_method, _has_method=has_method, _apply=apply, _to_str=to_str)

#: Compiled expressions by (kind, source text, the helpers they may inline); bounded so plugin-built sources
#: cannot grow it without end.
_CACHE: dict[tuple[str, str, Helpers | None], Expression] = {}
_CACHE_MAX = 4096


def beijing_now() -> str:
    """The current time in Beijing as ISO text, to the second."""
    return iso(datetime.now(BEIJING).replace(microsecond=0))


class Expression:
    """One compiled expression (or template). Thread-safe: all state of a run lives in the Run."""

    __slots__ = ("_fn", "calls", "cost", "free_names", "python_source", "source")

    def __init__(self, source: str, tree: ast.Node, helpers: Helpers | None = None) -> None:
        try:
            compiled = Compiler(source, new_filename(), helpers).compile(tree)
        except (SyntaxError, RecursionError):
            if helpers is None:
                raise
            # Inlined bodies nest the code deeper than Python takes (100 indents): the calls stay calls.
            compiled = Compiler(source, new_filename()).compile(tree)
        self.source = source
        """The text as written."""
        self.free_names = compiled.free_names
        """Names the expression reads from its context (`input`, `rows`, `now` …)."""
        self.calls = compiled.calls
        """Library functions it calls directly."""
        self.python_source = compiled.python_source
        """The generated Python (for debugging the compiler)."""
        self.cost = compiled.cost
        """The most evaluations one evaluation charges by itself (for budget pre-checks)."""
        self._fn = compiled.fn

    def evaluate(self, context: Mapping[str, Any], run: Run | None = None) -> Any:
        """The value of the expression with `context` bound.

        Args:
            context: bound names to values of the value model (see values.from_json for outside data).
                `now` is bound from the run when the context has none.
            run: the tool run's shared budget and clock; a fresh one when omitted.

        Raises:
            LangError: any failure, with the source and the position of the fault.
        """
        if run is None:
            now = context.get("now")
            run = Run(now if isinstance(now, str) else beijing_now())
        if "now" not in context:
            context = {**context, "now": run.now}
        try:
            value = self._fn(context, run)
        except LangError as e:
            raise locate(e, e.__traceback__, self.source) from None
        except RecursionError:
            raise LimitError("nesting too deep while evaluating", None, self.source) from None
        if run.used > run.limit:
            # Generated code charges without checking (builtins check); the last few nodes are checked here.
            raise run.exceeded().with_source(self.source)
        return value

    def __repr__(self) -> str:
        return f"Expression({self.source!r})"


def locate(e: LangError, tb: TracebackType | None, source: str) -> LangError:
    """Give an error without a position the position of the innermost generated line it passed through."""
    if e.pos is not None:
        return e.with_source(source)
    found: tuple[tuple[str, dict[int, int]], int] | None = None
    while tb is not None:
        linemap = tb.tb_frame.f_globals.get(LINEMAP)
        if linemap is not None:
            found = (linemap, tb.tb_lineno)
        tb = tb.tb_next
    if found is not None:
        (src, lines), lineno = found
        at = lines.get(lineno)
        e.source, e.pos = at if isinstance(at, tuple) else (src, at)  # an inlined helper's line: its body
        return e
    return e.with_source(source)


def compile_expression(source: str, helpers: Helpers | None = None) -> Expression:
    """Parse and compile an expression, or return the cached one for the same text and helpers.

    Args:
        source: the expression's text.
        helpers: the plugin's functions, whose calls the code may run in place (inlining.py); the value is
            the same with and without them.

    Raises:
        ParseError, LimitError: the text is not an expression of the language.
    """
    key = ("e", source, helpers)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    try:
        expr = Expression(source, parse(source), helpers)
    except LangError as e:
        raise e.with_source(source) from None
    _remember(key, expr)
    return expr


def _remember(key: tuple[str, str, Helpers | None], expr: Expression) -> None:
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()  # simple and bounded; recompiling is cheap next to a runaway cache
    _CACHE[key] = expr


def evaluate(source: str, context: Mapping[str, Any] | None = None, run: Run | None = None) -> Any:
    """Compile (cached) and evaluate `source` in one call."""
    return compile_expression(source).evaluate(context or {}, run)


def compile_function(params: list[str], body: str) -> Expression:
    """Compile a plugin function's body as the arrow `(params) => body` (cached by both).

    Evaluating it gives a Closure whose generated function runs the body directly: a call is one Python
    frame, as an inline arrow's, where evaluating the body per call took four and a copy of the scope.
    Positions in errors stay those of `body`, the text the plugin author wrote.

    Raises:
        ParseError, LimitError: the body is not an expression of the language.
    """
    key = ("f" + ",".join(params), body, None)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    try:
        tree = parse(body)
        arrow = ast.Arrow(0, len(body), [ast.Param(0, len(body), p) for p in params], tree)
        expr = Expression(body, arrow)
    except LangError as e:
        raise e.with_source(body) from None
    _remember(key, expr)
    return expr


def cached(kind: str, source: str, helpers: Helpers | None = None) -> Expression | None:
    """A cached compiled form of `source` of the given kind ('e' expression, 't' template)."""
    return _CACHE.get((kind, source, helpers))


def store(kind: str, source: str, tree: ast.Node, helpers: Helpers | None = None) -> Expression:
    """Compile `tree` (parsed from `source`, inlining `helpers`) and cache it under `kind`."""
    try:
        expr = Expression(source, tree, helpers)
    except LangError as e:
        raise e.with_source(source) from None
    _remember((kind, source, helpers), expr)
    return expr
