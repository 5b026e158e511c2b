"""What the validator needs to know of the genui vocabulary beyond the schema: each component's model, the props
whose literal value must be one of a few words (`tone`), and the nearest valid word to a typo."""

from __future__ import annotations

import difflib
import types
from collections.abc import Iterable
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from widgets_render.spec import Node


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`did you mean 'x'?` for the closest of `choices`, or ''."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean {found[0]!r}?" if found else ""


def _models() -> dict[str, type[BaseModel]]:
    """Each component type's model."""
    out: dict[str, type[BaseModel]] = {}
    for model in get_args(get_args(Node)[0]):
        tag = get_args(model.model_fields["type"].annotation)
        out[str(tag[0])] = model
    return out


def _literal_choices(annotation: Any) -> tuple[str, ...]:
    """The words a prop written as `Literal[...] | Template` allows when it is not a template."""
    args = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
    if str not in args:
        return ()
    return tuple(str(v) for a in args if get_origin(a) is Literal for v in get_args(a))


MODELS = _models()
"""Each component type's model, by its `type`."""
#: Per component type, the props whose literal value must be one of a set of words (`tone`).
ENUM_PROPS = {
    kind: {name: words for name, f in model.model_fields.items() if (words := _literal_choices(f.annotation))}
    for kind, model in MODELS.items()
}
