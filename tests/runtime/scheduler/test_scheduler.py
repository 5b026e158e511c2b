"""Scheduled checks with a controllable clock: Beijing-time schedules, missed windows run once, one runner per
check, conditions over `previous`, refusals and errors in the run log, backoff, notifications."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tui.runtime.registry import HostPlugin, NativeTool
from tui.runtime.runtime import Runtime
from tui.runtime.scheduler import checks as checks_module
from tui.runtime.scheduler.checks import Checks
from tui.runtime.scheduler.notices import Notices, send_desktop
from tui.runtime.scheduler.runner import Scheduler
from tui.runtime.scheduler.timing import Timing, beijing
from tui.runtime.store import Store

# 2026-11-30 23:50 in Beijing (15:50 UTC)
T0 = 1_796_053_800_000
MIN = 60_000


class Clock:
    def __init__(self, ms: int = T0) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


class Feed:
    """A read tool whose answers the test sets (a balance that changes, or a failure)."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.calls = 0

    async def run(self, args: dict[str, Any]) -> Any:
        self.calls += 1
        value = self.values.pop(0) if self.values else {"balanceYuan": 50}
        if isinstance(value, Exception):
            raise value
        return value


@pytest.fixture
def feed() -> Feed:
    return Feed()


@pytest.fixture
def runtime(tmp_path: Path, feed: Feed) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "app.sqlite3")
    rt.notices.desktop = False
    rt.registry.add_host(
        HostPlugin("probe", "探针", "", {"balance": NativeTool("余额", "Balance", "A balance.", "read", feed.run)})
    )
    yield rt
    rt.close()


def test_cron_in_beijing_time_across_midnight() -> None:
    timing = Timing.parse("30 7 * * *")
    assert beijing(T0) == "2026-11-30 23:50"
    assert beijing(timing.next_after(T0)) == "2026-12-01 07:30"
    weekdays = Timing.parse("0 8 * * 1-5")  # 2026-12-05 is a Saturday
    assert beijing(weekdays.next_after(T0 + 4 * 24 * 60 * MIN)) == "2026-12-07 08:00"
    assert Timing.parse("every 30m").next_after(T0) == T0 + 30 * MIN
    for bad in ("every 10s", "often", "61 * * * *", "* * * *"):
        with pytest.raises(ValueError):
            Timing.parse(bad)


def test_the_hosts_time_zone_does_not_move_a_check() -> None:
    timing = Timing.parse("30 7 * * *")
    expected = timing.next_after(T0)
    old = os.environ.get("TZ")
    try:
        for zone in ("America/New_York", "Asia/Kolkata", "UTC"):
            os.environ["TZ"] = zone
            time.tzset()
            assert timing.next_after(T0) == expected
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()


async def test_a_missed_window_runs_once(runtime: Runtime, feed: Feed) -> None:
    clock = Clock()
    check = Checks(runtime.store).add("余额", "every 30m", tool="probe.balance", now=clock())
    scheduler = Scheduler(runtime, runtime.notices, clock=clock)
    assert await scheduler.run_due() == []  # not yet
    clock.ms += 5 * 60 * MIN  # the laptop slept through ten windows
    reports = await scheduler.run_due()
    assert [r.outcome for r in reports] == ["met"] and feed.calls == 1
    assert await scheduler.run_due() == []
    after = Checks(runtime.store).get(check.id)
    assert after is not None and after.next_ms == clock.ms + 30 * MIN


async def test_one_runner_per_check(runtime: Runtime, feed: Feed, tmp_path: Path) -> None:
    clock = Clock()
    Checks(runtime.store).add("余额", "every 30m", tool="probe.balance", now=clock())
    clock.ms += 31 * MIN
    other = Store(tmp_path / "app.sqlite3")  # a second connection, as a second process has
    try:
        seen = [(s, c) for s in (runtime.store, other) for c in Checks(s).due(clock())]
        assert len(seen) == 2  # both runners see it due …
        assert [Checks(s).claim(c.id, clock()) for s, c in seen] == [True, False]  # … exactly one takes it
    finally:
        other.close()


