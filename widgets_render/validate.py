"""The genui semantic validator (genui.md §2.9): what a schema cannot check.

Diagnostics are `{ code, severity, file, path (JSON Pointer), message }` so that an author — or the assistant
that writes plugins — can fix them one by one. This module knows nothing of plugins: it is given plain facts
about the plugin and a template checker (the app passes the plugin language's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import ValidationError

from widgets_render.catalog import ITEM_NAMES, SCREEN_NAMES, SCREEN_ONLY_COMPONENTS, TEMPLATE_NAMES
from widgets_render.screen_params import param_problems
from widgets_render.spec import ACTION_VERBS, COMPONENTS, Screen, Widget
from widgets_render.spec_words import ENUM_PROPS, MODELS, did_you_mean

MAX_DEPTH = 12
MAX_NODES = 300
MAX_STRING = 2000
MAX_FILE_BYTES = 64 * 1024
MIN_REFRESH_S = 30

TemplateChecker = Callable[[str], tuple[set[str] | None, str | None]]
"""Given a template, its free names (or None) and an error message (or None)."""


@dataclass(frozen=True)
class ToolFacts:
    """What the validator needs to know of one tool."""

    effect: str
    inputs: frozenset[str]


@dataclass(frozen=True)
class PluginFacts:
    """Plain facts about the plugin a spec belongs to."""

    plugin_id: str
    data_sources: dict[str, str | None]
    """Data source name → tool name (None for server functions)."""
    tools: dict[str, ToolFacts]
    screens: frozenset[str]
    has_english: bool
    shared_names: frozenset[str] = frozenset()
    """Constants and functions from shared.yaml, visible in every template."""
    screen_params: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The params each screen declares (its `params`): opening it must give the required ones, no others, and
    literal values of an enum param from its enum."""
    unloaded_tools: frozenset[str] = frozenset()
    """Tools the manifest declares that did not load (their own errors are reported): nothing is said of them."""
    settings: frozenset[str] | None = None
    """The settings the manifest declares (`settings.X` must name one); None: not checked."""
    members: Callable[[str], list[tuple[str, str]]] | None = None
    """The `(root, key)` a template reads as `root.key` of `settings` and `params` (the language's parser)."""


@dataclass(frozen=True)
class Diagnostic:
    """One finding."""

    code: str
    severity: Literal["error", "warning"]
    file: str
    path: str
    """A JSON Pointer into the file (`/body/children/2`)."""
    message: str
    hint: str = ""
    """What to write instead (`did you mean 'accent'?`), or ''."""


# Keys whose string values are names, enums or targets, not templates.
_NOT_TEMPLATES = frozenset(
    {
        "type",
        "id",
        "icon",
        "source",
        "bind",
        "name",
        "invoke",
        "open",
        "set",
        "spec",
        "kind",
        "defaultSize",
        "every",
        "format",
        "tick",
        "variant",
        "style",
        "align",
        "input",
        "pattern",
        "sizes",
        "as",
        "tool",
        "then",
    }
)
# Node props whose templates see the loop variable (and the `as` alias).
_LOOP_PROPS = {
    "list": ("item", "key", "itemAction"),
    "table": ("columns", "rowAction"),
    "bars": ("label", "value", "max", "display", "tone"),
    "kv": ("key", "value"),
    "column": ("template",),
    "row": ("template",),
}
_DURATION = re.compile(r"(\d+)\s*(s|m|h|d)")


def parse_seconds(text: str) -> int | None:
    """'30s' / '5m' / '2h' / '1d' in seconds, else None."""
    m = _DURATION.fullmatch(text.strip()) if isinstance(text, str) else None
    return int(m.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)] if m else None


