"""The interpreter keeps a run's KV changes and hands them to the host once, when the run succeeds (any host:
here the in-memory one of recorded tests)."""

from __future__ import annotations

import pytest

from tui.lang.steps.errors import ToolError
from tui.lang.steps.interpreter import Interpreter
from tui.lang.testing.memorykv import MemoryKv

from .helpers import NOW, CountingHost, make_plugin, tool


async def test_a_failing_run_hands_the_host_nothing() -> None:
    host = CountingHost()
    host.kv.set("k", "old", None, 0)
    plugin = make_plugin(
        {"main": tool("  - kv: set\n    key: k\n    value: \"'new'\"\n  - check: 'false'\n    error: no\n")}
    )
    with pytest.raises(ToolError, match="no"):
        await Interpreter(plugin, host).run("main", {}, now=NOW)
    assert host.kv.snapshot() == {"k": "old"}


async def test_concurrent_each_items_cannot_pass_the_quota_between_them() -> None:
    """Four items at once each write 300 bytes into a 1,000-byte store: the fourth is refused at its step."""
    host = CountingHost()
    host.kv = MemoryKv(quota=1000)
    steps = (
        "  - try:\n      - each: 'range(4)'\n        concurrency: 4\n        steps:\n"
        '          - kv: set\n            key: "k${item}"\n            value: "\'x\'.repeat(290)"\n'
        "    catch:\n      - value: error.kind\n"
    )
    result = await Interpreter(make_plugin({"main": tool(steps)}), host).run("main", {}, now=NOW)
    assert result.value == "limit"
    assert len(host.kv.snapshot()) == 3 and host.kv.used() <= 1000
