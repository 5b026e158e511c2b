"""JSON Schemas of the plugin documents for editors (docs/schemas/), generated from the pydantic models.

`python -m tui.lang.documents.schemas docs/schemas` writes them; a test fails when they are stale, and another
checks every official plugin file with check-jsonschema against them. Unions are reshaped (`schema_shape`) so
that an error names the wrong field.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Union

from pydantic import BaseModel, Field, TypeAdapter

from tui.lang.documents import schema_shape as shape
from tui.lang.documents.common import Strict
from tui.lang.documents.field_docs import describe_fields
from tui.lang.documents.manifest import Manifest
from tui.lang.documents.tool import STEP_KINDS, ToolDef
from tui.lang.testing.model import TestFile
from widgets_render.spec import I18nText, Screen, Spec, Widget

BASE = "https://pkuinfo.github.io/pku-harness/schemas/"
#: Draft-07: the newest draft editors' YAML support validates (the schemas use nothing newer).
DRAFT = "http://json-schema.org/draft-07/schema#"


class SharedFile(Strict):
    """`shared.yaml`: constants and functions every tool of the plugin sees (the loader's `load_shared` reads it)."""

    constants: dict[str, Any] | None = Field(default=None)
    """Named constants for every tool's expressions."""
    functions: dict[str, str] | None = Field(default=None)
    """Helper expressions: the key is the signature `name(a, b)`, the value the body."""


def _documented(schema: dict[str, Any], top: type[BaseModel] | None = None) -> dict[str, Any]:
    """The schema with each field's docstring as its description (the models do not read them: field_docs.py)."""
    describe_fields(schema, [Strict, Spec, I18nText], top)
    return schema


def _with_steps(schema: dict[str, Any]) -> dict[str, Any]:
    """Give `steps` (and nested step lists) the step kinds, so editors can complete them: a step follows the
    schema of the first marking key it has, in the loader's order (`STEP_KINDS`)."""
    step_types = tuple(model for _, model in STEP_KINDS)
    step_schema = _documented(TypeAdapter(list[Union[step_types]]).json_schema(ref_template="#/$defs/{model}"))  # type: ignore[valid-type]  # noqa: UP007
    defs = schema.setdefault("$defs", {})
    defs.update(step_schema.pop("$defs", {}))

    def patch(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in list(node.items()):
                if (
                    key in ("steps", "then", "else", "try", "catch")
                    and isinstance(value, dict)
                    and (value.get("type") == "array" or "anyOf" in value)
                ):
                    description = value.get("description")
                    node[key] = {"$ref": "#/$defs/Steps", **({"description": description} if description else {})}
                else:
                    patch(value)
        elif isinstance(node, list):
            for item in node:
                patch(item)

    patch(schema)
    kinds = [(key, shape.ref(model.__name__)) for key, model in STEP_KINDS]
    defs["Step"] = shape.by_marker(kinds, last_catches_all=True)
    defs["Steps"] = {"type": "array", "items": shape.ref("Step")}
    return schema


def _genui() -> dict[str, Any]:
    """Widgets and screens, told apart by `kind`; nodes by `type`."""
    schema = _documented(TypeAdapter(Union[Widget, Screen]).json_schema(by_alias=True))  # noqa: UP007
    schema.pop("anyOf")
    schema = shape.hoist_discriminators(schema, {"type": "Node"})
    schema.update(shape.tagged("kind", {"widget": shape.ref("Widget"), "screen": shape.ref("Screen")}))
    return schema


def schemas() -> dict[str, dict[str, Any]]:
    """File name → schema."""
    out = {
        # PLUGIN.md's YAML frontmatter
        "manifest.schema.json": _with_steps(_documented(Manifest.model_json_schema(by_alias=True), Manifest)),
        "tool.schema.json": _with_steps(_documented(ToolDef.model_json_schema(by_alias=True), ToolDef)),
        "shared.schema.json": _documented(SharedFile.model_json_schema(by_alias=True), SharedFile),
        "test.schema.json": _documented(TestFile.model_json_schema(by_alias=True), TestFile),
        "genui-1.schema.json": _genui(),
    }
    for name, schema in out.items():
        out[name] = schema = shape.draft07(shape.dispatch_unions(schema))
        schema["$schema"] = DRAFT
        schema["$id"] = BASE + name
    return out


def render(schema: dict[str, Any]) -> str:
    """Stable text for a schema."""
    return json.dumps(schema, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    """Write every schema into the folder given (default docs/schemas)."""
    folder = Path(argv[0] if argv else "docs/schemas")
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (folder / name).write_text(render(schema), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
