"""The language's own error types: every failure of an expression is one of these, with a span."""

from __future__ import annotations

import unicodedata


class LangError(Exception):
    """Base of every error an expression or template can raise.

    Attributes:
        msg: the message without position, as the UI shows it.
        title: a short heading for the UI ("Expression error", ...).
        source: the expression text, when known.
        pos: the 0-based offset of the fault in `source`, when known.
        where: an outer location ("classrooms/tools/free.yaml:12, step 2"), set by the loader.
    """

    title = "Expression error"
    kind = "expression"

    def __init__(self, msg: str, pos: int | None = None, source: str | None = None) -> None:
        super().__init__(msg)
        self.msg = msg
        self.pos = pos
        self.source = source
        self.where: str | None = None

    def with_source(self, source: str, offset: int = 0) -> LangError:
        """Attach the source text (once); `offset` shifts `pos` when the source is a template's part."""
        if self.source is None:
            self.source = source
            if self.pos is not None:
                self.pos += offset
        return self

    @property
    def line_col(self) -> tuple[int, int] | None:
        """1-based (line, column) of `pos` in `source`."""
        if self.source is None or self.pos is None:
            return None
        # An error at the very end ("found the end of the expression") is placed just after its last character,
        # not on the blank line a YAML block (`value: |`) leaves after it: that line is the next key's.
        pos = min(self.pos, len(self.source.rstrip()))
        before = self.source[:pos]
        line = before.count("\n") + 1
        col = pos - (before.rfind("\n") + 1) + 1
        return line, col

    def caret(self) -> str:
        """The source line holding the fault with a caret under its column, or '' without a position."""
        lc = self.line_col
        if lc is None or self.source is None:
            return ""
        line_no, col = lc
        text = self.source.split("\n")[line_no - 1]
        # Wide (CJK) characters take two cells; pad the caret by display width so it lands under the column.
        pad = "".join("  " if _is_wide(ch) else ("\t" if ch == "\t" else " ") for ch in text[: col - 1])
        return f"{text}\n{pad}^"

    def __str__(self) -> str:
        head = self.msg
        lc = self.line_col
        if lc is not None:
            head = f"{head} (at {lc[0]}:{lc[1]})" if "\n" in (self.source or "") else f"{head} (column {lc[1]})"
        if self.where:
            head = f"{self.where}: {head}"
        caret = self.caret()
        return f"{head}\n{caret}" if caret else head


class ParseError(LangError):
    """The text is not a valid expression (includes every construct outside the language)."""

    title = "Syntax error"


class UnboundNameError(LangError):
    """A name that is not bound (`undefinedName`, `globalThis`, `Math`)."""

    title = "Unknown name"


class EvalError(LangError):
    """A run-time fault: wrong types, reading a property of null, a bad argument."""


class LimitError(LangError):
    """A run limit was hit (evaluation budget, string/list size, nesting depth)."""

    title = "Limit reached"
    kind = "limit"


class DeadlineError(LimitError):
    """The run's time ran out while an expression was being evaluated (a `catch` sees kind `timeout`)."""

    title = "Time limit reached"
    kind = "timeout"


class RegexError(LangError):
    """A pattern RE2 cannot or may not compile (lookaround, backreference, too long)."""

    title = "Regular expression error"


class UserError(EvalError):
    """Raised by the `error(message)` standard-library function: the plugin's own failure."""

    title = "Plugin error"


def _is_wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")
