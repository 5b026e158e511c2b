"""Tool calls assembled from streamed deltas, tolerant of what real servers send.

Servers differ: some send the id and name once and then argument fragments, some repeat the id and name in every
chunk, some send `arguments: null`, `""` then `"{}"`, or the whole JSON at once; some reuse index 0 for parallel
calls (a new id at a used index is then a new call); some send integer ids. The rules: calls are keyed by index; a
new id at an index that already has a different id opens a new call; ids and names are assigned, never appended
(a repeated name must not become `foofoo`); `None` arguments count as empty; JSON is parsed only at the end, and
text that does not parse becomes an error for the model — such a call is never executed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ToolCall:
    """One assembled call."""

    id: str
    name: str
    arguments_text: str = ""
    arguments: dict[str, Any] | None = None
    """The parsed arguments (an object), once `finish()` ran; None when they did not parse."""
    error: str | None = None
    """Why the arguments are unusable (sent back to the model as the tool's answer)."""


@dataclass
class _Building:
    id: str | None = None
    name: str = ""
    parts: list[str] = field(default_factory=list)


class ToolCallAccumulator:
    """Feed `delta.tool_calls` entries (objects or dicts) as they arrive; `finish()` gives the calls in order."""

    def __init__(self) -> None:
        self._calls: list[_Building] = []
        self._by_index: dict[int, int] = {}
        """Stream index → position in `_calls` of the call now open at that index."""

    def feed(self, delta: Any) -> None:
        """One tool-call delta: `{index, id, function: {name, arguments}}`, any field possibly missing or null."""
        index = _get(delta, "index")
        index = index if isinstance(index, int) and not isinstance(index, bool) else len(self._by_index)
        raw_id = _get(delta, "id")
        call_id = None if raw_id is None or raw_id == "" else str(raw_id)
        function = _get(delta, "function")
        name = _get(function, "name") if function is not None else None
        arguments = _get(function, "arguments") if function is not None else None
        pos = self._by_index.get(index)
        if pos is None or (call_id is not None and self._calls[pos].id not in (None, call_id)):
            self._calls.append(_Building())
            pos = self._by_index[index] = len(self._calls) - 1
        call = self._calls[pos]
        if call_id is not None:
            call.id = call_id
        if isinstance(name, str) and name:
            call.name = name  # assigned: servers that repeat the name in every chunk must not double it
        if isinstance(arguments, str):
            call.parts.append(arguments)
        elif isinstance(arguments, dict):
            call.parts = [json.dumps(arguments)]  # a server that sends parsed arguments

    def finish(self) -> list[ToolCall]:
        """The calls, arguments parsed; a call without a name or with bad JSON carries an error instead."""
        out = []
        for n, b in enumerate(self._calls):
            text = "".join(b.parts)
            call = ToolCall(b.id or f"call_{n}", b.name, text)
            if not b.name:
                call.error = "the tool call has no name"
            else:
                call.arguments, call.error = _parse(text)
            out.append(call)
        return out

    def __bool__(self) -> bool:
        return bool(self._calls)


def _parse(text: str) -> tuple[dict[str, Any] | None, str | None]:
    stripped = text.strip()
    if not stripped:
        return {}, None  # `null`, "" or nothing: a call without arguments
    half = len(stripped) // 2
    candidates = [stripped]
    if len(stripped) % 2 == 0 and stripped[:half] == stripped[half:]:
        candidates.append(stripped[:half])  # servers that repeat the whole arguments in the final chunk
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value, None
        return None, f"the arguments must be a JSON object, not {type(value).__name__}"
    return None, f"the arguments are not valid JSON: {stripped[:200]}"


def _get(obj: Any, key: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)
