"""What loads of a value that does not: the value with its bad parts taken out, so the checks that do not
depend on those parts still run and an author sees every independent problem at once (a bad `effect` does not
hide an unknown name in the same tool; a wrong type in a test case does not hide that case's unknown setting).

The bad parts themselves are reported by whoever validated the value first; salvaging reports nothing.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from tui.lang.documents.yamlsafe import Path

M = TypeVar("M", bound=BaseModel)
#: Rounds of taking parts out before giving up (a required key taken out is one more round at its parent).
_ROUNDS = 6


def salvage(model: type[M], data: Any, fill: dict[str, Any] | None = None) -> tuple[M | None, set[str]]:
    """The model made of `data` without the parts pydantic refuses, and the top-level keys that were refused.

    A refused value is taken out; when it was required, the mapping or list entry holding it goes instead. A
    refused or missing top-level key named in `fill` gets that stand-in value (the caller must not trust it:
    it is in the returned set). None when nothing is left to make the model of.
    """
    if not isinstance(data, dict):
        return None, set()
    data = copy.deepcopy(data)
    broken: set[str] = set()
    for _ in range(_ROUNDS):
        try:
            return model.model_validate(data), broken
        except ValidationError as e:
            errors = e.errors()
        cuts: list[Path] = []
        for err in errors:
            loc: Path = tuple(x for x in err["loc"] if isinstance(x, str | int))
            if not loc:
                return None, broken  # the model as a whole is refused
            broken.add(str(loc[0]))
            if len(loc) == 1 and fill is not None and loc[0] in fill:
                data[loc[0]] = fill[str(loc[0])]
                continue
            cut = loc[:-1] if err["type"] == "missing" else loc
            if not cut:
                return None, broken  # a required top-level key without a stand-in
            cuts.append(cut)
        # the deepest and the last list entries first, so that no cut moves another
        for cut in sorted(set(cuts), key=lambda p: (len(p), p[-1] if isinstance(p[-1], int) else -1), reverse=True):
            _remove(data, cut)
    return None, broken


def _remove(data: Any, path: Path) -> None:
    for part in path[:-1]:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return  # already taken out with its parent
    last = path[-1]
    if isinstance(data, dict):
        data.pop(last, None)
    elif isinstance(data, list) and isinstance(last, int) and last < len(data):
        del data[last]
