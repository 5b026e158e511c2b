"""Loads a plugin folder into a `Plugin`: manifest, instructions, tools with their steps, shared, specs.

Only the files the manifest names are read. Every problem found is collected (with file and line) so that
`plugin validate` can report them all at once; a plugin with any error does not load.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from tui.lang.documents.explain import pydantic_problems
from tui.lang.documents.jsontext import explain_json_error
from tui.lang.documents.manifest import MAX_TOOLS, Manifest, too_many_tools
from tui.lang.documents.problems import DocumentError, Problem, nearest
from tui.lang.documents.salvage import salvage
from tui.lang.documents.source import MAX_PLUGIN_BYTES, BudgetedReader, PluginSource, SourceError
from tui.lang.documents.tool import STEP_KINDS, StepBase, ToolDef, step_kind
from tui.lang.documents.yamlsafe import Located, Path, count_entries, load_yaml

MANIFEST_FILE = "PLUGIN.md"
#: How many `tools` entries the early count reads before it stops (a flood is refused without being parsed).
TOOLS_SCAN_CAP = 1000
#: Frontmatter larger than this is counted before it is composed (64 tools by file take about 2 KB).
EARLY_COUNT_BYTES = 16 * 1024
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

    unchecked: set[str] = field(default_factory=set)
    """Names bound by steps that did not load: they are reported where they are, and their later uses are not
    (one typo, one error)."""

    broken: set[str] = field(default_factory=set)
    """Top-level keys of a tool whose definition did not load (reported where they are): the tool is checked
    without them (an unknown `effect` is a stand-in; checks that depend on it are skipped)."""

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
    salvaged: dict[str, Tool] = field(default_factory=dict)
    """Tools whose definition did not load, as far as it did (see `Tool.broken`): only for the validator, so
    that their other problems are reported too; never run."""
    stand_ins: frozenset[str] = frozenset()
    """Manifest keys that did not load and hold a stand-in (`_MANIFEST_STAND_INS`): only in a plugin with
    problems, kept for the validator; an `id` among them is not the plugin's."""


