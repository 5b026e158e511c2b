"""Automatic logins never hammer IAAA (issue 17 item 1): after a refusal none for 60 s, across processes; after
three none at all until the student logs in by hand, which always tries."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.lang.host import HttpRequest
from tui.runtime.campus.login_throttle import MAX_FAILURES, PAUSE_S, LoginThrottle
from tui.runtime.campus.net import CampusNet
from tui.runtime.campus.session import CampusSession, LoginRequired
from tui.runtime.campus.vault import KeyringVault
from tui.runtime.message import say_error
from tui.runtime.secrets import Secrets
from tui.runtime.store import Store

from ..fake_campus import FakeCampus
from .conftest import PASSWORD, USER

T0 = 1_800_000_000.0
LIST = HttpRequest("GET", "https://treehole.pku.edu.cn/chapi/api/v3/hole/list_comments?page=1", {}, None, "treehole")


def process(origin: str, db: Path, at: float) -> tuple[CampusSession, Store]:
    """What one run of the app, of `run-due` or of a CLI command is: its own store connection and session."""
    store = Store(db)
    return CampusSession(store, Secrets(), KeyringVault(), CampusNet(origin=origin), clock=lambda: at), store


def posts(fake: FakeCampus) -> int:
    """Password logins IAAA was sent (accepted or refused)."""
    return fake.count("/iaaa/oauthlogin.do")


async def refused_request(origin: str, db: Path, at: float) -> str:
    """One process's widget refresh with the stored (wrong) password: the sentence it ends with."""
    session, store = process(origin, db, at)
    try:
        with pytest.raises(LoginRequired) as raised:
            await session.request(LIST)
        return say_error(raised.value, "zh")
    finally:
        store.close()


async def test_three_processes_in_a_row_with_a_wrong_password_post_it_once_a_minute(
    campus: tuple[FakeCampus, str], tmp_path: Path
) -> None:
    fake, origin = campus
    db = tmp_path / "app.sqlite3"
    first, store = process(origin, db, T0)
    first.remember_account(USER, "the old password", remember=True)  # changed elsewhere since
    store.close()
    said = [await refused_request(origin, db, T0 + i * 10) for i in range(3)]
    assert posts(fake) == 1  # the first tried; the next two, 10 and 20 s later, did not post it again
    assert "用户名或密码错误" in said[0] and all("秒内不再自动尝试" in s for s in said[1:]), said
    await refused_request(origin, db, T0 + PAUSE_S + 1)
    await refused_request(origin, db, T0 + 2 * (PAUSE_S + 1))
    assert posts(fake) == MAX_FAILURES
    later = [await refused_request(origin, db, T0 + 3600 * h) for h in (1, 24)]
    assert posts(fake) == MAX_FAILURES  # stopped: nothing more, however long after
    assert all("已停止自动登录" in s and "pku-harness login" in s for s in later), later


async def test_logging_in_by_hand_always_tries_and_lets_automatic_logins_start_again(
    campus: tuple[FakeCampus, str], tmp_path: Path
) -> None:
    fake, origin = campus
    db = tmp_path / "app.sqlite3"
    session, store = process(origin, db, T0)
    session.remember_account(USER, "the old password", remember=True)
    for i in range(MAX_FAILURES):
        session.clock = lambda i=i: T0 + i * (PAUSE_S + 1)
        with pytest.raises(LoginRequired):
            await session.request(LIST)
    assert LoginThrottle(store).strikes(USER).failures == MAX_FAILURES
    from tui.runtime.campus.iaaa import LoginError

    with pytest.raises(LoginError):  # by hand, with the wrong one again: tried, and IAAA's own words
        await session.login("treehole", USER, "the old password")
    assert posts(fake) == MAX_FAILURES + 1
    await session.login("treehole", USER, PASSWORD)  # the new password, by hand
    session.remember_account(USER, PASSWORD, remember=True)
    assert LoginThrottle(store).strikes(USER).failures == 0
    fake.expire_sessions()
    response = await session.request(LIST)  # an automatic login again, at once
    assert response.status == 200 and posts(fake) == MAX_FAILURES + 3
    store.close()


async def test_an_unreachable_iaaa_is_not_a_strike(tmp_path: Path) -> None:
    """Nothing the account is blamed for: no pause, no stop (the network error says what happened)."""
    from tui.lang.host import HostError

    store = Store(tmp_path / "app.sqlite3")
    session = CampusSession(store, Secrets(), KeyringVault(), CampusNet(origin="https://127.0.0.1:9"), clock=lambda: T0)
    session.remember_account(USER, PASSWORD, remember=True)
    for _ in range(MAX_FAILURES + 1):
        with pytest.raises(HostError) as raised:
            await session.request(LIST)
        assert not isinstance(raised.value, LoginRequired)
    assert LoginThrottle(store).strikes(USER).failures == 0
    store.close()
