"""Reshapes pydantic's JSON Schemas so that a validator's error names the wrong field.

Pydantic writes a union as `anyOf` (or `oneOf` with OpenAPI's `discriminator`, which JSON Schema validators
ignore). When a value fails every branch, a validator can only say "is not valid under any of the given schemas"
about the whole value. The same rules written with `if`/`then` pick the one branch that applies, by the JSON
type, by a tag such as a node's `type`, or by the key that marks a step or an action, so the error is that
branch's own: "Additional properties are not allowed ('colr' was unexpected)" at `$.body`, or "'thirty' does not
match ..." at `$.dataSources.hours.ttl`. Every rewrite accepts exactly what the union accepted.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    """A reference to `$defs/<name>`."""
    return {"$ref": f"#/$defs/{name}"}


def tagged(prop: str, mapping: dict[str, Schema]) -> Schema:
    """An object whose `prop` names the schema it follows, as pydantic's discriminated unions do."""
    return {
        "type": "object",
        "required": [prop],
        "properties": {prop: {"enum": list(mapping)}},
        "allOf": [
            {"if": {"required": [prop], "properties": {prop: {"const": tag}}}, "then": schema}
            for tag, schema in mapping.items()
        ],
    }


def by_marker(kinds: list[tuple[str, Schema]], last_catches_all: bool = False) -> Schema:
    """An object whose first key of `kinds` present says which schema it follows (the loader reads steps so).
    With `last_catches_all`, an object with none of the keys follows the last schema (its errors say what is
    missing); else it must have one of them."""
    rules = []
    for i, (key, schema) in enumerate(kinds):
        earlier = [{"required": [k]} for k, _ in kinds[:i]]
        last = last_catches_all and i == len(kinds) - 1
        rule: Schema = {} if last else {"required": [key]}
        if earlier:
            rule["not"] = {"anyOf": earlier}
        rules.append({"if": rule, "then": schema})
    out: Schema = {"type": "object", "allOf": rules}
    if not last_catches_all:
        out["anyOf"] = [{"required": [key]} for key, _ in kinds]
    return out


def hoist_discriminators(schema: Schema, names: dict[str, str]) -> Schema:
    """Replace every `oneOf` + `discriminator` by a reference to one `tagged` definition, named by the tag's
    property (`names`, as {"type": "Node"})."""
    hoisted: dict[str, Schema] = {}

    def visit(node: Any) -> Any:
        if isinstance(node, list):
            return [visit(x) for x in node]
        if not isinstance(node, dict):
            return node
        if "discriminator" in node and "oneOf" in node:
            prop = node["discriminator"]["propertyName"]
            name = names[prop]
            mapping = {tag: {"$ref": target} for tag, target in node["discriminator"]["mapping"].items()}
            built = tagged(prop, mapping)
            if hoisted.setdefault(name, built) != built:
                raise ValueError(f"two different unions tagged by {prop!r}: give them different names")
            rest = {k: v for k, v in node.items() if k not in ("discriminator", "oneOf")}
            return {**ref(name), **rest}
        return {k: visit(v) for k, v in node.items()}

    out: Schema = visit(schema)
    out.setdefault("$defs", {}).update(hoisted)
    return out


def _target(branch: Schema, defs: dict[str, Schema]) -> Schema:
    name = branch.get("$ref", "").removeprefix("#/$defs/")
    return defs.get(name, branch) if "$ref" in branch else branch


def _json_types(branch: Schema, defs: dict[str, Schema]) -> set[str] | None:
    """The JSON types a branch accepts, when it says (`number` standing for `integer` too)."""
    target = _target(branch, defs)
    if "type" in target:
        types = target["type"] if isinstance(target["type"], list) else [target["type"]]
    elif "const" in target or "enum" in target:
        values = target["enum"] if "enum" in target else [target["const"]]
        types = [{bool: "boolean", str: "string", int: "number", float: "number"}.get(type(v), "null") for v in values]
    else:
        return None
    return {"number" if t == "integer" else t for t in types}


def _only_type(branch: Schema) -> bool:
    return set(branch) == {"type"}


