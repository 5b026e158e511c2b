"""The validator's checks of widget and screen specs: the genui checks of widgets_render, told the plugin's
facts, with each finding placed at its line and column in the JSON file; and what only the plugin language
knows — a `${sources.x}` names a source the spec declares."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from typing import Any

from tui.lang.documents.calls import member_reads, sig_names, walk
from tui.lang.documents.loader import Plugin
from tui.lang.documents.problems import Problem, did_you_mean
from tui.lang.documents.yamlsafe import Located, Path, load_yaml
from tui.lang.expr import LangError, compile_template
from tui.lang.expr import ast as A
from tui.lang.expr.templates import has_placeholders, parse_template

_COLUMN = re.compile(r" \(column (\d+)\)$")


def _template_check(text: str) -> tuple[set[str] | None, str | None]:
    try:
        return set(compile_template(text).free_names), None
    except LangError as e:
        lc = e.line_col
        return None, e.msg + (f" (column {lc[1]})" if lc else "")


def _member_reads(text: str) -> list[tuple[str, str]]:
    """What a template reads as `settings.X` and `params.X` ([] when it does not parse: said elsewhere)."""
    try:
        return member_reads(parse_template(text), ("settings", "params"))
    except LangError:
        return []


def _json_lines(text: str, file: str) -> Located | None:
    located, _ = load_yaml(text, file)  # JSON is YAML: this reader knows every value's line
    return located


def _declared_params(spec: Any) -> dict[str, Any]:
    params = spec.get("params") if isinstance(spec, dict) else None
    return params if isinstance(params, dict) else {}


def check_specs(plugin: Plugin) -> list[Problem]:
    """The genui checks of every widget and screen (widgets_render's schema and semantic pass)."""
    m = plugin.manifest
    # Imported here: the genui models take ~130 ms to build, and only spec checks need them.
    from widgets_render.validate import PluginFacts, ToolFacts, validate_spec

    facts = PluginFacts(
        plugin_id=m.id,
        data_sources={name: ds.tool for name, ds in m.dataSources.items()},
        tools={name: ToolFacts(t.definition.effect, frozenset(t.definition.input)) for name, t in plugin.tools.items()},
        screens=frozenset(m.screens),
        has_english=bool(m.i18n and m.i18n.en),
        shared_names=frozenset(plugin.shared_constants) | sig_names(plugin.shared_functions),
        screen_params={name: _declared_params(spec) for name, spec in plugin.screens.items()},
        unloaded_tools=frozenset(set(m.tools) - set(plugin.tools)),
        settings=frozenset(m.settings),
        members=_member_reads,
    )
    problems: list[Problem] = []
    for kind, files, specs in (("widget", m.widgets, plugin.widgets), ("screen", m.screens, plugin.screens)):
        for name, data in specs.items():
            file = files[name]
            text = plugin.files.get(file, "")
            located = _json_lines(text, file)
            for d in validate_spec(data, file, facts, _template_check, len(text.encode())):
                parts: Path = tuple(
                    int(p) if p.isdigit() else p.replace("~1", "/").replace("~0", "~") for p in d.path.split("/")[1:]
                )
                message = f"at {d.path}: {d.message}" if d.path else d.message
                line, column = _place(located, parts, d.code, message)
                message = _COLUMN.sub("", message) if column is not None and d.code == "TEMPLATE_SYNTAX" else message
                problems.append(Problem(file, line, message, d.severity, column, d.code, d.hint))
            if isinstance(data, dict) and data.get("kind") not in (kind, None):
                said = f"{file} is listed under {kind}s but says kind {data.get('kind')!r}"
                at = located.pos(("kind",)) if located else (1, None)
                problems.append(
                    Problem(file, at[0], said, column=at[1], code="SPEC_KIND_MISMATCH", hint=f'write "kind": "{kind}"')
                )
            if isinstance(data, dict):
                problems.extend(_source_aliases(data, file, located))
                if "browser" not in m.abilities:
                    problems.extend(_open_urls(data, file, located))
    return problems


def _open_urls(data: dict[str, Any], file: str, located: Located | None) -> list[Problem]:
    """An `openUrl` action opens its link through the plugin's `browser.open` ability (genui.md): without the
    declaration every tap on it would fail."""
    out: list[Problem] = []
    for path, _ in _strings(data, ()):
        if path and path[-1] == "openUrl":
            at = located.key_pos(path) if located else (None, None)
            where = "/" + "/".join(map(str, path))
            said = f"at {where}: openUrl opens links through browser.open; the manifest does not declare browser"
            hint = "add browser to abilities in PLUGIN.md (abilities: [browser])"
            out.append(Problem(file, at[0], said, column=at[1], code="OPENURL_ABILITY", hint=hint))
    return out


def _place(located: Located | None, parts: Path, code: str, message: str) -> tuple[int | None, int | None]:
    """Where a finding is in the JSON file: at the prop (its key, for a prop that should not be there), or for a
    template that does not parse at the character where it stops (a value without escapes before it)."""
    if located is None:
        return None, None
    if code in ("UNKNOWN_PROP", "OPEN_PARAM_UNKNOWN", "MISSING") and parts:
        return located.pos(parts[:-1]) if code == "MISSING" else located.key_pos(parts)
    found = _COLUMN.search(message)
    if code == "TEMPLATE_SYNTAX" and found and tuple(parts) in located.styles:
        return located.inside(parts, (1, int(found.group(1))))
    return located.pos(parts)


def _strings(value: Any, path: Path) -> Iterable[tuple[Path, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, (*path, i))


def _source_aliases(data: dict[str, Any], file: str, located: Located | None) -> list[Problem]:
    """`${sources.x}` where the spec declares no source `x` would read nothing, silently."""
    sources = data.get("sources")
    declared: list[str] = [str(k) for k in sources] if isinstance(sources, dict) else []
    out: list[Problem] = []
    for path, text in _strings({k: v for k, v in data.items() if k != "sources"}, ()):
        if not has_placeholders(text) or "sources" not in text:
            continue
        tree = None
        with contextlib.suppress(LangError):  # a template that does not parse is reported as such
            tree = parse_template(text)
        for alias in sorted(_aliases(tree) - set(declared)) if tree is not None else ():
            at = located.pos(path) if located else (None, None)
            where = "/" + "/".join(map(str, path))
            hint = did_you_mean(alias, declared) or (
                f"declare it under sources (declared: {', '.join(declared)})"
                if declared
                else "declare it under sources"
            )
            said = f"at {where}: sources.{alias} is not a source of this {data.get('kind', 'spec')}"
            out.append(Problem(file, at[0], said, column=at[1], code="SOURCE_ALIAS_UNKNOWN", hint=hint))
    return out


def _aliases(tree: A.Node) -> set[str]:
    """The `x` of every `sources.x` (or `sources['x']`) in a template."""
    out = set()
    for node in walk(tree):
        if isinstance(node, A.Member) and isinstance(node.obj, A.Name) and node.obj.name == "sources":
            key = node.key if isinstance(node.key, str) else getattr(node.key, "value", None)
            if isinstance(key, str):
                out.add(key)
    return out
