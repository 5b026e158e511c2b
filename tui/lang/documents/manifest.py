"""The manifest model: the YAML frontmatter of PLUGIN.md (seed page 声明式插件, section 清单)."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from tui.lang.documents.common import TOOL_NAME_RE, DurationMs, Effect, Strict, VisibleText
from tui.lang.documents.tool import InputField, ToolDef
from tui.lang.netpolicy import CAMPUS_HOSTS

#: Campus services the app can sign requests for (campus.md §1): the services netpolicy knows a host of.
CAMPUS_SERVICES = frozenset(CAMPUS_HOSTS)
#: Host ability groups and the effect of each operation (seed page, 宿主能力).
ABILITIES: dict[str, dict[str, Effect]] = {
    "verify": {"treehole": "read", "treeholeSendCode": "write"},
    "otp": {"code": "read"},
    "todos": {"list": "read", "add": "write", "update": "write", "setDone": "write", "remove": "write"},
    "timetable": {"get": "read", "upsert": "write", "remove": "write"},
    "scheduler": {"list": "read", "create": "write", "update": "write", "remove": "write"},
    "browser": {"open": "read"},
    "campusPage": {"open": "read"},
    "sms": {"awaitCode": "read"},
    "files": {"pick": "read"},
    "crypto": {"sha256": "read"},
    "cloud": {"call": "read"},
}
#: Most tools one plugin may declare: each one's schema goes into every model request (issue 15 item 13).
MAX_TOOLS = 64
#: Ids of the app's own host plugins, which community plugins may not take.
#: Ids of the app's own tools, and `user`, the source the scheduler records for the student's own checks (a plugin
#: named `user` would pass for the student there).
RESERVED_IDS = frozenset(
    {"memory", "scheduler", "dashboard", "plugins", "todos", "timetable", "app", "host", "system", "user"}
)

_ID = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
_SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_IPV4ISH = re.compile(r"[0-9.]+|0x[0-9a-f.x]+")


def id_refusal(v: str) -> Literal["form", "reserved", "mcp"] | None:
    """Why `v` cannot be a plugin's id — `form` (not lower-case letters, digits and '-', at most 40), `reserved`
    (an id of the app's own tools) or `mcp` (names a remote server) — or None: it can."""
    if not _ID.fullmatch(v):
        return "form"
    if v in RESERVED_IDS:
        return "reserved"
    if v.startswith("mcp-"):
        return "mcp"
    return None


def too_many_tools(count: str) -> str:
    """The error for a manifest with `count` tools, over MAX_TOOLS."""
    return (
        f"{count} tools are declared; a plugin may declare at most {MAX_TOOLS} "
        "(every tool is described to the model in every request)"
    )


def _scripts(label: str) -> set[str]:
    """The scripts of a label's letters (LATIN, CYRILLIC, CJK …); digits and '-' belong to none."""
    out = set()
    for ch in label:
        if ch.isalpha():
            name = unicodedata.name(ch, "UNKNOWN")
            out.add("CJK" if name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL")) else name.split()[0])
    return out


def normalize_domain(pattern: str) -> str:
    """`example.com` or `*.example.com`, lower-cased in IDNA form; raises ValueError when it is not one."""
    if not isinstance(pattern, str) or not pattern:
        raise ValueError("a domain is text like example.com or *.example.com")
    p = pattern.strip()
    if "://" in p or "/" in p or ":" in p or "@" in p:
        raise ValueError(f"{pattern!r}: write only the host name (no scheme, port or path); only HTTPS is used")
    wildcard = p.startswith("*.")
    host = p[2:] if wildcard else p
    if "*" in host:
        raise ValueError(f"{pattern!r}: a wildcard may only stand first, as in *.example.com")
    try:
        ascii_host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise ValueError(f"{pattern!r} is not a valid domain name") from None
    for label in ascii_host.split("."):
        if label.startswith("xn--"):
            try:
                unicode_label = label.encode("ascii").decode("idna")
            except UnicodeError:
                raise ValueError(f"{pattern!r} has an invalid international label {label!r}") from None
            scripts = _scripts(unicode_label)
            if len(scripts) > 1:
                raise ValueError(
                    f"{pattern!r} mixes scripts ({', '.join(sorted(scripts))}) in one label, as look-alike "
                    f"domains do; write it as {ascii_host}"
                )
    if ascii_host.endswith("."):
        ascii_host = ascii_host[:-1]
    labels = ascii_host.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        raise ValueError(f"{pattern!r} is not a domain name like example.com")
    if _IPV4ISH.fullmatch(ascii_host) or labels[-1].isdigit():
        raise ValueError(f"{pattern!r}: IP addresses are never allowed, only domain names")
    return ("*." if wildcard else "") + ascii_host


class DataSource(Strict):
    """A read tool offered to widgets and scheduled checks, with how long its data stays fresh."""

    tool: str | None = None
    """A tool of this plugin (it must be a read tool)."""
    fn: str | None = None
    """A server function instead of a tool (PKU harness Cloud; not open yet)."""
    title: str | None = None
    """What the data is, for the dashboard."""
    args: dict[str, Any] = Field(default_factory=dict)
    """Fixed input for the tool."""
    ttl: DurationMs | None = None
    """How long the data is fresh: 30s, 5m, 2h, 1d."""
    ttlMs: int | None = Field(None, ge=0)
    """The same in milliseconds (as code-defined data sources write it)."""
    refresh: DurationMs | None = None
    """How often a visible widget refreshes it."""

    @model_validator(mode="after")
    def _one_target(self) -> DataSource:
        if (self.tool is None) == (self.fn is None):
            raise ValueError("a data source names exactly one of tool and fn")
        if self.ttl is not None and self.ttlMs is not None:
            raise ValueError("give ttl or ttlMs, not both")
        return self


class SettingField(InputField):
    """A plugin setting the user can change: an input field whose `title` labels it in the settings page."""

    title: VisibleText | None = None
    """The label in the settings page (no length bound, unlike a tool field's)."""


class Command(Strict):
    """A quick command (快捷指令): a prompt for the assistant, a tool run with fixed input, or a screen to open."""

    title: VisibleText = Field(min_length=1, max_length=40)
    """The button's text."""
    prompt: str | None = Field(None, min_length=1, max_length=2000)
    """Text sent to the assistant."""
    tool: str | None = None
    """A tool of this plugin to run."""
    args: dict[str, Any] = Field(default_factory=dict)
    """Input for the tool."""
    screen: str | None = None
    """A screen of this plugin to open."""
    params: dict[str, Any] = Field(default_factory=dict)
    """Params for the screen."""

    @model_validator(mode="after")
    def _one(self) -> Command:
        if sum(x is not None for x in (self.prompt, self.tool, self.screen)) != 1:
            raise ValueError("a command has exactly one of prompt, tool and screen")
        if self.args and self.tool is None:
            raise ValueError("args are the input of a command's tool: this command runs no tool")
        if self.params and self.screen is None:
            raise ValueError("params are for a command's screen: this command opens no screen")
        return self


Mode = Literal["allow", "ask", "deny"]


class DefaultModes(Strict):
    """How each effect starts out: allow, ask or deny (community write/money/public always start at ask)."""

    read: Mode | None = None
    """Mode for read tools."""
    write: Mode | None = None
    """Mode for write tools."""
    money: Mode | None = None
    """Mode for money tools."""
    public: Mode | None = None
    """Mode for public tools."""


class ToolText(Strict):
    """English title and summary of one tool, and the English labels of its input fields."""

    title: VisibleText | None = Field(None, max_length=60)
    """English title."""
    summary: VisibleText | None = Field(None, max_length=80)
    """English one-line summary (without it English users see no summary line)."""
    input: dict[str, Annotated[VisibleText, Field(max_length=40)]] = Field(default_factory=dict)
    """Input field name → its English label on the tool's form (without one the form shows the field's name)."""
    enumTitles: dict[str, dict[str, Annotated[VisibleText, Field(max_length=40)]]] = Field(default_factory=dict)
    """Input field name → its enum values' English titles, keyed like the field's `enumTitles`."""
    resultTitles: dict[str, Annotated[VisibleText, Field(max_length=40)]] = Field(default_factory=dict)
    """Result key → its English title (see the tool's `resultTitles`)."""


class SettingText(Strict):
    """English texts of one setting."""

    title: VisibleText | None = None
    """English label (without one an English user sees the key, or the title when it is English)."""
    description: str | None = None
    """English help line under the setting."""
    enumTitles: dict[str, Annotated[VisibleText, Field(max_length=40)]] = Field(default_factory=dict)
    """The setting's enum values' English titles, keyed like its `enumTitles`."""


class English(Strict):
    """`i18n.en`: the English texts."""

    name: VisibleText | None = None
    """English name."""
    description: VisibleText | None = Field(None, min_length=4, max_length=200)
    """English description."""
    instructions: str | None = None
    """English assistant instructions (the Markdown body)."""
    tools: dict[str, ToolText] = Field(default_factory=dict)
    """Per-tool English title and summary."""
    settings: dict[str, SettingText] = Field(default_factory=dict)
    """Per-setting English title, description and value titles."""
    commands: dict[str, Annotated[VisibleText, Field(max_length=40)]] = Field(default_factory=dict)
    """Per-command English title."""


class I18n(Strict):
    """Translations; only English exists besides the default Chinese."""

    en: English | None = None
    """English."""


class Remote(Strict):
    """`remote: { mcp, auth }`: a remote MCP server described by PLUGIN.md."""

    mcp: str
    """The server's https URL."""
    auth: Literal["none", "oauth", "bearer"] = "none"
    """How the app authenticates to it."""

    @field_validator("mcp")
    @classmethod
    def _https(cls, v: str) -> str:
        if not v.startswith("https://"):
            raise ValueError("the MCP server URL must start with https://")
        return v


class Cloud(Strict):
    """`cloud`: use of PKU harness Cloud."""

    disclosure: str = Field(min_length=4)
    """What data leaves the device, shown on the review page."""


class Server(Strict):
    """`server`: server-side functions (declared by the SDK; not open on the official server yet)."""

    network: list[str] = Field(default_factory=list)
    """Domains the server functions may reach."""
    functions: dict[str, Any] = Field(default_factory=dict)
    """Functions written with the same steps and expressions."""


class Manifest(Strict):
    """The manifest: the YAML frontmatter of PLUGIN.md."""

    spec: Literal[1]
    """The language version; always 1."""
    id: str = Field(json_schema_extra={"pattern": f"^{_ID.pattern}$"})
    """Unique id: lower-case letters, digits and '-', at most 40 characters (`classrooms`)."""
    name: VisibleText = Field(min_length=1, max_length=40)
    """The name shown to users (`空闲教室`)."""
    description: VisibleText = Field(min_length=4, max_length=200)
    """What the plugin does, 4-200 characters."""
    version: str = Field(json_schema_extra={"pattern": f"^{_SEMVER.pattern}$"})
    """A semantic version like 1.2.0."""
    author: str = Field(min_length=1, max_length=80)
    """Who wrote it."""
    icon: str | None = None
    """An icon name from the app's set (`location`)."""
    campus: list[str] = Field(default_factory=list)
    """Campus services the plugin may call with the user's session."""
    network: list[str] = Field(default_factory=list)
    """Public domains it may reach over HTTPS: `example.com` or `*.example.com`."""
    abilities: list[str] = Field(default_factory=list)
    """Host ability groups it uses."""
    tools: dict[str, str | ToolDef] = Field(default_factory=dict)
    """Each tool: the file that holds it (`tools/free.yaml`), or the tool written inline."""
    shared: str | None = None
    """A YAML file with `constants` and `functions` for every tool."""
    dataSources: dict[str, DataSource] = Field(default_factory=dict)
    """Read tools offered to widgets and scheduled checks."""
    widgets: dict[str, str] = Field(default_factory=dict)
    """Dashboard widgets: name → JSON spec file."""
    screens: dict[str, str] = Field(default_factory=dict)
    """Whole-page screens: name → JSON spec file."""
    settings: dict[str, SettingField] = Field(default_factory=dict)
    """Settings the user can change."""
    commands: dict[str, Command] = Field(default_factory=dict)
    """Quick commands."""
    defaultModes: DefaultModes | None = None
    """How each effect starts out."""
    i18n: I18n | None = None
    """English texts."""
    remote: Remote | None = None
    """A remote MCP server instead of (or beside) tools."""
    cloud: Cloud | None = None
    """Use of PKU harness Cloud."""
    server: Server | None = None
    """Server-side functions (need cloud.disclosure)."""

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        refused = id_refusal(v)
        if refused == "form":
            raise ValueError(
                "id must be lower-case letters, digits and '-', starting and ending with a letter or digit, "
                "at most 40 characters"
            )
        if refused == "reserved":
            raise ValueError(f"id {v!r} is reserved for the app's own tools")
        if refused == "mcp":
            raise ValueError("ids starting with 'mcp-' name remote MCP servers and cannot be used by a plugin")
        return v

    @field_validator("version")
    @classmethod
    def _semver(cls, v: str) -> str:
        if not _SEMVER.fullmatch(v):
            raise ValueError(f"version {v!r} must be a semantic version like 1.2.0")
        return v

    @field_validator("campus")
    @classmethod
    def _campus(cls, v: list[str]) -> list[str]:
        for s in v:
            if s not in CAMPUS_SERVICES:
                raise ValueError(f"unknown campus service {s!r}; known: {', '.join(sorted(CAMPUS_SERVICES))}")
        return v

    @field_validator("network")
    @classmethod
    def _network(cls, v: list[str]) -> list[str]:
        return [normalize_domain(p) for p in v]

    @field_validator("abilities")
    @classmethod
    def _abilities(cls, v: list[str]) -> list[str]:
        for a in v:
            if a not in ABILITIES:
                raise ValueError(f"unknown host ability {a!r}; known: {', '.join(ABILITIES)}")
        return v

    @field_validator("tools")
    @classmethod
    def _tool_names(cls, v: dict[str, Any]) -> dict[str, Any]:
        if len(v) > MAX_TOOLS:
            raise ValueError(too_many_tools(str(len(v))))
        for name in v:
            if not TOOL_NAME_RE.fullmatch(name) or "__" in name:
                raise ValueError(f"tool name {name!r}: use letters, digits, '_' and '-', starting with a letter")
        return v

    @model_validator(mode="after")
    def _model_names(self) -> Manifest:
        for name in self.tools:
            model_name = f"{self.id}__{name}"
            if len(model_name) > 64:
                raise ValueError(f"the model's name for tool {name!r}, {model_name!r}, is over 64 characters")
        if self.server is not None and self.cloud is None:
            raise ValueError("a plugin with server functions must say in cloud.disclosure what data leaves the device")
        return self

    def english_for(self, locale: str) -> English | None:
        """The English texts when the app speaks English and the manifest has them."""
        return self.i18n.en if locale == "en" and self.i18n and self.i18n.en else None

    def name_for(self, locale: str) -> str:
        """The plugin's name in the app's language (English from i18n.en when given)."""
        english = self.english_for(locale)
        return (english.name if english and english.name else None) or self.name

    def description_for(self, locale: str) -> str:
        """The plugin's description in the app's language."""
        english = self.english_for(locale)
        return (english.description if english and english.description else None) or self.description

    def tool_text(self, name: str, tool: ToolDef, locale: str) -> tuple[str, str | None]:
        """A tool's title and summary in the app's language. English users see no summary line unless the
        plugin gives an English one (seed page)."""
        english = self.english_for(locale)
        if english is None:
            return tool.title, tool.summary
        text = english.tools.get(name)
        return (text.title if text and text.title else None) or tool.title, text.summary if text else None

    def field_title(self, tool_name: str, field_name: str, field: InputField, locale: str) -> str:
        """The label of one input field of a tool in the app's language: its `title` (or English label), else its
        name. An English user sees a title only when it is ASCII: an identifier reads in English, 最少座位 does not."""
        english = self.english_for(locale)
        if english is None:
            return field.title or field_name
        text = english.tools.get(tool_name)
        label = text.input.get(field_name) if text else None
        return label or (field.title if field.title and field.title.isascii() else None) or field_name

    def option_titles(self, tool_name: str, field_name: str, field: InputField, locale: str) -> dict[str, str]:
        """The titles of an enum field's values in the app's language, keyed by the value as text (`enum_keys`): its
        `enumTitles` (or their English), by the rule of `field_title` — a value without a title shows as itself."""
        if not field.enum:
            return {}
        own = field.enumTitles or {}
        english = self.english_for(locale)
        if english is None:
            return dict(own)
        text = english.tools.get(tool_name)
        translated = text.enumTitles.get(field_name, {}) if text else {}
        ascii_own = {k: v for k, v in own.items() if v.isascii()}
        return {**ascii_own, **translated}

    def result_titles(self, tool_name: str, tool: ToolDef, locale: str) -> dict[str, str]:
        """The titles of a tool's result keys in the app's language, by the rule of `field_title`: an English user
        sees the English ones, or titles that are English; a key without one shows as itself."""
        english = self.english_for(locale)
        if english is None:
            return dict(tool.resultTitles)
        text = english.tools.get(tool_name)
        own = {k: v for k, v in tool.resultTitles.items() if v.isascii()}
        return {**own, **(text.resultTitles if text else {})}

    def setting_text(self, key: str, locale: str) -> tuple[str, str | None, dict[str, str]]:
        """A setting's label, help line and value titles in the app's language, by the rule of `field_title`: an
        English user sees English (the i18n text, or a title that is English), else the key; the help is the
        setting's `description` (settings are for people: the seed's 设置项 has no model-only text). The value
        titles are its enum's, or for a list of choices its items' enum's."""
        field = self.settings[key]
        own = field.enumTitles or (field.items.enumTitles if field.items else None) or {}
        english = self.english_for(locale)
        if english is None:
            return field.title or key, field.description, dict(own)
        text = english.settings.get(key)
        title = (text.title if text else None) or (field.title if field.title and field.title.isascii() else None)
        help_line = (text.description if text else None) or (
            field.description if field.description and field.description.isascii() else None
        )
        titles = {**{k: v for k, v in own.items() if v.isascii()}, **(text.enumTitles if text else {})}
        return title or key, help_line, titles

    def command_title(self, name: str, locale: str) -> str:
        """A quick command's title in the app's language (English from i18n.en when given)."""
        english = self.english_for(locale)
        return (english.commands.get(name) if english else None) or self.commands[name].title

    def instructions_for(self, locale: str, body: str) -> str:
        """The assistant's instructions in the app's language (`body` is PLUGIN.md's Markdown)."""
        english = self.english_for(locale)
        return (english.instructions if english and english.instructions else None) or body
