"""YAML as data only: ruamel.yaml composes the nodes, and this module types the scalars itself.

Why not a loader's constructors: YAML 1.1 turns `no` into false, `12:30` into 750 and `0755` into 493, and
even YAML 1.2 reads `0755` as 755. Here a plain scalar is a number only when it is written as JSON writes
one, `true`/`false` and `null`/`~`/empty are what they say, and everything else is text. Walking the nodes
also gives every value its line (for messages), finds duplicate keys with both lines, and refuses anchors,
aliases and tags before anything is expanded (an alias bomb never grows).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, MappingStartEvent, ScalarEvent
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from tui.lang.documents.problems import Problem

#: Deepest nesting of YAML accepted (language.md §7).
MAX_DEPTH = 64

Path = tuple[str | int, ...]

_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_NULL = {"", "~", "null", "Null", "NULL"}
_CORE = "tag:yaml.org,2002:"
# `timestamp` is what the resolver calls a plain 2026-11-30: it stays text here.
_STANDARD_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp")}


@dataclass
class Located:
    """Data read from one YAML text, with the 1-based line and column of every value (and key) by its path."""

    data: Any
    lines: dict[Path, int] = field(default_factory=dict)
    columns: dict[Path, int] = field(default_factory=dict)
    """1-based column where the value at a path starts."""
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)
    """Line and column of the key that holds the value at a path (a mapping entry's key)."""
    styles: dict[Path, str | None] = field(default_factory=dict)
    """How a scalar is written: None (plain), a quote character, or `|` / `>` (a block)."""
    text_lines: list[str] = field(default_factory=list)
    """The text read, by line (to find where a block scalar's lines start)."""
    offset: int = 0
    """What was added to every line (frontmatter starts after the `---`)."""

    def inside(self, path: Path, line_col: tuple[int, int] | None) -> tuple[int | None, int | None]:
        """Where a 1-based (line, column) inside the text value at `path` is in the file, as near as the
        value's style tells (escapes in a quoted value may shift the column)."""
        at = self.pos(path)
        if line_col is None or tuple(path) not in self.styles or at[0] is None or at[1] is None:
            return at
        style = self.styles[tuple(path)]
        if style in ("|", ">"):
            n = at[0] + line_col[0]  # the block's text starts on the line after its indicator
            # The block's indentation is its first non-blank line's; a line indented further keeps the rest as
            # text (inside the value's own columns), so only the block's base is added.
            start = at[0] - self.offset  # index of the block's first line
            first = next((t for t in self.text_lines[max(start, 0) :] if t.strip()), "")
            return n, len(first) - len(first.lstrip(" ")) + line_col[1]
        if line_col[0] > 1:
            return at[0] + line_col[0] - 1, None
        return at[0], at[1] + (1 if style else 0) + line_col[1] - 1

    def _known(self, path: Path) -> Path | None:
        p = tuple(path)
        while p:
            if p in self.lines:
                return p
            p = p[:-1]
        return () if () in self.lines else None

    def line(self, path: Path) -> int | None:
        """The line of the value at `path`, or of its nearest ancestor that has one."""
        p = self._known(path)
        return None if p is None else self.lines[p]

    def pos(self, path: Path) -> tuple[int | None, int | None]:
        """Line and column of the value at `path`, or of its nearest ancestor that has them."""
        p = self._known(path)
        return (None, None) if p is None else (self.lines[p], self.columns.get(p))

    def key_pos(self, path: Path) -> tuple[int | None, int | None]:
        """Line and column of the key naming the value at `path` (of the value itself for a list item)."""
        p = tuple(path)
        return self.keys[p] if p in self.keys else self.pos(p)


class _Refused(Exception):
    def __init__(self, line: int, message: str, code: str, column: int | None = None) -> None:
        self.line = line
        self.message = message
        self.code = code
        self.column = column


#: `key: value` on one line (after any `- `), for the hint that puts a value holding ': ' in quotes.
_KEY_VALUE = re.compile(r"(\s*(?:-\s+)*[^\s:#'\"][^:#]*?:\s+)(\S.*?)\s*$")


def quoting_hint(text: str, line: int) -> str:
    """The hint for `mapping values are not allowed here`: the line's value holds ': ', so it goes in quotes."""
    lines = text.split("\n")
    m = _KEY_VALUE.fullmatch(lines[line]) if 0 <= line < len(lines) else None
    if m is None or m.group(2)[0] in "'\"|>[{":
        return "a value holding ': ' must be put in quotes (error: \"at 10: closed\")"
    quoted = '"' + m.group(2).replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"a value holding ': ' must be put in quotes: {m.group(1).strip()} {quoted}"


def load_yaml(text: str, file: str, line_offset: int = 0) -> tuple[Located | None, list[Problem]]:
    """Read one YAML document as plain data.

    Args:
        text: the YAML text.
        file: its path in the plugin folder, for problems.
        line_offset: added to every line (frontmatter starts after the `---`).

    Returns:
        The data with its lines, or None when it cannot be read, and the problems found.
    """
    yaml = YAML(typ="safe", pure=True)
    try:
        node = yaml.compose(io.StringIO(text))
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 + line_offset if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        reason = e.problem or e.context or "not valid YAML"
        hint = quoting_hint(text, mark.line) if mark is not None and "mapping values are not allowed" in reason else ""
        return None, [Problem(file, line, f"not valid YAML: {reason}", column=column, code="YAML_SYNTAX", hint=hint)]
    except YAMLError as e:
        return None, [Problem(file, None, f"not valid YAML: {e}", code="YAML_SYNTAX")]
    except RecursionError:
        return None, [Problem(file, None, f"YAML nested deeper than {MAX_DEPTH} levels", code="YAML_TOO_DEEP")]
    if node is None:
        return Located(None), []
    out = Located(None, text_lines=text.split("\n"), offset=line_offset)
    try:
        out.data = _convert(node, (), out, 0, line_offset)
    except _Refused as r:
        return None, [Problem(file, r.line, r.message, column=r.column, code=r.code)]
    return out, []


def count_entries(text: str, key: str, cap: int) -> tuple[int, int] | None:
    """(entries, line) of the top-level mapping `text` has under `key`, counting at most `cap` + 1 entries.

    Reads YAML events as they are scanned and stops at the cap, so a manifest declaring thousands of entries is
    refused before the whole text is composed (seconds for half a megabyte). None when there is no such mapping
    or the text is not valid YAML (the full reading reports that).
    """
    stack: list[list[int]] = []  # per open collection: [is a mapping, nodes seen, is the counted mapping]
    top_key: str | None = None
    count, line = 0, 0
    try:
        for event in YAML(typ="safe", pure=True).parse(io.StringIO(text)):
            if isinstance(event, ScalarEvent | AliasEvent | CollectionStartEvent):
                parent = stack[-1] if stack else None
                is_key = parent is not None and parent[0] == 1 and parent[1] % 2 == 0
                if parent is not None and parent[2] and is_key:
                    count += 1
                    if count > cap:
                        return count, line
                if len(stack) == 1 and is_key:
                    top_key = event.value if isinstance(event, ScalarEvent) else None
                if isinstance(event, CollectionStartEvent):
                    counted = len(stack) == 1 and not is_key and top_key == key
                    if counted:
                        line = int(event.start_mark.line) + 1  # where the mapping starts, as `Located` says
                    stack.append(
                        [
                            int(isinstance(event, MappingStartEvent)),
                            0,
                            int(counted and isinstance(event, MappingStartEvent)),
                        ]
                    )
                elif parent is not None:
                    parent[1] += 1
            elif isinstance(event, CollectionEndEvent):
                done = stack.pop()
                if done[2]:
                    return count, line
                if stack:
                    stack[-1][1] += 1
    except (YAMLError, RecursionError):
        return None
    return None


def _line(node: Node, offset: int) -> int:
    return int(node.start_mark.line) + 1 + offset


def _col(node: Node) -> int:
    return int(node.start_mark.column) + 1


def _convert(node: Node, path: Path, out: Located, depth: int, offset: int) -> Any:
    line = _line(node, offset)
    if depth > MAX_DEPTH:
        raise _Refused(line, f"YAML nested deeper than {MAX_DEPTH} levels", "YAML_TOO_DEEP", _col(node))
    if getattr(node, "anchor", None):
        raise _Refused(
            line, "anchors and aliases (&name, *name) are not allowed: write the value out", "YAML_ALIAS", _col(node)
        )
    if node.tag not in _STANDARD_TAGS:
        tag = str(node.tag).replace(_CORE, "!!")
        raise _Refused(line, f"YAML tags like {tag} are not allowed", "YAML_TAG", _col(node))
    out.lines[path] = line
    out.columns[path] = int(node.start_mark.column) + 1
    if isinstance(node, ScalarNode):
        out.styles[path] = node.style
        return _scalar(node)
    if isinstance(node, SequenceNode):
        return [_convert(item, (*path, i), out, depth + 1, offset) for i, item in enumerate(node.value)]
    if isinstance(node, MappingNode):
        result: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                where = _line(key_node, offset)
                raise _Refused(where, "keys must be plain text, not lists or mappings", "YAML_KEY", _col(key_node))
            if key_node.tag == _CORE + "merge" or (key_node.value == "<<" and key_node.style is None):
                raise _Refused(_line(key_node, offset), "merge keys (<<) are not allowed", "YAML_MERGE", _col(key_node))
            key = _scalar(key_node)
            if not isinstance(key, str):
                key = str(key).lower() if isinstance(key, bool) else ("null" if key is None else str(key))
            kline = _line(key_node, offset)
            if key in first_line:
                said = f"duplicate key '{key}' (first at line {first_line[key]})"
                raise _Refused(kline, said, "YAML_DUPLICATE_KEY", _col(key_node))
            first_line[key] = kline
            out.keys[(*path, key)] = (kline, int(key_node.start_mark.column) + 1)
            result[key] = _convert(value_node, (*path, key), out, depth + 1, offset)
        return result
    raise _Refused(line, "unsupported YAML node", "YAML_SYNTAX")


def _scalar(node: ScalarNode) -> Any:
    value: str = node.value
    if node.style is not None or node.tag in (_CORE + "str", _CORE + "timestamp"):
        return value  # quoted or block scalars, and anything the resolver already read as text
    if value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT.fullmatch(value):
        return int(value) if len(value) <= 16 else float(value)  # never a big int from a file
    if _FLOAT.fullmatch(value):
        return float(value)
    return value
