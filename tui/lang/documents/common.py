"""Shared pieces of the document models: names, durations, effects, the base model."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, WithJsonSchema

Effect = Literal["read", "write", "money", "public"]
"""What a tool changes, weakest first (read < write < money < public)."""

EFFECT_ORDER: dict[str, int] = {"read": 0, "write": 1, "money": 2, "public": 3}

NAME_RE = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
TOOL_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)")
_UNIT_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}


class Strict(BaseModel):
    """Base of every document model: unknown keys are errors (a typo must not pass silently)."""

    # Validators are built on first use (a plugin uses a few of the step kinds), and the docstring under each field
    # is read only when an error or a schema asks for it (`field_docs.py`): both keep `plugin validate` quick.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, str_strip_whitespace=False, defer_build=True)


def parse_duration(v: object) -> int:
    """A duration in milliseconds from `30s`, `5m`, `2h`, `1d`, `250ms` or a number of milliseconds."""
    if isinstance(v, bool):
        raise ValueError("a duration is text like 30s, 5m, 2h, 1d, or milliseconds as a number")
    if isinstance(v, int | float):
        if v < 0:
            raise ValueError("a duration cannot be negative")
        return int(v)
    if isinstance(v, str):
        m = _DURATION.fullmatch(v.strip())
        if m:
            return int(float(m.group(1)) * _UNIT_MS[m.group(2)])
    raise ValueError(f"{v!r} is not a duration: write 30s, 5m, 2h, 1d, or milliseconds as a number")


#: What `parse_duration` accepts, for editors (docs/schemas): text like 30m (`pattern` applies to strings only)
#: or milliseconds as a number (`minimum` applies to numbers only) — one schema, so an error names the field.
DURATION_JSON_SCHEMA = {
    "type": ["string", "number"],
    "pattern": rf"^\s*{_DURATION.pattern}\s*$",
    "minimum": 0,
    "examples": ["30s", "5m", "2h", "1d"],
}

DurationMs = Annotated[int, BeforeValidator(parse_duration), WithJsonSchema(DURATION_JSON_SCHEMA)]
"""A duration, read into milliseconds."""


#: Bidi overrides and isolates, zero-width and other invisible format characters (Trojan Source, threats M11).
_HIDDEN = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u00ad\u061c]")


def _visible(text: str) -> str:
    m = _HIDDEN.search(text)
    if m:
        raise ValueError(
            f"contains an invisible or text-direction character (U+{ord(m.group(0)):04X}) that could disguise it"
        )
    if any(unicodedata.category(ch) == "Cc" and ch not in "\n\t" for ch in text):
        raise ValueError("contains control characters")
    return text


VisibleText = Annotated[str, AfterValidator(_visible)]
"""Text shown to users (names, titles, summaries): no invisible, direction-changing or control characters."""
