"""Compact Markdown tables of pydantic models, generated from their JSON Schema: one line per field with its type,
whether it is required, its bounds, default and the docstring under it (`field_docs`).

The plugin reference (`plugins__reference`, `pku-harness plugin reference`) is built from these tables, so what a
model reads about the manifest, tools, tests, widgets and screens is what the validator checks: a field added to
a model appears in the reference without anyone writing it down.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, get_args

from pydantic import BaseModel

from tui.lang.documents.common import Strict
from tui.lang.documents.explain import EXPRESSION_FIELDS
from tui.lang.documents.field_docs import describe_fields
from widgets_render.spec import Action, I18nText, Spec
from widgets_render.spec_words import MODELS

#: Fields that hold a list of steps: their schema says only "a list"; the reference says what of.
STEP_LISTS = frozenset({"steps", "then", "else", "try", "catch"})

#: Models written as a type word, never as a table of their own (every reader knows them from the word).
INLINE = {"I18nText": "{zh,en}"}

#: Component models, written as the node of their `type` (`[FieldNode]` is a list of `field` nodes).
COMPONENT_WORDS = {model.__name__: f"`{kind}` node" for kind, model in MODELS.items()}

#: Every action model: a prop that takes any of them is an `action`.
ACTION_NAMES = frozenset(a.__name__ for a in get_args(Action))

#: Fields named like an expression field that are not one: `extract.each` is a CSS selector.
NOT_EXPRESSIONS = frozenset({("Extract", "each")})

#: Longest regex pattern shown in a field's notes; longer ones (a semantic version's) the docstring explains.
MAX_PATTERN = 40


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`model`'s JSON Schema by alias, each property described by its field's docstring."""
    schema = model.model_json_schema(by_alias=True)
    describe_fields(schema, [Strict, Spec, I18nText], model)
    if "$ref" in schema and "properties" not in schema:  # a model that holds itself (a node in a node) is a $def
        schema = {**schema["$defs"][_ref_name(schema)], "$defs": schema["$defs"]}
    return schema


def _ref_name(node: dict[str, Any]) -> str:
    return str(node["$ref"]).rsplit("/", 1)[-1]


def type_word(node: dict[str, Any], key: str = "", expressions: bool = False) -> str:
    """A JSON Schema node as a short type: `text`, `integer`, `[text]`, `{name: Tool}`, `a|b`, `Model`; with
    `expressions` (a document model's field), a text field holding an expression is `expr`."""
    if "$ref" in node:
        name = _ref_name(node)
        return INLINE.get(name) or COMPONENT_WORDS.get(name, name)
    if "const" in node:
        return json.dumps(node["const"], ensure_ascii=False)
    if "enum" in node:
        return "|".join(json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v for v in node["enum"])
    for union in ("anyOf", "oneOf"):
        if union in node:
            if "discriminator" in node:
                return "node" if key != "action" else "action"
            if {_ref_name(a) for a in node[union] if "$ref" in a} == ACTION_NAMES:
                return "action"
            words = [type_word(alt, key, expressions) for alt in node[union] if alt.get("type") != "null"]
            return "|".join(dict.fromkeys(words))
    kind = node.get("type")
    if isinstance(kind, list):  # a duration: text like 30m, or milliseconds
        return "duration (30s, 5m, 2h, 1d or ms)" if node.get("examples") else "|".join(kind)
    if kind == "string":
        if node.get("pattern") == r"\$\{":
            return "${…} template"
        return "expr" if expressions and key in EXPRESSION_FIELDS else "text"
    if kind == "array":
        items = node.get("items") or {}
        return "[step]" if key in STEP_LISTS and not items else f"[{type_word(items) if items else 'any'}]"
    if kind == "object":
        extra = node.get("additionalProperties")
        return f"{{name: {type_word(extra)}}}" if isinstance(extra, dict) and extra else "object"
    if kind in ("integer", "number", "boolean", "null"):
        return str(kind)
    return "any"


