"""What a student sees before a plugin is installed or a paused update is applied: plain data, no UI.

The install review answers the seeds' three questions (official or community; what it may reach; what it can
do). The update review is the difference between two versions' declarations: a wider scope pauses an update
until the student agrees — a new service, domain or ability, any change of a tool's effect (an update cannot
show that a "narrower" effect is true), a guard (`userOnly`, `untrusted`) that the old version's tools had and
a tool of the new one lacks, a looser starting mode, a new MCP server; changed texts are shown, and anything
else applies by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tui.lang.documents.common import Effect
from tui.lang.documents.loader import Plugin
from tui.lang.documents.manifest import Manifest
from tui.lang.netpolicy import host_matches
from tui.runtime.permissions import EFFECTS, default_mode
from tui.runtime.plugins.links import ResolvedRef
from tui.runtime.plugins.remote import RemoteReview

#: Official plugins come from this repository (or are built in); every other source is a community plugin.
OFFICIAL_REPO = "https://github.com/pkuinfo/pku-harness-plugins"


@dataclass(frozen=True)
class ToolReview:
    """One tool as the review page lists it."""

    name: str
    title: str
    summary: str | None
    effect: str
    user_only: bool = False
    """Only the student can run it (never the assistant)."""


@dataclass(frozen=True)
class InstallChoice:
    """The student said 安装 on the review: with the effect chosen for each of a remote server's tools (empty for a
    plugin without one). Always true, unlike a plain False for "not installed"."""

    effects: dict[str, Effect] = field(default_factory=dict)


@dataclass(frozen=True)
class InstallReview:
    """Everything the install review page shows (seeds: 安装链接 → 审核页)."""

    plugin_id: str
    name: str
    version: str
    author: str
    description: str
    official: bool
    source: str
    """The link it was installed from (or `built-in`)."""
    ref: ResolvedRef | None = None
    """What a GitHub link's ref resolved to: branch, tag or commit, and the commit every file came from."""
    campus: list[str] = field(default_factory=list)
    network: list[str] = field(default_factory=list)
    abilities: list[str] = field(default_factory=list)
    tools: list[ToolReview] = field(default_factory=list)
    instructions: str = ""
    """The assistant's Markdown instructions, shown so the student can read what the model is told."""
    remote: RemoteReview | None = None
    """A remote plugin's MCP server: its URL, host, auth and every tool it lists (or why it could not be
    reached), each with the effect the student picks."""

    @property
    def asks_first(self) -> list[ToolReview]:
        """Tools that start as 「先询问」: a community plugin's write, money and public tools."""
        return [] if self.official else [t for t in self.tools if t.effect != "read"]


@dataclass(frozen=True)
class EffectChange:
    """A tool whose effect changed, either way (or a new tool that is not read-only): a declared effect is all
    the app knows of what a tool does, so a "weaker" one (write → read on a tool that still POSTs, public →
    money while money is on allow) may let it run where it asked before."""

    tool: str
    old: str | None
    new: str


@dataclass(frozen=True)
class TextChange:
    """A tool whose title, summary or model description changed."""

    tool: str
    what: str
    old: str
    new: str


@dataclass(frozen=True)
class ModeChange:
    """An effect whose starting mode the new manifest makes looser (`defaultModes`)."""

    effect: str
    old: str
    new: str


GUARDS = ("userOnly", "untrusted")
"""Tool flags that restrict a tool: losing one widens what the plugin can do."""


@dataclass(frozen=True)
class GuardChange:
    """A tool without `userOnly` (the assistant may call it) or `untrusted` (its results read as instructions
    rather than data) that the old version guarded: the same tool that lost the flag, or a new tool without it
    while old tools had it (a tool renamed without its flag)."""

    tool: str
    guard: str
    had: str | None = None
    """For a new tool: the old tools that had the guard (the ones it may have been renamed from)."""


@dataclass(frozen=True)
class UpdateReview:
    """What an update changes in the declarations (seeds: 更新)."""

    plugin_id: str
    name: str
    old_version: str
    new_version: str
    added_campus: list[str] = field(default_factory=list)
    added_network: list[str] = field(default_factory=list)
    added_abilities: list[str] = field(default_factory=list)
    stronger: list[EffectChange] = field(default_factory=list)
    """Every change of a tool's effect, either way, and new tools that are not read-only (see EffectChange)."""
    added_tools: list[str] = field(default_factory=list)
    removed_tools: list[str] = field(default_factory=list)
    texts: list[TextChange] = field(default_factory=list)
    loosened: list[ModeChange] = field(default_factory=list)
    lost_guards: list[GuardChange] = field(default_factory=list)
    remote: tuple[str | None, str | None] | None = None
    """(old, new) `remote.mcp` URL when it changed."""
    instructions: tuple[str, str] | None = None
    """(old, new) assistant instructions when they changed (shown; not a wider scope by itself)."""

    @property
    def wider_scope(self) -> bool:
        """A new campus service, domain or ability, any change of a tool's effect or a new non-read tool, a tool
        without a guard the old version had, a looser starting mode, or a changed remote MCP server."""
        return bool(
            self.added_campus
            or self.added_network
            or self.added_abilities
            or self.stronger
            or self.loosened
            or self.lost_guards
            or self.remote
        )

    @property
    def changes_texts(self) -> bool:
        """Tool texts or instructions changed: shown to the student even when the scope is the same."""
        return bool(self.texts or self.instructions)

    @property
    def needs_approval(self) -> bool:
        """The update waits for the student only when its scope grew (the seeds' rule). Changed tool texts
        are shown on the approval page when there is one, and listed in the "updated" notice otherwise."""
        return self.wider_scope


