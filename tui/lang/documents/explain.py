"""Pydantic's validation errors in words an author reads: at the line and column of the key or value they are
about, with a stable code and, where one helps, a hint (the nearest valid key or value to a typo)."""

from __future__ import annotations

import re
import types
import typing
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from tui.lang.documents.field_docs import field_doc
from tui.lang.documents.problems import Problem, did_you_mean, nearest
from tui.lang.documents.yamlsafe import Located, Path

#: Fields whose text is one expression (seed page, 表达式); an unquoted `{ … }` there is a YAML mapping.
EXPRESSION_FIELDS = frozenset({"value", "each", "if", "check", "return", "next", "items", "from", "input", "args"})
#: Codes of a field validator's refusal, by the field it checks.
_VALUE_CODES = {
    "version": "VERSION_NOT_SEMVER",
    "id": "ID_INVALID",
    "network": "NETWORK_ENTRY",
    "campus": "CAMPUS_UNKNOWN",
    "abilities": "ABILITY_UNKNOWN",
    "tools": "TOOL_NAME",
    "let": "NAME_INVALID",
    "ability": "ABILITY_FORMAT",
}
#: What a value of a kind should be, in the author's words, and how to write one.
_EXPECTED = {
    "bool": ("true or false", "write true or false (no quotes)"),
    "int": ("a whole number", "write a number like 3 (no quotes)"),
    "float": ("a number", "write a number like 2.5 (no quotes)"),
    "dict": ("a mapping", "write key: value pairs, indented under the key, or { key: value }"),
    "list": ("a list", "write one '- item' per line, or [a, b]"),
}
_RANGE = ("greater_than", "less_than", "greater_than_equal", "less_than_equal")
_VERSIONISH = re.compile(r"[vV]?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def pydantic_problems(
    err: ValidationError, file: str, located: Located, base: Path = (), model: type[BaseModel] | None = None
) -> list[Problem]:
    """Pydantic's errors as problems at the value (or key) they are about. With `model`, an unknown key gets the
    nearest key that model allows there as a hint."""
    out = []
    meant = typo_of_required(err)
    for e in err.errors():
        loc: Path = tuple(x for x in e["loc"] if isinstance(x, str | int))
        where = ".".join(str(x) for x in loc)
        kind = e["type"]
        if kind == "missing" and loc in meant.values():
            continue  # said at the typo that was meant to be it
        msg = str(e["msg"]).removeprefix("Value error, ")
        line, column = located.pos((*base, *loc))
        hint = ""
        if kind == "missing":
            code = "MISSING_KEY"
            text = f"missing required key '{loc[-1]}'" + (f" in {'.'.join(map(str, loc[:-1]))}" if loc[:-1] else "")
            line, column = located.pos((*base, *loc[:-1]))
            about = _field_doc(model, loc) if model is not None else ""
            hint = f"add {loc[-1]}: …" + (f" ({about})" if about else "")
        elif kind == "extra_forbidden":
            code = "UNKNOWN_KEY"
            text = f"unknown key '{loc[-1]}'" + (f" in {'.'.join(map(str, loc[:-1]))}" if loc[:-1] else "")
            line, column = located.key_pos((*base, *loc))
            if loc in meant:
                hint = required_hint(meant[loc])
            elif model is not None:
                hint = did_you_mean(str(loc[-1]), keys_at(model, loc[:-1]))
        elif kind == "string_type" and loc and loc[-1] in EXPRESSION_FIELDS and isinstance(e["input"], dict | list):
            code = "EXPRESSION_NOT_TEXT"
            shape = "a mapping" if isinstance(e["input"], dict) else "a list"
            text = f"{where} is an expression, but YAML read it as {shape}"
            hint = f'put it in quotes ("{{ a: 1 }}") or write it as a block ({loc[-1]}: |)'
        elif kind == "string_type":
            got = e["input"]
            code = "WRONG_TYPE"
            text = f"{where}: expected text, but YAML read {got!r} as {_yaml_type(got)}"
            hint = "put it in quotes"
        elif kind.split("_")[0] in _EXPECTED and kind.endswith(("_type", "_parsing", "_from_float")):
            got = e["input"]
            code = "WRONG_TYPE"
            words, hint = _EXPECTED[kind.split("_")[0]]
            text = f"{where + ': ' if where else ''}expected {words}, but YAML read {got!r} as {_yaml_type(got)}"
        elif kind == "literal_error":
            code = "BAD_ENUM_VALUE"
            text = f"{where}: {msg}" if where else msg
            options = re.findall(r"'([^']*)'", str(e.get("ctx", {}).get("expected", "")))
            hint = did_you_mean(str(e["input"]), options) if isinstance(e["input"], str) else ""
        else:
            code = _VALUE_CODES.get(str(loc[-1]) if loc else "", "INVALID_VALUE") if kind == "value_error" else ""
            if kind in ("too_long", "too_short") and isinstance(e["input"], str):  # pydantic says "items" for text
                most = kind == "too_long"
                bound = e["ctx"]["max_length" if most else "min_length"]
                msg = f"{len(e['input'])} characters, {'at most' if most else 'at least'} {bound} characters allowed"
            code = code or ("TOO_LONG" if kind == "too_long" else "TOO_SHORT" if kind == "too_short" else "")
            code = code or ("OUT_OF_RANGE" if kind in _RANGE else "WRONG_TYPE" if kind.endswith("_type") else "")
            code = code or "INVALID_VALUE"
            text = f"{where}: {msg}" if where else msg
            if code == "VERSION_NOT_SEMVER" and isinstance(e["input"], str):
                m = _VERSIONISH.fullmatch(e["input"].strip())
                hint = f"write {m.group(1)}.{m.group(2) or 0}.{m.group(3) or 0}" if m else "write it like 1.0.0"
        out.append(Problem(file, line, text, column=column, code=code, hint=hint))
    return out


