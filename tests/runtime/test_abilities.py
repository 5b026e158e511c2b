"""Host abilities with their fixed effects: data in the store, otp from keyring, person-only ones via the UI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tui.lang.expr.secret import SecretValue, open_for
from tui.lang.host import HostError
from tui.runtime.abilities import KEYRING_SERVICE, Abilities
from tui.runtime.campus.totp import totp
from tui.runtime.secrets import Secrets
from tui.runtime.store import Store

from ..conftest import MemoryKeyring


class Person:
    """A UI that does what a person would, and remembers it."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    async def open_url(self, url: str) -> bool:
        self.opened.append(url)
        return True

    async def open_campus_page(self, service: str) -> bool:
        self.opened.append(service)
        return True

    async def pick_files(self, types: list[str], multiple: bool) -> list[dict[str, Any]] | None:
        return [{"name": "a.pdf", "size": 10}]

    async def await_sms_code(self) -> str | None:
        return "123456"


@pytest.fixture
def abilities(tmp_path: Path) -> Abilities:
    """Abilities over a fresh store, with a person at the app."""
    return Abilities(Store(tmp_path / "db.sqlite3"), Secrets(), Person())


async def test_todos_round_trip(abilities: Abilities) -> None:
    added = await abilities.call("canteen", "todos.add", {"title": " 交作业 ", "due": "2026-12-01"})
    assert added["title"] == "交作业" and added["source"] == "canteen" and not added["done"]
    await abilities.call("canteen", "todos.add", {"title": "买饭"})
    await abilities.call("canteen", "todos.setDone", {"id": added["id"]})
    assert [t["title"] for t in await abilities.call("canteen", "todos.list", {})] == ["买饭"]
    assert len(await abilities.call("canteen", "todos.list", {"includeDone": True})) == 2
    assert len(await abilities.call("canteen", "todos.list", {"includeDone": True, "limit": 1})) == 1
    updated = await abilities.call("canteen", "todos.update", {"id": added["id"], "title": "交作业 2"})
    assert updated["title"] == "交作业 2"
    assert (await abilities.call("canteen", "todos.remove", {"id": added["id"]}))["removed"]
    with pytest.raises(HostError, match="needs title"):
        await abilities.call("canteen", "todos.add", {})


async def test_a_plugin_sees_and_changes_only_its_own_todos(abilities: Abilities) -> None:
    """todos.list gave every plugin the student's whole list (issue 18 item 11)."""
    mine = await abilities.call("canteen", "todos.add", {"title": "买饭"})
    assert await abilities.call("notices", "todos.list", {"includeDone": True}) == []
    for op, args in (("setDone", {}), ("update", {"title": "改了"}), ("remove", {})):
        with pytest.raises(HostError, match=f"todos.{op}: no todo {mine['id']} of this plugin"):
            await abilities.call("notices", f"todos.{op}", {"id": mine["id"], **args})
    assert [t["title"] for t in await abilities.call("canteen", "todos.list", {})] == ["买饭"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ({"title": "x", "due": "tomorrow"}, "due must be a date, 'YYYY-MM-DD'"),
        ({"title": "x", "due": "12月5日"}, "due must be a date"),
        ({"title": "x", "due": "2026-02-30"}, "due must be a date"),
        ({"title": "x", "due": 3}, "due must be a date"),
        ({"title": "x", "dueDate": "2026-12-05"}, r"todos.add does not take dueDate \(it takes: title, due\)"),
        ({"title": 5}, "title must be text"),
    ],
)
async def test_todos_add_refuses_what_it_does_not_take(abilities: Abilities, args: dict, said: str) -> None:
    """These were stored as given ('tomorrow', '12月5日'), dropped (dueDate) or turned into null (3)."""
    with pytest.raises(HostError, match=said):
        await abilities.call("canteen", "todos.add", args)
    assert await abilities.call("canteen", "todos.list", {}) == []


async def test_a_due_date_with_a_time_and_a_null_left_out_are_taken(abilities: Abilities) -> None:
    added = await abilities.call("canteen", "todos.add", {"title": "x", "due": "2026-12-05 18:30"})
    assert added["due"] == "2026-12-05 18:30"
    plain = await abilities.call("canteen", "todos.add", {"title": "y", "due": None})
    assert plain["due"] is None