def pointer(parts: list[str | int]) -> str:
    """A JSON Pointer from path parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


#: pydantic's strict type errors, said as what the prop takes.
_WANTED = {
    "bool_type": "true or false (without quotes)",
    "int_type": "a whole number (without quotes)",
    "float_type": "a number (without quotes)",
    "string_type": "text (in quotes)",
}


def _schema_diagnostics(err: ValidationError, data: Any, file: str) -> list[Diagnostic]:
    out: dict[tuple[str, str], Diagnostic] = {}
    for e in err.errors():
        cur: Any = data
        parts: list[str | int] = []
        tagged: set[int] = set()
        owner: Any = data  # the mapping holding the last key walked into
        for elem in e["loc"]:
            if isinstance(elem, int) and isinstance(cur, list) and elem < len(cur):
                cur = cur[elem]
                parts.append(elem)
            elif isinstance(cur, dict) and elem == cur.get("type") and id(cur) not in tagged:
                tagged.add(id(cur))  # pydantic's discriminator tag, not a key
            elif isinstance(elem, str) and isinstance(cur, dict) and (elem in cur or elem.rstrip("_") in cur):
                key = elem if elem in cur else elem.rstrip("_")
                owner = cur
                cur = cur[key]
                parts.append(key)
            elif e["type"] in ("missing", "extra_forbidden") and isinstance(elem, str) and elem == e["loc"][-1]:
                parts.append(elem)
        path = pointer(parts)
        if e["type"] == "union_tag_invalid":
            code, msg = (
                "UNKNOWN_TYPE",
                f"unknown component type {cur.get('type')!r}" if isinstance(cur, dict) else str(e["msg"]),
            )
        elif e["type"] == "missing":
            code, msg = "MISSING", f"missing required prop '{e['loc'][-1]}'"
        elif e["type"] == "extra_forbidden":
            code, msg = "UNKNOWN_PROP", f"unknown prop '{e['loc'][-1]}'"
        elif e["type"] == "literal_error":
            code, msg = "BAD_ENUM_VALUE", str(e["msg"])
        elif e["type"] in _WANTED:
            # strict: "yes", "1" or "3" are not read as true or a number (JSON has the real ones)
            given = json.dumps(e["input"], ensure_ascii=False)[:40]
            code, msg = "WRONG_TYPE", f"expected {_WANTED[e['type']]}, not {given}"
        else:
            code, msg = "INVALID", str(e["msg"])
        hint = ""
        if code == "BAD_ENUM_VALUE" and isinstance(e["input"], str):
            hint = did_you_mean(e["input"], re.findall(r"'([^']*)'", str(e.get("ctx", {}).get("expected", ""))))
        if code == "UNKNOWN_TYPE" and isinstance(cur, dict):
            hint = did_you_mean(str(cur.get("type")), COMPONENTS)
        if code == "UNKNOWN_PROP" and isinstance(owner, dict):
            top = (Screen if data.get("kind") == "screen" else Widget) if owner is data else None
            model = MODELS.get(str(owner.get("type"))) or top
            props = [f.alias or n for n, f in model.model_fields.items()] if model else []
            hint = did_you_mean(str(e["loc"][-1]), props)
        # A union (actions, I18nString) reports once per member; keep the first, most specific one.
        if (path, code) not in out:
            out[(path, code)] = Diagnostic(code, "error", file, path, msg, hint)
    # `tone: accnet` fails both members of `Tone | Expr`, and `big: "yes"` both of `bool | Expr`: the value or the
    # named values are what was meant, and the template member is said as the other way to write it.
    named = {path for path, code in out if code in ("BAD_ENUM_VALUE", "WRONG_TYPE")}
    for (path, code), d in out.items():
        if code == "WRONG_TYPE" and (path, "INVALID") in out and "pattern" in out[(path, "INVALID")].message:
            out[(path, code)] = replace(d, message=d.message.replace(", not ", " or a whole ${…} template, not ", 1))
    return [d for (path, code), d in out.items() if not (code == "INVALID" and path in named)]


@dataclass
class _Walk:
    file: str
    facts: PluginFacts
    check: TemplateChecker
    kind: str
    scope: set[str]
    found: list[Diagnostic] = field(default_factory=list)
    ids: dict[str, str] = field(default_factory=dict)
    nodes: int = 0
    aliases: frozenset[str] = frozenset()
    params: frozenset[str] | None = None
    """A screen's declared params (`params.X` must name one); None for a widget."""
    """The spec's source aliases: `${book.title}` most likely meant `sources.book`."""

    def add(self, code: str, path: list[str | int], message: str, severity: str = "error", hint: str = "") -> None:
        self.found.append(Diagnostic(code, severity, self.file, pointer(path), message, hint))  # type: ignore[arg-type]

    def template(self, text: str, path: list[str | int], scope: set[str]) -> None:
        if len(text) > MAX_STRING:
            self.add("CAP_STRING", path, f"text of {len(text):,} characters; the cap is {MAX_STRING:,}")
        if "${" not in text.replace("$${", ""):
            return
        names, error = self.check(text)
        if error is not None:
            self.add("TEMPLATE_SYNTAX", path, error)
            return
        for name in sorted((names or set()) - scope):
            message, hint = self.out_of_scope(name, scope)
            self.add("TEMPLATE_NAME", path, message, hint=hint)
        if self.facts.members is not None:
            declared = {"settings": self.facts.settings, "params": self.params}
            for root, key in self.facts.members(text):
                known = declared.get(root)
                if known is not None and root in scope and key not in known:
                    word = "setting" if root == "settings" else "param of this screen"
                    hint = did_you_mean(key, sorted(known)) or (
                        f"declared: {', '.join(sorted(known))}" if known else "none is declared"
                    )
                    self.add("UNKNOWN_MEMBER", path, f"{root}.{key} is not a declared {word}", hint=hint)

    def out_of_scope(self, name: str, scope: set[str]) -> tuple[str, str]:
        """What to say of a name a template uses where it is not defined, and what to write instead."""
        if name in ("item", "index"):
            return (
                f"'{name}' is only in scope inside a list's item, a table's columns or bars (one per entry)",
                "outside them, read the whole value: data, or sources.<alias>",
            )
        if name in ("params", "state"):
            said = f"'{name}' is only in scope in screens"
            return said, ("widgets have no params: a widget shows its source's data" if name == "params" else
                          "widgets have no state: a widget only shows data")  # fmt: skip
        if name in self.aliases:
            return f"'{name}' is not a name in scope here", f"did you mean 'sources.{name}'?"
        return f"'{name}' is not a name in scope here", did_you_mean(name, sorted(scope))

    def value(self, v: Any, path: list[str | int], scope: set[str], depth: int) -> None:
        if isinstance(v, str):
            key = path[-1] if path else None
            if key not in _NOT_TEMPLATES:
                self.template(v, path, scope)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                self.value(x, [*path, i], scope, depth)
        elif isinstance(v, dict):
            if isinstance(v.get("type"), str) and v["type"] in COMPONENTS:
                self.node(v, path, scope, depth + 1)
            elif (
                any(verb in v for verb in ACTION_VERBS)
                and path
                and path[-1] in ("action", "tap", "submit", "itemAction", "rowAction")
            ):
                self.action(v, path, scope)
            else:
                for k, x in v.items():
                    self.value(x, [*path, k], scope, depth)
            if set(v) <= {"zh", "en"} and "zh" in v and "en" not in v and self.facts.has_english:
                self.add("I18N_MISSING", path, "English text is missing (the plugin has i18n.en)", "warning")

    def node(self, n: dict[str, Any], path: list[str | int], scope: set[str], depth: int) -> None:
        self.nodes += 1
        if depth > MAX_DEPTH:
            self.add("CAP_DEPTH", path, f"nodes nest deeper than {MAX_DEPTH}")
            return
        if self.nodes == MAX_NODES + 1:
            self.add("CAP_NODES", path, f"more than {MAX_NODES} nodes")
        if isinstance(n.get("id"), str):
            if n["id"] in self.ids:
                self.add("DUPLICATE_ID", [*path, "id"], f"id {n['id']!r} is used twice (first at {self.ids[n['id']]})")
            self.ids.setdefault(n["id"], pointer(path))
        kind = n["type"]
        for prop, words in ENUM_PROPS.get(kind, {}).items():
            v = n.get(prop)
            if isinstance(v, str) and "${" not in v and v not in words:
                self.add(
                    "BAD_ENUM_VALUE",
                    [*path, prop],
                    f"{prop} {v!r} is not one of {', '.join(words)}",
                    hint=did_you_mean(v, words),
                )
        loop = _LOOP_PROPS.get(kind, ())
        alias = n.get("as") if isinstance(n.get("as"), str) else None
        inner = scope | set(ITEM_NAMES) | ({alias} if alias else set())
        for k, v in n.items():
            self.value(v, [*path, k], inner if k in loop else scope, depth)
        if kind == "form" and isinstance(n.get("submit"), dict):
            target = n["submit"].get("invoke")
            tool = self._tool(target) if isinstance(target, str) else None
            if tool is not None:
                for i, f in enumerate(n.get("fields") or []):
                    if isinstance(f, dict) and isinstance(f.get("name"), str) and f["name"] not in tool.inputs:
                        self.add(
                            "FORM_FIELD_UNKNOWN",
                            [*path, "fields", i, "name"],
                            f"field {f['name']!r} is not an input of {target}",
                        )
        if kind in SCREEN_ONLY_COMPONENTS and self.kind == "widget":
            self.add("SCREEN_ONLY", path, f"'{kind}' is for screens; widgets only show data")

    def open_params(self, name: str, a: dict[str, Any], path: list[str | int]) -> None:
        """Opening a screen gives every param it requires, none it does not declare, and enum values from the enum."""
        if name in self.facts.screens and name not in self.facts.screen_params:
            return  # the screen's own file did not load: its problem is said there, its params are unknown
        params = a.get("params")
        given = params if isinstance(params, dict) else {}
        for p in param_problems(name, self.facts.screen_params.get(name), given, "this action"):
            at = [*path, "params", p.key] if p.key is not None else [*path, "open"]
            self.add(p.code, at, p.message, hint=p.hint)

    def _unloaded(self, target: str) -> bool:
        prefix = self.facts.plugin_id + "."
        return target.startswith(prefix) and target[len(prefix) :] in self.facts.unloaded_tools

    def _tool(self, target: str) -> ToolFacts | None:
        prefix = self.facts.plugin_id + "."
        return self.facts.tools.get(target[len(prefix) :]) if target.startswith(prefix) else None

    def action(self, a: dict[str, Any], path: list[str | int], scope: set[str]) -> None:
        if "invoke" in a:
            target = a["invoke"]
            if not isinstance(target, str) or "${" in target:
                self.add("INVOKE_TARGET", [*path, "invoke"], "the invoke target must be a literal '<plugin>.<tool>'")
            elif self._unloaded(target):
                pass  # the tool's own file says what is wrong with it
            elif (tool := self._tool(target)) is None:
                self.add(
                    "INVOKE_TARGET",
                    [*path, "invoke"],
                    f"{target!r} is not a tool of {self.facts.plugin_id} (only this plugin's tools can be invoked)",
                    hint=did_you_mean(target, [f"{self.facts.plugin_id}.{t}" for t in self.facts.tools]),
                )
            elif tool.effect in ("money", "public") and not a.get("confirm"):
                self.add("INVOKE_NO_CONFIRM", path, f"{target} is a {tool.effect} tool: add a confirm", "warning")
        if "open" in a:
            target = a["open"]
            name = target[len("screen:") :] if isinstance(target, str) and target.startswith("screen:") else None
            if name is None or name not in self.facts.screens:
                self.add(
                    "OPEN_TARGET",
                    [*path, "open"],
                    f"{target!r} is not one of this plugin's screens (screen:<name>)",
                    hint=did_you_mean(str(target), [f"screen:{s}" for s in self.facts.screens]),
                )
            else:
                self.open_params(name, a, path)
        then = a.get("then")
        then_open = then.get("open") if isinstance(then, dict) else None
        if isinstance(then_open, str) and then_open.startswith("screen:") and then_open[7:] in self.facts.screens:
            self.open_params(then_open[7:], then, [*path, "then"])  # type: ignore[arg-type]
        if "openUrl" in a and isinstance(a["openUrl"], str) and not a["openUrl"].startswith(("https://", "${")):
            self.add("OPENURL_SCHEME", [*path, "openUrl"], "openUrl opens https:// addresses only")
        if "set" in a and self.kind == "widget" and "invoke" not in a:
            self.add("SCREEN_ONLY", path, "set changes screen state; widgets have none")
        for k, v in a.items():
            if k in ("input", "params", "value"):
                self.data(v, [*path, k], scope)  # the author's own data: every string in it is a template
            elif k not in ("invoke", "open", "set", "then"):
                self.value(v, [*path, k], scope, 0)

    def data(self, v: Any, path: list[str | int], scope: set[str]) -> None:
        """A value an action or a source is given (`input`, `params`, `args`): JSON whose every string is a
        template, whatever its keys are called (`{ "id": "${params.id}" }` — `id` is no component's id here)."""
        if isinstance(v, str):
            self.template(v, path, scope)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                self.data(x, [*path, i], scope)
        elif isinstance(v, dict):
            for k, x in v.items():
                self.data(x, [*path, k], scope)


