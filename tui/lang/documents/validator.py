"""Everything the app checks before it accepts a plugin, beyond the loader's structure checks.

Every expression and template parses and uses only names bound where it stands; literal regexes compile
under RE2; a tool calls only tools and abilities whose effect is not stronger than its own and that are
declared; request hosts are declared (HTTPS, no IP), also when the URL starts with a constant; no `network`
entry covers a public suffix; campus services are declared; data sources name read tools; functions and calls
do not loop. All problems are reported at once, each with file, line, column, a code and where it helps a hint;
a problem that only follows from another one (a use of a name whose step did not load) is not reported.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tui.lang.documents.calls import find_cycle, member_reads, sig_names, walk
from tui.lang.documents.common import EFFECT_ORDER
from tui.lang.documents.loader import MANIFEST_FILE, Loader, Plugin, Step, Tool
from tui.lang.documents.manifest import ABILITIES
from tui.lang.documents.manifest_checks import check_manifest, check_network
from tui.lang.documents.problems import DocumentError, Problem, did_you_mean, nearest
from tui.lang.documents.source import PluginSource
from tui.lang.documents.spec_checks import _template_check, check_specs
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
)
from tui.lang.documents.yamlsafe import Located, Path
from tui.lang.expr import LangError, compile_expression, compile_template
from tui.lang.expr import ast as A
from tui.lang.expr.parser import parse
from tui.lang.expr.stdlib.regex import compile_pattern
from tui.lang.expr.templates import has_placeholders, parse_template
from tui.lang.netpolicy import PolicyError, check_public_url
from tui.lang.steps.extract import parse_field
from tui.lang.steps.scope import parse_signature

#: Library functions whose argument at this index is a pattern.
_REGEX_ARG = {"test": 1, "match": 1, "matchAll": 1, "regex": 0}
__all__ = ["Checker", "_template_check", "check", "check_specs", "validate"]
_REGEX_HINT = "match more and pick the part you want with a capture group"


@dataclass(frozen=True)
class Spot:
    """Where a value is written: its file, that file's positions, and the value's path in it."""

    file: str
    located: Located | None
    path: Path

    def at(self, line_col: tuple[int, int] | None = None) -> tuple[int | None, int | None]:
        """Line and column of the value, or of a (line, column) inside its text."""
        return self.located.inside(self.path, line_col) if self.located else (None, None)

    def key(self) -> tuple[int | None, int | None]:
        """Line and column of the key that names the value."""
        return self.located.key_pos(self.path) if self.located else (None, None)

    def __truediv__(self, part: str | int) -> Spot:
        return Spot(self.file, self.located, (*self.path, part))


class Checker:
    """Collects the problems of one plugin."""

    def __init__(self, plugin: Plugin) -> None:
        self.plugin = plugin
        self.problems: list[Problem] = []
        self.function_names = sig_names(plugin.shared_functions)
        self.members: dict[str, set[str]] = {
            "settings": set(plugin.manifest.settings),
            "constants": set(plugin.shared_constants),
        }
        """What `settings.X`, `constants.X` (and in a tool, `input.X`) may read: a misspelt key is an error
        here, not a null at run time (set per tool by `tool`)."""

    def add(
        self, spot: Spot | tuple[str, tuple[int | None, int | None]], message: str, code: str, hint: str = ""
    ) -> None:
        file, (line, column) = (spot.file, spot.at()) if isinstance(spot, Spot) else spot
        self.problems.append(Problem(file, line, message, column=column, code=code, hint=hint))

    def warn(self, file: str, at: tuple[int | None, int | None], message: str, code: str, hint: str = "") -> None:
        self.problems.append(Problem(file, at[0], message, "warning", at[1], code, hint))

    # -- expressions ----------------------------------------------------------------------------------
    def expression(self, src: str, bound: set[str], spot: Spot, what: str) -> None:
        try:
            expr = compile_expression(src)
        except LangError as e:
            self.add((spot.file, spot.at(e.line_col)), f"{what}: {e.msg}", "EXPR_SYNTAX", e.caret())
            return
        self._names(expr.free_names, bound, spot, what)
        tree = parse(src)
        self._regexes(tree, spot, what)
        self._members(tree, bound, spot, what)

    def template(self, text: Any, bound: set[str], spot: Spot, what: str) -> None:
        if isinstance(text, dict):
            for k, v in text.items():
                self.template(v, bound, spot / k, f"{what}.{k}")
            return
        if isinstance(text, list):
            for i, v in enumerate(text):
                self.template(v, bound, spot / i, f"{what}[{i}]")
            return
        if not isinstance(text, str) or not has_placeholders(text):
            return
        try:
            expr = compile_template(text)
        except LangError as e:
            self.add((spot.file, spot.at(e.line_col)), f"{what}: {e.msg}", "TEMPLATE_SYNTAX", e.caret())
            return
        self._names(expr.free_names, bound, spot, what)
        tree = parse_template(text)
        self._regexes(tree, spot, what)
        self._members(tree, bound, spot, what)

    def _names(self, free: Iterable[str], bound: set[str], spot: Spot, what: str) -> None:
        for name in free:
            if name not in bound:
                if name in self.function_names:
                    hint = "it is a function: call it"
                else:
                    hint = did_you_mean(name, bound) or f"bound here: {', '.join(sorted(bound))}"
                self.add(spot, f"{what}: unknown name '{name}'", "UNKNOWN_NAME", hint)

    def _members(self, tree: A.Node, bound: set[str], spot: Spot, what: str) -> None:
        for root, key in member_reads(tree, [r for r in self.members if r in bound]):
            known = self.members[root]
            if key not in known:
                word = _MEMBER_WORDS[root]
                hint = did_you_mean(key, sorted(known)) or (
                    f"{word}s here: {', '.join(sorted(known))}" if known else f"the plugin declares no {word}s"
                )
                self.add(spot, f"{what}: {root}.{key} is not a declared {word}", "UNKNOWN_MEMBER", hint)

    def _regexes(self, tree: A.Node, spot: Spot, what: str) -> None:
        for node in walk(tree):
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
                self.pattern(arg.value, spot, what)

    def pattern(self, text: str, spot: Spot, what: str) -> None:
        try:
            compile_pattern(None, text)
        except LangError as e:
            self.add(spot, f"{what}: {e.msg}", "REGEX_UNSUPPORTED", _REGEX_HINT)

    # -- tools ----------------------------------------------------------------------------------------
    def base_names(self, tool: Tool) -> set[str]:
        constants = {**self.plugin.shared_constants, **tool.definition.constants}
        functions = {**self.plugin.shared_functions, **tool.definition.functions}
        return {"input", "constants", "functions", "settings", "now", *constants, *sig_names(functions)}

    def tool(self, tool: Tool) -> None:
        bound = self.base_names(tool)
        plugin_wide = self.members
        self.members = {
            "settings": set(self.plugin.manifest.settings),
            "constants": {*self.plugin.shared_constants, *tool.definition.constants},
            "input": set(tool.definition.input),
        }
        for key in tool.broken & {"input", "constants"}:
            del self.members[key]  # it did not load: what it declares is unknown, and its problem is said
        try:
            self._tool(tool, bound)
        finally:
            self.members = plugin_wide

    def _tool(self, tool: Tool, bound: set[str]) -> None:
        self.function_names |= sig_names(tool.definition.functions)
        self.functions(tool.definition.functions, Spot(tool.file, tool.located, (*tool.base, "functions")), bound)
        lets = self.steps(tool, tool.steps, bound | tool.unchecked)
        if tool.definition.return_ is not None:
            self.expression(
                tool.definition.return_, lets, Spot(tool.file, tool.located, (*tool.base, "return")), "return"
            )
        for name, field in tool.definition.input.items():
            if field.pattern is not None:
                self.pattern(
                    field.pattern,
                    Spot(tool.file, tool.located, (*tool.base, "input", name, "pattern")),
                    f"input.{name}.pattern",
                )

    def shared(self) -> None:
        """The shared file's functions, checked once, where they are written."""
        p = self.plugin
        names = {"constants", "functions", "settings", "now", *p.shared_constants, *sig_names(p.shared_functions)}
        self.functions(
            p.shared_functions, Spot(p.manifest.shared or MANIFEST_FILE, p.shared_located, ("functions",)), names
        )

    def functions(self, functions: dict[str, str], spot: Spot, bound: set[str]) -> None:
        """Each function's body, and a loop among these functions and the shared ones (reported once: a loop
        within the shared file is reported there, not in every tool)."""
        shared = self.plugin.shared_functions
        known = sig_names(shared) | sig_names(functions)
        graph = {} if functions is shared else _graph(shared, known)
        own: set[str] = set()
        first: dict[str, Spot] = {}
        for sig, body in functions.items():
            at = spot / sig
            try:
                name, params = parse_signature(sig)
            except ValueError as e:
                self.add((at.file, at.key()), str(e), "FUNCTION_SIGNATURE", "write it like name(a, b)")
                continue
            own.add(name)
            first[name] = at
            self.expression(body, (bound - {"input"}) | set(params), at, f"function {name}")
            with contextlib.suppress(LangError):  # a body that does not parse is reported above
                graph[name] = {n.name for n in walk(parse(body)) if isinstance(n, A.Name)} & known
        cycle = find_cycle(graph)
        if cycle and own & set(cycle):
            where = first[next(n for n in cycle if n in own)]
            said = f"functions call each other in a loop: {' → '.join(cycle)}"
            self.add(
                (where.file, where.key()), said, "FUNCTION_CYCLE", "one of them must end without calling the other"
            )

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
        s = Spot(tool.file, tool.located, step.path)
        if isinstance(m, ValueStep):
            self.expression(m.value, bound, s / "value", "value")
        elif isinstance(m, RequestStep):
            self.request(tool, m.request, bound, s / "request")
        elif isinstance(m, EachStep):
            self.expression(m.each, bound, s / "each", "each")
            inner = bound | {"item", "index"}
            if m.request is not None:
                self.request(tool, m.request, inner, s / "request")
            if m.value is not None:
                self.expression(m.value, inner, s / "value", "value")
            self.steps(tool, step.children.get("steps", []), inner)
        elif isinstance(m, PaginateStep):
            paged = bound | {"cursor", "res"}
            self.request(tool, m.paginate.request, bound | {"cursor"}, s / "paginate" / "request")
            self.expression(m.paginate.next, paged, s / "paginate" / "next", "next")
            self.expression(m.paginate.items, paged, s / "paginate" / "items", "items")
        elif isinstance(m, ExtractStep):
            self.expression(m.extract.from_, bound, s / "extract" / "from", "from")
            for name, spec in m.extract.fields.items():
                at = s / "extract" / "fields" / name
                try:
                    _, pipes = parse_field(spec)
                except ValueError as e:
                    self.add(at, f"field {name}: {e}", "FIELD_SYNTAX")
                    continue
                for pipe, arg in pipes:
                    if pipe == "match":
                        self.pattern(arg, at, f"field {name}")
        elif isinstance(m, IfStep):
            self.expression(m.if_, bound, s / "if", "if")
            self.steps(tool, step.children.get("then", []), bound)
            self.steps(tool, step.children.get("else", []), bound)
        elif isinstance(m, CheckStep):
            self.expression(m.check, bound, s / "check", "check")
            self.template(m.error, bound, s / "error", "error")
        elif isinstance(m, TryStep):
            self.steps(tool, step.children.get("try", []), bound)
            self.steps(tool, step.children.get("catch", []), bound | {"error"})
        elif isinstance(m, KvStep):
            self.template(m.key, bound, s / "key", "key")
            if m.value is not None:
                self.expression(m.value, bound, s / "value", "value")
        elif isinstance(m, CacheStep):
            self.template(m.cache.key, bound, s / "cache" / "key", "cache key")
            self.steps(tool, step.children.get("steps", []), bound)
        elif isinstance(m, CallStep):
            self.expression(m.input, bound, s / "input", "input")
            self.call(tool, m, s / "call")
        elif isinstance(m, AbilityStep):
            self.expression(m.args, bound, s / "args", "args")
            self.ability(tool, m, s / "ability")

    def call(self, tool: Tool, m: CallStep, at: Spot) -> None:
        callee = self.plugin.tools.get(m.call)
        effect = tool.definition.effect
        if callee is None:
            if m.call not in self.plugin.manifest.tools:  # declared but broken: reported where it is
                hint = did_you_mean(m.call, self.plugin.manifest.tools)
                self.add(at, f"call: there is no tool {m.call!r} in this plugin", "CALL_UNKNOWN_TOOL", hint)
        elif "effect" in tool.broken:
            pass  # its effect is unknown (reported where it is written): whether it may call this is too
        elif EFFECT_ORDER[callee.definition.effect] > EFFECT_ORDER[effect]:
            said = f"a {effect} tool cannot call {m.call!r}, whose effect ({callee.definition.effect}) is stronger"
            hint = f"declare this tool effect: {callee.definition.effect}, or call {m.call!r} from a tool that is"
            self.add(at, said, "CALL_STRONGER_EFFECT", hint)

    def ability(self, tool: Tool, m: AbilityStep, at: Spot) -> None:
        group, _, op = m.ability.partition(".")
        ops = ABILITIES.get(group)
        effect = (ops or {}).get(op)
        mine = tool.definition.effect
        if effect is None:
            known = [f"{g}.{o}" for g, os in ABILITIES.items() for o in os]
            self.add(at, f"there is no host ability {m.ability}", "ABILITY_UNKNOWN", did_you_mean(m.ability, known))
        elif group not in self.plugin.manifest.abilities:
            said = f"ability group {group!r} is used but not declared in abilities"
            self.add(at, said, "ABILITY_UNDECLARED", f"add {group} to the manifest's abilities")
        elif "effect" not in tool.broken and EFFECT_ORDER[effect] > EFFECT_ORDER[mine]:
            said = f"a {mine} tool cannot use {m.ability}, which is a {effect} operation"
            hint = f"declare this tool effect: {effect}, or move the {m.ability} step to a {effect} tool"
            self.add(at, said, "ABILITY_STRONGER_EFFECT", hint)

    def request(self, tool: Tool, spec: RequestSpec, bound: set[str], at: Spot) -> None:
        self.template(spec.url, bound, at / "url", "url")
        for name in ("query", "headers", "json_body", "form", "body"):
            value = getattr(spec, name)
            if value is not None:
                key = "json" if name == "json_body" else name
                self.template(value, bound, at / key, key)
        manifest = self.plugin.manifest
        if spec.campus is not None:
            if spec.campus not in manifest.campus:
                said = f"campus service {spec.campus!r} is not declared in the manifest's campus"
                self.add(at / "campus", said, "CAMPUS_UNDECLARED", f"add {spec.campus} to the manifest's campus")
            if not spec.url.startswith(("/", "${")):
                said = "a campus request takes a path on the service, starting with '/'"
                self.add(at / "url", said, "CAMPUS_PATH")
            return
        constants = {**self.plugin.shared_constants, **tool.definition.constants}
        url, via = _known_prefix(spec.url, constants)
        if url is None:
            return  # the scheme or the host is computed: the interpreter checks it before sending
        try:
            check_public_url(url, manifest.network)
        except PolicyError as e:
            said = str(e) + (f" (the URL starts with {via}: {url.rstrip('/')})" if via else "")
            hint = ""
            if "not declared" in said:
                host = str(e).split(" ", 1)[0]
                near = nearest(host, [p.removeprefix("*.") for p in manifest.network])
                hint = f"add {host} to the manifest's network"
                if near is not None:  # a typo of a declared host (seat. for seats.) is likelier than a new one
                    hint = f"did you mean {near}? (or {hint})"
            self.add(at / "url", said, "URL_NOT_ALLOWED", hint)


