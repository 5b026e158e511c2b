"""JSON Schema checks of a remote tool's arguments and results, with RE2 for every pattern.

A remote server writes the schemas, so their patterns are untrusted (threats.md R1): Python's `re` backtracks, and
`^(a+)+$` against 24 a's and a '!' takes 0.58 s, doubling with each character more. The MCP SDK checks results
with the `jsonschema` library, which calls `re.search` for `pattern`, `patternProperties` and the properties
`additionalProperties` weeds out; this module keeps `jsonschema` for everything else and replaces those keywords
with the language's RE2 patterns (`tui.lang.expr.stdlib.regex`: linear time, ECMA-style syntax checked and
translated). A pattern RE2 cannot compile (a lookahead, a backreference) is not checked, rather than checked by
backtracking; `unevaluatedProperties` is not checked in a schema that also has `patternProperties` (jsonschema's
own walk would match them with `re`). Schemas are compiled once per tool, with no `$ref` retrieval (an empty
registry) and no `format` checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, cast

from jsonschema import Draft202012Validator, SchemaError, ValidationError
from jsonschema.exceptions import best_match
from jsonschema.protocols import Validator
from jsonschema.validators import extend, validator_for
from referencing import Registry
from referencing.exceptions import Unresolvable

from tui.lang.expr.errors import RegexError
from tui.lang.expr.stdlib.regex import compile_pattern


class BadSchema(ValueError):
    """A schema `jsonschema` cannot use; the message names the reason."""


def _search(pattern: str, text: str) -> bool | None:
    """Whether RE2 finds `pattern` in `text`; None when RE2 cannot compile the pattern (then it is not checked)."""
    try:
        return compile_pattern(None, pattern).re.search(text) is not None
    except RegexError:
        return None


def _pattern(validator: Validator, patrn: str, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and _search(patrn, instance) is False:
        yield ValidationError(f"{_short(instance)} does not match {patrn!r}")


def _pattern_properties(
    validator: Validator, pp: Mapping[str, Any], instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in pp.items():
        for k, v in instance.items():
            if _search(pattern, k):
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


def _additional_properties(
    validator: Validator, ap: Any, instance: Any, schema: Mapping[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = [k for k in instance if k not in properties and not any(_search(p, k) for p in patterns)]
    if validator.is_type(ap, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], ap, path=extra)
    elif ap is False and extras:
        names = ", ".join(repr(e) for e in sorted(extras))
        yield ValidationError(f"additional properties are not allowed ({names})")


def _unchecked(validator: Validator, value: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    return iter(())


@cache
def _re2_flavour(base: type[Validator], skip_unevaluated: bool) -> type[Validator]:
    """`base` (a draft's validator class) with the keywords that match patterns on RE2; `skip_unevaluated` when
    the schema has `patternProperties` anywhere, which jsonschema's `unevaluatedProperties` walk matches with `re`."""
    replaced: dict[str, Any] = {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
    }
    if skip_unevaluated:
        replaced["unevaluatedProperties"] = _unchecked
    return cast(type[Validator], extend(base, replaced))


def _short(value: Any, n: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= n else text[: n - 1] + "…"


class SchemaCheck:
    """One compiled schema. `error(value)` is None when `value` conforms, else the first reason in one line."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        """Raises:
        BadSchema: not a JSON Schema `jsonschema` accepts (checked against its draft's meta-schema).
        """
        if not isinstance(schema, Mapping):
            raise BadSchema("the schema is not an object")
        base = validator_for(schema, default=Draft202012Validator)
        try:
            base.check_schema(schema)
        except SchemaError as e:
            raise BadSchema(f"not a valid JSON Schema: {e.message}") from None
        self.schema = schema
        skip = "unevaluatedProperties" in base.VALIDATORS and '"patternProperties"' in json.dumps(schema)
        self.validator = _re2_flavour(base, skip)(schema, registry=Registry())

    def error(self, value: Any) -> str | None:
        """Why `value` does not conform to the schema (None: it does)."""
        try:
            found = best_match(self.validator.iter_errors(value))
        except Unresolvable as e:
            return f"the schema has a $ref that does not resolve ({e})"
        except RecursionError:
            return "the schema or the value is nested too deeply to check"
        if found is None:
            return None
        where = "/".join(str(p) for p in found.absolute_path)
        return f"{where}: {found.message}" if where else str(found.message)
