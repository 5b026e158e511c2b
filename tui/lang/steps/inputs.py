"""Checks a tool's input against its fields before any step runs (trim, default, enum, min/max, pattern); reads
a value a person typed as its field's type (`parse_text`: the settings page, the CLI, a form's list field)."""

from __future__ import annotations

import json
import re
from typing import Any

from tui.lang.documents.problems import did_you_mean
from tui.lang.documents.tool import InputField, enum_keys
from tui.lang.expr import LangError
from tui.lang.expr.stdlib.regex import compile_pattern
from tui.lang.expr.values import from_json
from tui.lang.steps.errors import ToolError

_TYPE_NAMES = {"string": "text", "number": "a number", "integer": "a whole number", "boolean": "true or false",
               "array": "a list", "object": "an object"}  # fmt: skip


def check_input(fields: dict[str, InputField], raw: Any) -> dict[str, Any]:
    """The input as the steps see it (values in the language's value model), or a ToolError of kind input."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise ToolError("input", "the input must be an object")
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        meant = did_you_mean(unknown[0], fields)
        # the nearest name when there is one; else every name there is
        said = f"unknown input key '{unknown[0]}'" + (
            f"; {meant}" if meant else f" (known: {', '.join(fields) or 'none'})"
        )
        raise ToolError("input", said)
    out: dict[str, Any] = {}
    wrong: list[ToolError] = []  # every field that is wrong, not only the first: a form marks them all
    for name, spec in fields.items():
        try:
            if name in raw and raw[name] is not None:
                out[name] = _check(name, spec, raw[name])
            elif spec.default is not None:
                out[name] = _check(name, spec, spec.default)
            elif spec.optional:
                out[name] = None
            else:
                raise ToolError("input", f"input.{name} is required", field=name)
        except ToolError as e:
            wrong.append(e)
    if wrong:
        names = tuple(e.field for e in wrong if e.field)
        raise ToolError("input", "; ".join(e.message for e in wrong), field=wrong[0].field, fields=names)
    return from_json(out)  # type: ignore[no-any-return]


def check_value(root: str, name: str, spec: InputField, value: Any) -> Any:
    """One value against its field (`root` names what it is: `settings` for a plugin setting), as the JSON data
    it is kept as; a ToolError of kind input says what is wrong."""
    return _check(name, spec, value, root)


#: Words a person types for true and false (the CLI, a settings box).
_TRUE = frozenset({"true", "yes", "on", "1", "是", "开"})
_FALSE = frozenset({"false", "no", "off", "0", "否", "关"})


def parse_text(spec: InputField, text: str) -> Any:
    """What a person typed, as the field's type: an enum value by its text (`50` for 50), a number, true/false
    (是/否), a list as JSON or one item per line or comma, an object as JSON. Text that does not read as the type
    stays text, so `check_value` names the rule it breaks; JSON that does not parse is a ToolError saying where."""
    text = text.strip()
    kind = spec.type or "string"
    if spec.enum is not None:
        return dict(zip(enum_keys(spec.enum), spec.enum, strict=True)).get(text, text)
    if kind in ("number", "integer"):
        return _number(text)
    if kind == "boolean":
        low = text.lower()
        return True if low in _TRUE else False if low in _FALSE else text
    if kind == "object" or (kind == "array" and text.startswith("[")):
        try:
            return json.loads(text)
        except ValueError as e:
            raise ToolError("input", f"not JSON: {e}") from None
    if kind == "array":
        items = [part.strip() for part in re.split(r"[\n,，]", text) if part.strip()]
        inner = spec.items
        return [parse_text(inner, item) if inner is not None else item for item in items]
    return text


def _number(text: str) -> Any:
    """A number's text as a number (whole numbers as int); anything else as it is."""
    try:
        number = float(text)
    except ValueError:
        return text
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


def _wrong(path: str, message: str) -> ToolError:
    """An input error naming its top-level field (`code` for `code` or `items[2].x`), for the form to mark."""
    return ToolError("input", message, field=path.split(".", 1)[0].split("[", 1)[0])


def _check(path: str, spec: InputField, value: Any, root: str = "input") -> Any:
    kind = spec.type or "string"
    if kind == "string" and isinstance(value, str) and spec.trim:
        value = value.strip()
    ok = {
        "string": isinstance(value, str),
        "number": isinstance(value, int | float) and not isinstance(value, bool),
        "integer": isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer(),
        "boolean": isinstance(value, bool),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
    }[kind]
    if not ok:
        raise _wrong(path, f"{root}.{path} must be {_TYPE_NAMES[kind]}")
    if spec.enum is not None and value not in spec.enum:
        raise _wrong(path, f"{root}.{path} must be one of {', '.join(map(str, spec.enum))}")
    size = len(value) if isinstance(value, str | list) else value if kind in ("number", "integer") else None
    what = {"string": "characters", "array": "items"}.get(kind, "")
    if spec.min is not None and size is not None and size < spec.min:
        raise _wrong(path, f"{root}.{path} must be at least {spec.min:g}{' ' + what if what else ''}")
    if spec.max is not None and size is not None and size > spec.max:
        raise _wrong(path, f"{root}.{path} must be at most {spec.max:g}{' ' + what if what else ''}")
    if spec.pattern is not None and isinstance(value, str):
        try:
            rx = compile_pattern(None, spec.pattern)
        except LangError as e:
            raise _wrong(path, f"{root}.{path}: {e.msg}") from None
        m = rx.re.fullmatch(value)
        if m is None:
            raise _wrong(path, f"{root}.{path} does not have the expected form ({spec.pattern})")
    if kind == "array" and spec.items is not None:
        value = [_check(f"{path}[{i}]", spec.items, v, root) for i, v in enumerate(value)]
    return value
