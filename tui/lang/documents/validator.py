"""Everything the app checks before it accepts a plugin, beyond the loader's structure checks.

Every expression and template parses and uses only names bound where it stands; literal regexes compile
under RE2; a tool calls only tools and abilities whose effect is not stronger than its own and that are
declared; literal request hosts are declared (HTTPS, no IP); no `network` entry covers a public suffix;
campus services are declared; data sources name read tools; functions and calls do not loop. All problems
are reported at once, with file and line.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from tui.lang.documents.common import EFFECT_ORDER
from tui.lang.documents.loader import MANIFEST_FILE, Loader, Plugin, Step, Tool
from tui.lang.documents.manifest import ABILITIES
from tui.lang.documents.problems import DocumentError, Problem
from tui.lang.documents.source import PluginSource
from tui.lang.documents.tool import (
    AbilityStep,
    CacheStep,
    CallStep,
    CheckStep,
    EachStep,
    ExtractStep,
    IfStep,
    KvStep,
    PaginateStep,
    RequestSpec,
    RequestStep,
    TryStep,
    ValueStep,
    enum_keys,
)
from tui.lang.documents.yamlsafe import Located, load_yaml
from tui.lang.expr import LangError, compile_expression, compile_template
from tui.lang.expr import ast as A
from tui.lang.expr.parser import parse
from tui.lang.expr.stdlib.regex import compile_pattern
from tui.lang.expr.templates import has_placeholders, parse_template
from tui.lang.netpolicy import PolicyError, check_public_url
from tui.lang.public_suffix import is_public_suffix
from tui.lang.steps.extract import parse_field
from tui.lang.steps.scope import parse_signature

#: Library functions whose argument at this index is a pattern.
_REGEX_ARG = {"test": 1, "match": 1, "matchAll": 1, "regex": 0}


class Checker:
    """Collects the problems of one plugin."""

    def __init__(self, plugin: Plugin) -> None:
        self.plugin = plugin
        self.problems: list[Problem] = []
        self.function_names: set[str] = set()

    def add(self, file: str, line: int | None, message: str, severity: str = "error") -> None:
        self.problems.append(Problem(file, line, message, severity))  # type: ignore[arg-type]

    # -- expressions ----------------------------------------------------------------------------------
    def expression(self, src: str, bound: set[str], file: str, line: int | None, what: str) -> None:
        try:
            expr = compile_expression(src)
        except LangError as e:
            self.add(file, _shift(line, e), f"{what}: {e}")
            return
        self._names(expr.free_names, bound, file, line, what)
        self._regexes(parse(src), file, line, what)

    def template(self, text: Any, bound: set[str], file: str, line: int | None, what: str) -> None:
        if isinstance(text, dict):
            for k, v in text.items():
                self.template(v, bound, file, line, f"{what}.{k}")
            return
        if isinstance(text, list):
            for i, v in enumerate(text):
                self.template(v, bound, file, line, f"{what}[{i}]")
            return
        if not isinstance(text, str) or not has_placeholders(text):
            return
        try:
            expr = compile_template(text)
        except LangError as e:
            self.add(file, line, f"{what}: {e}")
            return
        self._names(expr.free_names, bound, file, line, what)
        self._regexes(parse_template(text), file, line, what)

    def _names(self, free: Iterable[str], bound: set[str], file: str, line: int | None, what: str) -> None:
        for name in free:
            if name not in bound:
                hint = " (it is a function: call it)" if name in self.function_names else ""
                self.add(file, line, f"{what}: unknown name '{name}'{hint}; bound here: {', '.join(sorted(bound))}")

    def _regexes(self, tree: A.Node, file: str, line: int | None, what: str) -> None:
        for node in _walk(tree):
            if not isinstance(node, A.Call):
                continue
            callee, offset = node.callee, 0
            if isinstance(callee, A.Name):
                name = callee.name
            elif isinstance(callee, A.Member) and isinstance(callee.key, str):
                name, offset = callee.key, 1  # the receiver is the first argument
            else:
                continue
            index = _REGEX_ARG.get(name)
            if index is None or index - offset < 0 or index - offset >= len(node.args):
                continue
            arg = node.args[index - offset]
            if isinstance(arg, A.Literal) and isinstance(arg.value, str):
                try:
                    compile_pattern(None, arg.value)
                except LangError as e:
                    self.add(file, line, f"{what}: {e.msg}")

    # -- tools ----------------------------------------------------------------------------------------
    def base_names(self, tool: Tool) -> set[str]:
        constants = {**self.plugin.shared_constants, **tool.definition.constants}
        functions = {**self.plugin.shared_functions, **tool.definition.functions}
        return {"input", "constants", "functions", "settings", "now", *constants, *_sig_names(functions)}

    def tool(self, tool: Tool) -> None:
        bound = self.base_names(tool)
        self.functions(tool, bound)
        lets = self.steps(tool, tool.steps, set(bound))
        if tool.definition.return_ is not None:
            self.expression(tool.definition.return_, lets, tool.file, tool.line("return"), "return")
        for name, field in tool.definition.input.items():
            if field.pattern is not None:
                try:
                    compile_pattern(None, field.pattern)
                except LangError as e:
                    self.add(tool.file, tool.line("input", name, "pattern"), f"input.{name}.pattern: {e.msg}")

    def functions(self, tool: Tool, bound: set[str]) -> None:
        own = tool.definition.functions
        sources = [
            (self.plugin.shared_functions, self._shared_file(), ("functions",), True),
            (own, tool.file, (*tool.base, "functions"), False),
        ]
        known = _sig_names(self.plugin.shared_functions) | _sig_names(own)
        graph: dict[str, set[str]] = {}
        for functions, file, base, shared in sources:
            for sig, body in functions.items():
                line = (
                    self.plugin.shared_located.line((*base, sig))
                    if shared and self.plugin.shared_located
                    else tool.located.line((*base, sig))
                )
                try:
                    name, params = parse_signature(sig)
                except ValueError as e:
                    self.add(file, line, str(e))
                    continue
                self.function_names.add(name)
                self.expression(body, (bound - {"input"}) | set(params), file, line, f"function {name}")
                with contextlib.suppress(LangError):  # a body that does not parse is reported above
                    graph[name] = {n.name for n in _walk(parse(body)) if isinstance(n, A.Name)} & known
        cycle = _find_cycle(graph)
        if cycle:
            self.add(tool.file, tool.line("functions"), f"functions call each other in a loop: {' → '.join(cycle)}")

    def _shared_file(self) -> str:
        return self.plugin.manifest.shared or MANIFEST_FILE

    def steps(self, tool: Tool, steps: list[Step], bound: set[str]) -> set[str]:
        """Check steps in order; returns the names bound after them."""
        names = set(bound)
        for step in steps:
            self.step(tool, step, names)
            if step.model.let is not None:
                names.add(step.model.let)
        return names

    def step(self, tool: Tool, step: Step, bound: set[str]) -> None:
        m = step.model
        f = tool.file

        def line(*field: str | int) -> int | None:
            return tool.located.line((*step.path, *field))

        if isinstance(m, ValueStep):
            self.expression(m.value, bound, f, line("value"), "value")
        elif isinstance(m, RequestStep):
            self.request(tool, m.request, bound, step, ("request",))
        elif isinstance(m, EachStep):
            self.expression(m.each, bound, f, line("each"), "each")
            inner = bound | {"item", "index"}
            if m.request is not None:
                self.request(tool, m.request, inner, step, ("request",))
            if m.value is not None:
                self.expression(m.value, inner, f, line("value"), "value")
            self.steps(tool, step.children.get("steps", []), inner)
        elif isinstance(m, PaginateStep):
            self.request(tool, m.paginate.request, bound | {"cursor"}, step, ("paginate", "request"))
            self.expression(m.paginate.next, bound | {"cursor", "res"}, f, line("paginate", "next"), "next")
            self.expression(m.paginate.items, bound | {"cursor", "res"}, f, line("paginate", "items"), "items")
        elif isinstance(m, ExtractStep):
            self.expression(m.extract.from_, bound, f, line("extract", "from"), "from")
            for name, spec in m.extract.fields.items():
                try:
                    _, pipes = parse_field(spec)
                except ValueError as e:
                    self.add(f, line("extract", "fields", name), f"field {name}: {e}")
                    continue
                for pipe, arg in pipes:
                    if pipe == "match":
                        try:
                            compile_pattern(None, arg)
                        except LangError as e:
                            self.add(f, line("extract", "fields", name), f"field {name}: {e.msg}")
        elif isinstance(m, IfStep):
            self.expression(m.if_, bound, f, line("if"), "if")
            self.steps(tool, step.children.get("then", []), bound)
            self.steps(tool, step.children.get("else", []), bound)
        elif isinstance(m, CheckStep):
            self.expression(m.check, bound, f, line("check"), "check")
            self.template(m.error, bound, f, line("error"), "error")
        elif isinstance(m, TryStep):
            self.steps(tool, step.children.get("try", []), bound)
            self.steps(tool, step.children.get("catch", []), bound | {"error"})
        elif isinstance(m, KvStep):
            self.template(m.key, bound, f, line("key"), "key")
            if m.value is not None:
                self.expression(m.value, bound, f, line("value"), "value")
        elif isinstance(m, CacheStep):
            self.template(m.cache.key, bound, f, line("cache", "key"), "cache key")
            self.steps(tool, step.children.get("steps", []), bound)
        elif isinstance(m, CallStep):
            self.expression(m.input, bound, f, line("input"), "input")
            callee = self.plugin.tools.get(m.call)
            if callee is None:
                if m.call not in self.plugin.manifest.tools:  # declared but broken: reported where it is
                    self.add(f, line("call"), f"call: there is no tool {m.call!r} in this plugin")
            elif EFFECT_ORDER[callee.definition.effect] > EFFECT_ORDER[tool.definition.effect]:
                self.add(
                    f,
                    line("call"),
                    f"a {tool.definition.effect} tool cannot call {m.call!r}, "
                    f"whose effect ({callee.definition.effect}) is stronger",
                )
        elif isinstance(m, AbilityStep):
            self.expression(m.args, bound, f, line("args"), "args")
            group, _, op = m.ability.partition(".")
            effect = ABILITIES.get(group, {}).get(op)
            if effect is None:
                self.add(f, line("ability"), f"there is no host ability {m.ability}")
            elif group not in self.plugin.manifest.abilities:
                self.add(f, line("ability"), f"ability group {group!r} is used but not declared in abilities")
            elif EFFECT_ORDER[effect] > EFFECT_ORDER[tool.definition.effect]:
                self.add(
                    f,
                    line("ability"),
                    f"a {tool.definition.effect} tool cannot use {m.ability}, which is a {effect} operation",
                )

    def request(self, tool: Tool, spec: RequestSpec, bound: set[str], step: Step, at: tuple[str, ...]) -> None:
        f = tool.file

        def line(*field: str) -> int | None:
            return tool.located.line((*step.path, *at, *field))

        self.template(spec.url, bound, f, line("url"), "url")
        for name in ("query", "headers", "json_body", "form", "body"):
            value = getattr(spec, name)
            if value is not None:
                self.template(value, bound, f, line("json" if name == "json_body" else name), name.replace("_body", ""))
        manifest = self.plugin.manifest
        if spec.campus is not None:
            if spec.campus not in manifest.campus:
                self.add(f, line("campus"), f"campus service {spec.campus!r} is not declared in the manifest's campus")
            if not spec.url.startswith(("/", "${")):
                self.add(f, line("url"), "a campus request takes a path on the service, starting with '/'")
            return
        url = spec.url
        if "${" in url:
            prefix = url.split("${", 1)[0]
            scheme_end = prefix.find("://")
            host_end = prefix.find("/", scheme_end + 3) if scheme_end >= 0 else -1
            if host_end < 0:
                return  # the scheme or the host is computed: the interpreter checks it before sending
            url = prefix[:host_end] + "/"
        try:
            check_public_url(url, manifest.network)
        except PolicyError as e:
            self.add(f, line("url"), str(e))

    # -- the manifest ---------------------------------------------------------------------------------
    def network(self) -> None:
        """A `network` entry may not cover a whole public suffix (`*.edu.cn`, `*.github.io`, `edu.cn`)."""
        loc = self.plugin.manifest_located
        for i, pattern in enumerate(self.plugin.manifest.network):
            base = pattern.removeprefix("*.")
            if not is_public_suffix(base):
                continue
            what = "covers a whole public suffix" if pattern.startswith("*.") else "is itself a public suffix"
            self.add(
                MANIFEST_FILE,
                loc.line(("network", i)),
                f"network entry {pattern!r} {what}: anyone can register a site under {base}, so it would let "
                f"the plugin reach all of them; name your own domain (like *.example.{base})",
            )

    def manifest(self) -> None:
        m = self.plugin.manifest
        loc = self.plugin.manifest_located
        for name, ds in m.dataSources.items():
            if ds.tool is None:
                continue
            tool = self.plugin.tools.get(ds.tool)
            line = loc.line(("dataSources", name, "tool"))
            if tool is None:
                if ds.tool not in m.tools:  # declared but broken: reported where it is
                    self.add(MANIFEST_FILE, line, f"data source {name!r} names no tool {ds.tool!r}")
            elif tool.definition.effect != "read":
                self.add(
                    MANIFEST_FILE,
                    line,
                    f"data source {name!r} names {ds.tool!r}, a "
                    f"{tool.definition.effect} tool; data sources must be read tools",
                )
        for name, cmd in m.commands.items():
            if cmd.tool is not None and cmd.tool not in m.tools:
                self.add(
                    MANIFEST_FILE, loc.line(("commands", name, "tool")), f"command {name!r} names no tool {cmd.tool!r}"
                )
            if cmd.screen is not None and cmd.screen not in m.screens:
                where = loc.line(("commands", name, "screen"))
                self.add(MANIFEST_FILE, where, f"command {name!r} names no screen {cmd.screen!r}")
            # the names a command gives must be the tool's inputs / the screen's params: a typo would be dropped
            tool = self.plugin.tools.get(cmd.tool) if cmd.tool else None
            spec = self.plugin.screens.get(cmd.screen) if cmd.screen else None
            declared = tool.definition.input if tool else spec.get("params") if isinstance(spec, dict) else None
            given = cmd.args if tool else cmd.params
            for key in sorted(set(given) - set(declared)) if isinstance(declared, dict) else ():
                what = f"tool {cmd.tool!r} has no input" if tool else f"screen {cmd.screen!r} has no param"
                where = loc.line(("commands", name, "args" if tool else "params", key))
                self.add(MANIFEST_FILE, where, f"command {name!r}: {what} {key!r}")
        if m.i18n and m.i18n.en:
            for name, text in m.i18n.en.tools.items():
                if name not in m.tools:
                    self.add(MANIFEST_FILE, loc.line(("i18n", "en", "tools", name)), f"i18n names no tool {name!r}")
                    continue
                known = self.plugin.tools[name].definition.input if name in self.plugin.tools else None
                for field in text.input:
                    if known is not None and field not in known:
                        where = loc.line(("i18n", "en", "tools", name, "input", field))
                        self.add(MANIFEST_FILE, where, f"i18n names no input field {field!r} of tool {name!r}")
                for field, titles in text.enumTitles.items():
                    if known is None:
                        continue
                    where = loc.line(("i18n", "en", "tools", name, "enumTitles", field))
                    declared = known.get(field)
                    if declared is None or not declared.enum:
                        self.add(MANIFEST_FILE, where, f"i18n names no enum field {field!r} of tool {name!r}")
                        continue
                    for value in sorted(set(titles) - set(enum_keys(declared.enum))):
                        self.add(
                            MANIFEST_FILE,
                            loc.line(("i18n", "en", "tools", name, "enumTitles", field, value)),
                            f"i18n gives a title to {value!r}, not a value of {name}'s {field!r}",
                        )
        if m.i18n and m.i18n.en:
            for key, setting in m.i18n.en.settings.items():
                where = loc.line(("i18n", "en", "settings", key))
                declared = m.settings.get(key)
                if declared is None:
                    self.add(MANIFEST_FILE, where, f"i18n names no setting {key!r}")
                    continue
                choices = declared.enum or (declared.items.enum if declared.items else None)
                values = set(enum_keys(choices)) if choices else set()
                for value in sorted(set(setting.enumTitles) - values):
                    self.add(MANIFEST_FILE, where, f"i18n gives a title to {value!r}, not a value of setting {key!r}")
            for name in m.i18n.en.commands:
                if name not in m.commands:
                    where = loc.line(("i18n", "en", "commands", name))
                    self.add(MANIFEST_FILE, where, f"i18n names no command {name!r}")
        graph = {
            name: {s.model.call for s in _all_steps(t.steps) if isinstance(s.model, CallStep)}
            for name, t in self.plugin.tools.items()
        }
        cycle = _find_cycle(graph)
        if cycle:
            self.add(MANIFEST_FILE, loc.line(("tools",)), f"tools call each other in a loop: {' → '.join(cycle)}")
        if m.abilities:
            used = {
                s.model.ability.split(".")[0]
                for t in self.plugin.tools.values()
                for s in _all_steps(t.steps)
                if isinstance(s.model, AbilityStep)
            }
            for group in sorted(set(m.abilities) - used):
                self.add(
                    MANIFEST_FILE,
                    loc.line(("abilities",)),
                    f"ability group {group!r} is declared but never used",
                    "warning",
                )


def _shift(line: int | None, e: LangError) -> int | None:
    lc = e.line_col
    return line + lc[0] - 1 if line is not None and lc is not None and lc[0] > 1 else line


def _walk(tree: A.Node) -> Iterable[A.Node]:
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, A.Node):
            yield node
            stack.extend(getattr(node, slot) for slot in type(node).__slots__ if slot not in ("pos", "end"))
        elif isinstance(node, list):
            stack.extend(node)


def _sig_names(functions: dict[str, str]) -> set[str]:
    out = set()
    for sig in functions:
        with contextlib.suppress(ValueError):  # a bad signature is reported where it is written
            out.add(parse_signature(sig)[0])
    return out


def _all_steps(steps: list[Step]) -> Iterable[Step]:
    for s in steps:
        yield s
        for children in s.children.values():
            yield from _all_steps(children)


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        path.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return [*path[path.index(m) :], m]
            if m in graph and state.get(m) is None:
                found = visit(m)
                if found:
                    return found
        path.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if state.get(n) is None:
            found = visit(n)
            if found:
                return found
    return None


def _template_check(text: str) -> tuple[set[str] | None, str | None]:
    try:
        return set(compile_template(text).free_names), None
    except LangError as e:
        lc = e.line_col
        return None, e.msg + (f" (column {lc[1]})" if lc else "")


def _json_lines(text: str, file: str) -> Located | None:
    located, _ = load_yaml(text, file)  # JSON is YAML: this reader knows every value's line
    return located


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
        shared_names=frozenset(plugin.shared_constants) | _sig_names(plugin.shared_functions),
    )
    problems: list[Problem] = []
    for kind, files, specs in (("widget", m.widgets, plugin.widgets), ("screen", m.screens, plugin.screens)):
        for name, data in specs.items():
            file = files[name]
            text = plugin.files.get(file, "")
            located = _json_lines(text, file)
            for d in validate_spec(data, file, facts, _template_check, len(text.encode())):
                parts: list[str | int] = [
                    int(p) if p.isdigit() else p.replace("~1", "/").replace("~0", "~") for p in d.path.split("/")[1:]
                ]
                line = located.line(tuple(parts)) if located else None
                where = f" at {d.path}" if d.path else ""
                problems.append(Problem(file, line, f"{d.code}{where}: {d.message}", d.severity))
            if isinstance(data, dict) and data.get("kind") not in (kind, None):
                problems.append(Problem(file, 1, f"{file} is listed under {kind}s but says kind {data.get('kind')!r}"))
    return problems


def validate(source: PluginSource, specs: bool = True) -> tuple[Plugin | None, list[Problem]]:
    """Load and check a plugin: the plugin (None when it has errors) and every problem found.

    `specs=False` skips the checks that read data beyond the plugin — the widget and screen schemas and the
    public suffix list (~30-60 ms for the built-ins' `cn` and `com`); the app uses it only for its built-in
    plugins at start-up, which CI validates in full (the renderer never trusts a spec anyway: a bad one becomes
    an error card; the built-ins' domains are ours).
    """
    found: list[Problem] = []
    try:
        plugin = Loader(source).load()
    except DocumentError as e:
        found = list(e.problems)
        if e.partial is None:
            return None, found
        plugin = e.partial  # check what did load, so an author sees every problem at once
    checker = Checker(plugin)
    for tool in plugin.tools.values():
        checker.tool(tool)
    checker.manifest()
    if specs:
        checker.network()
        checker.problems.extend(check_specs(plugin))
    problems = sorted([*found, *checker.problems], key=lambda p: (p.file != MANIFEST_FILE, p.file, p.line or 0))
    if any(p.severity == "error" for p in problems):
        return None, problems
    return plugin, problems
