"""Checking a recorded-test file (tests/*.yaml) before it runs: `plugin validate` and `plugin test` both say
what is wrong with it, at file:line:column.

Beyond the format (the models in `model.py`): an unknown key is named with the key it most likely meant, the
tool must be one of the plugin's, a case's `settings:` must be settings the plugin declares with values their
declarations accept, `now` must be a time, abilities must exist, and fixture files must be there.
"""

from __future__ import annotations

import difflib
import io
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, Node, SequenceNode

from tui.lang.documents.explain import pydantic_problems, required_hint, typo_of_required
from tui.lang.documents.loader import Plugin
from tui.lang.documents.manifest import ABILITIES
from tui.lang.documents.problems import Problem
from tui.lang.documents.salvage import salvage
from tui.lang.documents.source import PluginSource, SourceError, check_path
from tui.lang.documents.tool import InputField
from tui.lang.documents.yamlsafe import Located, Path, load_yaml
from tui.lang.steps.errors import ToolError
from tui.lang.steps.inputs import check_input, check_value
from tui.lang.testing.fixtures import FixtureReader
from tui.lang.testing.model import Case, TestFile, iso_now

Position = tuple[int, int]
"""1-based line and column."""


def parse_checked(text: str, path: str) -> tuple[TestFile | None, list[Problem], Where | None]:
    """The format checks of one test file's text: YAML, then unknown keys (with a did-you-mean), then types."""
    located, problems = load_yaml(text, path)
    if located is None:
        return None, problems, None
    at = Where(path, located, text)
    try:
        return TestFile.model_validate(located.data), _unknown_keys(located.data, TestFile, (), at, {}), at
    except ValidationError as e:
        # unknown keys are said here, with what was meant; pydantic's words for the rest
        unknown = _unknown_keys(located.data, TestFile, (), at, typo_of_required(e))
        rest = [p for p in pydantic_problems(e, path, located) if not p.message.startswith("unknown key '")]
        return None, unknown + rest, at


def check_test_file(
    plugin: Plugin, source: PluginSource, path: str, fixtures: FixtureReader | None = None
) -> tuple[TestFile | None, list[Problem]]:
    """Every check of one test file against its plugin; the file is None when it should not run."""
    try:
        text = source.read_bytes(check_path(path)).decode("utf-8")
    except (SourceError, UnicodeDecodeError) as e:
        return None, [Problem(path, None, str(e), code="TEST_FILE_UNREADABLE")]
    tf, problems, at = parse_checked(text, path)
    if at is None:
        return None, problems
    data = at.located.data if isinstance(at.located.data, dict) else {}
    tool = tf.tool if tf is not None else data.get("tool")
    if isinstance(tool, str) and tool not in plugin.tools:  # said together with the cases' own checks
        said = f"tool {tool!r} is not a tool of the plugin"
        hint = _meant(tool, list(plugin.tools), "it has")
        if tool not in plugin.manifest.tools and _readable(source, f"tools/{tool}.yaml"):
            # the file is there, the manifest does not list it (a starter PLUGIN.md has no `tools:` yet)
            listed = f"tools: {{ {tool}: tools/{tool}.yaml }}"
            hint = f"tools/{tool}.yaml is there but PLUGIN.md does not list it: add {listed}"
        problems.append(at.problem(("tool",), said, "TEST_TOOL_UNKNOWN", hint))
    if tf is not None:
        now, cases = tf.now, list(enumerate(tf.cases))
    else:  # each case without its bad parts (said above), at its own index: its other checks still run
        now = data.get("now") if isinstance(data.get("now"), str) else None
        raw = data.get("cases")
        raw = raw if isinstance(raw, list) else []
        cases = [
            (i, c) for i, c in ((i, salvage(Case, c, {"name": "?"})[0]) for i, c in enumerate(raw)) if c is not None
        ]
    problems += _case_problems(plugin, now, cases, at, fixtures or FixtureReader(source))
    if isinstance(tool, str) and tool in plugin.tools:
        problems += _input_problems(plugin.tools[tool].definition.input, cases, at)
    return (None if problems else tf), problems


class Where:
    """Positions in one test file: a key's own line and column, else the line of its value."""

    def __init__(self, file: str, located: Located, text: str) -> None:
        self.file, self.located, self.text = file, located, text
        self._keys: dict[Path, Position] | None = None

    def problem(self, path: Path, message: str, code: str, hint: str = "") -> Problem:
        """A problem at the key `path` ends with (line and column), or at the line of its value."""
        if self._keys is None:  # composed again only when there is something to point at (replays stay quick)
            self._keys = key_positions(self.text)
        pos = self._keys.get(path)
        if pos is None:
            return Problem(self.file, self.located.line(path), message, code=code, hint=hint)
        return Problem(self.file, pos[0], message, column=pos[1], code=code, hint=hint)


