"""YAML as data only: the parse events are read here, and this module types the scalars itself.

Why not a loader's constructors: YAML 1.1 turns `no` into false, `12:30` into 750 and `0755` into 493, and
even YAML 1.2 reads `0755` as 755. Here a plain scalar is a number only when it is written as JSON writes
one, `true`/`false` and `null`/`~`/empty are what they say, and everything else is text. Building the data from
the events gives every value its line (for messages), finds duplicate keys with both lines, and refuses anchors,
aliases, tags and deep nesting before anything is expanded (an alias bomb never grows).

The events come from libyaml (`ruamel.yaml.clib`) when it reads the text — three times faster than ruamel's
pure-Python parser, which reads what libyaml refuses (YAML 1.2 forms) and words every syntax error
(`tests/lang/documents/test_yaml_fast.py` compares the two)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from ruamel.yaml import YAML
from ruamel.yaml.composer import ComposerError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    Event,
    MappingStartEvent,
    ScalarEvent,
)

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
    out = Located(None, text_lines=text.split("\n"), offset=line_offset)
    try:
        try:
            found = _compose(_events(text, pure=False), out, line_offset)
        except _FastFailed:  # libyaml refused it (or is not installed): the YAML 1.2 reader decides, and words it
            out = Located(None, text_lines=text.split("\n"), offset=line_offset)
            found = _compose(_events(text, pure=True), out, line_offset)
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 + line_offset if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        reason = e.problem or e.context or "not valid YAML"
        hint = quoting_hint(text, mark.line) if mark is not None and "mapping values are not allowed" in reason else ""
        return None, [Problem(file, line, f"not valid YAML: {reason}", column=column, code="YAML_SYNTAX", hint=hint)]
    except YAMLError as e:
        return None, [Problem(file, None, f"not valid YAML: {e}", code="YAML_SYNTAX")]
    except _Refused as r:
        return None, [Problem(file, r.line, r.message, column=r.column, code=r.code)]
    if found is _NOTHING:
        return Located(None), []
    out.data = found
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
        for event in _all_events(text):
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


class _FastFailed(Exception):
    """libyaml could not read the text (or is missing): read it again with the pure-Python parser."""


def _events(text: str, pure: bool) -> Iterator[Event]:
    """The parse events of `text`: from libyaml (ruamel.yaml.clib) unless `pure`, from ruamel's YAML 1.2 parser
    otherwise. libyaml is about three times faster; it refuses a few YAML 1.2 forms (a plain scalar holding `:` in
    a flow collection) and words its errors differently, so any refusal of it is `_FastFailed` and the caller reads
    the text again with the pure parser, which has the last word. Only events are taken from libyaml, never its
    composer: that one recurses in C and a hostile `- - - …` or `[[[…` ends the process (a segfault)."""
    yaml = YAML(typ="safe", pure=pure)
    if pure:
        yield from yaml.parse(io.StringIO(text))
        return
    if not _HAVE_LIBYAML:
        raise _FastFailed
    try:
        yield from yaml.parse(io.StringIO(text))
    except YAMLError:
        raise _FastFailed from None


def _all_events(text: str) -> Iterator[Event]:
    """Every event, from libyaml when it reads the whole text, else from the pure parser (a refusal midway
    starts again: the events already given are given again)."""
    try:
        yield from list(_events(text, pure=False))
    except _FastFailed:
        yield from _events(text, pure=True)


#: libyaml's parser, when ruamel.yaml.clib is installed (a wheel for every common platform; pure Python otherwise).
_HAVE_LIBYAML = "clib" in YAML(typ="safe", pure=False).Parser.__module__

_NOTHING: Any = object()


@dataclass
class _Open:
    """A mapping or list being read, and (for a mapping) the key waiting for its value."""

    value: dict[str, Any] | list[Any]
    path: Path
    key: str | None = None
    first_line: dict[str, int] = field(default_factory=dict)


def _compose(events: Iterable[Event], out: Located, offset: int) -> Any:
    """The data of the one document in `events`, its places recorded in `out` — without recursion, so nesting
    is refused at `MAX_DEPTH` before anything deeper is built. Anchors, aliases, tags other than the standard ones,
    merge keys, keys that are not plain text and duplicate keys are refused with their line and column."""
    stack: list[_Open] = []
    root: Any = _NOTHING
    document_mark = None
    for ev in events:
        if isinstance(ev, DocumentStartEvent):
            if document_mark is not None:
                raise ComposerError(
                    "expected a single document in the stream",
                    document_mark,
                    "but found another document",
                    ev.start_mark,
                )
            document_mark = ev.start_mark
            continue
        line, col = int(ev.start_mark.line) + 1 + offset, int(ev.start_mark.column) + 1
        if isinstance(ev, CollectionEndEvent):
            stack.pop()
            continue
        if not isinstance(ev, ScalarEvent | CollectionStartEvent | AliasEvent):
            continue
        top = stack[-1] if stack else None
        if top is not None and isinstance(top.value, dict):
            if top.key is None:
                _key(ev, top, out, line, col)
                continue
            if isinstance(ev, ScalarEvent) and ev.value == "" and not ev.style:
                # A value left out (`a:`) is where its key is: the parsers place it differently (libyaml after the
                # colon, ruamel's at the next token, which may be lines further down).
                line, col = out.keys[(*top.path, top.key)]
        if len(stack) > MAX_DEPTH:
            raise _Refused(line, f"YAML nested deeper than {MAX_DEPTH} levels", "YAML_TOO_DEEP", col)
        _check_node(ev, line, col)
        if top is None:
            path: Path = ()
        elif isinstance(top.value, list):
            path = (*top.path, len(top.value))
        else:
            path = (*top.path, cast(str, top.key))
        out.lines[path] = line
        out.columns[path] = col
        if isinstance(ev, ScalarEvent):
            style = ev.style or None  # libyaml says '' for plain, ruamel's parser None
            out.styles[path] = style
            value: Any = _scalar(ev.value, style, ev.tag)
        else:
            value = {} if isinstance(ev, MappingStartEvent) else []
        if top is None:
            root = value
        elif isinstance(top.value, list):
            top.value.append(value)
        else:
            top.value[cast(str, top.key)] = value
            top.key = None
        if not isinstance(ev, ScalarEvent):
            stack.append(_Open(value, path))
    return root


def _check_node(ev: Event, line: int, col: int) -> None:
    if isinstance(ev, AliasEvent) or getattr(ev, "anchor", None):
        raise _Refused(
            line, "anchors and aliases (&name, *name) are not allowed: write the value out", "YAML_ALIAS", col
        )
    tag = getattr(ev, "tag", None)
    if tag is not None and tag != "!" and tag not in _STANDARD_TAGS:
        raise _Refused(line, f"YAML tags like {str(tag).replace(_CORE, '!!')} are not allowed", "YAML_TAG", col)


def _key(ev: Event, top: _Open, out: Located, line: int, col: int) -> None:
    """Take a mapping's key (the event in key position)."""
    if not isinstance(ev, ScalarEvent):
        if isinstance(ev, AliasEvent):
            _check_node(ev, line, col)
        raise _Refused(line, "keys must be plain text, not lists or mappings", "YAML_KEY", col)
    _check_node(ev, line, col)
    style = ev.style or None
    if ev.tag == _CORE + "merge" or (ev.value == "<<" and style is None):
        raise _Refused(line, "merge keys (<<) are not allowed", "YAML_MERGE", col)
    key = _scalar(ev.value, style, ev.tag)
    if not isinstance(key, str):
        key = str(key).lower() if isinstance(key, bool) else ("null" if key is None else str(key))
    if key in top.first_line:
        said = f"duplicate key '{key}' (first at line {top.first_line[key]})"
        raise _Refused(line, said, "YAML_DUPLICATE_KEY", col)
    top.first_line[key] = line
    out.keys[(*top.path, key)] = (line, col)
    top.key = key


def _scalar(value: str, style: str | None, tag: str | None) -> Any:
    if style is not None or tag in (_CORE + "str", _CORE + "timestamp", "!"):
        return value  # quoted or block scalars, and what a tag says is text
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
