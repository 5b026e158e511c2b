"""What an input field or a setting takes, in words a student reads ("1 到 12 之间的整数", "one of: Today,
Tomorrow"), from its declaration — for a refused value, in place of the checker's `input.period must be at most
12`, which names the field by its key and is written for the plugin's author and the model."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tui.lang.documents.tool import InputField, enum_keys
from tui.runtime.message import Message

Titles = Mapping[str, Mapping[str, str]] | Mapping[str, str]
"""An enum's value titles: value (as text) → title, or by locale ("zh"/"en") → such a table."""


def rule_of(field: InputField, titles: Titles | None = None) -> Message:
    """What `field` takes, in words; a choice by its values' titles."""
    kind = field.type or "string"
    low, high = _shown(field.min), _shown(field.max)
    choices = field.enum if field.enum is not None else field.items.enum if field.items is not None else None
    if choices is not None:
        values = _listed(enum_keys(choices), titles or {})
        return Message("rule_one_of" if field.enum is not None else "rule_some_of", values=values)
    if kind in ("number", "integer"):
        noun = Message("rule_whole_number" if kind == "integer" else "rule_number")
        if low is not None and high is not None:
            return Message("rule_between", noun=noun, min=low, max=high)
        if low is not None or high is not None:
            which = "rule_at_least" if high is None else "rule_at_most"
            return Message(which, noun=noun, bound=low if high is None else high)
        return noun
    if kind == "string":
        if field.pattern is not None:
            return _pattern_words(field.pattern)
        if high is not None:
            return Message("rule_text_at_most", max=high)
        return Message("rule_text")
    return Message(f"rule_{kind}")


def refused(label: Any, field: InputField, titles: Titles | None = None) -> Message:
    """ "节次要填 1 到 12 之间的整数": a value `field` did not take, said by its label and its rule."""
    rule = rule_of(field, titles)
    # a Chinese rule that starts with a number is set off from 要填 by a space, as numbers are in Chinese text
    # ("节次要填1 到 12" ran them together; an outsider's run)
    spaced = isinstance(rule, Message) and rule.key in ("rule_between", "rule_digits", "rule_digits_between")
    return Message("field_takes_number" if spaced else "field_takes", title=label, rule=rule)


def _listed(keys: list[str], titles: Titles) -> Any:
    """The values by their titles, in one language or (titles by locale) in both."""
    if set(titles) <= {"zh", "en"} and all(isinstance(v, Mapping) for v in titles.values()) and titles:
        return {loc: ", ".join(str(table.get(k, k)) for k in keys) for loc, table in titles.items()}  # type: ignore[union-attr]
    return ", ".join(str(titles.get(k, k)) for k in keys)


def _pattern_words(pattern: str) -> Message:
    """A pattern a student can read: digits counted ("6 位数字") for the common `\\d{6}`; any other is said to
    be a form the student cannot be expected to read as a regex (the detail keeps the pattern)."""
    digits = re.fullmatch(r"\^?(?:\\d|\[0-9\])\{(\d+)(?:,(\d+))?\}\$?", pattern)
    if digits:
        low, high = digits.group(1), digits.group(2)
        return Message("rule_digits", count=low) if high is None else Message("rule_digits_between", min=low, max=high)
    if re.fullmatch(r"\^?(?:\\d|\[0-9\])[+*]\$?", pattern):
        return Message("rule_digits_only")
    return Message("rule_pattern")


def _shown(value: float | None) -> str | None:
    """A bound as a person writes it: 1, not 1.0."""
    if value is None:
        return None
    return str(int(value)) if value == int(value) else str(value)