def _case_problems(
    plugin: Plugin, now: str | None, cases: list[tuple[int, Case]], at: Where, fixtures: FixtureReader
) -> list[Problem]:
    declared = plugin.manifest.settings
    known_abilities = [f"{g}.{op}" for g, ops in ABILITIES.items() for op in ops]
    out = []
    for when, path in [(now, ("now",)), *((c.now, ("cases", i, "now")) for i, c in cases)]:
        try:
            if when is not None:
                iso_now(when)
        except Exception:  # the date parser's own errors; any of them means the same to the author
            said = f"now: {when!r} is not a time"
            out.append(at.problem(path, said, "TEST_NOW", "write it like '2026-11-30 09:00' (Beijing time)"))
    for i, case in cases:
        for key, value in case.settings.items():
            where = ("cases", i, "settings", key)
            if key not in declared:
                said = f"settings: {key!r} is not a setting of the plugin"
                hint = _meant(key, list(declared), "it has") or "the plugin declares no settings"
                out.append(at.problem(where, said, "TEST_SETTING_UNKNOWN", hint))
                continue
            try:
                check_value("settings", key, declared[key], value)
            except ToolError as e:
                out.append(at.problem(where, str(e), "TEST_SETTING_VALUE"))
        names = [("abilities", j, "call", a.call) for j, a in enumerate(case.abilities)]
        names += [("expectCalls", j, "ability", c.ability) for j, c in enumerate(case.expectCalls or [])]
        for group, j, field, name in names:
            if name not in known_abilities:
                said = f"{group}: {name!r} is not a host ability"
                hint = _meant(name, known_abilities)
                out.append(at.problem(("cases", i, group, j, field), said, "ABILITY_UNKNOWN", hint))
        for j, ex in enumerate(case.http):
            if ex.response.file is not None:
                try:
                    fixtures.read(ex.response.file)
                except SourceError as e:
                    at_file = ("cases", i, "http", j, "response", "file")
                    out.append(at.problem(at_file, f"fixture: {e}", "FIXTURE_UNREADABLE"))
    return out


def _input_problems(fields: dict[str, InputField], cases: list[tuple[int, Case]], at: Where) -> list[Problem]:
    """A case that expects a result gives an input the tool accepts: found here, not as a failing run in `plugin
    test` (an outsider's `floor: '2'` for an integer field). A case with `expectError` may give a bad one."""
    out = []
    for i, case in cases:
        if case.expectError is not None:
            continue
        try:
            check_input(fields, case.input)
        except ToolError as e:
            where: Path = ("cases", i, "input", e.field) if e.field and e.field in case.input else ("cases", i, "input")
            hint = "the case expects a result, so the tool must accept its input (or give expectError)"
            out.append(at.problem(where, e.message, "TEST_INPUT", hint))
    return out


def _readable(source: PluginSource, path: str) -> bool:
    try:
        source.read_bytes(check_path(path))
    except (SourceError, ValueError):
        return False
    return True


def _meant(word: str, choices: list[str], listed: str = "") -> str:
    """A hint: "did you mean 'x'?" for the closest choice, or the choices themselves after `listed`, or ''."""
    lower = {c.lower(): c for c in choices}
    close = [lower[word.lower()]] if word.lower() in lower else difflib.get_close_matches(word, choices, 1, 0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    return f"{listed}: {', '.join(choices)}" if listed and choices else ""


def _unknown_keys(data: Any, model: type[BaseModel], path: Path, at: Where, meant: dict[Path, Path]) -> list[Problem]:
    """Keys a model does not take, at any depth, each with the key it most likely meant (`meant`: those that
    are typos of a missing required key)."""
    if not isinstance(data, dict):
        return []
    fields = {(f.alias or name): f for name, f in model.model_fields.items()}
    out = []
    for key, value in data.items():
        if key not in fields:
            inside = f" in {'.'.join(map(str, path))}" if path else ""
            said = f"unknown key {key!r}{inside}"
            typo = meant.get((*path, key))
            hint = required_hint(typo) if typo else _meant(key, list(fields), "known keys")
            out.append(at.problem((*path, key), said, "UNKNOWN_KEY", hint))
            continue
        shape, sub = _submodel(fields[key].annotation)
        if sub is None:
            continue
        if shape == "one":
            out += _unknown_keys(value, sub, (*path, key), at, meant)
        elif shape == "list" and isinstance(value, list):
            for i, item in enumerate(value):
                out += _unknown_keys(item, sub, (*path, key, i), at, meant)
        elif shape == "dict" and isinstance(value, dict):
            for k, item in value.items():
                out += _unknown_keys(item, sub, (*path, key, k), at, meant)
    return out


def _submodel(annotation: Any) -> tuple[str, type[BaseModel] | None]:
    """('one' | 'list' | 'dict', the model) when a field holds models; ('', None) otherwise."""
    origin = get_origin(annotation)
    if origin is Union or type(annotation).__name__ == "UnionType":
        for arg in get_args(annotation):
            shape, sub = _submodel(arg)
            if sub is not None:
                return shape, sub
        return "", None
    if origin in (list, dict):
        inner = get_args(annotation)[-1]
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return ("list" if origin is list else "dict"), inner
        return "", None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "one", annotation
    return "", None


def key_positions(text: str) -> dict[Path, Position]:
    """The line and column of every mapping key of a YAML text, by the path of its value."""
    out: dict[Path, Position] = {}
    try:
        node = YAML(typ="safe", pure=True).compose(io.StringIO(text))
    except Exception:  # load_yaml has said what is wrong with the text
        return out

    def walk(n: Node, path: Path) -> None:
        if isinstance(n, MappingNode):
            for k, v in n.value:
                p = (*path, str(k.value))
                out[p] = (k.start_mark.line + 1, k.start_mark.column + 1)
                walk(v, p)
        elif isinstance(n, SequenceNode):
            for i, item in enumerate(n.value):
                out[(*path, i)] = (item.start_mark.line + 1, item.start_mark.column + 1)
                walk(item, (*path, i))

    if node is not None:
        walk(node, ())
    return out
