"""`pku-harness scheduler …`: add, list, pause, resume, log, remove, install-timer; and two `run-due` processes
started together run a due check once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from tui.cli.main import cli
from tui.runtime.store import Store


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def new_check(*extra: str) -> str:
    code, out, err = invoke("scheduler", "add", "下一班校车", "--every", "30m", "--tool", "shuttle.next",
                            "--args", '{"to": "昌平校区"}', *extra)  # fmt: skip
    assert code == 0, err
    return out.split(":")[0]


def make_due(data: Path, check_id: str) -> None:
    store = Store(data / "pku-harness.sqlite3")
    store.db.execute("UPDATE schedules SET next_ms = 0 WHERE id = ?", (check_id,))
    store.close()


def test_add_list_pause_resume_log_remove(isolated_data_dir: Path) -> None:
    check_id = new_check("--when", "len(result.departures) > 0", "--message", "下一班 ${result.departures[0].time}")
    code, out, _ = invoke("scheduler", "list")
    assert code == 0 and check_id in out and "[every 30m]" in out and "shuttle.next" in out and "on" in out
    assert "when len(result.departures) > 0" in out
    assert invoke("scheduler", "pause", check_id)[1].strip() == f"paused {check_id}"
    assert "paused" in invoke("scheduler", "list")[1]
    invoke("scheduler", "resume", check_id)
    make_due(isolated_data_dir, check_id)
    code, out, _ = invoke("scheduler", "run-due")
    assert code == 0 and f"{check_id}  下一班校车  met  下一班 " in out
    assert "nothing was due" in invoke("scheduler", "run-due")[1]
    code, out, _ = invoke("scheduler", "log", check_id)
    assert code == 0 and " ms  met " in out
    assert invoke("scheduler", "remove", check_id)[0] == 0
    assert invoke("scheduler", "log", check_id)[0] == 1


def test_add_refuses_what_cannot_run(isolated_data_dir: Path) -> None:
    code, _, err = invoke("scheduler", "add", "记住", "--every", "1h", "--tool", "memory.remember")
    assert code == 1 and "checks run read tools only" in err
    to = ("--args", '{"to": "昌平校区"}')
    code, _, err = invoke("scheduler", "add", "x", "--cron", "often", "--tool", "shuttle.next", *to)
    assert code == 1 and "is not a schedule" in err
    code, _, err = invoke("scheduler", "add", "x", "--every", "1h", "--tool", "shuttle.next", *to, "--when", "result.(")
    assert code == 1 and "condition does not compile" in err
    assert invoke("scheduler", "add", "x", "--tool", "shuttle.next")[0] == 2  # neither --every nor --cron


def test_install_timer_prints_cron_and_systemd_lines() -> None:
    code, out, _ = invoke("scheduler", "install-timer")
    assert code == 0 and "*/5 * * * * " in out and "scheduler run-due --quiet" in out
    assert "OnCalendar=*:0/5" in out and "Persistent=true" in out


def test_two_run_due_processes_run_a_check_once(isolated_data_dir: Path) -> None:
    check_id = new_check()
    make_due(isolated_data_dir, check_id)
    env = {**os.environ, "PKU_HARNESS_DATA": str(isolated_data_dir)}
    command = [sys.executable, "-m", "tui.cli.main", "scheduler", "run-due"]
    procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=60)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sum(check_id in out for out in outputs) == 1  # one ran it …
    assert sum("nothing was due" in out for out in outputs) == 1  # … the other found it taken or done
    store = Store(isolated_data_dir / "pku-harness.sqlite3")
    runs = store.db.execute("SELECT count(*) FROM schedule_runs WHERE schedule = ?", (check_id,)).fetchone()[0]
    store.close()
    assert runs == 1


def test_log_refuses_a_limit_below_one() -> None:
    check_id = new_check()
    code, _, err = invoke("scheduler", "log", check_id, "--limit", "-1")
    assert code == 2 and "--limit" in err


def test_add_checks_the_tools_input_and_stores_nothing_it_refuses() -> None:
    base = ("scheduler", "add", "校车", "--every", "1h", "--tool", "shuttle.next")
    for args, says in [
        (None, "shuttle.next: input.to is required"),
        ('{"to": "火星"}', "shuttle.next: input.to must be one of 燕园, 昌平校区, 医学部, 万柳"),
        ('{"to": "昌平校区", "count": 99}', "shuttle.next: input.count must be at most 10"),
        ('{"to": "昌平校区", "when": 1}', "shuttle.next: unknown input key 'when'"),
        ('["昌平校区"]', "shuttle.next: the input must be an object"),
    ]:
        code, _, err = invoke(*base, *(("--args", args) if args else ()))
        assert code == 1 and says in err, (args, err)
    assert "no scheduled checks" in invoke("scheduler", "list")[1]


def test_add_refuses_a_template_or_condition_over_names_a_check_does_not_have() -> None:
    base = ("scheduler", "add", "校车", "--every", "1h", "--tool", "shuttle.next", "--args", '{"to": "昌平校区"}')
    code, _, err = invoke(*base, "--message", "下一班 ${reslt.departures}")
    assert code == 1 and "the message uses 'reslt'" in err and "result, previous and now" in err
    code, _, err = invoke(*base, "--when", "departures.length > 0")
    assert code == 1 and "the condition uses 'departures'" in err
    code, _, err = invoke(*base, "--message", "下一班 ${result.(}")
    assert code == 1 and "the message does not compile" in err
    assert "no scheduled checks" in invoke("scheduler", "list")[1]


def test_a_field_the_result_does_not_have_is_left_out_of_the_notice(isolated_data_dir: Path) -> None:
    check_id = new_check("--message", "下一班[${result.nosuch}] 共 ${result.departures.length} 班")
    make_due(isolated_data_dir, check_id)
    code, out, _ = invoke("scheduler", "run-due")
    assert code == 0 and f"{check_id}  下一班校车  met  下一班[] 共 " in out and "null" not in out


def test_the_log_of_a_check_that_has_not_run_says_so(isolated_data_dir: Path) -> None:
    """It printed nothing at all (an outsider's run)."""
    check_id = new_check()
    code, out, _ = invoke("scheduler", "log", check_id)
    assert code == 0 and out.strip() == f"{check_id} has not run yet"