def install_review(
    plugin: Plugin, source: str, official: bool, locale: str = "zh", ref: ResolvedRef | None = None
) -> InstallReview:
    """The review of a plugin that validated (built by the installer before anything is stored)."""
    m = plugin.manifest
    return InstallReview(
        plugin_id=m.id,
        name=m.name_for(locale),
        version=m.version,
        author=m.author,
        description=m.description_for(locale),
        official=official,
        source=source,
        ref=ref,
        campus=list(m.campus),
        network=list(m.network),
        abilities=list(m.abilities),
        tools=[
            ToolReview(
                name,
                *m.tool_text(name, t.definition, locale),
                effect=t.definition.effect,
                user_only=t.definition.userOnly,
            )
            for name, t in plugin.tools.items()
        ],
        instructions=m.instructions_for(locale, plugin.instructions),
    )


def domain_covered(pattern: str, patterns: list[str]) -> bool:
    """True when every host `pattern` names is already named by `patterns` (`a.example.com` is covered by
    `*.example.com`; `*.pku.edu.cn` is not covered by `portal.pku.edu.cn`)."""
    if not pattern.startswith("*."):
        return host_matches(pattern, patterns)
    base = pattern[2:]
    return any(p.startswith("*.") and (base == p[2:] or base.endswith("." + p[2:])) for p in patterns)


MODE_ORDER = {"allow": 0, "ask": 1, "deny": 2}
"""Strictness: a smaller number lets more run."""


def update_review(old: Plugin, new: Plugin, official: bool = False) -> UpdateReview:
    """The declarations an update changes, tool by tool. `official` decides which starting modes apply."""
    o, n = old.manifest, new.manifest
    effects = []
    texts = []
    for name, tool in new.tools.items():
        d = tool.definition
        before = old.tools.get(name)
        if before is None:
            if d.effect != "read":
                effects.append(EffectChange(name, None, d.effect))
            continue
        b = before.definition
        if d.effect != b.effect:
            effects.append(EffectChange(name, b.effect, d.effect))
        for what, was, now in (
            ("title", b.title, d.title),
            ("summary", b.summary or "", d.summary or ""),
            ("description", b.description, d.description),
        ):
            if was != now:
                texts.append(TextChange(name, what, was, now))
    return UpdateReview(
        plugin_id=n.id,
        name=n.name,
        old_version=o.version,
        new_version=n.version,
        added_campus=[c for c in n.campus if c not in o.campus],
        added_network=[d for d in n.network if not domain_covered(d, list(o.network))],
        added_abilities=[a for a in n.abilities if a not in o.abilities],
        stronger=effects,
        added_tools=[t for t in new.tools if t not in old.tools],
        removed_tools=[t for t in old.tools if t not in new.tools],
        texts=texts,
        loosened=loosened_modes(o, n, official),
        lost_guards=lost_guards(old, new),
        remote=(_mcp(o), _mcp(n)) if _mcp(o) != _mcp(n) else None,
        instructions=(old.instructions, new.instructions) if old.instructions != new.instructions else None,
    )


def lost_guards(old: Plugin, new: Plugin) -> list[GuardChange]:
    """Guards compared as sets: a tool of `new` without a guard is a loss when the same-named old tool had it,
    or when it is a new tool and any old tool had it (renaming a guarded tool must not drop the guard)."""
    out = []
    for guard in GUARDS:
        guarded = [name for name, t in old.tools.items() if getattr(t.definition, guard)]
        gone = [name for name in guarded if name not in new.tools]
        for name, tool in new.tools.items():
            if getattr(tool.definition, guard):
                continue
            before = old.tools.get(name)
            if before is not None and getattr(before.definition, guard):
                out.append(GuardChange(name, guard))
            elif before is None and guarded:
                out.append(GuardChange(name, guard, ", ".join(gone or guarded)))
    return out


def loosened_modes(old: Manifest, new: Manifest, official: bool) -> list[ModeChange]:
    """Effects whose starting mode is looser under the new manifest's `defaultModes`."""
    out = []
    for effect in EFFECTS:
        was = default_mode(effect, official, old.defaultModes)
        now = default_mode(effect, official, new.defaultModes)
        if MODE_ORDER[now] < MODE_ORDER[was]:
            out.append(ModeChange(effect, was, now))
    return out


def _mcp(m: Manifest) -> str | None:
    return m.remote.mcp if m.remote is not None else None
