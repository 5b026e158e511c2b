"""`pku-harness tools | permissions | audit`, as a new user would run them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tui.cli.main import cli
from tui.runtime.store import Store

SHOWCASE = str(Path(__file__).parent / "fixtures" / "plugins" / "showcase")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_tools_list_shows_ids_effects_and_modes() -> None:
    code, out, _ = invoke("tools", "list", "--with", SHOWCASE)
    assert code == 0
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()}
    assert rows["showcase.remember"] == ["write", "ask", "记一条待办", "community"]
    code, out, _ = invoke("tools", "list", "--json", "--with", SHOWCASE)
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["showcase.notices"]["untrusted"] is True
    assert rows["showcase.rooms"]["model_name"] == "showcase__rooms"


def test_tools_list_for_the_agent_leaves_out_denied_tools() -> None:
    assert invoke("permissions", "set", "showcase", "write", "deny", "--with", SHOWCASE)[0] == 0
    code, out, _ = invoke("tools", "list", "--for", "agent", "--with", SHOWCASE)
    assert code == 0 and "showcase.remember" not in out and "showcase.rooms" in out


def test_tools_call_demo_replays_the_recordings() -> None:
    code, out, err = invoke("tools", "call", "showcase.rooms", "{}", "--demo", "--with", SHOWCASE)
    assert code == 0, err
    assert json.loads(out) == {"note": "2 间", "rooms": ["101 (大)", "102"]}


def test_the_scheduler_is_refused_with_a_reason_and_it_is_audited() -> None:
    code, _, err = invoke(
        "tools", "call", "showcase.remember", '{"text": "x"}', "--actor", "scheduler", "--with", SHOWCASE
    )
    assert code == 1 and "refused: scheduled runs may only read; this tool's effect is write" in err
    code, out, _ = invoke("audit", "--limit", "1")
    assert code == 0 and "showcase.remember  scheduler  write/ask  refuse" in out
    from datetime import datetime, timedelta

    from tui.runtime.scheduler.timing import BEIJING

    now = datetime.now(BEIJING)  # Beijing time, as the app shows it (the call was made in the last minute)
    assert out.startswith(tuple((now - timedelta(minutes=m)).strftime("%Y-%m-%d %H:%M") for m in (0, 1)))


def test_an_agent_call_that_needs_approval_without_a_terminal_is_not_run() -> None:
    code, _, err = invoke(
        "tools", "call", "showcase.remember", '{"text": "x"}', "--actor", "agent", "--demo", "--with", SHOWCASE
    )
    # no terminal to ask: not run, said as such (it said "not run: not run: you declined", though nobody was asked)
    assert code == 1 and err.startswith("not run: no one is there to approve it") and "not run: not run" not in err


def test_permissions_set_and_list() -> None:
    assert invoke("permissions", "set", "showcase", "money", "deny", "--with", SHOWCASE)[0] == 0
    code, out, _ = invoke("permissions", "list", "--with", SHOWCASE)
    assert code == 0
    assert "showcase: read=allow  write=ask  money=deny*  public=ask" in out and "(* chosen by you)" in out


def test_a_new_user_sees_the_official_tools() -> None:
    code, out, _ = invoke("tools", "list")
    assert code == 0
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()}
    assert rows["classrooms.free"] == ["read", "allow", "空闲教室"]
    assert rows["wallet.recharge"] == ["money", "ask", "校园卡充值"]
    assert rows["memory.remember"] == ["write", "ask", "记住一件事"]


def test_a_new_user_gets_free_rooms_in_demo_mode() -> None:
    code, out, err = invoke("tools", "call", "classrooms.free", "{}", "--demo")
    assert code == 0, err
    result = json.loads(out)
    assert result["day"] == "今天" and len(result["buildings"]) == 10
    assert all(b["rooms"] for b in result["buildings"])


def test_the_scheduler_cannot_top_up_the_card() -> None:
    code, _, err = invoke("tools", "call", "wallet.recharge", '{"amountYuan": 50}', "--actor", "scheduler")
    assert code == 1 and "refused: scheduled runs may only read; this tool's effect is money" in err


def stored_grants(data: Path) -> list[tuple[str, str, str]]:
    store = Store(data / "pku-harness.sqlite3")
    try:
        return [tuple(r) for r in store.db.execute("SELECT plugin, effect, mode FROM grants").fetchall()]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("nosuch", "money", "deny"), "'nosuch'"),
        (("showcase", "money", "deny"), "'showcase'"),  # only a folder given with --with is known
        (("wallet", "nosuch", "deny"), "'nosuch'"),
        (("wallet", "money", "nosuch"), "'nosuch'"),
    ],
)
def test_permissions_set_refuses_what_does_not_exist_and_stores_nothing(
    isolated_data_dir: Path, args: tuple[str, str, str], named: str
) -> None:
    code, _, err = invoke("permissions", "set", *args)
    assert code == 2 and named in err
    assert stored_grants(isolated_data_dir) == []


def test_permissions_set_knows_the_host_plugins(isolated_data_dir: Path) -> None:
    assert invoke("permissions", "set", "memory", "write", "allow")[0] == 0
    assert stored_grants(isolated_data_dir) == [("memory", "write", "allow")]


@pytest.mark.parametrize("limit", ["-5", "0"])
def test_audit_refuses_a_limit_below_one(limit: str) -> None:
    invoke("tools", "call", "wallet.recharge", '{"amountYuan": 50}', "--actor", "scheduler")  # one audit row
    code, out, err = invoke("audit", "--limit", limit)
    assert code == 2 and "--limit" in err and out == ""