async def test_concurrent_runners_run_a_check_once(runtime: Runtime, feed: Feed) -> None:
    clock = Clock()
    Checks(runtime.store).add("余额", "every 30m", tool="probe.balance", now=clock())
    clock.ms += 31 * MIN
    a, b = Scheduler(runtime, runtime.notices, clock=clock), Scheduler(runtime, runtime.notices, clock=clock)
    reports = await asyncio.gather(a.run_due(), b.run_due())
    assert sum(len(r) for r in reports) == 1 and feed.calls == 1


async def test_a_condition_over_previous_fires_only_on_change(runtime: Runtime, feed: Feed) -> None:
    clock = Clock()
    seen: list[str] = []
    runtime.notices.listeners.append(lambda n: seen.append(n.message))
    Checks(runtime.store).add(
        "余额变化",
        "every 1h",
        tool="probe.balance",
        condition="previous != null && result.balanceYuan != previous.balanceYuan",
        message="余额从 ${previous.balanceYuan} 变成 ${result.balanceYuan} 元",
        now=clock(),
    )
    feed.values = [{"balanceYuan": 50}, {"balanceYuan": 50}, {"balanceYuan": 18.5}, {"balanceYuan": 18.5}]
    scheduler = Scheduler(runtime, runtime.notices, clock=clock)
    outcomes = []
    for _ in range(4):
        clock.ms += 61 * MIN
        outcomes += [r.outcome for r in await scheduler.run_due()]
    assert outcomes == ["ok", "ok", "met", "ok"]
    assert seen == ["余额从 50 变成 18.5 元"]
    assert runtime.notices.unread() == 1


async def test_a_check_on_a_write_tool_is_refused_and_logged(runtime: Runtime) -> None:
    clock = Clock()
    check = Checks(runtime.store).add("记住", "every 1h", tool="memory.remember", args={"text": "x"}, now=clock())
    clock.ms += 61 * MIN
    reports = await Scheduler(runtime, runtime.notices, clock=clock).run_due()
    assert [r.outcome for r in reports] == ["refused"]
    log = Checks(runtime.store).runs(check.id)
    assert log[0].outcome == "refused" and "scheduled runs may only read" in log[0].detail
    assert runtime.store.db.execute("SELECT count(*) FROM memory").fetchone()[0] == 0


async def test_a_failing_check_backs_off_and_shows_its_error(runtime: Runtime, feed: Feed) -> None:
    from tui.lang.host import HostError

    clock = Clock()
    check = Checks(runtime.store).add("余额", "every 1m", tool="probe.balance", now=clock())
    feed.values = [HostError("network", "the card server is down"), HostError("network", "still down")]
    scheduler = Scheduler(runtime, runtime.notices, clock=clock)
    clock.ms += MIN
    assert [r.outcome for r in await scheduler.run_due()] == ["error"]
    first = Checks(runtime.store).get(check.id)
    assert first is not None and first.failures == 1 and "down" in (first.last_error or "")
    assert first.next_ms == clock.ms + MIN
    clock.ms += MIN
    await scheduler.run_due()
    second = Checks(runtime.store).get(check.id)
    assert second is not None and second.failures == 2 and second.next_ms == clock.ms + 2 * MIN
    clock.ms += 2 * MIN
    await scheduler.run_due()
    healed = Checks(runtime.store).get(check.id)
    assert healed is not None and healed.failures == 0 and healed.last_error is None


async def test_the_run_log_keeps_a_bounded_history(
    runtime: Runtime, feed: Feed, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks_module, "RUNS_KEPT", 3)
    clock = Clock()
    check = Checks(runtime.store).add("余额", "every 1m", tool="probe.balance", condition="false", now=clock())
    scheduler = Scheduler(runtime, runtime.notices, clock=clock)
    for _ in range(5):
        clock.ms += MIN
        await scheduler.run_due()
    runs = Checks(runtime.store).runs(check.id)
    assert len(runs) == 3 and all(r.outcome == "ok" and r.detail == "condition not met" for r in runs)