def typo_of_required(err: ValidationError) -> dict[Path, Path]:
    """Unknown keys that are misspellings of a required key missing beside them (`nxet` where `next` is
    missing): the path of each such key → the path of the key it meant. One mistake, said once, at the typo."""
    missing: dict[Path, list[str]] = {}
    extra: list[Path] = []
    for e in err.errors():
        loc: Path = tuple(x for x in e["loc"] if isinstance(x, str | int))
        if loc and e["type"] == "missing":
            missing.setdefault(loc[:-1], []).append(str(loc[-1]))
        elif loc and e["type"] == "extra_forbidden":
            extra.append(loc)
    out: dict[Path, Path] = {}
    for loc in extra:
        best = nearest(str(loc[-1]), missing.get(loc[:-1], []))
        if best is not None and (*loc[:-1], best) not in out.values():
            out[loc] = (*loc[:-1], best)
    return out


def required_hint(meant: Path) -> str:
    """The hint of a typo of a required key."""
    return f"did you mean '{meant[-1]}'? ({meant[-1]} is required)"


def _yaml_type(v: Any) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int | float):
        return "a number"
    if v is None:
        return "null"
    if isinstance(v, str):
        return "text"
    return "a mapping" if isinstance(v, dict) else "a list" if isinstance(v, list) else "something else"


def _model_in(tp: Any) -> type[BaseModel] | None:
    """The model inside a type (itself, or a member of an Optional / a Union / an Annotated)."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    if get_origin(tp) in (Union, types.UnionType, typing.Annotated):
        for arg in get_args(tp):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def _element(tp: Any) -> Any:
    """What a dict's values or a list's items are, inside an Optional or a Union."""
    origin = get_origin(tp)
    if origin in (dict, list):
        return get_args(tp)[-1]
    if origin in (Union, types.UnionType, typing.Annotated):
        for arg in get_args(tp):
            if get_origin(arg) in (dict, list):
                return get_args(arg)[-1]
    return None


def _descend(model: type[BaseModel], loc: Path) -> Any:
    current: Any = model
    for part in loc:
        cls = _model_in(current)
        if cls is not None and isinstance(part, str):
            found = [f for name, f in cls.model_fields.items() if part in (name, f.alias)]
            if not found:
                return None
            current = found[0].annotation
        else:
            current = _element(current)
            if current is None:
                return None
    return current


def keys_at(model: type[BaseModel], loc: Path) -> list[str]:
    """The keys the mapping at `loc` inside `model` may have, as an author writes them (aliases)."""
    cls = _model_in(_descend(model, loc))
    return [f.alias or name for name, f in cls.model_fields.items()] if cls else []


def _field_doc(model: type[BaseModel], loc: Path) -> str:
    cls = _model_in(_descend(model, loc[:-1]))
    if cls is None:
        return ""
    found = [(name, f) for name, f in cls.model_fields.items() if loc[-1] in (name, f.alias)]
    doc = (found[0][1].description or field_doc(cls, found[0][0])) if found else ""
    return doc.split("\n")[0].rstrip(".")
