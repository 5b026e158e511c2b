"""A remote server's tools as the app holds them: names, schemas checked with RE2, pins, and results read back.

A tool's id is `mcp-<server>.<tool>` and its model name `mcp-<server>__<tool>` (seed 000; `remote.remote_ids`),
where `<server>` is the remote plugin's id. Everything here comes from a third party: descriptions and schemas are
shown and pinned, never trusted; a result is text for the conversation (untrusted), bounded in size.

Pins (issue 22 item 4): the hash of what the student approved — name, description, input and output schema,
annotations — per tool and for the whole list. A later listing whose pins differ is an update to review.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tui.runtime.plugins.mcp.schema import BadSchema, SchemaCheck
from tui.runtime.plugins.remote import remote_ids

MAX_TOOLS = 64
"""The most tools one server may offer; a server with more is refused (every tool goes into the model's list)."""
MAX_RESULT = 1024 * 1024
"""The largest tool result kept, in bytes of its JSON."""


@dataclass(frozen=True)
class RemoteTool:
    """One tool a remote server lists, with its app names and compiled schemas."""

    server: str
    """The remote plugin's id."""
    name: str
    """The tool's name on the server (what `tools/call` is sent)."""
    id: str
    """`mcp-<server>.<tool>`: the app's id for it."""
    model_name: str
    """`mcp-<server>__<tool>`: the name the model sees."""
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    annotations: dict[str, Any]
    """The server's hints (`readOnlyHint`, …): a third party's claims, shown, never used to lower an effect."""
    title: str | None = None
    pin: str = ""
    """`tool_pin` of this tool."""
    inputs: SchemaCheck | None = field(default=None, compare=False, repr=False)
    outputs: SchemaCheck | None = field(default=None, compare=False, repr=False)
    problem: str | None = None
    """Why the tool cannot be called (a schema `jsonschema` refuses), or None."""


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def tool_pin(
    name: str,
    description: str,
    input_schema: Mapping[str, Any] | None,
    output_schema: Mapping[str, Any] | None,
    annotations: Mapping[str, Any] | None,
) -> str:
    """`sha256:<hex>` of the tool's name, description, schemas and annotations, in canonical JSON (sorted keys):
    the same for the same tool whatever order the server writes its keys in."""
    doc = {
        "name": name,
        "description": description,
        "inputSchema": input_schema,
        "outputSchema": output_schema,
        "annotations": annotations or None,
    }
    return "sha256:" + hashlib.sha256(_canonical(doc)).hexdigest()


def list_pin(tools: Iterable[RemoteTool]) -> str:
    """`sha256:<hex>` of the whole list (names and pins, in name order): changes when a tool comes, goes or changes."""
    pairs = sorted((t.name, t.pin) for t in tools)
    return "sha256:" + hashlib.sha256(_canonical(pairs)).hexdigest()


@dataclass(frozen=True)
class PinChanges:
    """How a listing differs from the pins approved before: tool names in each group."""

    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def compare_pins(approved: Mapping[str, str], tools: Iterable[RemoteTool]) -> PinChanges:
    """What changed since `approved` (tool name → pin): the tools to hold until the student approves them again."""
    now = {t.name: t.pin for t in tools}
    return PinChanges(
        added=tuple(sorted(n for n in now if n not in approved)),
        changed=tuple(sorted(n for n in now if n in approved and approved[n] != now[n])),
        removed=tuple(sorted(n for n in approved if n not in now)),
    )


def _dump(model: Any, attr: str) -> Any:
    value = getattr(model, attr, None)
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if callable(dump) else value


def remote_tool(server: str, tool: Any) -> RemoteTool:
    """The app's view of one `mcp_types.Tool`. A schema jsonschema refuses does not hide the tool: it is listed
    with its `problem`, and calling it fails with that reason."""
    input_schema = dict(tool.input_schema or {})
    output_schema = dict(tool.output_schema) if tool.output_schema is not None else None
    annotations = _dump(tool, "annotations") or {}
    description = tool.description or ""
    tool_id, model_name = remote_ids(server, tool.name)
    inputs = outputs = None
    problem = None
    try:
        inputs = SchemaCheck(input_schema)
        outputs = SchemaCheck(output_schema) if output_schema is not None else None
    except BadSchema as e:
        problem = f"{tool.name}: {e}"
    return RemoteTool(
        server=server,
        name=tool.name,
        id=tool_id,
        model_name=model_name,
        description=description,
        input_schema=input_schema,
        output_schema=output_schema,
        annotations=annotations,
        title=getattr(tool, "title", None),
        pin=tool_pin(tool.name, description, input_schema, output_schema, annotations),
        inputs=inputs,
        outputs=outputs,
        problem=problem,
    )


def check_list(tools: list[RemoteTool]) -> str | None:
    """Why a server's whole list is refused (None: it is taken): more than MAX_TOOLS, or two tools whose names
    become the same model name."""
    if len(tools) > MAX_TOOLS:
        return f"the server offers {len(tools)} tools; at most {MAX_TOOLS} are allowed"
    seen: dict[str, str] = {}
    for t in tools:
        if t.model_name in seen:
            return f"the tools {seen[t.model_name]!r} and {t.name!r} would both be called {t.model_name}"
        seen[t.model_name] = t.name
    return None


def content_text(content: Iterable[Any]) -> str:
    """A result's content blocks as text for the conversation: text as it is, anything else as a short mark."""
    parts = []
    for block in content:
        kind = getattr(block, "type", "?")
        if kind == "text":
            parts.append(block.text)
        elif kind in ("image", "audio"):
            parts.append(f"[{kind} {getattr(block, 'mime_type', '')}, {len(getattr(block, 'data', ''))} bytes base64]")
        elif kind == "resource_link":
            parts.append(f"[link {getattr(block, 'uri', '')}]")
        elif kind == "resource":
            inner = getattr(block, "resource", None)
            parts.append(getattr(inner, "text", None) or f"[resource {getattr(inner, 'uri', '')}]")
        else:
            parts.append(f"[{kind}]")
    return "\n".join(parts)


def result_size(result: Any) -> int:
    """The size in bytes of a `CallToolResult` as JSON: what the limit MAX_RESULT counts."""
    return len(_canonical(result.model_dump(mode="json", by_alias=True, exclude_none=True)))
