"""What an unattended run may send where (issue 15 item 17; threats.md N10).

A scheduled assistant task runs with nobody watching. Once its context holds a result of one plugin (grades, a
balance, a memory), the model could copy that data into a request of another plugin — a read tool is enough:
a search query is a request to someone else's server. So in a task, a call to a tool of a **different** plugin
that can send a network request (`ToolInfo.sends`, computed over its `call` steps) is refused when its arguments
carry a string or number the model wrote: a value that is neither in the student's own task text nor an `enum`,
`const` or default of the tool's input schema (those the plugin author fixed). Calls before any other plugin's
result is in the context, and calls to tools that send nothing, are not affected.

Matching is on the value as text: a string counts as the student's when the task text contains it (case and
runs of white space ignored); a number when the task text has it as a whole number (`92` is not found in
`1925`); booleans and null carry no text. Object keys count like strings.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from tui.runtime.message import Message

#: Longest model-written value quoted in a refusal (the rest is data, not needed to understand it).
QUOTE_CHARS = 40


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _number_text(value: float) -> list[str]:
    """The ways a number may be written in the student's text (92, 92.0; 3.5)."""
    if math.isfinite(value) and value == int(value):
        return [str(int(value)), f"{value:.1f}"]
    return [repr(value)]


def _in_text(value: Any, text: str) -> bool:
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int | float):
        return any(re.search(rf"(?<![\d.]){re.escape(n)}(?!\.?\d)", text) for n in _number_text(float(value)))
    if isinstance(value, str):
        wanted = _norm(value)
        if not wanted:
            return True
        if wanted.isdigit():  # digits in a string are a number too: '92' is not in '1925'
            return re.search(rf"(?<![\d.]){wanted}(?!\.?\d)", text) is not None
        return wanted in text
    return False


def _fixed(schema: dict[str, Any]) -> list[Any]:
    """The values the tool's author fixed at this place of the input: enum, const, default."""
    out = list(schema.get("enum") or [])
    for key in ("const", "default"):
        if key in schema:
            out.append(schema[key])
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return False  # booleans never reach here as values, and True must not pass for 1
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    return type(a) is type(b) and bool(a == b)


def _leaves(value: Any, schema: dict[str, Any]) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Every string, number and object key in `value`, each with the schema of its place ({} when free)."""
    if isinstance(value, dict):
        given = schema.get("properties")
        properties: dict[str, Any] = given if isinstance(given, dict) else {}
        for key, item in value.items():
            if key not in properties:
                yield key, {}  # a free key is text the model chose
            yield from _leaves(item, properties.get(key) or {})
    elif isinstance(value, list):
        given = schema.get("items")
        items: dict[str, Any] = given if isinstance(given, dict) else {}
        for item in value:
            yield from _leaves(item, items)
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        yield value, schema


def model_written(arguments: Any, schema: dict[str, Any], student_text: str) -> list[Any]:
    """The strings and numbers in `arguments` that neither the student's text nor the tool's schema gave."""
    text = _norm(student_text)
    found = []
    for value, place in _leaves(arguments, schema):
        if any(_same(value, fixed) for fixed in _fixed(place)):
            continue
        if not _in_text(value, text):
            found.append(value)
    return found


def cross_plugin_refusal(
    tool_id: str,
    plugin_id: str,
    sends: bool,
    schema: dict[str, Any],
    arguments: Any,
    plugins_seen: list[str],
    student_text: str,
) -> str | None:
    """Why an unattended call must not run, or None when it may.

    Args:
        tool_id: the tool called; `plugin_id` its plugin; `sends` whether it can send a network request.
        schema: its input schema (the model's view: enum and default per field).
        arguments: the arguments the model gave.
        plugins_seen: the plugins whose results (or error texts) are in the task's context.
        student_text: what the student wrote (the task's prompt).
    """
    others = sorted({p for p in plugins_seen if p != plugin_id})
    if not sends or not others:
        return None
    written = model_written(arguments, schema, student_text)
    if not written:
        return None
    shown = ", ".join(repr(str(v)[:QUOTE_CHARS]) for v in written[:3])
    return Message("flow_cross_plugin", shown=shown, others=", ".join(others), tool=tool_id, plugin=plugin_id)
