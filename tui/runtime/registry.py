"""The tool registry: every installed plugin's tools with their ids, model names and model-facing schemas, and
what each tool does once its `call` steps are followed (threats.md P6, N10).

A `call` step runs another tool of the same plugin, so what a tool may bring into a conversation or send out is
the union of what every tool it reaches does. Two facts are computed statically from the steps when the
registry is built (never from a run, so a branch not taken still counts):

- **untrusted**: the tool, or any tool it reaches, is declared `untrusted: true` — its result may hold
  third-party text, so a non-untrusted wrapper around an untrusted tool taints the conversation too;
- **sends**: the tool, or any tool it reaches, can send a network request — a public or campus `request`, an
  `each` with a request, a `paginate`, or an ability that goes to the network (`verify.*` signs campus
  requests, `cloud.call` calls a server, `browser.open` and `campusPage.open` open a page the student's browser
  requests).
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tui.lang.documents.common import Effect
from tui.lang.documents.loader import Plugin, Step
from tui.lang.documents.source import PluginSource
from tui.lang.documents.tool import AbilityStep, CallStep, EachStep, InputField, PaginateStep, RequestStep


class InstalledPlugin:
    """A plugin the app has, with where it came from. Its document may be built when first used (`later`)."""

    def __init__(self, plugin: Plugin, official: bool, source: PluginSource) -> None:
        self._plugin: Plugin | None = plugin
        self._build: Callable[[], Plugin] | None = None
        self.id = plugin.manifest.id
        self._widgets = plugin.widgets
        self.official = official
        """Built into the app, or from the official repository (the review page says so)."""
        self.source = source
        """Where its files are (recorded tests are read from here for --demo)."""

    @classmethod
    def later(
        cls, plugin_id: str, widgets: dict[str, Any], build: Callable[[], Plugin], official: bool, source: PluginSource
    ) -> InstalledPlugin:
        """A plugin whose document `build` makes when something first needs it (its checked form from the plugin
        cache): the dashboard needs only its id and widgets, so a start does not build what it does not show."""
        installed = cls.__new__(cls)
        installed._plugin, installed._build = None, build
        installed.id, installed._widgets = plugin_id, widgets
        installed.official, installed.source = official, source
        return installed

    @property
    def plugin(self) -> Plugin:
        """The plugin document (built now if it was kept for later)."""
        if self._plugin is None:
            with _building:
                if self._plugin is None and self._build is not None:
                    self._plugin, self._build = self._build(), None
        assert self._plugin is not None
        return self._plugin

    @property
    def widgets(self) -> dict[str, Any]:
        """Its widget specs by name, without building the document."""
        return self._plugin.widgets if self._plugin is not None else self._widgets


_building = threading.Lock()


NativeRun = Callable[[dict[str, Any]], Awaitable[Any]]


@dataclass(frozen=True)
class NativeTool:
    """A tool the app implements itself (a host plugin's tool), described like a plugin tool."""

    title: str
    title_en: str
    description: str
    effect: Effect
    run: NativeRun
    """Called with the checked input."""
    input: dict[str, InputField] = field(default_factory=dict)
    summary: str | None = None
    user_only: bool = False
    sends: bool = False
    """It sends what it is given over the network (installing a plugin fetches its link)."""
    attended: bool = False
    """Only for a conversation with the student (the plugin drafts): the scheduler may not call it at all."""
    untrusted: bool = False
    """Its result may hold third-party text (a draft's tool run against a website)."""


@dataclass
class HostPlugin:
    """A plugin built into the app (`memory`, `scheduler`, `dashboard`, `plugins`); its id is reserved."""

    id: str
    name: str
    instructions: str
    tools: dict[str, NativeTool]
    name_en: str = ""
    """The name when the app speaks English."""


@dataclass(frozen=True)
class ToolInfo:
    """What the app knows of one tool."""

    id: str
    """`<plugin>.<tool>`, used by code (`invoke('wallet.cardBalance')`)."""
    model_name: str
    """`<plugin>__<tool>`: the first '.' becomes '__' (model APIs refuse dots)."""
    plugin_id: str
    name: str
    title: str
    """In the user's language (English from i18n.en when the app speaks English)."""
    summary: str | None
    description: str
    """For the model."""
    effect: Effect
    untrusted: bool
    """Its result may hold third-party text: the tool, or a tool it reaches through `call`, is untrusted."""
    user_only: bool
    official: bool
    input_schema: dict[str, Any]
    """The JSON Schema the model sees, each field with its description."""
    input: dict[str, InputField] = field(default_factory=dict)
    """The declared input fields (what a call's input is checked against)."""
    labels: dict[str, str] = field(default_factory=dict)
    """Each input field's label in the user's language (its title; the field's name when it has none)."""
    value_titles: dict[str, dict[str, str]] = field(default_factory=dict)
    """An enum field's value (as text) → its title in the user's language, for the values that have one."""
    result_titles: dict[str, str] = field(default_factory=dict)
    """A result key → its title in the user's language (the tool's `resultTitles`), for a result shown as it is."""
    native: NativeTool | None = None
    """The app's own implementation, for host plugins' tools."""
    sends: bool = False
    """It can send a network request (itself or through a tool it reaches with `call`)."""
    remote: str | None = None
    """For a tool of a remote plugin's MCP server (`mcp-<server>.<tool>`): its name on the server, where the gate
    runs it."""
    attended: bool = False
    """Only for a conversation with the student (a host tool's `attended`): the scheduler is refused it."""


#: Ability groups whose operations reach the network with what the plugin gives them.
NETWORK_ABILITIES = frozenset({"verify", "cloud", "browser", "campusPage"})


@dataclass(frozen=True)
class Reach:
    """One tool with every tool it reaches through `call` steps."""

    untrusted: bool
    sends: bool
    calls: frozenset[str]
    """The names of the tools it reaches, transitively (itself only if it loops back to itself)."""


def _direct(steps: list[Step]) -> tuple[bool, set[str]]:
    """Whether these steps (and their nested steps) send a request themselves, and the tools they call."""
    sends = False
    calls: set[str] = set()
    for step in steps:
        m = step.model
        requests = isinstance(m, RequestStep | PaginateStep) or (isinstance(m, EachStep) and m.request is not None)
        if requests or (isinstance(m, AbilityStep) and m.ability.partition(".")[0] in NETWORK_ABILITIES):
            sends = True
        elif isinstance(m, CallStep):
            calls.add(m.call)
        for children in step.children.values():
            nested_sends, nested_calls = _direct(children)
            sends = sends or nested_sends
            calls |= nested_calls
    return sends, calls


def reach(plugin: Plugin) -> dict[str, Reach]:
    """Every tool of the plugin with what it reaches (calls to tools the plugin does not have are ignored:
    the interpreter refuses them when the step runs)."""
    direct = {name: _direct(tool.steps) for name, tool in plugin.tools.items()}
    out: dict[str, Reach] = {}
    for name in plugin.tools:
        seen: set[str] = set()
        todo = [c for c in direct[name][1] if c in direct]
        while todo:
            callee = todo.pop()
            if callee in seen:
                continue
            seen.add(callee)
            todo.extend(c for c in direct[callee][1] if c in direct and c not in seen)
        group = {name, *seen}
        out[name] = Reach(
            untrusted=any(plugin.tools[n].definition.untrusted for n in group),
            sends=any(direct[n][0] for n in group),
            calls=frozenset(seen),
        )
    return out


def field_schema(field: InputField) -> dict[str, Any]:
    """The JSON Schema of one input field."""
    kind = field.type or "string"
    out: dict[str, Any] = {"type": kind}
    if field.description:
        out["description"] = field.description
    if field.enum is not None:
        out["enum"] = field.enum
    if field.default is not None:
        out["default"] = field.default
    bounds = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems")}.get(kind, ("minimum", "maximum"))
    if field.min is not None:
        out[bounds[0]] = int(field.min) if kind in ("string", "array", "integer") else field.min
    if field.max is not None:
        out[bounds[1]] = int(field.max) if kind in ("string", "array", "integer") else field.max
    if field.pattern is not None:
        out["pattern"] = field.pattern
    if field.items is not None:
        out["items"] = field_schema(field.items)
    return out


def host_label(name: str, field: InputField, locale: str) -> str:
    """The label of an app tool's input field: its title (in English only when the title is English)."""
    return field.title if field.title and (locale == "zh" or field.title.isascii()) else name


def input_schema(fields: dict[str, InputField]) -> dict[str, Any]:
    """The object schema of a tool's input."""
    return {
        "type": "object",
        "properties": {name: field_schema(f) for name, f in fields.items()},
        "required": [name for name, f in fields.items() if not f.optional and f.default is None],
        "additionalProperties": False,
    }


class Registry:
    """Installed plugins and their tools, by id and by model name."""

    def __init__(self, locale: str = "zh") -> None:
        self.locale = locale
        self.plugins: dict[str, InstalledPlugin] = {}
        self.hosts: dict[str, HostPlugin] = {}
        """Host plugins, by id."""
        self._tools: list[ToolInfo] | None = None
        """The tool list, built once per change of plugins."""
        self._of: dict[str, list[ToolInfo]] = {}
        """Each plugin's (or host plugin's) tools, built when first asked for: a gate call looks its tool up in
        its own plugin's, so the first widget of the dashboard does not wait for every installed plugin's."""
        self.remote: dict[str, list[ToolInfo]] = {}
        """A remote plugin's tools from its MCP server that the student approved, as they stand (set by the
        remote servers' manager once the server listed them; none before)."""
        self._prefixes: dict[str, str] = {}
        """`mcp-<server>` → the remote plugin's id."""

    def set_locale(self, locale: str) -> None:
        """Switch the language of tool titles and instructions (English comes from i18n.en)."""
        self.locale = locale
        self._forget()

    def _forget(self, plugin_id: str | None = None) -> None:
        self._tools = None
        if plugin_id is None:
            self._of.clear()
        else:
            self._of.pop(plugin_id, None)

    def add_host(self, host: HostPlugin) -> None:
        """Register one of the app's own host plugins."""
        self.hosts[host.id] = host
        self._forget(host.id)

    def add(self, installed: InstalledPlugin) -> None:
        """Register (or replace) a plugin."""
        self.plugins[installed.id] = installed
        self._forget(installed.id)

    def remove(self, plugin_id: str) -> None:
        self.plugins.pop(plugin_id, None)
        self.remote.pop(plugin_id, None)
        self._prefixes = {p: i for p, i in self._prefixes.items() if i != plugin_id}
        self._forget(plugin_id)

    def set_remote(self, plugin_id: str, prefix: str, tools: list[ToolInfo]) -> None:
        """The remote tools of a plugin that are on (approved and unchanged), looked up by `prefix` (`mcp-<id>`)."""
        self._prefixes[prefix] = plugin_id
        self.remote[plugin_id] = list(tools)
        self._forget(plugin_id)

    def plugin_of(self, name: str) -> str:
        """The plugin id a tool id or model name belongs to (a remote tool's `mcp-<server>`: the remote plugin)."""
        head = name.partition(".")[0] if "." in name else name.partition("__")[0]
        if head in self._prefixes:
            return self._prefixes[head]
        if head.startswith("mcp-") and head[4:] in self.plugins:  # its server not listed yet: the id as it is
            return head[4:]
        return head

    def plugin_name(self, plugin_id: str) -> str:
        """A plugin's (or host plugin's) name in the app's language: English from i18n.en, else the name."""
        installed = self.plugins.get(plugin_id)
        if installed is not None:
            return installed.plugin.manifest.name_for(self.locale)
        host = self.hosts.get(plugin_id)
        if host is None:
            return plugin_id
        return host.name_en if self.locale == "en" and host.name_en else host.name

    def tools(self) -> list[ToolInfo]:
        """Every tool: host plugins first, then plugins in id order, tools in manifest order."""
        if self._tools is None:
            ids = [*sorted(self.hosts), *sorted(self.plugins)]
            self._tools = [t for pid in ids for t in self._tools_of(pid)]
        return list(self._tools)

    def tools_of(self, plugin_id: str) -> list[ToolInfo]:
        """One plugin's (or host plugin's) tools, in manifest order; [] for an id the registry does not have."""
        return list(self._tools_of(plugin_id))

    def _tools_of(self, plugin_id: str) -> list[ToolInfo]:
        found = self._of.get(plugin_id)
        if found is None:
            if plugin_id in self.hosts:
                found = self._host_tools(plugin_id)
            elif plugin_id in self.plugins:
                found = self._plugin_tools(plugin_id) + self.remote.get(plugin_id, [])
            else:
                return []
            self._of[plugin_id] = found
        return found

    def _host_tools(self, hid: str) -> list[ToolInfo]:
        return [
            ToolInfo(
                id=f"{hid}.{name}",
                model_name=f"{hid}__{name}",
                plugin_id=hid,
                name=name,
                title=native.title_en if self.locale == "en" else native.title,
                summary=native.summary,
                description=native.description,
                effect=native.effect,
                untrusted=native.untrusted,
                user_only=native.user_only,
                official=True,
                input_schema=input_schema(native.input),
                input=native.input,
                labels={f: host_label(f, spec, self.locale) for f, spec in native.input.items()},
                native=native,
                sends=native.sends,
                attended=native.attended,
            )
            for name, native in self.hosts[hid].tools.items()
        ]

    def _plugin_tools(self, pid: str) -> list[ToolInfo]:
        inst = self.plugins[pid]
        m = inst.plugin.manifest
        reached = reach(inst.plugin)
        out = []
        for name, tool in inst.plugin.tools.items():
            d = tool.definition
            title, summary = m.tool_text(name, d, self.locale)
            out.append(
                ToolInfo(
                    id=f"{pid}.{name}",
                    model_name=f"{pid}__{name}",
                    plugin_id=pid,
                    name=name,
                    title=title,
                    summary=summary,
                    description=d.description,
                    effect=d.effect,
                    untrusted=reached[name].untrusted,
                    user_only=d.userOnly,
                    official=inst.official,
                    input_schema=input_schema(d.input),
                    input=d.input,
                    labels={f: m.field_title(name, f, spec, self.locale) for f, spec in d.input.items()},
                    value_titles={f: m.option_titles(name, f, spec, self.locale) for f, spec in d.input.items()},
                    result_titles=m.result_titles(name, d, self.locale),
                    sends=reached[name].sends,
                )
            )
        return out

    def find(self, name: str) -> ToolInfo | None:
        """A tool by id (`wallet.cardBalance`) or model name (`wallet__cardBalance`), looked up among its own
        plugin's tools (plugin ids have neither '.' nor '_'; `mcp-<server>` names the remote plugin `<server>`)."""
        for t in self._tools_of(self.plugin_of(name)):
            if name in (t.id, t.model_name):
                return t
        return None

    def instructions(self, visible: set[str]) -> str:
        """The plugins' Markdown instructions for the model, for plugins with at least one visible tool."""
        owners = {self.plugin_of(tid) for tid in visible}
        parts = [
            f"## {h.name} ({hid})\n\n{h.instructions.strip()}" for hid, h in sorted(self.hosts.items()) if hid in owners
        ]
        for pid in sorted(self.plugins):
            if pid not in owners:
                continue
            m = self.plugins[pid].plugin.manifest
            body = m.instructions_for(self.locale, self.plugins[pid].plugin.instructions)
            parts.append(f"## {m.name} ({pid})\n\n{body.strip()}")
        return "\n\n".join(parts)