def _merge_strings(branches: list[Schema]) -> Schema | None:
    """Named values or a template (`tone`): `{enum}` + `{pattern}` as one string schema whose error is the enum's."""
    enums = [b for b in branches if set(b) == {"type", "enum"}]
    patterns = [b for b in branches if set(b) == {"type", "pattern"}]
    if len(branches) != 2 or len(enums) != 1 or len(patterns) != 1:
        return None
    return {"type": "string", "if": {"not": {"pattern": patterns[0]["pattern"]}}, "then": {"enum": enums[0]["enum"]}}


def _merge_objects(branches: list[Schema], defs: dict[str, Schema]) -> Schema | None:
    """Objects each marked by one required key no other branch declares (actions: `invoke`, `open` …)."""
    kinds = []
    for branch in branches:
        target = _target(branch, defs)
        required = target.get("required", [])
        if "$ref" not in branch or len(required) != 1:
            return None
        kinds.append((required[0], branch, set(target.get("properties", {}))))
    keys = [key for key, _, _ in kinds]
    if len(set(keys)) != len(keys) or any(set(keys) - {key} & props for key, _, props in kinds):
        return None
    return by_marker([(key, branch) for key, branch, _ in kinds])


def _dispatch(branches: list[Schema], defs: dict[str, Schema]) -> Schema | None:
    """One schema for the branches, chosen by the JSON type, or None when their types overlap."""
    groups: dict[frozenset[str], list[Schema]] = {}
    for branch in branches:
        types = _json_types(branch, defs)
        if types is None:
            return None
        groups.setdefault(frozenset(types), []).append(branch)
    keys = list(groups)
    if any(a & b for i, a in enumerate(keys) for b in keys[i + 1 :]):
        return None
    merged = []
    for group in groups.values():
        one = group[0] if len(group) == 1 else (_merge_strings(group) or _merge_objects(group, defs))
        if one is None:
            return None
        merged.append(one)
    all_types = [t for branch in branches for t in _declared(branch, defs)]
    out: Schema = {"type": list(dict.fromkeys(all_types))}
    rules = [{"if": {"type": sorted(_declared(one, defs))}, "then": one} for one in merged if not _only_type(one)]
    if len(rules) == 1:
        out.update(rules[0])
    elif rules:
        out["allOf"] = rules
    return out


def _declared(branch: Schema, defs: dict[str, Schema]) -> list[str]:
    """The branch's JSON types as written (`integer` stays `integer`)."""
    target = _target(branch, defs)
    if "type" in target:
        return target["type"] if isinstance(target["type"], list) else [target["type"]]
    return sorted(_json_types(branch, defs) or ())


def dispatch_unions(schema: Schema) -> Schema:
    """Rewrite every `anyOf` whose branches differ in JSON type as `if`/`then` on the type."""
    defs = schema.get("$defs", {})

    def visit(node: Any) -> Any:
        if isinstance(node, list):
            return [visit(x) for x in node]
        if not isinstance(node, dict):
            return node
        node = {k: visit(v) for k, v in node.items()}
        if "anyOf" in node and all(isinstance(b, dict) for b in node["anyOf"]):
            one = _dispatch(node["anyOf"], defs)
            if one is not None:
                rest = {k: v for k, v in node.items() if k != "anyOf"}
                return {**rest, **one}
        return node

    out: Schema = visit(schema)
    return out


#: Keywords that may stand beside `$ref`: draft-07 ignores every sibling of `$ref`, so only notes may.
NOTES = frozenset({"description", "title", "default", "examples"})


def draft07(schema: Schema) -> Schema:
    """The schema for draft-07, which editors support best (yaml-language-server validates draft-07 only): the
    definitions under `definitions`. Refuses what draft-07 would read differently."""

    def visit(node: Any) -> Any:
        if isinstance(node, list):
            return [visit(x) for x in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node and set(node) - {"$ref"} - NOTES:
            raise ValueError(f"draft-07 ignores {sorted(set(node) - {'$ref'} - NOTES)} beside $ref {node['$ref']}")
        if "prefixItems" in node or "$defs" in node:
            raise ValueError("prefixItems or nested $defs: not draft-07")
        return {
            k: v.replace("#/$defs/", "#/definitions/") if k == "$ref" and isinstance(v, str) else visit(v)
            for k, v in node.items()
        }

    defs = schema.pop("$defs", None)
    out: Schema = visit(schema)
    if defs is not None:
        out["definitions"] = visit(defs)
    return out
