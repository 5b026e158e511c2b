"""Loads a plugin folder into a `Plugin`: manifest, instructions, tools with their steps, shared, specs.

Only the files the manifest names are read. Every problem found is collected (with file and line) so that
`plugin validate` can report them all at once; a plugin with any error does not load.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from tui.lang.documents.manifest import MAX_TOOLS, Manifest, too_many_tools
from tui.lang.documents.problems import DocumentError, Problem
from tui.lang.documents.source import BudgetedReader, PluginSource, SourceError
from tui.lang.documents.tool import STEP_KINDS, StepBase, ToolDef, step_kind
from tui.lang.documents.yamlsafe import Located, Path, count_entries, load_yaml

MANIFEST_FILE = "PLUGIN.md"
#: How many `tools` entries the early count reads before it stops (a flood is refused without being parsed).
TOOLS_SCAN_CAP = 1000
#: Frontmatter larger than this is counted before it is composed (64 tools by file take about 2 KB).
EARLY_COUNT_BYTES = 16 * 1024
#: Fields whose text is one expression (seed page, 表达式); an unquoted `{ … }` there is a YAML mapping.
EXPRESSION_FIELDS = frozenset({"value", "each", "if", "check", "return", "next", "items", "from", "input", "args"})
#: The fields of each step kind that hold nested steps.
NESTED_BY_KIND: dict[str, tuple[str, ...]] = {
    "each": ("steps",),
    "cache": ("steps",),
    "if": ("then", "else"),
    "try": ("try", "catch"),
}


@dataclass
class Step:
    """A step, validated: its kind, its model, its nested steps and where it is written."""

    kind: str
    model: StepBase
    file: str
    path: Path
    line: int | None
    children: dict[str, list[Step]] = field(default_factory=dict)
    """Nested steps by field (`steps`, `then`, `else`, `try`, `catch`)."""


@dataclass
class Tool:
    """A tool of the plugin, with where each of its values is written."""

    name: str
    definition: ToolDef
    steps: list[Step]
    file: str
    located: Located
    base: Path
    """Path of the tool inside its file (`()` for a tool file, `('tools', name)` inline)."""

    def line(self, *path: str | int) -> int | None:
        """The line of a value of this tool."""
        return self.located.line((*self.base, *path))


@dataclass
class Plugin:
    """A loaded plugin document."""

    manifest: Manifest
    instructions: str
    """The Markdown body of PLUGIN.md: the assistant's instructions."""
    tools: dict[str, Tool]
    shared_constants: dict[str, Any]
    shared_functions: dict[str, str]
    widgets: dict[str, Any]
    """Widget specs (parsed JSON) by name."""
    screens: dict[str, Any]
    """Screen specs (parsed JSON) by name."""
    manifest_located: Located
    shared_located: Located | None
    files: dict[str, str]
    """Every file read, by path: exactly what was loaded (for content hashes)."""


def split_frontmatter(text: str) -> tuple[str, str, int] | None:
    """(frontmatter, body, line where the frontmatter's first line is) or None when there is none."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]) + "\n", "\n".join(lines[i + 1 :]).strip("\n"), 1
    return None


def pydantic_problems(err: ValidationError, file: str, located: Located, base: Path = ()) -> list[Problem]:
    """Pydantic's errors as problems at the line of the value they are about, in words an author reads."""
    out = []
    for e in err.errors():
        loc: Path = tuple(x for x in e["loc"] if isinstance(x, str | int))
        where = ".".join(str(x) for x in loc)
        kind = e["type"]
        msg = str(e["msg"]).removeprefix("Value error, ")
        if kind == "missing":
            text = f"missing required key '{loc[-1]}'" + (f" in {'.'.join(map(str, loc[:-1]))}" if loc[:-1] else "")
            line = located.line((*base, *loc[:-1]))
        elif kind == "extra_forbidden":
            text = f"unknown key '{loc[-1]}'" + (f" in {'.'.join(map(str, loc[:-1]))}" if loc[:-1] else "")
            line = located.line((*base, *loc))
        elif kind == "string_type" and loc and loc[-1] in EXPRESSION_FIELDS and isinstance(e["input"], dict | list):
            shape = "a mapping" if isinstance(e["input"], dict) else "a list"
            text = (
                f"{where} is an expression, but YAML read it as {shape}: put it in quotes "
                f'("{{ a: 1 }}") or write it as a block ({loc[-1]}: |)'
            )
            line = located.line((*base, *loc))
        elif kind == "string_type":
            got = e["input"]
            text = f"{where}: expected text, but YAML read {got!r} as {_yaml_type(got)}: put it in quotes"
            line = located.line((*base, *loc))
        else:
            if kind in ("too_long", "too_short") and isinstance(e["input"], str):  # pydantic says "items" for text
                most = kind == "too_long"
                bound = e["ctx"]["max_length" if most else "min_length"]
                msg = f"{len(e['input'])} characters, {'at most' if most else 'at least'} {bound} characters allowed"
            text = f"{where}: {msg}" if where else msg
            line = located.line((*base, *loc))
        out.append(Problem(file, line, text))
    return out


