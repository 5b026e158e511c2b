"""What a refused remote call says: where to log in (once, not the server's reason twice), in the app's language."""

from __future__ import annotations

from tui.runtime.message import Message, say


def test_a_server_that_asks_to_log_in_names_where_to_log_in() -> None:
    said = Message("remote_login", plugin="secnotes", reason="sec.example.com asks to log in")
    assert str(said).count("asks to log in") == 1 and "pku-harness login mcp-secnotes" in str(said)
    assert "设置 → 远程登录" in say(said, "zh") and "Settings" not in say(said, "zh")


def test_a_held_tool_is_said_in_the_students_language() -> None:
    said = Message("remote_held", tool="mcp-notes.lookup", plugin="notes")
    assert "插件 → notes" in say(said, "zh") and "Plugins" not in say(said, "zh")
