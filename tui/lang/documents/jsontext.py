"""A JSON parse error in an author's words: a file cut short (an editor's save caught half-way) says that it
ends early and which bracket is still open, instead of what the parser expected next."""

from __future__ import annotations

import json
from dataclasses import dataclass

_CLOSERS = {"{": "}", "[": "]"}


@dataclass(frozen=True)
class JsonProblem:
    """Where a JSON text fails to parse and why."""

    line: int
    column: int
    message: str
    hint: str


def explain_json_error(text: str, e: json.JSONDecodeError) -> JsonProblem:
    """The parse error `e` of `text`, at its line and column; at the end of the text, the bracket left open."""
    cut_short = not text[e.pos :].strip() or e.msg.startswith("Unterminated string")  # a text never closed
    if not cut_short:
        hint = "a key and a text go in double quotes" if "double quotes" in e.msg else ""
        return JsonProblem(e.lineno, e.colno, f"not valid JSON: {e.msg}", hint)
    if not text.strip():
        return JsonProblem(e.lineno, e.colno, "not valid JSON: the file is empty", "")
    opened, in_string = _open_at_end(text)
    if in_string is not None:
        said = f"the file ends early, inside the text opened at {_where(text, in_string)}"
    elif opened:
        ch, pos = opened[-1]
        said = f"the file ends early: the '{ch}' opened at {_where(text, pos)} is not closed"
    else:
        said = "the file ends early"
    closers = ('"' if in_string is not None else "") + "".join(_CLOSERS[ch] for ch, _ in reversed(opened))
    hint = f"finish writing it (it needs {closers} at the end at least)" if closers else "finish writing it"
    line, column = _at(text, len(text.rstrip()))  # just after the last character written
    return JsonProblem(line, column, f"not valid JSON: {said}", hint)


def _open_at_end(text: str) -> tuple[list[tuple[str, int]], int | None]:
    """The brackets still open at the end of the text (outermost first), and where the text it ends inside
    starts (None when it ends outside any)."""
    stack: list[tuple[str, int]] = []
    string_at: int | None = None
    escaped = False
    for i, ch in enumerate(text):
        if string_at is not None:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                string_at = None
        elif ch == '"':
            string_at = i
        elif ch in _CLOSERS:
            stack.append((ch, i))
        elif ch in "}]" and stack:
            stack.pop()
    return stack, string_at


def _at(text: str, pos: int) -> tuple[int, int]:
    """Line and column of an offset."""
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _where(text: str, pos: int) -> str:
    line, column = _at(text, pos)
    return f"{line}:{column}"
