"""A remote tool's `inputSchema` as the input fields a form is generated from (插件's tool forms).

The server writes JSON Schema; the app's forms know the plugin language's input fields (`InputField`: string,
number, integer, boolean, an enum, an array of those, an object). Each top-level property maps to the nearest
field — a nullable type (`["string", "null"]`, or pydantic's `anyOf: [X, {type: null}]`) is X, optional; an array
of scalars is a list typed one item per line; anything else (a nested object, a union, `$ref`, a schema the
mapping cannot read) falls back to an object field, typed as JSON. The fields only shape the form: the call's
arguments are checked against the server's schema itself (with RE2) before they are sent, so a pattern is not
copied here (an ECMAScript pattern the language's check would refuse must not break the form).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from tui.lang.documents.tool import InputField

SCALARS = ("string", "number", "integer", "boolean")
#: The longest title taken as a field's label (the language's limit); a longer one is left for the name.
TITLE_CHARS = 40


def _nullable(spec: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """`spec` without a `null` alternative, and whether it had one."""
    kind = spec.get("type")
    if isinstance(kind, list) and "null" in kind:
        rest = [k for k in kind if k != "null"]
        return {**spec, "type": rest[0] if len(rest) == 1 else rest}, True
    options = spec.get("anyOf") or spec.get("oneOf")
    if isinstance(options, list):
        rest = [o for o in options if not (isinstance(o, dict) and o.get("type") == "null")]
        if len(rest) == 1 and len(rest) < len(options) and isinstance(rest[0], dict):
            merged = {k: v for k, v in spec.items() if k not in ("anyOf", "oneOf")}
            return {**rest[0], **merged}, True
    return spec, False


def _bounds(spec: dict[str, Any], kind: str) -> dict[str, Any]:
    names = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems")}.get(kind, ("minimum", "maximum"))
    out = {}
    for key, name in zip(("min", "max"), names, strict=True):
        value = spec.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool):
            out[key] = value
    return out


def _title(spec: dict[str, Any]) -> str | None:
    title = spec.get("title")
    return title.strip() if isinstance(title, str) and 0 < len(title.strip()) <= TITLE_CHARS else None


def schema_field(spec: Any, optional: bool) -> InputField:
    """The input field for one property's schema (an object field typed as JSON when nothing nearer fits)."""
    if not isinstance(spec, dict):
        return InputField(type="object", optional=optional)
    spec, nullable = _nullable(spec)
    optional = optional or nullable
    base: dict[str, Any] = {"optional": optional, "title": _title(spec)}
    if "default" in spec and spec["default"] is not None:
        base["default"] = spec["default"]
    kind = spec.get("type")
    try:
        enum = spec.get("enum")
        if isinstance(enum, list) and enum and all(isinstance(v, str | int | float | bool) for v in enum):
            scalar = kind if kind in SCALARS else None
            return InputField(type=scalar, enum=list(enum), **base)
        if kind in SCALARS:
            return InputField(type=kind, **base, **_bounds(spec, kind))
        if kind == "array":
            items = spec.get("items")
            item_kind = items.get("type") if isinstance(items, dict) else None
            if item_kind in SCALARS:
                return InputField(type="array", items=InputField(type=item_kind), **base, **_bounds(spec, "array"))
        return InputField(type="object", **base)
    except ValidationError:  # a default or title the language refuses: the plain JSON field
        return InputField(type="object", optional=optional)


def schema_fields(schema: Any) -> dict[str, InputField]:
    """Each top-level property of an object schema as an input field, in the schema's order (none for a schema
    without properties: the tool takes no input, or only what a JSON object field could give)."""
    if not isinstance(schema, dict):
        return {}
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return {}
    required = schema.get("required")
    needed = set(required) if isinstance(required, list) else set()
    return {str(name): schema_field(spec, name not in needed) for name, spec in properties.items()}
