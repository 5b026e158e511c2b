"""The tool-call accumulator against the stream shapes real servers send."""

from __future__ import annotations

from typing import Any

from tui.runtime.chat.accumulator import ToolCallAccumulator


def d(index: Any = 0, id: Any = None, name: Any = None, arguments: Any = None) -> dict[str, Any]:
    function = {k: v for k, v in (("name", name), ("arguments", arguments)) if v is not None or k == "arguments"}
    return {"index": index, "id": id, "function": function}


def run(*deltas: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    acc = ToolCallAccumulator()
    for delta in deltas:
        acc.feed(delta)
    return [(c.id, c.name, c.arguments, c.error) for c in acc.finish()]


def test_id_and_name_once_then_fragments() -> None:
    assert run(d(0, "c1", "rooms", ""), d(0, None, None, '{"buil'), d(0, None, None, 'ding": "二教"}')) == [
        ("c1", "rooms", {"building": "二教"}, None)
    ]


def test_empty_then_braces_and_null_arguments() -> None:
    assert run(d(0, "c1", "a", ""), d(0, None, None, "{}")) == [("c1", "a", {}, None)]
    assert run(d(0, "c1", "a", None)) == [("c1", "a", {}, None)]


def test_id_and_name_repeated_in_every_chunk_are_assigned_not_appended() -> None:
    assert run(d(0, "c1", "rooms", '{"a":'), d(0, "c1", "rooms", "1}")) == [("c1", "rooms", {"a": 1}, None)]


def test_arguments_before_the_name() -> None:
    assert run(d(0, None, None, '{"a": 1}'), d(0, "c1", "rooms", None)) == [("c1", "rooms", {"a": 1}, None)]


def test_parallel_calls_by_index_and_by_a_new_id_at_index_zero() -> None:
    by_index = run(d(0, "c1", "a", "{}"), d(1, "c2", "b", '{"x"'), d(1, None, None, ": 2}"))
    assert by_index == [("c1", "a", {}, None), ("c2", "b", {"x": 2}, None)]
    reused = run(d(0, "c1", "a", '{"x": 1}'), d(0, "c2", "b", ""), d(0, None, None, '{"y": 2}'))
    assert reused == [("c1", "a", {"x": 1}, None), ("c2", "b", {"y": 2}, None)]


def test_integer_ids_and_missing_index() -> None:
    assert run({"id": 7, "function": {"name": "a", "arguments": "{}"}}) == [("7", "a", {}, None)]


def test_broken_json_is_an_error_never_arguments() -> None:
    [(_, _, args, error)] = run(d(0, "c1", "rooms", '{"building": '))
    assert args is None and error is not None and "not valid JSON" in error
    [(_, _, args, error)] = run(d(0, "c1", "rooms", "[1, 2]"))
    assert args is None and error is not None and "JSON object" in error
    [(_, _, args, error)] = run(d(0, "c1", None, "{}"))
    assert error == "the tool call has no name"


def test_arguments_repeated_whole_in_the_final_chunk() -> None:
    assert run(d(0, "c1", "a", '{"a": 1}'), d(0, None, None, '{"a": 1}')) == [("c1", "a", {"a": 1}, None)]


def test_objects_as_the_sdk_gives_them() -> None:
    class F:
        name = "rooms"
        arguments = "{}"

    class D:
        index = 0
        id = "c9"
        function = F()

    assert run(D()) == [("c9", "rooms", {}, None)]  # type: ignore[arg-type]
