"""The docstring under each model field, read only when something asks for it.

The document and genui models document their fields with a string under each (`x: int` then `\"\"\"What x is.\"\"\"`).
pydantic's `use_attribute_docstrings` reads them as each class is created — by fetching and parsing the class's
source — which cost a third of `plugin validate`'s model imports (issue 21 item 9: about 45 ms of 0.45 s) for
text that only an error's explanation (`explain.py`) and the published JSON Schemas (`schemas.py`) use. Both read
it from here instead: one class's source is parsed once, on first use.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Iterable
from functools import cache
from itertools import pairwise
from typing import Any

from pydantic import BaseModel


@cache
def _own_docs(cls: type) -> dict[str, str]:
    """The docstrings written under the fields that `cls` itself declares (not its bases)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):  # no source (a frozen app, a class made at run time): no docs, not an error
        return {}
    tree = ast.parse(source)
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for node, after in pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def field_doc(model: type[BaseModel], name: str) -> str:
    """The docstring of field `name` (its Python name) of `model`, from the nearest class that declares it."""
    for cls in model.__mro__:
        if cls is BaseModel:
            break
        doc = _own_docs(cls).get(name)
        if doc is not None:
            return doc
    return ""


def _subclasses(roots: Iterable[type[BaseModel]]) -> dict[str, type[BaseModel]]:
    """Every model under `roots` by class name (the name pydantic gives its `$defs` entry)."""
    seen: dict[str, type[BaseModel]] = {}
    stack = list(roots)
    while stack:
        cls = stack.pop()
        if seen.setdefault(cls.__name__, cls) is cls:
            stack.extend(cls.__subclasses__())
    return seen


def _fill(schema: dict[str, Any], model: type[BaseModel]) -> None:
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return
    for name, info in model.model_fields.items():
        prop = properties.get(info.alias or name)
        if isinstance(prop, dict) and "description" not in prop and (doc := field_doc(model, name)):
            prop["description"] = doc


def describe_fields(
    schema: dict[str, Any], roots: Iterable[type[BaseModel]], top: type[BaseModel] | None = None
) -> None:
    """Give each property of a generated JSON Schema its field's docstring as its description (where the field has
    no `description=` of its own): in `$defs`, found by class name among `roots` and their subclasses, and at the
    top for `top`. Done on the generated schema, so it does not matter which models were built before."""
    models = _subclasses(roots)
    for name, definition in schema.get("$defs", {}).items():
        if name in models and isinstance(definition, dict):
            _fill(definition, models[name])
    if top is not None:
        _fill(schema, top)