def split_frontmatter(text: str) -> tuple[str, str, int] | None:
    """(frontmatter, body, line where the frontmatter's first line is) or None when there is none."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]) + "\n", "\n".join(lines[i + 1 :]).strip("\n"), 1
    return None


#: Every key some step kind allows, for the nearest one to a misspelt step key.
_STEP_KEYS = sorted({f.alias or n for _, m in STEP_KINDS for n, f in m.model_fields.items()})
#: Stand-ins for the required keys of a tool whose definition did not load (see `Tool.broken`).
_STAND_INS: dict[str, Any] = {"title": "?", "description": "?", "effect": "read"}
_TOO_LARGE_HINT = (
    f"a plugin loads at most {MAX_PLUGIN_BYTES // 1024} KB, all its files together: "
    "move large data out of it, or keep fewer recordings"
)


def _validate(model: type[BaseModel], data: Any, file: str, located: Located, base: Path) -> tuple[Any, list[Problem]]:
    try:
        return model.model_validate(data), []
    except ValidationError as e:
        return None, pydantic_problems(e, file, located, base, model)


#: Stand-ins for a manifest's own required keys when they are missing or refused, so its tools, widgets and
#: screens are still checked (never run: the plugin has problems).
_MANIFEST_STAND_INS: dict[str, Any] = {
    "spec": 1, "id": "plugin", "name": "plugin", "description": "being checked", "version": "0.0.0", "author": "?",
}  # fmt: skip
#: Keys whose value the later checks read: when one of them is refused, checking on would report its echoes.
_CHECKS_READ = frozenset(Manifest.model_fields) - set(_MANIFEST_STAND_INS) - {"icon", "i18n"}


def _checkable_manifest(raw: dict[str, Any]) -> tuple[Manifest | None, frozenset[str]]:
    """The manifest without its refused parts (a misspelt key, a missing author), when nothing the other checks
    read was refused: an author sees the tools' and widgets' problems in the same run. With it, the keys that
    hold a stand-in."""
    manifest, broken = salvage(Manifest, raw, _MANIFEST_STAND_INS)
    # a misspelt key (`netwrk`) stands for the key it misses: its absence would echo too
    meant = {key if key in Manifest.model_fields else nearest(key, Manifest.model_fields) for key in broken}
    if manifest is None or meant & _CHECKS_READ:
        return None, frozenset()
    return manifest, frozenset(broken & set(_MANIFEST_STAND_INS))


def source_problem(e: SourceError, file: str, at: tuple[int | None, int | None]) -> Problem:
    """A file that cannot be read, reported where it is named — or in it, when its own text is at fault."""
    hint = _TOO_LARGE_HINT if e.code == "PLUGIN_TOO_LARGE" else ""
    if e.inside is not None:
        inside, line, column = e.inside
        return Problem(inside, line, str(e), column=column, code=e.code, hint=hint)
    return Problem(file, at[0], str(e), column=at[1], code=e.code, hint=hint)


class Loader:
    """One load of one plugin; `load()` returns the plugin or raises DocumentError with every problem."""

    def __init__(self, source: PluginSource) -> None:
        self.reader = BudgetedReader(source)
        self.problems: list[Problem] = []

    def fail(self, file: str, at: tuple[int | None, int | None], message: str, code: str, hint: str = "") -> None:
        self.problems.append(Problem(file, at[0], message, column=at[1], code=code, hint=hint))

    def read_yaml(self, file: str, referenced_at: tuple[str, tuple[int | None, int | None]]) -> Located | None:
        try:
            text = self.reader.read_text(file)
        except SourceError as e:
            self.problems.append(source_problem(e, *referenced_at))
            return None
        located, problems = load_yaml(text, file)
        self.problems.extend(problems)
        return located

    def load(self) -> Plugin:
        try:
            text = self.reader.read_text(MANIFEST_FILE)
        except SourceError as e:
            raise DocumentError([source_problem(e, MANIFEST_FILE, (None, None))]) from None
        parts = split_frontmatter(text)
        if parts is None:
            # An opening line without its closing one is a frontmatter cut short (an editor's save caught half-way).
            opened = text.split("\n", 1)[0].rstrip() == "---"
            reason = (
                "the frontmatter that starts here has no closing '---' line"
                if opened
                else "PLUGIN.md must start with YAML frontmatter between '---' lines"
            )
            code = "FRONTMATTER_UNCLOSED" if opened else "FRONTMATTER_MISSING"
            raise DocumentError([Problem(MANIFEST_FILE, 1, reason, column=1, code=code)])
        front, body, offset = parts
        # A large frontmatter is counted from its YAML events first: a flood of tools is refused before it is
        # composed (seconds). A small one (every real manifest) costs less to compose than to scan twice.
        counted = count_entries(front, "tools", TOOLS_SCAN_CAP) if len(front) > EARLY_COUNT_BYTES else None
        if counted is not None and counted[0] > MAX_TOOLS:
            many = f"more than {TOOLS_SCAN_CAP}" if counted[0] > TOOLS_SCAN_CAP else str(counted[0])
            problem = Problem(
                MANIFEST_FILE, counted[1] + offset, f"tools: {too_many_tools(many)}", code="TOO_MANY_TOOLS"
            )
            raise DocumentError([problem])
        located, problems = load_yaml(front, MANIFEST_FILE, line_offset=offset)
        if located is None:
            raise DocumentError(problems)
        if not isinstance(located.data, dict):
            said = "the frontmatter must be a mapping of keys"
            raise DocumentError([Problem(MANIFEST_FILE, 1, said, column=1, code="NOT_A_MAPPING")])
        raw = dict(located.data)
        tools_value = raw.get("tools")
        tools_raw: dict[str, Any] = tools_value if isinstance(tools_value, dict) else {}
        inline_tools = {k: v for k, v in tools_raw.items() if isinstance(v, dict)}
        if inline_tools:
            # Inline tools are checked on their own below, so their errors point at their own lines.
            raw["tools"] = {k: "<inline>" if isinstance(v, dict) else v for k, v in tools_raw.items()}
        manifest, problems = _validate(Manifest, raw, MANIFEST_FILE, located, ())
        self.problems.extend(problems)
        stand_ins: frozenset[str] = frozenset()
        if manifest is None:
            manifest, stand_ins = _checkable_manifest(raw)
        tools: dict[str, Tool] = {}
        salvaged: dict[str, Tool] = {}
        if len(tools_raw) > MAX_TOOLS:
            tools_raw = {}  # the manifest model reports it; reading thousands of tool files would be the flood
        for name, entry in tools_raw.items():
            if name in inline_tools:
                tool = self.load_tool(name, inline_tools[name], MANIFEST_FILE, located, ("tools", name))
            elif isinstance(entry, str):
                tfile = self.read_yaml(entry, (MANIFEST_FILE, located.pos(("tools", name))))
                if tfile is None:
                    continue
                tool = self.load_tool(name, tfile.data, entry, tfile, ())
            else:
                continue  # already reported by the manifest model
            if tool is not None:
                (salvaged if tool.broken else tools)[name] = tool
        constants, functions, shared_located = self.load_shared(manifest, located)
        widgets = self.load_specs("widgets", raw, located)
        screens = self.load_specs("screens", raw, located)
        plugin = None
        if manifest is not None:
            files = dict(self.reader.texts)
            plugin = Plugin(
                manifest, body, tools, constants, functions, widgets, screens, located, shared_located, files, salvaged
            )
            plugin.stand_ins = stand_ins
        if self.problems or plugin is None:
            raise DocumentError(self.problems, plugin)
        return plugin

    def load_tool(self, name: str, data: Any, file: str, located: Located, base: Path) -> Tool | None:
        if not isinstance(data, dict):
            self.fail(file, located.pos(base), f"tool {name!r} must be a mapping of keys", "NOT_A_MAPPING")
            return None
        raw = dict(data)
        steps_raw = raw.pop("steps", [])
        definition, problems = _validate(ToolDef, raw, file, located, base)
        self.problems.extend(problems)
        if not isinstance(steps_raw, list):
            self.fail(file, located.pos((*base, "steps")), "steps must be a list", "NOT_A_LIST")
            return None
        unchecked: set[str] = set()
        steps = self.load_steps(steps_raw, file, located, (*base, "steps"), unchecked)
        broken: set[str] = set()
        if definition is None:
            definition, broken = salvage(ToolDef, raw, _STAND_INS)
            if definition is None or broken & {"constants", "functions"}:
                return None  # without the names they bind, every use of them would be one more error
        definition.steps = steps_raw
        return Tool(name, definition, steps, file, located, base, unchecked, broken)

    def load_steps(self, items: list[Any], file: str, located: Located, base: Path, unchecked: set[str]) -> list[Step]:
        """The steps that load; the names bound by those that do not go into `unchecked`."""
        out = []
        for i, item in enumerate(items):
            path = (*base, i)
            line = located.line(path)
            if not isinstance(item, dict):
                said = "a step must be a mapping like { let: x, value: … }"
                self.fail(file, located.pos(path), said, "STEP_NOT_A_MAPPING")
                continue
            if isinstance(item.get("let"), str):
                unchecked.add(item["let"])  # taken back below when the step loads
            kind = step_kind(item)
            if kind is None:
                self.unknown_step(item, i, file, located, path)
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
                    self.fail(file, located.pos((*path, k)), f"{k} must be a list of steps", "NOT_A_LIST")
                    continue
                children[k] = self.load_steps(sub, file, located, (*path, k), unchecked)
            if model is not None:
                out.append(Step(key, model, file, path, line, children))
                if model.let is not None:
                    unchecked.discard(model.let)
        return out

    def unknown_step(self, item: dict[str, Any], i: int, file: str, located: Located, path: Path) -> None:
        """A step with none of the kind keys: its misspelt key, at that key, with the nearest step key."""
        kinds = [k for k, _ in STEP_KINDS]
        strangers = [k for k in item if k not in _STEP_KEYS]
        for key in strangers:
            best = nearest(key, kinds) or nearest(key, _STEP_KEYS)
            hint = f"did you mean {best!r}?" if best else f"a step has one of {', '.join(kinds)}"
            self.fail(file, located.key_pos((*path, key)), f"unknown step key '{key}'", "STEP_UNKNOWN_KIND", hint)
        if not strangers:
            said = f"step {i + 1} has none of the step keys ({', '.join(kinds)})"
            self.fail(file, located.pos(path), said, "STEP_UNKNOWN_KIND")

    def load_shared(
        self, manifest: Manifest | None, located: Located
    ) -> tuple[dict[str, Any], dict[str, str], Located | None]:
        if manifest is None or manifest.shared is None:
            return {}, {}, None
        shared = self.read_yaml(manifest.shared, (MANIFEST_FILE, located.pos(("shared",))))
        if shared is None:
            return {}, {}, None
        data = shared.data or {}
        file = manifest.shared
        if not isinstance(data, dict):
            said = "the shared file must be a mapping with constants and functions"
            self.fail(file, (1, 1), said, "NOT_A_MAPPING")
            return {}, {}, shared
        unknown = set(data) - {"constants", "functions"}
        for k in sorted(unknown):
            hint = nearest(k, ["constants", "functions"])
            said = f"unknown key '{k}' (a shared file has constants and functions)"
            self.fail(file, shared.key_pos((k,)), said, "UNKNOWN_KEY", f"did you mean {hint!r}?" if hint else "")
        constants = data.get("constants") or {}
        functions = data.get("functions") or {}
        if not isinstance(constants, dict):
            self.fail(file, shared.pos(("constants",)), "constants must be a mapping", "NOT_A_MAPPING")
            constants = {}
        if not isinstance(functions, dict) or not all(isinstance(v, str) for v in functions.values()):
            said = "functions must map signatures to expressions"
            self.fail(file, shared.pos(("functions",)), said, "NOT_A_MAPPING")
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
            try:
                text = self.reader.read_text(path)
            except SourceError as e:
                self.problems.append(source_problem(e, MANIFEST_FILE, located.pos((key, name))))
                continue
            try:
                specs[name] = json.loads(text)
            except json.JSONDecodeError as e:
                said = explain_json_error(text, e)
                self.fail(path, (said.line, said.column), said.message, "JSON_SYNTAX", said.hint)
            except RecursionError:
                self.fail(path, (None, None), "JSON nested too deeply", "JSON_TOO_DEEP")
        return specs


def load_plugin(source: PluginSource) -> Plugin:
    """Load and check the structure of a plugin.

    Raises:
        DocumentError: with every problem found, each naming its file and line.
    """
    return Loader(source).load()
