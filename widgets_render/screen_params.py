"""Whether the params given to a screen fit the params it declares: one check for every way a screen opens —
an `open:` action in a widget or screen, a quick command in the manifest, the palette.

Kept free of the genui models (it imports nothing heavy): the manifest's checks use it without building them.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ParamProblem:
    """One way the given params do not fit: `key` is the given param it is about (None for a missing one)."""

    code: str
    key: str | None
    message: str
    hint: str = ""
    missing: str = ""
    """The required param that is not given (OPEN_PARAM_MISSING)."""


def required_params(declared: Any) -> list[str]:
    """The params a screen requires: declared without a default and not optional."""
    if not isinstance(declared, dict):
        return []
    return [n for n, p in declared.items() if isinstance(p, dict) and "default" not in p and not p.get("optional")]


def opens_alone(spec: Any) -> bool:
    """Whether a screen can be opened from a list of screens (the palette, 插件), with no params given: a screen
    that requires one (a detail screen) is reached from the screen or widget that gives it, never from there."""
    return not required_params(spec.get("params") if isinstance(spec, dict) else None)


def _nearest(word: str, choices: list[str]) -> str | None:
    found = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return found[0] if found else None


def _literal(value: Any) -> bool:
    return not (isinstance(value, str) and "${" in value)


def param_problems(screen: str, declared: Any, given: Mapping[str, Any], by: str) -> list[ParamProblem]:
    """How `given` (param → value or template) does not fit the screen's `params` declaration.

    `by` says who opens the screen in the messages ("this action", "command 'x'"). A given name that is not
    declared but is close to a required one that is missing is one problem (a renamed param), not two.
    """
    params: dict[str, Any] = declared if isinstance(declared, dict) else {}
    names = [str(n) for n in params]
    missing = [p for p in required_params(params) if p not in given]
    out: list[ParamProblem] = []
    explained: set[str] = set()
    unknown = [key for key in given if key not in params]
    for key in unknown:
        near = _nearest(key, names)
        renamed = near is None and len(unknown) == 1 and len(missing) == 1
        if renamed:
            near = missing[0]  # one given that is not declared, one required not given: a rename (id → roomId)
        if near in missing:
            explained.add(near)
            said = f"screen {screen!r} has no param {key!r}, and it requires {near!r}, which {by} does not give"
        else:
            said = f"screen {screen!r} has no param {key!r}"
        hint = f"rename it to {near!r}" if renamed else f"did you mean {near!r}?" if near else ""
        hint = hint or (f"its params: {', '.join(names)}" if names else "")
        out.append(ParamProblem("OPEN_PARAM_UNKNOWN", key, said, hint or "it declares no params"))
    for param in missing:
        if param not in explained:
            said = f"screen {screen!r} requires the param {param!r}, and {by} does not give it"
            out.append(ParamProblem("OPEN_PARAM_MISSING", None, said, f'add "params": {{ "{param}": … }}', param))
    for key, value in given.items():
        spec = params.get(key)
        enum = spec.get("enum") if isinstance(spec, dict) else None
        if not isinstance(enum, list) or not _literal(value) or value in enum or str(value) in map(str, enum):
            continue
        words = [str(e) for e in enum]
        near = _nearest(str(value), words)
        said = f"param {key!r} of screen {screen!r}: {value!r} is not one of {', '.join(words)}"
        out.append(ParamProblem("BAD_ENUM_VALUE", key, said, f"did you mean {near!r}?" if near else ""))
    return out