async def test_timetable_and_scheduler(abilities: Abilities) -> None:
    entry = await abilities.call(
        "p", "timetable.upsert", {"title": "高数", "weekday": 1, "start": "08:00", "end": "09:50", "weeks": [1, 2, 3]}
    )
    got = await abilities.call("p", "timetable.get", {})
    assert got[0]["title"] == "高数" and got[0]["weeks"] == [1, 2, 3] and got[0]["start"] == "08:00"
    assert (await abilities.call("p", "timetable.remove", {"id": entry["id"]}))["removed"]
    with pytest.raises(HostError, match="weekday is 1"):
        await abilities.call("p", "timetable.upsert", {"title": "x", "weekday": 9, "start": "08:00", "end": "09:00"})
    with pytest.raises(HostError, match="start must be a time, 'HH:MM'"):
        await abilities.call("p", "timetable.upsert", {"title": "x", "weekday": 1, "start": "8点", "end": "09:00"})
    check = await abilities.call(
        "p", "scheduler.create", {"title": "余额提醒", "cron": "0 8 * * *", "tool": "wallet.balance"}
    )
    listed = await abilities.call("p", "scheduler.list", {})
    assert listed[0]["id"] == check["id"] and listed[0]["tool"] == "wallet.balance"
    assert listed[0]["schedule"] == "0 8 * * *" and listed[0]["source"] == "p"
    with pytest.raises(HostError, match="is not a schedule"):
        await abilities.call("p", "scheduler.create", {"title": "x", "cron": "every day"})


async def test_otp_code_from_keyring_or_null(abilities: Abilities, memory_keyring: MemoryKeyring) -> None:
    assert await abilities.call("grades", "otp.code", {}) is None  # no mobile token bound
    secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    abilities.campus.set_otp_secret(secret)
    assert secret in memory_keyring.items[(KEYRING_SERVICE, "campus:otp")]  # kept in keyring, as JSON
    abilities.campus.clock = lambda: 1_796_000_400.0
    value = await abilities.call("grades", "otp.code", {})
    # An opaque secret value (it used to be the code as plain text): only a verify.* ability's `code` opens it.
    assert isinstance(value, SecretValue) and value.ability == "otp.code"
    code = open_for("verify.treehole", {"code": value})["code"]
    assert code == totp(secret, 1_796_000_400) and code not in repr(value) + str(value)
    assert len(code) == 6 and code.isdigit()
    assert abilities.secrets.scrub_text(f"s={secret}") == "s=‹secret›"  # the secret itself is never shown
    assert abilities.secrets.scrub_text(f"code {code}") == "code ‹secret›"  # nor the code it gives


async def test_crypto_and_person_abilities(abilities: Abilities) -> None:
    assert (await abilities.call("p", "crypto.sha256", {"text": "abc"}))["hex"].startswith("ba7816bf")
    assert (await abilities.call("p", "browser.open", {"url": "https://www.pku.edu.cn"}))["opened"]
    with pytest.raises(HostError, match="https:// URLs only"):
        await abilities.call("p", "browser.open", {"url": "file:///etc/passwd"})
    assert (await abilities.call("p", "sms.awaitCode", {}))["code"] == "123456"
    assert await abilities.call("p", "files.pick", {"types": ["pdf"]}) == [{"name": "a.pdf", "size": 10}]


async def test_without_a_person_the_person_only_abilities_say_so(tmp_path: Path) -> None:
    headless = Abilities(Store(tmp_path / "db.sqlite3"), Secrets(), None)
    given = {"browser.open": {"url": "https://x.pku.edu.cn"}, "campusPage.open": {"service": "card"}}
    for name in ("sms.awaitCode", "files.pick", "browser.open", "campusPage.open"):
        with pytest.raises(HostError, match="needs a person at the app"):
            await headless.call("p", name, given.get(name, {}))


async def test_honest_errors_for_what_does_not_exist_yet(abilities: Abilities) -> None:
    with pytest.raises(HostError, match=r"not logged in to Treehole \(treehole\)"):
        await abilities.call("grades", "verify.treehole", {"request": {"url": "/chapi/x"}})
    with pytest.raises(HostError, match="not open"):
        await abilities.call("p", "cloud.call", {"fn": "x"})
    with pytest.raises(HostError, match="no host ability"):
        await abilities.call("p", "todos.explode", {})


async def test_otp_code_matches_the_rfc_6238_vector(abilities: Abilities, memory_keyring: MemoryKeyring) -> None:
    # RFC 6238 appendix B: SHA-1 secret "12345678901234567890" at T = 59 s gives 94287082 (8 digits);
    # the IAAA token uses 6 digits, the last six of the same truncation.
    abilities.campus.set_otp_secret("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    abilities.campus.clock = lambda: 59.0
    assert open_for("verify.treehole", {"code": await abilities.call("grades", "otp.code", {})})["code"] == "287082"