def _yaml_type(v: Any) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int | float):
        return "a number"
    if v is None:
        return "null"
    return "a mapping" if isinstance(v, dict) else "a list" if isinstance(v, list) else "something else"


def _validate(model: type[BaseModel], data: Any, file: str, located: Located, base: Path) -> tuple[Any, list[Problem]]:
    try:
        return model.model_validate(data), []
    except ValidationError as e:
        return None, pydantic_problems(e, file, located, base)


class Loader:
    """One load of one plugin; `load()` returns the plugin or raises DocumentError with every problem."""

    def __init__(self, source: PluginSource) -> None:
        self.reader = BudgetedReader(source)
        self.problems: list[Problem] = []

    def fail(self, file: str, line: int | None, message: str, column: int | None = None) -> None:
        self.problems.append(Problem(file, line, message, column=column))

    def read_yaml(self, file: str, referenced_at: tuple[str, int | None]) -> Located | None:
        try:
            text = self.reader.read_text(file)
        except SourceError as e:
            self.fail(referenced_at[0], referenced_at[1], str(e))
            return None
        located, problems = load_yaml(text, file)
        self.problems.extend(problems)
        return located

    def load(self) -> Plugin:
        try:
            text = self.reader.read_text(MANIFEST_FILE)
        except SourceError as e:
            raise DocumentError([Problem(MANIFEST_FILE, None, str(e))]) from None
        parts = split_frontmatter(text)
        if parts is None:
            # An opening line without its closing one is a frontmatter cut short (an editor's save caught half-way).
            opened = text.split("\n", 1)[0].rstrip() == "---"
            reason = (
                "the frontmatter that starts here has no closing '---' line"
                if opened
                else "PLUGIN.md must start with YAML frontmatter between '---' lines"
            )
            raise DocumentError([Problem(MANIFEST_FILE, 1, reason)])
        front, body, offset = parts
        # A large frontmatter is counted from its YAML events first: a flood of tools is refused before it is
        # composed (seconds). A small one (every real manifest) costs less to compose than to scan twice.
        counted = count_entries(front, "tools", TOOLS_SCAN_CAP) if len(front) > EARLY_COUNT_BYTES else None
        if counted is not None and counted[0] > MAX_TOOLS:
            many = f"more than {TOOLS_SCAN_CAP}" if counted[0] > TOOLS_SCAN_CAP else str(counted[0])
            raise DocumentError([Problem(MANIFEST_FILE, counted[1] + offset, f"tools: {too_many_tools(many)}")])
        located, problems = load_yaml(front, MANIFEST_FILE, line_offset=offset)
        if located is None:
            raise DocumentError(problems)
        if not isinstance(located.data, dict):
            raise DocumentError([Problem(MANIFEST_FILE, 1, "the frontmatter must be a mapping of keys")])
        raw = dict(located.data)
        tools_value = raw.get("tools")
        tools_raw: dict[str, Any] = tools_value if isinstance(tools_value, dict) else {}
        inline_tools = {k: v for k, v in tools_raw.items() if isinstance(v, dict)}
        if inline_tools:
            # Inline tools are checked on their own below, so their errors point at their own lines.
            raw["tools"] = {k: "<inline>" if isinstance(v, dict) else v for k, v in tools_raw.items()}
        manifest, problems = _validate(Manifest, raw, MANIFEST_FILE, located, ())
        self.problems.extend(problems)
        tools: dict[str, Tool] = {}
        if len(tools_raw) > MAX_TOOLS:
            tools_raw = {}  # the manifest model reports it; reading thousands of tool files would be the flood
        for name, entry in tools_raw.items():
            if name in inline_tools:
                tool = self.load_tool(name, inline_tools[name], MANIFEST_FILE, located, ("tools", name))
            elif isinstance(entry, str):
                tfile = self.read_yaml(entry, (MANIFEST_FILE, located.line(("tools", name))))
                if tfile is None:
                    continue
                tool = self.load_tool(name, tfile.data, entry, tfile, ())
            else:
                continue  # already reported by the manifest model
            if tool is not None:
                tools[name] = tool
        constants, functions, shared_located = self.load_shared(manifest, located)
        widgets = self.load_specs("widgets", raw, located)
        screens = self.load_specs("screens", raw, located)
        plugin = None
        if manifest is not None:
            files = dict(self.reader.texts)
            plugin = Plugin(
                manifest, body, tools, constants, functions, widgets, screens, located, shared_located, files
            )
        if self.problems or plugin is None:
            raise DocumentError(self.problems, plugin)
        return plugin

    def load_tool(self, name: str, data: Any, file: str, located: Located, base: Path) -> Tool | None:
        if not isinstance(data, dict):
            self.fail(file, located.line(base), f"tool {name!r} must be a mapping of keys")
            return None
        raw = dict(data)
        steps_raw = raw.pop("steps", [])
        definition, problems = _validate(ToolDef, raw, file, located, base)
        self.problems.extend(problems)
        if not isinstance(steps_raw, list):
            self.fail(file, located.line((*base, "steps")), "steps must be a list")
            return None
        steps = self.load_steps(steps_raw, file, located, (*base, "steps"))
        if definition is None:
            return None
        definition.steps = steps_raw
        return Tool(name, definition, steps, file, located, base)

    def load_steps(self, items: list[Any], file: str, located: Located, base: Path) -> list[Step]:
        out = []
        for i, item in enumerate(items):
            path = (*base, i)
            line = located.line(path)
            if not isinstance(item, dict):
                self.fail(file, line, "a step must be a mapping like { let: x, value: … }")
                continue
            kind = step_kind(item)
            if kind is None:
                known = ", ".join(k for k, _ in STEP_KINDS)
                self.fail(file, line, f"step {i + 1} has none of the step keys ({known})")
                continue
            key, model_cls = kind
            nested = {k: item[k] for k in NESTED_BY_KIND.get(key, ()) if k in item}
            # Nested steps are checked one by one below; the model sees empty lists in their place.
            placeholders: dict[str, list[Any]] = {k: [] for k in nested}
            model, problems = _validate(model_cls, {**item, **placeholders}, file, located, path)
            self.problems.extend(problems)
            children = {}
            for k, sub in nested.items():
                if not isinstance(sub, list):
                    self.fail(file, located.line((*path, k)), f"{k} must be a list of steps")
                    continue
                children[k] = self.load_steps(sub, file, located, (*path, k))
            if model is not None:
                out.append(Step(key, model, file, path, line, children))
        return out

    def load_shared(
        self, manifest: Manifest | None, located: Located
    ) -> tuple[dict[str, Any], dict[str, str], Located | None]:
        if manifest is None or manifest.shared is None:
            return {}, {}, None
        shared = self.read_yaml(manifest.shared, (MANIFEST_FILE, located.line(("shared",))))
        if shared is None:
            return {}, {}, None
        data = shared.data or {}
        if not isinstance(data, dict):
            self.fail(manifest.shared, 1, "the shared file must be a mapping with constants and functions")
            return {}, {}, shared
        unknown = set(data) - {"constants", "functions"}
        for k in sorted(unknown):
            self.fail(
                manifest.shared, shared.line((k,)), f"unknown key '{k}' (a shared file has constants and functions)"
            )
        constants = data.get("constants") or {}
        functions = data.get("functions") or {}
        if not isinstance(constants, dict):
            self.fail(manifest.shared, shared.line(("constants",)), "constants must be a mapping")
            constants = {}
        if not isinstance(functions, dict) or not all(isinstance(v, str) for v in functions.values()):
            self.fail(manifest.shared, shared.line(("functions",)), "functions must map signatures to expressions")
            functions = {}
        return constants, functions, shared

    def load_specs(self, key: str, raw: dict[str, Any], located: Located) -> dict[str, Any]:
        specs: dict[str, Any] = {}
        entries = raw.get(key)
        if not isinstance(entries, dict):
            return specs
        for name, path in entries.items():
            if not isinstance(path, str):
                continue  # reported by the manifest model
            line = located.line((key, name))
            try:
                text = self.reader.read_text(path)
            except SourceError as e:
                self.fail(MANIFEST_FILE, line, str(e))
                continue
            try:
                specs[name] = json.loads(text)
            except json.JSONDecodeError as e:
                self.fail(path, e.lineno, f"not valid JSON: {e.msg}", e.colno)
            except RecursionError:
                self.fail(path, None, "JSON nested too deeply")
        return specs


def load_plugin(source: PluginSource) -> Plugin:
    """Load and check the structure of a plugin.

    Raises:
        DocumentError: with every problem found, each naming its file and line.
    """
    return Loader(source).load()
