"""Run limits (threats.md §3.3): each one a clear error naming it, shared across nested steps and calls."""

from __future__ import annotations

import time

import pytest

from tui.lang.expr import Run, compile_expression, stringify
from tui.lang.steps.errors import ToolError
from tui.lang.steps.interpreter import Interpreter

from .helpers import NOW, CountingHost, make_plugin, tool


async def run(plugin, host, name="main", input_value=None, **kw):  # type: ignore[no-untyped-def]
    return await Interpreter(plugin, host).run(name, input_value or {}, now=NOW, **kw)


async def test_concurrency_is_never_above_four_across_nested_each() -> None:
    plugin = make_plugin(
        {
            "main": tool(
                "  - each: 'range(6)'\n    concurrency: 4\n    steps:\n"
                "      - each: 'range(6)'\n        concurrency: 4\n"
                "        request: { url: 'https://api.example.edu.cn/x/${item}' }\n"
            )
        }
    )
    host = CountingHost(delay=0.01)
    result = await run(plugin, host)
    assert len(host.requests) == 36
    assert host.peak == 4 and result.peak_in_flight == 4  # queued, not failed
    assert len(result.value) == 6 and all(len(r) == 6 for r in result.value)


async def test_the_61st_request_is_refused_before_it_is_sent() -> None:
    plugin = make_plugin(
        {
            "main": tool(
                "  - each: 'range(50)'\n    request: { url: 'https://api.example.edu.cn/a/${item}' }\n"
                "  - each: 'range(11)'\n    request: { url: 'https://api.example.edu.cn/b/${item}' }\n"
            )
        }
    )
    host = CountingHost()
    with pytest.raises(ToolError, match="request limit 60 reached") as info:
        await run(plugin, host)
    assert len(host.requests) == 60
    assert info.value.kind == "limit" and info.value.step == "2"


async def test_the_201st_step_is_refused_counting_nested_steps() -> None:
    plugin = make_plugin(
        {
            "main": tool(
                "  - each: 'range(50)'\n    steps:\n      - value: '1'\n      - value: '2'\n      - value: '3'\n"
                "  - each: 'range(50)'\n    steps:\n      - value: '1'\n"
            )
        }
    )
    with pytest.raises(ToolError, match="step limit 200") as info:
        await run(plugin, CountingHost())
    assert info.value.kind == "limit"


async def test_steps_of_called_tools_share_the_budget() -> None:
    plugin = make_plugin(
        {
            "main": tool("  - each: 'range(50)'\n    steps:\n      - call: helper\n"),
            "helper": tool("  - value: '1'\n  - value: '2'\n  - value: '3'\n"),
        }
    )
    with pytest.raises(ToolError, match="step limit 200"):
        await run(plugin, CountingHost())


async def test_each_over_51_items_fails_before_any_request() -> None:
    plugin = make_plugin(
        {"main": tool("  - each: 'range(51)'\n    request: { url: 'https://api.example.edu.cn/${item}' }\n")}
    )
    host = CountingHost()
    with pytest.raises(ToolError, match="each over 51 items; the limit is 50"):
        await run(plugin, host)
    assert host.requests == []


async def test_the_deadline_ends_a_run_waiting_on_a_slow_server() -> None:
    plugin = make_plugin({"main": tool("  - request: { url: 'https://api.example.edu.cn/slow' }\n")})
    t0 = time.perf_counter()
    with pytest.raises(ToolError, match="ran out") as info:
        await run(plugin, CountingHost(delay=30), deadline_s=0.3)
    assert info.value.kind == "timeout"
    assert time.perf_counter() - t0 < 1.0


async def test_a_result_over_1_mb_is_an_error_not_a_cut() -> None:
    plugin = make_plugin({"main": tool("  - value: 'range(20).map(i => \"x\".repeat(60000))'\n")})
    with pytest.raises(ToolError, match="the limit is 1 MB") as info:
        await run(plugin, CountingHost())
    assert info.value.kind == "limit"


async def test_the_result_size_is_the_bytes_of_its_json_text() -> None:
    """The size check uses json.dumps (C) and corrects it for numbers JavaScript writes otherwise: the number
    in the message is exactly the UTF-8 length of the text stringify writes (issue 20)."""
    value = "range(15000).map(i => ({ n: i / 3, tiny: 1e-7 * i, big: 1e21, name: '教室' + i, ok: i % 2 == 0 }))"
    plugin = make_plugin({"main": tool(f"  - value: '{value.replace(chr(39), chr(39) * 2)}'\n")})
    with pytest.raises(ToolError, match="the limit is 1 MB") as info:
        await run(plugin, CountingHost())
    text = stringify(compile_expression(value).evaluate({}, Run(NOW)), limit=10**8)
    assert f"the result is {len(text.encode()):,} bytes" in str(info.value)


