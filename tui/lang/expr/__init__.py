"""The plugin expression language: a JavaScript-exact, sandboxed, compiled evaluator (language.md §1-§7).

Typical use::

    expr = compile_expression("rows.filter(r => r.cap > 100).map(r => r.room)")
    value = expr.evaluate({"rows": from_json(rows)}, run)
"""

from tui.lang.expr.engine import Expression, beijing_now, compile_expression, evaluate
from tui.lang.expr.errors import (
    EvalError,
    LangError,
    LimitError,
    ParseError,
    RegexError,
    UnboundNameError,
    UserError,
)
from tui.lang.expr.limits import MAX_EVALUATIONS, Run
from tui.lang.expr.stdlib import FUNCTIONS
from tui.lang.expr.templates import compile_template, compile_text_template, render
from tui.lang.expr.values import Closure, from_json, stringify, to_json, to_text, type_of

__all__ = [
    "FUNCTIONS",
    "MAX_EVALUATIONS",
    "Closure",
    "EvalError",
    "Expression",
    "LangError",
    "LimitError",
    "ParseError",
    "RegexError",
    "Run",
    "UnboundNameError",
    "UserError",
    "beijing_now",
    "compile_expression",
    "compile_template",
    "compile_text_template",
    "evaluate",
    "from_json",
    "render",
    "stringify",
    "to_json",
    "to_text",
    "type_of",
]
