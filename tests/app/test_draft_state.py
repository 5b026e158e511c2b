"""What the app reads of drafts without Textual: the draft a stored conversation worked on, the size of a change."""

from __future__ import annotations

from tui.app.draft_state import diff_counts, draft_in, problem_text
from tui.runtime.host_drafts import diff_text


def test_a_stored_conversation_names_its_latest_draft() -> None:
    def asked(name: str, args: str) -> dict[str, object]:
        return {"role": "assistant", "tool_calls": [{"function": {"name": name, "arguments": args}}]}

    messages = [
        asked("plugins__draftWrite", '{"draft": "first", "path": "PLUGIN.md", "content": ""}'),
        asked("classrooms__free", '{"draft": "not-a-draft-tool"}'),
        asked("plugins__draftValidate", '{"draft": "libnew"}'),
        asked("plugins__draftTest", "{not json"),
        {"role": "tool", "content": "{}"},
    ]
    assert draft_in(messages) == "libnew"
    assert draft_in(messages[:2]) == "first"
    assert draft_in([{"role": "user", "content": "hi"}]) is None


def test_the_size_of_a_change_counts_lines_not_headers() -> None:
    before = "---\nid: a\nname: A\n---\n"
    after = "id: a\nname: B\nversion: 1\n"
    diff = diff_text("PLUGIN.md", before, after)
    assert diff_counts(diff) == (2, 3)  # `---` removed twice reads `----`: changes, not the header
    assert diff_counts(diff_text("new.md", None, "a\nb\n")) == (2, 0)


def test_a_problem_reads_file_line_column_code_message_hint() -> None:
    problem = {"file": "tools/list.yaml", "line": 8, "column": 5, "code": "STEP_UNKNOWN_KIND",
               "message": "unknown step key 'requst'", "hint": "did you mean 'request'?"}  # fmt: skip
    assert problem_text(problem) == (
        "tools/list.yaml:8:5 · STEP_UNKNOWN_KIND\nunknown step key 'requst'\ndid you mean 'request'?"
    )
    assert problem_text({"file": "PLUGIN.md", "message": "x"}) == "PLUGIN.md\nx"
