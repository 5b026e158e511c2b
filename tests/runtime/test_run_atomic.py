"""A run's KV changes are written together when it succeeds, and not at all when it fails (issue 15 item 6).

Real parts: the interpreter, the app's PluginHost and SqliteKv on a database file. A run that errs, hits a limit,
times out or is cancelled leaves no KV write behind — its called tools' and cache entries' included; a quota
error is still met at the step that causes it; two runs racing for the last bytes never pass the quota together.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.lang.steps.helpers import NOW, make_plugin, tool
from tui.lang.documents.loader import Plugin
from tui.lang.host import HostError, HttpRequest, HttpResponse, entry_size
from tui.lang.steps.errors import ToolError
from tui.lang.steps.interpreter import Interpreter
from tui.runtime.kv import SqliteKv
from tui.runtime.outgoing import SecretGuard
from tui.runtime.plugin_host import PluginHost
from tui.runtime.secrets import Secrets

WRITES = (
    "  - kv: set\n    key: a\n    value: \"'new'\"\n"
    "  - kv: delete\n    key: gone\n"
    "  - call: writer\n"
    "  - cache: { key: c, ttl: 10m }\n    steps:\n      - value: \"'cached'\"\n"
)
WRITER = tool("  - kv: set\n    key: from_callee\n    value: '42'\n")


class Fetcher:
    """Answers public requests: at once, after `delay`, never (`hang`), or after `gate` lets it go."""

    def __init__(self, delay: float = 0.0, hang: bool = False, gate: threading.Barrier | None = None) -> None:
        self.delay, self.hang, self.gate = delay, hang, gate
        self.started = asyncio.Event()

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        self.started.set()
        if self.gate is not None:
            await asyncio.to_thread(self.gate.wait, 10)
        if self.hang:
            await asyncio.Event().wait()
        await asyncio.sleep(self.delay)
        return HttpResponse(200, request.url, {"content-type": "application/json"}, b"{}")

    async def campus(self, request: HttpRequest) -> HttpResponse:
        raise HostError("network", "no campus here")


def host(kv: SqliteKv, fetcher: Fetcher | None = None) -> PluginHost:
    guard = SecretGuard(Secrets()).for_plugin("t")
    return PluginHost("t", kv, fetcher or Fetcher(), None, None, (), guard)  # type: ignore[arg-type]


async def run(plugin: Plugin, kv: SqliteKv, fetcher: Fetcher | None = None, **kw: Any) -> Any:
    return await Interpreter(plugin, host(kv, fetcher)).run("main", {}, now=NOW, **kw)


@pytest.fixture
def kv(tmp_path: Path) -> SqliteKv:
    store = SqliteKv.open(tmp_path / "pku-harness.sqlite3")
    store.set("t", "a", "old")
    store.set("t", "gone", "still here")
    return store


def untouched(kv: SqliteKv) -> bool:
    rows = kv.store.db.execute("SELECT key, value FROM plugin_kv WHERE plugin = 't' ORDER BY key").fetchall()
    return rows == [("a", '"old"'), ("gone", '"still here"')]


@pytest.mark.parametrize(
    ("after", "kind"),
    [
        ("  - check: 'false'\n    error: boom\n", "check"),  # an error
        ("  - value: \"1 / 'a'\"\n", "expression"),  # an expression error
        ("  - each: 'range(50)'\n    steps:\n      - value: item\n" * 5, "limit"),  # the step limit
        ("  - request: { url: 'https://api.example.edu.cn/slow' }\n", "timeout"),  # the deadline
    ],
)
async def test_a_run_that_fails_after_writing_leaves_nothing(kv: SqliteKv, after: str, kind: str) -> None:
    plugin = make_plugin({"main": tool(WRITES + after), "writer": WRITER})
    with pytest.raises(ToolError) as caught:
        await run(plugin, kv, Fetcher(delay=1.0), deadline_s=0.3)
    assert caught.value.kind == kind
    assert untouched(kv)


async def test_a_cancelled_run_leaves_nothing(kv: SqliteKv) -> None:
    plugin = make_plugin(
        {"main": tool(WRITES + "  - request: { url: 'https://api.example.edu.cn/hang' }\n"), "writer": WRITER}
    )
    fetcher = Fetcher(hang=True)
    task = asyncio.create_task(run(plugin, kv, fetcher))
    await asyncio.wait_for(fetcher.started.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert untouched(kv)


async def test_a_run_that_succeeds_writes_everything_and_reads_its_own_changes(kv: SqliteKv) -> None:
    reads = (
        "  - let: a\n    kv: get\n    key: a\n"
        "  - let: gone\n    kv: get\n    key: gone\n"
        "  - let: callee\n    kv: get\n    key: from_callee\n"
    )
    plugin = make_plugin({"main": tool(WRITES + reads, ret="({ a, gone, callee })"), "writer": WRITER})
    result = await run(plugin, kv)
    assert result.value == {"a": "new", "gone": None, "callee": 42}  # pending changes seen inside the run
    assert kv.get("t", "a") == "new" and kv.get("t", "gone") is None and kv.get("t", "from_callee") == 42
    assert kv.get("t", "c")["v"] == "cached"


async def test_a_quota_error_is_met_at_its_step_and_can_be_caught(tmp_path: Path) -> None:
    kv = SqliteKv.open(tmp_path / "pku-harness.sqlite3", quota=1000)
    big = "  - kv: set\n    key: big\n    value: \"'x'.repeat(900)\"\n"
    small = "  - kv: set\n    key: small\n    value: \"'y'.repeat(200)\"\n"
    plugin = make_plugin({"main": tool(small + big + "  - value: '1'\n")})
    with pytest.raises(ToolError, match=r"^t\.main, step 2, tools/main\.yaml:\d+: the plugin's store would hold"):
        await run(plugin, kv)
    assert kv.used("t") == 0  # the failed run kept not even its first write
    caught = (
        small
        + "  - try:\n"
        + "".join("  " + line + "\n" for line in big.splitlines())
        + ("    catch:\n      - value: error.kind\n")
    )
    plugin = make_plugin({"main": tool(caught + "  - kv: set\n    key: after\n    value: '1'\n", ret="\"'done'\"")})
    assert (await run(plugin, kv)).value == "done"  # the catch ran and the run went on
    assert kv.get("t", "small") == "y" * 200 and kv.get("t", "after") == 1 and kv.get("t", "big") is None


def test_two_runs_racing_for_the_last_bytes_one_commits_one_fails(tmp_path: Path) -> None:
    """Two connections to one file (as two processes would have), both past the dry-run check before either
    commits: the check inside the commit's transaction lets exactly one through."""
    path = tmp_path / "pku-harness.sqlite3"
    quota = 1000
    SqliteKv.open(path).close()
    gate = threading.Barrier(2)
    outcomes: dict[str, Any] = {}

    def racer(key: str) -> None:
        kv = SqliteKv.open(path, quota=quota)
        steps = f"  - kv: set\n    key: {key}\n    value: \"'x'.repeat(600)\"\n"
        steps += "  - request: { url: 'https://api.example.edu.cn/wait' }\n"
        plugin = make_plugin({"main": tool(steps, ret="\"'ok'\"")})
        try:
            outcomes[key] = asyncio.run(run(plugin, kv, Fetcher(gate=gate))).value
        except ToolError as e:
            outcomes[key] = e
        finally:
            kv.close()

    threads = [threading.Thread(target=racer, args=(k,)) for k in ("one", "two")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    done = [k for k, v in outcomes.items() if v == "ok"]
    failed = [v for v in outcomes.values() if isinstance(v, ToolError)]
    assert len(done) == 1 and len(failed) == 1, outcomes
    assert failed[0].kind == "limit" and "none of this run's KV changes were kept" in failed[0].message
    kv = SqliteKv.open(path, quota=quota)
    assert kv.used("t") == entry_size(done[0], "x" * 600) <= quota
    kv.close()