async def test_a_result_of_one_text_many_times_is_refused_before_it_is_written() -> None:
    # 5,000 references to one 1 MB text: 5 GB of JSON if json.dumps were asked for it.
    steps = "  - let: s\n    value: \"'x'.repeat(1000000)\"\n  - value: 'range(5000).map(i => s)'\n"
    plugin = make_plugin({"main": tool(steps)})
    t0 = time.process_time()
    with pytest.raises(ToolError, match="JSON text over the 4,194,304-character limit") as info:
        await run(plugin, CountingHost())
    assert info.value.kind == "limit"
    assert time.process_time() - t0 < 1.0


async def test_a_response_over_2_mb_from_any_host_is_refused() -> None:
    plugin = make_plugin({"main": tool("  - request: { url: 'https://api.example.edu.cn/big' }\n    as: text\n")})
    with pytest.raises(ToolError, match="over 2 MB"):
        await run(plugin, CountingHost(body=b"x" * (2 * 1024 * 1024 + 1)))


async def test_paginate_stops_at_max_and_marks_the_result_truncated() -> None:
    plugin = make_plugin(
        {
            "main": tool(
                "  - paginate:\n      request: { url: 'https://api.example.edu.cn/p?c=${cursor ?? 0}' }\n"
                "      next: '(cursor ?? 0) + 1'\n      items: '[cursor]'\n      max: 30\n"
            )
        }
    )
    host = CountingHost()
    result = await run(plugin, host)
    assert len(host.requests) == 30 and result.truncated
    assert result.value[:3] == [None, 1, 2]


async def test_paginate_stops_when_next_repeats() -> None:
    plugin = make_plugin(
        {
            "main": tool(
                "  - paginate:\n      request: { url: 'https://api.example.edu.cn/p' }\n"
                "      next: \"'same'\"\n      items: '[1]'\n      max: 30\n"
            )
        }
    )
    host = CountingHost()
    result = await run(plugin, host)
    assert len(host.requests) == 2 and not result.truncated


async def test_calls_that_loop_at_run_time_are_stopped() -> None:
    # A cycle hidden from the validator by a computed input still ends: depth is capped.
    plugin = make_plugin(
        {
            "main": tool("  - call: helper\n    input: '({ n: 1 })'\n"),
            "helper": tool("  - value: input.n\n", inputs="input:\n  n: { type: number }\n"),
        }
    )
    result = await run(plugin, CountingHost())
    assert result.value == 1


async def test_expression_budget_is_shared_by_the_run() -> None:
    plugin = make_plugin({"main": tool("  - each: 'range(50)'\n    value: 'range(2500).map(x => x).length'\n")})
    with pytest.raises(ToolError, match="budget of 100,000") as info:
        await run(plugin, CountingHost())
    assert info.value.kind == "limit"


async def test_a_failure_inside_a_concurrent_each_is_a_plain_tool_error() -> None:
    plugin = make_plugin(
        {
            "main": tool(
                "  - each: 'range(4)'\n    concurrency: 4\n    steps:\n"
                "      - check: 'item != 2'\n        error: 'item ${item} failed'\n"
            )
        }
    )
    with pytest.raises(ToolError, match="item 2 failed") as info:
        await run(plugin, CountingHost())
    assert info.value.kind == "check" and info.value.step == "1.1"


async def test_a_concurrent_each_failure_is_catchable() -> None:
    plugin = make_plugin(
        {
            "main": tool(
                "  - try:\n      - each: 'range(4)'\n        concurrency: 3\n        steps:\n"
                "          - check: 'item != 1'\n            error: boom\n"
                "    catch:\n      - value: error.message\n"
            )
        }
    )
    result = await run(plugin, CountingHost())
    assert result.value == "boom"


async def test_kv_keys_are_length_capped() -> None:
    plugin = make_plugin({"main": tool("  - kv: set\n    key: \"${'k'.repeat(201)}\"\n    value: '1'\n")})
    with pytest.raises(ToolError, match="key is 201 characters; the limit is 200"):
        await run(plugin, CountingHost())


async def test_stale_data_is_not_served_for_ever() -> None:
    steps = (
        "  - cache: { key: c, ttl: 1m, staleOnError: true }\n    steps:\n"
        "      - request: { url: 'https://api.example.edu.cn/' }\n"
    )
    plugin = make_plugin({"main": tool(steps)})
    now_ms = 1796000400000  # 2026-11-30T09:00+08:00, the NOW of these runs
    for age_days, served in ((6, True), (8, False)):
        host = CountingHost(status=500)
        host.kv.set("c", {"v": "old", "t": now_ms - age_days * 86_400_000}, None, 0)
        if served:
            result = await run(plugin, host)
            assert result.value == "old" and result.stale
        else:
            with pytest.raises(ToolError, match="HTTP 500"):
                await run(plugin, host)