#: How a problem names what `settings.X`, `constants.X` and `input.X` read.
_MEMBER_WORDS = {"settings": "setting", "constants": "constant", "input": "input field"}


def _known_prefix(url: str, constants: dict[str, Any]) -> tuple[str | None, str]:
    """The URL as far as it is known before the request runs — up to the end of its host at least — when it is
    written out or starts with constants (`${BASE}/list`, `${constants.API + '/x'}`); None when the scheme or
    the host is computed. The second value names the constant it starts with ('' for a URL written out)."""
    if not has_placeholders(url):
        return url, ""
    try:
        tree = parse_template(url)
    except LangError:
        return None, ""  # reported as a template error
    quasis, exprs = (tree.quasis, tree.exprs) if isinstance(tree, A.Template) else (["", ""], [tree])
    text, via, complete = quasis[0], "", True
    for expr, after in zip(exprs, quasis[1:], strict=True):
        value, whole = _constant_text(expr, constants)
        if value and not via:
            via = _describe(expr)
        text += value
        if not whole:
            complete = False
            break
        text += after
    scheme_end = text.find("://")
    host_end = text.find("/", scheme_end + 3) if scheme_end >= 0 else -1
    if host_end < 0:
        return (text, via) if complete else (None, via)
    return text[:host_end] + "/", via


