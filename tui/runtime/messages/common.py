"""Words any area uses: a sentence about something, and two sentences in a row."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "about": {"zh": "{what}：{detail}", "en": "{what}: {detail}"},
    "list_then": {"zh": "{first}；{rest}", "en": "{first}; {rest}"},
}