def validate_spec(
    data: Any, file: str, facts: PluginFacts, check: TemplateChecker, raw_size: int = 0
) -> list[Diagnostic]:
    """Every problem of one widget or screen file: schema first, then the semantic pass."""
    found: list[Diagnostic] = []
    if raw_size > MAX_FILE_BYTES:
        found.append(Diagnostic("CAP_FILE", "error", file, "", f"the file is {raw_size:,} bytes; the cap is 64 KB"))
    if not isinstance(data, dict):
        return [*found, Diagnostic("INVALID", "error", file, "", "a spec is a JSON object")]
    kind = data.get("kind")
    model = Widget if kind == "widget" else Screen if kind == "screen" else None
    if model is None:
        return [*found, Diagnostic("INVALID", "error", file, "/kind", "kind must be 'widget' or 'screen'")]
    try:
        model.model_validate(data)
    except ValidationError as e:
        found.extend(_schema_diagnostics(e, data, file))
    if kind == "widget" and data.get("body") is None and not data.get("layouts"):
        found.append(Diagnostic("MISSING", "error", file, "/body", "a widget needs a body (or layouts per size)"))
    base = {*TEMPLATE_NAMES, *facts.shared_names}
    if kind == "screen":
        base |= set(SCREEN_NAMES)
    sources = data.get("sources")
    aliases = frozenset(str(a) for a in sources) if isinstance(sources, dict) else frozenset()
    declared = data.get("params") if kind == "screen" else None
    params = (
        frozenset(str(p) for p in declared) if isinstance(declared, dict) else frozenset() if kind == "screen" else None
    )
    walk = _Walk(file, facts, check, str(kind), base, aliases=aliases, params=params)
    # Sources: they must exist, and every data tool must be a read tool.
    named: list[tuple[list[str | int], str]] = []
    if isinstance(data.get("source"), str):
        named.append((["source"], data["source"]))
    for alias, src in (data.get("sources") or {}).items() if isinstance(data.get("sources"), dict) else []:
        if isinstance(src, str):
            named.append((["sources", alias], src))
        elif isinstance(src, dict) and isinstance(src.get("source"), str):
            named.append((["sources", alias, "source"], src["source"]))
        elif isinstance(src, dict) and isinstance(src.get("tool"), str):
            tool = facts.tools.get(src["tool"])
            if tool is None and src["tool"] in facts.unloaded_tools:
                pass  # the tool's own file says what is wrong with it
            elif tool is None:
                walk.add(
                    "SOURCE_UNKNOWN",
                    ["sources", alias, "tool"],
                    f"{src['tool']!r} is not a tool of this plugin",
                    hint=did_you_mean(src["tool"], facts.tools),
                )
            elif tool.effect != "read":
                walk.add(
                    "SOURCE_NOT_READ",
                    ["sources", alias, "tool"],
                    f"{src['tool']} is a {tool.effect} tool; data comes from read tools only",
                )
            walk.data(src.get("args"), ["sources", alias, "args"], base - {"data", "sources"})
    for path, name in named:
        if name not in facts.data_sources:
            walk.add(
                "SOURCE_UNKNOWN",
                path,
                f"{name!r} is not in the manifest's dataSources",
                hint=did_you_mean(name, facts.data_sources),
            )
        else:
            tool_name = facts.data_sources[name]
            tool = facts.tools.get(tool_name) if tool_name else None
            if tool is not None and tool.effect != "read":
                walk.add("SOURCE_NOT_READ", path, f"{name} reads {tool_name}, a {tool.effect} tool")
    refresh = data.get("refresh")
    if isinstance(refresh, dict) and isinstance(refresh.get("every"), str):
        seconds = parse_seconds(refresh["every"])
        if seconds is None:
            walk.add("DURATION", ["refresh", "every"], f"{refresh['every']!r} is not a duration like 30s, 5m, 1h")
        elif seconds < MIN_REFRESH_S:
            walk.add("REFRESH_FLOOR", ["refresh", "every"], "refresh.every is raised to 30 s", "warning")
    # let: in order, each name visible to the ones after it.
    scope = set(base)
    for name, text in (data.get("let") or {}).items() if isinstance(data.get("let"), dict) else []:
        if isinstance(text, str):
            walk.template(text, ["let", name], scope)
        scope.add(name)
    walk.scope = scope
    for key, v in data.items():
        if key in (
            "let",
            "sources",
            "source",
            "refresh",
            "spec",
            "kind",
            "sizes",
            "defaultSize",
            "icon",
            "params",
            "$schema",
        ):
            continue
        if key == "tap" and isinstance(v, dict):
            walk.action(v, ["tap"], scope)
        elif key == "state":
            walk.value(v, ["state"], base - {"state"}, 0)
        else:
            walk.value(v, [key], scope, 0)
    # An unknown prop is reported once: its value is not checked as if it were the prop it may have meant (a
    # misspelt `tone` of a list is evaluated per item, so its `item` would be called out of scope).
    # So is a component of an unknown type (`"type": "bar"`): its props are not checked as some other one's.
    unknown = [d.path for d in found if d.code in ("UNKNOWN_PROP", "UNKNOWN_TYPE")]
    found.extend(d for d in walk.found if not any(d.path == u or d.path.startswith(u + "/") for u in unknown))
    return found