def _constant_text(node: A.Node, constants: dict[str, Any]) -> tuple[str, bool]:
    """The text a placeholder starts with when constants tell it, and whether that is all of it."""
    if isinstance(node, A.Literal) and isinstance(node.value, str):
        return node.value, True
    name = node.name if isinstance(node, A.Name) else None
    if isinstance(node, A.Member) and isinstance(node.obj, A.Name) and node.obj.name == "constants":
        name = node.key if isinstance(node.key, str) else None
    if name is not None and isinstance(constants.get(name), str):
        return str(constants[name]), True
    if isinstance(node, A.Binary) and node.op == "+":
        left, whole = _constant_text(node.left, constants)
        if not whole:
            return left, False
        right, whole = _constant_text(node.right, constants)
        return left + right, whole
    return "", False


def _describe(node: A.Node) -> str:
    for n in walk(node):
        if isinstance(n, A.Name) and n.name != "constants":
            return f"the constant {n.name}"
        if isinstance(n, A.Member) and isinstance(n.key, str):
            return f"the constant {n.key}"
    return ""


def _graph(functions: dict[str, str], known: set[str]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for sig, body in functions.items():
        with contextlib.suppress(ValueError, LangError):  # reported where they are written
            graph[parse_signature(sig)[0]] = {n.name for n in walk(parse(body)) if isinstance(n, A.Name)} & known
    return graph


def validate(source: PluginSource, specs: bool = True) -> tuple[Plugin | None, list[Problem]]:
    """Load and check a plugin: the plugin (None when it has errors) and every problem found (see `check`)."""
    plugin, problems = check(source, specs)
    if any(p.severity == "error" for p in problems):
        return None, problems
    return plugin, problems


def check(source: PluginSource, specs: bool = True) -> tuple[Plugin | None, list[Problem]]:
    """Load and check a plugin: the plugin as far as it loaded (None when its manifest did not; never to run
    when there is an error: `validate` is for that) and every problem found.

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
    checker.shared()
    for tool in [*plugin.tools.values(), *plugin.salvaged.values()]:
        checker.tool(tool)
    check_manifest(checker)
    if specs:
        check_network(checker)
        checker.problems.extend(check_specs(plugin))
    problems = sorted(
        [*found, *checker.problems], key=lambda p: (p.file != MANIFEST_FILE, p.file, p.line or 0, p.column or 0)
    )
    return plugin, problems