def _bounds(node: dict[str, Any]) -> list[str]:
    """Length, number and pattern bounds of a node, or of the one non-null alternative of an optional one."""
    alts = [a for a in node.get("anyOf", []) if a.get("type") != "null"]
    if len(alts) == 1:
        node = {**alts[0], **{k: v for k, v in node.items() if k != "anyOf"}}
    out = []
    for low, high, unit in (
        ("minLength", "maxLength", " chars"),
        ("minimum", "maximum", ""),
        ("minItems", "maxItems", " items"),
    ):
        lo, hi = node.get(low), node.get(high)
        if lo is not None and hi is not None:
            out.append(f"{lo:g}–{hi:g}{unit}")
        elif lo is not None and not (unit == "" and lo == 0 and node.get("examples")):
            out.append(f"≥{lo:g}{unit}")
        elif hi is not None:
            out.append(f"≤{hi:g}{unit}")
    pattern = node.get("pattern")
    if isinstance(pattern, str) and pattern != r"\$\{" and len(pattern) <= MAX_PATTERN and not node.get("examples"):
        out.append(f"pattern `{pattern}`")
    return out


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def field_rows(
    schema: dict[str, Any], skip: Iterable[str] = (), name_of: str = "", expressions: bool = False
) -> list[str]:
    """One table row per property of an object schema: `| name | type | req | notes |`; `name_of` is its model's
    name, and with `expressions` (a document model, not genui's) its text fields may be expressions."""
    required = set(schema.get("required", []))
    rows = []
    for name, prop in (schema.get("properties") or {}).items():
        if name in skip or name == "$schema":
            continue
        notes = _bounds(prop)
        if "default" in prop and prop["default"] not in (None, {}, []):
            notes.append(f"default {json.dumps(prop['default'], ensure_ascii=False)}")
        doc = prop.get("description", "")
        text = f"{doc} ({', '.join(notes)})" if doc and notes else doc or ", ".join(notes)
        word = type_word(prop, name, expressions and (name_of, name) not in NOT_EXPRESSIONS)
        rows.append(f"| `{name}` | {_cell(word)} | {'yes' if name in required else ''} | {_cell(text)} |")
    return rows


HEADER = ["| field | type | req | notes |", "|---|---|---|---|"]


def table(
    schema: dict[str, Any],
    title: str,
    doc: str = "",
    skip: Iterable[str] = (),
    name_of: str = "",
    expressions: bool = False,
) -> str:
    """A `#### title` block: the model's docstring, then its fields (nothing when it has none left)."""
    rows = field_rows(schema, skip, name_of or title, expressions)
    head = f"#### {title}\n" + (f"{' '.join(doc.split())}\n" if doc else "")
    return head + ("\n".join([*HEADER, *rows]) + "\n" if rows else "")


def model_tables(
    model: type[BaseModel], title: str | None = None, leave_out: Iterable[str] = (), skip: Iterable[str] = ()
) -> str:
    """`model`'s table, then one table for each model it refers to, in the order first referred to (models named
    in `leave_out` are left for another section; `INLINE` ones are type words)."""
    schema = model_schema(model)
    defs = schema.get("$defs", {})
    expressions = issubclass(model, Strict)
    out = [table(schema, title or model.__name__, model.__doc__ or "", skip, model.__name__, expressions)]
    done = {model.__name__, *leave_out, *INLINE}
    queue = _refs(schema.get("properties", {}))
    while queue:
        name = queue.pop(0)
        if name in done or name not in defs:
            continue
        done.add(name)
        out.append(table(defs[name], name, defs[name].get("description", ""), expressions=expressions))
        queue.extend(_refs(defs[name].get("properties", {})))
    return "\n".join(out)


def referred_tables(models: Iterable[type[BaseModel]], leave_out: Iterable[str] = ()) -> str:
    """One table for each model that `models` refer to (at any depth), each once, in the order first met."""
    done = {*(m.__name__ for m in models), *leave_out, *INLINE}
    out = []
    for model in models:
        schema = model_schema(model)
        defs = schema.get("$defs", {})
        queue = _refs(schema.get("properties", {}))
        while queue:
            name = queue.pop(0)
            if name in done or name not in defs:
                continue
            done.add(name)
            doc = defs[name].get("description", "")
            out.append(table(defs[name], name, doc, expressions=issubclass(model, Strict)))
            queue.extend(_refs(defs[name].get("properties", {})))
    return "\n".join(out)


def _refs(node: Any) -> list[str]:
    """Model names referred to anywhere under `node`, in order."""
    found: list[str] = []
    if isinstance(node, dict):
        if "$ref" in node:
            found.append(_ref_name(node))
        for value in node.values():
            found.extend(_refs(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_refs(value))
    return found


def fields_inline(model: type[BaseModel], skip: Iterable[str] = ()) -> str:
    """A model's fields on one line, `name*: type; …` (`*` = required), for a kind with many siblings (steps,
    components, actions), where a table each would be too long."""
    schema = model_schema(model)
    required = set(schema.get("required", []))
    expressions = issubclass(model, Strict)
    return "; ".join(
        f"`{name}`{'*' if name in required else ''}: {type_word(prop, name, expressions)}" + _note(prop)
        for name, prop in schema.get("properties", {}).items()
        if name not in skip and name != "$schema"
    )


def _note(prop: dict[str, Any]) -> str:
    notes = _bounds(prop)
    if "default" in prop and prop["default"] not in (None, {}, []):
        notes.append(f"default {json.dumps(prop['default'], ensure_ascii=False)}")
    return f" ({', '.join(notes)})" if notes else ""