async def test_pause_and_resume(runtime: Runtime, feed: Feed) -> None:
    clock = Clock()
    checks = Checks(runtime.store)
    check = checks.add("余额", "every 30m", tool="probe.balance", now=clock())
    checks.set_enabled(check.id, False, now=clock())
    clock.ms += 5 * 60 * MIN
    assert await Scheduler(runtime, runtime.notices, clock=clock).run_due() == []
    checks.set_enabled(check.id, True, now=clock())
    resumed = checks.get(check.id)
    assert resumed is not None and resumed.next_ms == clock.ms + 30 * MIN  # from now, not for what it missed


async def test_the_dashboards_cache_is_shared(runtime: Runtime, tmp_path: Path) -> None:
    # showcase's data source `free` runs showcase.rooms {building: 二教}: a check on the same call uses its cache.
    from tests.runtime.test_host_plugins import SHOWCASE

    runtime.add_folder(SHOWCASE, official=True)
    source = runtime.sources.find("showcase.rooms", {"building": "二教"})
    assert source is not None
    with runtime.store.lock:
        runtime.store.db.execute(
            "INSERT INTO data_cache (plugin, source, value, fetched_ms) VALUES ('showcase', 'free', ?, ?)",
            ('["201"]', int(time.time() * 1000)),
        )
    clock = Clock(int(time.time() * 1000))
    Checks(runtime.store).add("二教", "every 1m", tool="showcase.rooms", args={"building": "二教"}, now=clock())
    clock.ms += MIN
    reports = await Scheduler(runtime, runtime.notices, clock=clock).run_due()
    assert reports[0].outcome == "met"
    assert runtime.notices.all()[0].result == ["201"]  # from the cache: no request was made


def test_desktop_notifications_through_notify_send(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "sent.txt"
    script = tmp_path / "notify-send"
    script.write_text(f'#!/bin/sh\nprintf "%s|" "$@" > {out}\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    assert send_desktop("余额提醒", "校园卡余额 12 元")
    assert out.read_text() == "--app-name=PKU harness|--|余额提醒|校园卡余额 12 元|"  # texts after `--`
    store = Store(tmp_path / "n.sqlite3")
    notices = Notices(store)
    notices.add("s-1", "标题\x1b[31m", "正文\x07")  # control codes from a plugin are stripped
    assert notices.all()[0].title == "标题" and notices.all()[0].message == "正文"
    notices.mark_read()
    assert notices.unread() == 0
    store.close()


async def test_the_assistant_creates_a_check_only_with_the_students_approval(runtime: Runtime) -> None:
    from tui.runtime.gate import Approval, ApprovalRequest, Turn

    args = {"title": "余额提醒", "cron": "every 1h", "tool": "probe.balance", "check": "result.balanceYuan < 20",
            "message": "校园卡只剩 ${result.balanceYuan} 元"}  # fmt: skip
    refused = await runtime.gate.call("scheduler.create", args, actor="agent", turn=Turn("s"))
    assert refused.status == "declined" and Checks(runtime.store).all() == []  # nobody approved it

    class Yes:
        def __init__(self) -> None:
            self.asked: list[ApprovalRequest] = []

        async def approve(self, request: ApprovalRequest) -> Approval:
            self.asked.append(request)
            return Approval(True)

    yes = Yes()
    runtime.gate.approver = yes
    done = await runtime.gate.call("scheduler.create", args, actor="agent", turn=Turn("s"))
    assert done.status == "ok" and yes.asked[0].tool.id == "scheduler.create"
    [check] = Checks(runtime.store).all()
    assert check.condition == "result.balanceYuan < 20" and check.source == "scheduler"
