"""Calling a real MCP server's tools (fastmcp on loopback, reached as https://mcp.example.com): results, tool
errors, the RE2 output check, size limits, the input check, timeouts and cancellation."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator

import pytest

from tests.runtime.mcp.conftest import HOST, TOKEN, Server
from tui.runtime import dev_origins
from tui.runtime.plugins.mcp.client import McpServer
from tui.runtime.plugins.mcp.http import bearer


@pytest.fixture
async def notes(mcp_http: Server, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[McpServer]:
    monkeypatch.setenv(dev_origins.ENV, mcp_http.mapping)
    server = McpServer("notes", f"https://{HOST}/mcp", auth=bearer(TOKEN), dev=dev_origins.from_env())
    yield server
    await server.close()


async def test_lists_the_tools_with_their_app_names(notes: McpServer) -> None:
    state = await notes.connect()
    assert (state.kind, state.transport) == ("ready", "streamable-http")
    assert [t.name for t in notes.tools] == ["echo", "fail", "sleep", "redos", "big", "shout"]
    echo = notes.tool("echo")
    assert echo is not None
    assert (echo.id, echo.model_name, echo.description) == ("mcp-notes.echo", "mcp-notes__echo", "Say the text back.")
    assert echo.annotations["readOnlyHint"] is True  # kept to show, never to lower the effect
    assert echo.input_schema["required"] == ["text"]
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", echo.pin)


async def test_calls_a_tool(notes: McpServer) -> None:
    result = await notes.call("echo", {"text": "你好"})
    assert (result.ok, result.text, result.error) == (True, "echo: 你好", None)


async def test_a_failing_tool_says_why(notes: McpServer) -> None:
    result = await notes.call("fail", {"why": "the disk is full"})
    assert not result.ok and result.error == "tool"
    assert result.text == "mcp-notes.fail failed: failed on purpose: the disk is full"
    assert (await notes.call("echo", {"text": "still here"})).ok


async def test_a_catastrophic_output_pattern_is_checked_in_linear_time(notes: McpServer) -> None:
    # `^(a+)+$` against 26 a's and a '!': about 3 s with Python's `re` (the SDK's own check; 0.76 s at 24 here),
    # so a regression fails this test in seconds rather than hanging it
    await notes.connect()
    start = time.perf_counter()
    result = await notes.call("redos", {"n": 26})
    elapsed = time.perf_counter() - start
    assert result.error == "output" and "does not match '^(a+)+$'" in result.text
    assert elapsed < 0.1, elapsed


async def test_a_five_megabyte_answer_is_refused(notes: McpServer) -> None:
    result = await notes.call("big", {"size": 5_000_000})
    assert result.error == "limit"
    assert result.text == "mcp-notes.big: the answer from https://mcp.example.com/mcp is over 2 MB"
    assert (await notes.call("echo", {"text": "after"})).text == "echo: after"


async def test_a_result_over_one_megabyte_is_refused(notes: McpServer) -> None:
    result = await notes.call("big", {"size": 600_000})  # text and structured copy: 1.2 MB, under the 2 MB answer
    assert result.error == "limit" and re.search(r"is 1,2\d\d,\d\d\d bytes; at most 1 MB", result.text)
    assert (await notes.call("big", {"size": 400_000})).ok


async def test_arguments_are_checked_against_the_input_schema_first(notes: McpServer) -> None:
    bad = await notes.call("shout", {"word": "AB1"})
    assert (
        bad.error == "input"
        and bad.text == "the arguments do not fit mcp-notes.shout: word: 'AB1' does not match '^[a-z]+$'"
    )
    missing = await notes.call("echo", {})
    assert missing.error == "input" and "'text' is a required property" in missing.text
    assert (await notes.call("shout", {"word": "ab"})).text == "AB"
    unknown = await notes.call("nope")
    assert (unknown.error, unknown.text) == ("input", "notes has no tool 'nope'")


async def test_a_slow_call_times_out(notes: McpServer) -> None:
    result = await notes.call("sleep", {"seconds": 5}, timeout=0.5)
    assert (result.error, result.text) == ("timeout", "mcp-notes.sleep did not answer within 0.5 s")
    assert (await notes.call("echo", {"text": "next"})).ok


async def test_a_call_can_be_cancelled(notes: McpServer) -> None:
    await notes.connect()
    task = asyncio.create_task(notes.call("sleep", {"seconds": 30}))
    await asyncio.sleep(0.3)
    start = time.perf_counter()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.perf_counter() - start < 1
    assert notes.state.kind == "ready" and (await notes.call("echo", {"text": "on"})).ok
