"""genui v1 spec models (../shared/design/genui.md §2): widgets, screens, the 22 components and actions.

Pure pydantic, no Textual: `tui/lang`'s validator uses these models, and the renderer builds on them. Every
string is a template (`${…}`); props that need a non-string value accept a whole `${expr}` instead.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from widgets_render.catalog import ACTION_VERBS, COMPONENTS

Template = str
"""Any string; `${expr}` parts are the plugin language. A whole `${expr}` keeps the value's type."""


class I18nText(BaseModel):
    """`{ "zh": "…", "en": "…" }`; English falls back to Chinese when missing."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    zh: Template
    """The Chinese text (the default language)."""
    en: Template | None = None
    """The English text."""


I18nString = Template | I18nText
Size = Literal["small", "medium", "large"]
Tone = Literal["neutral", "muted", "info", "ok", "warn", "bad", "accent"]
Expr = Annotated[str, Field(pattern=r"\$\{")]
"""A string with a `${…}` part: where a prop takes named values (`tone`), only a template may stand instead."""
NumberOrTemplate = float | Template
BoolOrTemplate = bool | Template


class Spec(BaseModel):
    """Base of every spec model: strict for authors (unknown props are errors in `plugin validate`)."""

    # Built on first use, field docstrings read only for schemas (tui/lang/documents/field_docs.py): importing these
    # models eagerly cost `plugin validate` a third of its time.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


# -- actions -------------------------------------------------------------------------------------------------
class SetThen(Spec):
    """Store the tool's output in `state.<set>`."""

    set: str


class OpenThen(Spec):
    """Open a screen afterwards."""

    open: str
    params: dict[str, Any] = Field(default_factory=dict)


Then = Literal["toast", "refresh", "close"] | SetThen | OpenThen


class InvokeAction(Spec):
    """Run a tool of this plugin (actor `user`, never asks): the target is a literal `<plugin>.<tool>`."""

    invoke: str
    input: Any = None
    """A template (usually `${state.form}`) or an object of templates."""
    confirm: I18nString | None = None
    """Ask Y/N first; the validator warns when a money or public tool has none."""
    then: Then | None = None


class OpenAction(Spec):
    """Open one of this plugin's screens: `screen:<name>`."""

    open: str
    params: dict[str, Any] = Field(default_factory=dict)


class OpenUrlAction(Spec):
    """Open an https URL through the `browser.open` ability."""

    openUrl: Template


class RefreshAction(Spec):
    """Refetch the sources, ignoring the ttl (at most once per 10 s)."""

    refresh: Literal[True]


class SetAction(Spec):
    """Screens only: set local state."""

    set: str
    value: Any = None


class AskAction(Spec):
    """Put a prompt into the assistant chat (nothing runs by itself)."""

    ask: I18nString


Action = InvokeAction | OpenAction | OpenUrlAction | RefreshAction | SetAction | AskAction


# -- nodes ----------------------------------------------------------------------------------------------------
class Common(Spec):
    """Props every node may carry."""

    id: str | None = None
    """Unique within the file; refers to forms and tabs."""
    when: BoolOrTemplate | None = None
    """A template resolving to a boolean; false (or an error) hides the node."""
    sizes: list[Size] | None = None
    """Render only at these widget sizes."""
    grow: float | None = None
    """Flex weight inside a row or column."""
    tone: Tone | Expr | None = None
    """neutral, muted, info, ok, warn, bad or accent (may be a template)."""
    fallback: Any = None
    """A string or node shown when the type is unsupported or the value fails."""


class Column(Common):
    type: Literal["column"]
    children: list[Node] = Field(default_factory=list)
    gap: int | None = None
    align: Literal["start", "center", "end"] | None = None
    items: Template | None = None
    template: Node | None = None
    as_: str | None = Field(None, alias="as")


class Row(Common):
    type: Literal["row"]
    children: list[Node] = Field(default_factory=list)
    gap: int | None = None
    align: Literal["start", "center", "end"] | None = None
    items: Template | None = None
    template: Node | None = None
    as_: str | None = Field(None, alias="as")


class Grid(Common):
    type: Literal["grid"]
    columns: int = Field(2, ge=1, le=4)
    children: list[Node] = Field(default_factory=list)


class Card(Common):
    type: Literal["card"]
    title: I18nString | None = None
    subtitle: I18nString | None = None
    children: list[Node] = Field(default_factory=list)
    action: Action | None = None


class Divider(Common):
    type: Literal["divider"]
    label: I18nString | None = None


class Text(Common):
    type: Literal["text"]
    text: I18nString
    variant: Literal["title", "body", "caption"] | None = None
    maxLines: int | None = Field(None, ge=1, le=20)
    wrap: bool | None = None


class Stat(Common):
    type: Literal["stat"]
    label: I18nString | None = None
    value: Any
    unit: I18nString | None = None
    delta: Any = None
    big: BoolOrTemplate | None = None


class Badge(Common):
    type: Literal["badge"]
    text: I18nString


class KvPair(Spec):
    k: I18nString
    v: Any


class Kv(Common):
    type: Literal["kv"]
    pairs: list[KvPair] | Template | None = None
    items: Template | None = None
    key: Template | None = None
    value: Template | None = None


class Notice(Common):
    type: Literal["notice"]
    text: I18nString
    action: Action | None = None


