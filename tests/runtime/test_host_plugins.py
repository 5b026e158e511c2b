"""The app's host plugins through the gate, and data sources behind the cache."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from tui.lang.host import Host
from tui.runtime.gate import Turn
from tui.runtime.registry import InstalledPlugin
from tui.runtime.runtime import Runtime
from tui.runtime.store import MIGRATIONS

from ..lang.steps.helpers import CountingHost

SHOWCASE = Path(__file__).parents[1] / "fixtures" / "plugins" / "showcase"


@pytest.fixture
def runtime(tmp_path: Path) -> Runtime:
    """A runtime with the showcase plugin, answering from its recordings."""
    return Runtime.open(tmp_path / "db.sqlite3", extra=[SHOWCASE], demo=True)


async def test_host_plugins_are_registered_with_reserved_ids(runtime: Runtime) -> None:
    ids = {t.id for t in runtime.registry.tools()}
    assert {
        "memory.list",
        "memory.remember",
        "memory.forget",
        "scheduler.create",
        "scheduler.list",
        "dashboard.sources",
        "plugins.reference",
        "plugins.install",
    } <= ids
    assert runtime.registry.find("memory__remember").effect == "write"  # type: ignore[union-attr]


async def test_memory_through_the_gate(runtime: Runtime) -> None:
    kept = await runtime.gate.call("memory.remember", {"text": " 我喜欢二教 "}, actor="user")
    assert kept.status == "ok" and kept.result["text"] == "我喜欢二教"
    listed = await runtime.gate.call("memory__list", {}, actor="agent", turn=Turn("s"))
    assert listed.result == [{"id": kept.result["id"], "text": "我喜欢二教"}]
    asked = await runtime.gate.call("memory.remember", {"text": "x"}, actor="agent", turn=Turn("s"))
    assert asked.status == "declined"  # write asks, and there is no one to ask here
    bad = await runtime.gate.call("memory.remember", {"text": ""}, actor="user")
    assert bad.status == "error" and "input.text must be at least 1" in bad.message


async def test_scheduler_host_plugin_refuses_bad_cron(runtime: Runtime) -> None:
    out = await runtime.gate.call("scheduler.create", {"title": "x", "cron": "often"}, actor="user")
    assert out.status == "error" and "is not a schedule" in out.message
    write = await runtime.gate.call(
        "scheduler.create", {"title": "x", "cron": "every 1h", "tool": "showcase.remember"}, actor="user"
    )
    assert write.status == "error" and "checks run read tools only" in write.message
    ok = await runtime.gate.call(
        "scheduler.create", {"title": "余额", "cron": "0 8 * * *", "tool": "showcase.rooms"}, actor="user"
    )
    assert ok.status == "ok"
    wrong = await runtime.gate.call(
        "scheduler.create",
        {"title": "x", "cron": "every 1h", "tool": "showcase.rooms", "args": {"building": 2}},
        actor="user",
    )
    assert wrong.status == "error" and "showcase.rooms: input.building must be text" in wrong.message


async def test_dashboard_sources_and_the_plugins_reference(runtime: Runtime) -> None:
    sources = await runtime.gate.call("dashboard.sources", {}, actor="agent", turn=Turn("s"))
    by_id = {s["id"]: s for s in sources.result}
    assert by_id["showcase.free"] == {
        "id": "showcase.free",
        "title": "空闲教室",
        "tool": "showcase.rooms",
        "args": {"building": "二教"},
        "ttlMs": 1_800_000,
    }
    assert {"classrooms.overview", "wallet.balance", "shuttle.toChangping"} <= set(by_id)  # the official ones too
    ref = await runtime.gate.call("plugins.reference", {"section": "library"}, actor="agent", turn=Turn("s"))
    assert "sortBy" in ref.result["markdown"]


async def test_a_data_source_is_cached_for_its_ttl_and_kept_when_a_refresh_fails(runtime: Runtime) -> None:
    first = await runtime.sources.read("showcase.free", now_ms=1_000_000)
    assert first.value == {"note": "2 间", "rooms": ["101 (大)", "102"]} and not first.stale
    calls = len(runtime.audit.recent(100))
    again = await runtime.sources.read("showcase.free", now_ms=1_000_000 + 60_000)
    assert again.value == first.value and len(runtime.audit.recent(100)) == calls  # fresh: not run again

    @asynccontextmanager
    async def down(_: InstalledPlugin) -> AsyncIterator[Host]:
        yield CountingHost(status=503)  # the site is down, so the refresh fails …

    runtime.gate.hosts = down
    later = await runtime.sources.read("showcase.free", now_ms=1_000_000 + 31 * 60_000)
    assert later.stale and later.value == first.value and later.error  # … and the last good value stays
    with pytest.raises(KeyError):
        await runtime.sources.read("showcase.nope")


def test_every_migration_ran_and_made_its_table(runtime: Runtime) -> None:
    assert runtime.store.version == len(MIGRATIONS) == 11  # 11: the remote tools the student approved
    tables = {r[0] for r in runtime.store.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"data_cache", "app_settings", "schedule_runs", "notifications", "remote_tools"} <= tables
    columns = {r[1] for r in runtime.store.db.execute("PRAGMA table_info(schedules)")}
    assert "awaiting_approval" in columns  # 7: plugin-created assistant tasks wait for the student
    assert "dev" in {r[1] for r in runtime.store.db.execute("PRAGMA table_info(audit)")}  # 10


def test_titles_and_summaries_follow_the_app_language(tmp_path: Path) -> None:
    zh = Runtime.open(tmp_path / "zh.sqlite3", extra=[SHOWCASE])
    en = Runtime.open(tmp_path / "en.sqlite3", extra=[SHOWCASE], locale="en")
    assert zh.registry.find("showcase.rooms").title == "空闲教室"  # type: ignore[union-attr]
    rooms = en.registry.find("showcase.rooms")
    assert rooms is not None and (rooms.title, rooms.summary) == ("Free rooms", "Free rooms in a building")
    echo = en.registry.find("showcase.echo")
    assert echo is not None and echo.title == "回声" and echo.summary is None  # no English given: no summary line
    assert en.registry.find("memory.list").title == "Memories"  # type: ignore[union-attr]
