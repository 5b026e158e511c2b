"""The tool model: a tool is data — title, effect, typed input, steps, and an expression for the result."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from tui.lang.documents.common import NAME_RE, DurationMs, Effect, Strict, VisibleText
from tui.lang.expr.values import to_str

InputType = Literal["string", "number", "integer", "boolean", "array", "object"]


class InputField(Strict):
    """One input field: `{ type, enum?, enumTitles?, default?, optional?, title?, description?, min?, max?, pattern?,
    trim?, items? }`."""

    type: InputType | None = None
    """The JSON type; omitted with `enum` means a string enum."""
    enum: list[Any] | None = None
    """The only values allowed."""
    enumTitles: dict[str, Annotated[VisibleText, Field(max_length=40)]] | None = None
    """For people: each enum value's title on the form's select, keyed by the value as text (`today: 今天`);
    a value without one shows as itself."""
    default: Any = None
    """Filled in when the key is missing."""
    optional: bool = False
    """The key may be missing (without a default it is then null)."""
    title: VisibleText | None = Field(default=None, max_length=40)
    """For people: the field's label on the tool's form (without it the form shows the field's name)."""
    description: str | None = None
    """For the model: what the field means, units, examples (the form shows it as the empty box's hint)."""
    min: float | None = None
    """Least number, string length or array length."""
    max: float | None = None
    """Greatest number, string length or array length."""
    pattern: str | None = None
    """An RE2 pattern the whole string must match."""
    trim: bool = False
    """Strip white space at both ends before checking."""
    items: InputField | None = None
    """The field description of array elements."""

    @model_validator(mode="after")
    def _type_or_enum(self) -> InputField:
        if self.type is None and self.enum is None:
            raise ValueError("give the field a type (string, number, integer, boolean, array, object) or an enum")
        if self.items is not None and self.type not in (None, "array"):
            raise ValueError("items is only for type: array")
        if self.enumTitles is not None:
            if self.enum is None:
                raise ValueError("enumTitles is only for a field with an enum")
            unknown = sorted(set(self.enumTitles) - set(enum_keys(self.enum)))
            if unknown:
                raise ValueError(f"enumTitles names {', '.join(map(repr, unknown))}, not one of the enum's values")
        return self


def enum_keys(values: list[Any]) -> list[str]:
    """An enum's values as the text that keys their titles (`enumTitles`): as JavaScript's String() writes them."""
    return [to_str(v) for v in values]


class RequestSpec(Strict):
    """An HTTP request: a public `https://` URL on a declared domain, or a path on a campus service."""

    url: str
    """The URL (a template), or with `campus` the path on that service (`/chapi/api/…`)."""
    method: Literal["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] = "GET"
    """The HTTP method. Read tools may POST: the effect is what the tool changes, not the verb."""
    query: dict[str, Any] | str | None = None
    """Query parameters (values are templates), or one template giving an object."""
    headers: dict[str, str] | None = None
    """Extra request headers (templates). Credential headers are set by the app, never by plugins."""
    json_body: Any = Field(None, alias="json")
    """A JSON body (templates inside)."""
    form: dict[str, Any] | str | None = None
    """A form body (application/x-www-form-urlencoded)."""
    body: str | None = None
    """A raw text body (a template)."""
    campus: str | None = None
    """A campus service from the manifest's `campus`: the app signs the request with the user's session."""

    @model_validator(mode="after")
    def _one_body(self) -> RequestSpec:
        bodies = [k for k in ("json_body", "form", "body") if getattr(self, k) is not None]
        if len(bodies) > 1:
            raise ValueError("give at most one of json, form and body")
        return self


As = Literal["json", "text", "html", "response"]


class StepBase(Strict):
    """Fields every step may have."""

    let: str | None = None
    """Bind the step's value to this name for later steps and `return`."""

    @field_validator("let")
    @classmethod
    def _name(cls, v: str | None) -> str | None:
        if v is not None and not NAME_RE.fullmatch(v):
            raise ValueError(f"{v!r} is not a name: use letters, digits and _ (not starting with a digit)")
        return v


class ValueStep(StepBase):
    """`{ let, value: expr }`: bind the value of an expression."""

    value: str
    """An expression."""


class RequestStep(StepBase):
    """`{ let, request, as? }`: one HTTP request."""

    request: RequestSpec
    """The request."""
    as_: As = Field("json", alias="as")
    """How to read the answer: json, text, html (a node), or response ({ status, url, headers, text })."""


class EachStep(StepBase):
    """`{ let, each, concurrency?, request | steps | value }`: once per item (`item`, `index` bound)."""

    each: str
    """An expression giving a list of at most 50 items."""
    concurrency: int = Field(1, ge=1, le=4)
    """How many items run at once, 1-4."""
    request: RequestSpec | None = None
    """A request per item."""
    as_: As = Field("json", alias="as")
    """How to read each answer (with `request`)."""
    steps: list[Any] | None = None
    """Steps per item; the item's value is the value of the last one."""
    value: str | None = None
    """An expression per item."""

    @model_validator(mode="after")
    def _exactly_one(self) -> EachStep:
        given = [k for k in ("request", "steps", "value") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("each needs exactly one of request, steps and value")
        return self


class Paginate(Strict):
    """`paginate: { request, next, items, max }`."""

    request: RequestSpec
    """The request; `cursor` is null on the first page, then the value of `next`."""
    as_: As = Field("json", alias="as")
    """How to read each page."""
    next: str
    """An expression over `res` giving the next cursor, or null to stop."""
    items: str
    """An expression over `res` giving the page's items."""
    max: int = Field(30, ge=1, le=30)
    """Most pages, at most 30."""


class PaginateStep(StepBase):
    """`{ let, paginate }`: the same request page by page; the value is all items."""

    paginate: Paginate
    """The paging rule."""


class Extract(Strict):
    """`extract: { from, each, fields }`."""

    from_: str = Field(alias="from")
    """An expression giving a node or HTML text."""
    each: str
    """A CSS selector; one item per match."""
    fields: dict[str, str]
    """Field name → `'<selector> | pipe | pipe'` (`.` is the matched element)."""


class ExtractStep(StepBase):
    """`{ let, extract, limit? }`: items out of HTML."""

    extract: Extract
    """What to extract."""
    limit: int | None = Field(None, ge=1)
    """At most this many items."""


class IfStep(StepBase):
    """`{ if, then, else? }`."""

    if_: str = Field(alias="if")
    """An expression."""
    then: list[Any]
    """Steps when it is truthy."""
    else_: list[Any] | None = Field(None, alias="else")
    """Steps otherwise."""


class CheckStep(StepBase):
    """`{ check, error }`: fail with the message unless the expression is truthy."""

    check: str
    """An expression."""
    error: str
    """The message (a template)."""


class TryStep(StepBase):
    """`{ try, catch }`: `error` = { message, kind, status? } is bound in catch."""

    try_: list[Any] = Field(alias="try")
    """Steps to try."""
    catch: list[Any]
    """Steps to run on failure."""


class KvStep(StepBase):
    """`{ let?, kv: get | set | delete, key, value?, ttl? }`: the plugin's own store."""

    kv: Literal["get", "set", "delete"]
    """The operation."""
    key: str
    """The key (a template)."""
    value: str | None = None
    """With set: an expression giving the value."""
    ttl: DurationMs | None = None
    """With set: how long the value lives."""

    @model_validator(mode="after")
    def _value_for_set(self) -> KvStep:
        if self.kv == "set" and self.value is None:
            raise ValueError("kv: set needs a value")
        if self.kv != "set" and (self.value is not None or self.ttl is not None):
            raise ValueError(f"kv: {self.kv} takes no value or ttl")
        return self


class CacheSpec(Strict):
    """`cache: { key, ttl, staleOnError? }`."""

    key: str
    """The KV key (a template)."""
    ttl: DurationMs
    """How long a stored value is fresh."""
    staleOnError: bool = False
    """On an error in the steps, return the last stored value (marked stale to the host)."""


class CacheStep(StepBase):
    """`{ let, cache, steps }`: the steps' value, stored in KV."""

    cache: CacheSpec
    """The cache rule."""
    steps: list[Any]
    """Steps that compute the value on a miss."""


class CallStep(StepBase):
    """`{ let?, call: <tool>, input }`: run another tool of this plugin."""

    call: str
    """The tool's name."""
    input: str = "{}"
    """An expression giving the input object."""


class AbilityStep(StepBase):
    """`{ let?, ability: <group>.<op>, args }`: a host ability."""

    ability: str
    """`group.op`, like `verify.treehole`."""
    args: str = "{}"
    """An expression giving the arguments."""

    @field_validator("ability")
    @classmethod
    def _dotted(cls, v: str) -> str:
        if not re.fullmatch(r"[A-Za-z]+\.[A-Za-z][A-Za-z0-9]*", v):
            raise ValueError("write the ability as group.op, like verify.treehole")
        return v


#: Step kinds by the key that marks them, in the order they are recognised (`each` may also have `value`).
STEP_KINDS: tuple[tuple[str, type[StepBase]], ...] = (
    ("each", EachStep),
    ("paginate", PaginateStep),
    ("extract", ExtractStep),
    ("cache", CacheStep),
    ("if", IfStep),
    ("try", TryStep),
    ("check", CheckStep),
    ("kv", KvStep),
    ("call", CallStep),
    ("ability", AbilityStep),
    ("request", RequestStep),
    ("value", ValueStep),
)


def step_kind(raw: dict[str, Any]) -> tuple[str, type[StepBase]] | None:
    """The kind of a raw step mapping, by its marking key."""
    for key, model in STEP_KINDS:
        if key in raw:
            return key, model
    return None


class ToolDef(Strict):
    """A tool: what the user sees, what the model reads, its effect, input, steps and result."""

    title: VisibleText = Field(min_length=1, max_length=60)
    """Shown to users (chat chips, approval dialogs, settings), at most 60 characters."""
    summary: VisibleText | None = Field(None, max_length=80)
    """One line for people, under the tool's name on the review page, at most 80 characters."""
    description: str = Field(min_length=1)
    """For the model only: when to use the tool and what the numbers mean."""
    effect: Effect
    """What the tool changes: read, write, money or public — declared truthfully."""
    untrusted: bool = False
    """The result holds third-party text (posts, notices): the model treats it as data, never instructions."""
    userOnly: bool = False
    """Only a user's own click may run it; the assistant and the scheduler cannot."""
    input: dict[str, InputField] = Field(default_factory=dict)
    """The typed input fields, checked before any step runs."""
    constants: dict[str, Any] = Field(default_factory=dict)
    """Named constants for this tool's expressions."""
    functions: dict[str, str] = Field(default_factory=dict)
    """Helper expressions: the key is the signature `name(a, b)`, the value the body."""
    steps: list[Any] = Field(default_factory=list)
    """The steps, in order."""
    return_: str | None = Field(None, alias="return")
    """An expression giving the result (default: the last step's value)."""
    resultTitles: dict[str, Annotated[VisibleText, Field(max_length=40)]] = Field(default_factory=dict)
    """For people: a title for each key of the result, at any depth (`balanceYuan: 余额（元）`), used where the
    app shows the result as it is (a tool's form); the model always sees the keys."""