class Image(Common):
    type: Literal["image"]
    alt: I18nString
    url: Template | None = None


class ListNode(Common):
    type: Literal["list"]
    items: Template
    item: Node
    key: Template | None = None
    limit: int | Template | None = None
    offset: int | Template | None = None
    as_: str | None = Field(None, alias="as")
    empty: I18nString | Node | None = None
    itemAction: Action | None = None


class Column_(Spec):
    """A table column."""

    header: I18nString
    value: Template
    width: int | None = None
    align: Literal["left", "right", "center"] | None = None


class Table(Common):
    type: Literal["table"]
    rows: Template
    columns: list[Column_]
    limit: int | Template | None = None
    rowAction: Action | None = None
    empty: I18nString | Node | None = None


class Progress(Common):
    type: Literal["progress"]
    value: NumberOrTemplate
    max: NumberOrTemplate | None = None
    label: I18nString | None = None
    showPct: bool | None = None


class Sparkline(Common):
    type: Literal["sparkline"]
    values: Template | list[float]
    min: NumberOrTemplate | None = None
    max: NumberOrTemplate | None = None


class Bars(Common):
    type: Literal["bars"]
    items: Template
    label: Template
    value: Template
    max: NumberOrTemplate | None = None
    display: Template | None = None
    limit: int | Template | None = None


class Countdown(Common):
    type: Literal["countdown"]
    to: Template
    format: Literal["minutes", "clock", "auto"] | None = None
    past: I18nString | None = None
    tick: str | None = None
    big: BoolOrTemplate | None = None


class Time(Common):
    type: Literal["time"]
    value: Template
    style: Literal["clock", "date", "datetime", "relative"] | None = None
    prefix: I18nString | None = None


class Button(Common):
    type: Literal["button"]
    label: I18nString
    action: Action
    variant: Literal["primary", "default", "danger"] | None = None
    disabled: BoolOrTemplate | None = None
    confirm: I18nString | None = None


class FieldNode(Common):
    type: Literal["field"]
    name: str
    input: Literal["text", "number", "select", "toggle", "date"] | None = None
    label: I18nString | None = None
    options: Template | list[Any] | None = None
    optionLabels: dict[str, I18nString] | None = None
    placeholder: I18nString | None = None
    required: bool | None = None
    min: NumberOrTemplate | None = None
    max: NumberOrTemplate | None = None
    pattern: str | None = None
    fromTool: bool | None = None


class Form(Common):
    type: Literal["form"]
    bind: str
    fields: list[FieldNode]
    submit: Action
    submitLabel: I18nString | None = None


class Tab(Spec):
    label: I18nString
    body: Node


class Tabs(Common):
    type: Literal["tabs"]
    tabs: list[Tab]
    bind: str | None = None


Node = Annotated[
    Column
    | Row
    | Grid
    | Card
    | Divider
    | Text
    | Stat
    | Badge
    | Kv
    | Notice
    | Image
    | ListNode
    | Table
    | Progress
    | Sparkline
    | Bars
    | Countdown
    | Time
    | Button
    | FieldNode
    | Form
    | Tabs,
    Field(discriminator="type"),
]


# -- top level ------------------------------------------------------------------------------------------------
class Refresh(Spec):
    every: str
    """How often bindings are re-evaluated (≥ 30 s); refetching follows the source's ttl."""


class States(Spec):
    loading: Node | None = None
    empty: Node | None = None
    error: Node | None = None
    stale: Node | None = None


class Widget(Spec):
    """A dashboard widget: `widgets/<name>.json`."""

    schema_: str | None = Field(None, alias="$schema")
    """The JSON Schema an editor checks the file against (docs/schemas/genui-1.schema.json); the app ignores it."""
    spec: Literal[1]
    kind: Literal["widget"]
    title: I18nString
    icon: str | None = None
    source: str | None = None
    """A name in the manifest's dataSources."""
    sources: dict[str, str] | None = None
    """More data sources by alias."""
    sizes: list[Size] = Field(default_factory=lambda: list[Size](["medium"]))
    defaultSize: Size | None = None
    refresh: Refresh | None = None
    let: dict[str, Template] = Field(default_factory=dict)
    emptyWhen: BoolOrTemplate | None = None
    states: States | None = None
    tap: Action | None = None
    body: Node | None = None
    layouts: dict[Size, Node] | None = None


class ScreenSource(Spec):
    """A named data source, or a tool called with arguments."""

    source: str | None = None
    tool: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    auto: bool = True


class Screen(Spec):
    """A whole page: `screens/<name>.json`."""

    schema_: str | None = Field(None, alias="$schema")
    """The JSON Schema an editor checks the file against (docs/schemas/genui-1.schema.json); the app ignores it."""
    spec: Literal[1]
    kind: Literal["screen"]
    title: I18nString
    params: dict[str, dict[str, Any]] = Field(default_factory=dict)
    sources: dict[str, ScreenSource] = Field(default_factory=dict)
    state: dict[str, Any] = Field(default_factory=dict)
    let: dict[str, Template] = Field(default_factory=dict)
    toolbar: list[Button] = Field(default_factory=list)
    body: Node


__all__ = ["ACTION_VERBS", "COMPONENTS", "Screen", "Widget"]
