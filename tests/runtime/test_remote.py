"""Remote (MCP) tools cannot vouch for themselves (threats.md I3)."""

from __future__ import annotations

import re

from tui.runtime.permissions import decide
from tui.runtime.plugins.remote import remote_ids, remote_tool_effect


def test_a_read_only_hint_does_not_make_a_remote_tool_read() -> None:
    effect = remote_tool_effect({"readOnlyHint": True, "destructiveHint": False}, None)
    assert effect == "public"
    assert decide("agent", effect, "ask", False, False).verdict == "ask"
    assert decide("scheduler", effect, "allow", False, False).verdict == "refuse"


def test_the_users_choice_sets_the_effect() -> None:
    assert remote_tool_effect({"readOnlyHint": False}, "read") == "read"


def test_remote_names_are_valid_model_names() -> None:
    tool_id, model = remote_ids("github.com/x", "search issues!")
    assert tool_id == "mcp-github-com-x.search_issues_" and model == "mcp-github-com-x__search_issues_"
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", remote_ids("s" * 100, "t" * 100)[1])


def test_a_changed_tool_starts_at_the_students_earlier_effect_and_a_hint_only_raises_it() -> None:
    from tui.runtime.plugins.remote import suggest_effect

    assert suggest_effect({"readOnlyHint": True}) == "public"  # a new tool: the strongest, whatever it claims
    assert suggest_effect({"readOnlyHint": True}, "read") == "read"
    assert suggest_effect({"destructiveHint": True}, "read") == "write"  # a claim may only make it stronger
    assert suggest_effect({"destructiveHint": True}, "money") == "money"
    assert suggest_effect({"readOnlyHint": True}, "public") == "public"  # never weaker than the earlier choice
