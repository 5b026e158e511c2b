"""A recording replays exactly what the live run read (an outsider plugin author: a test made by `--record` failed
the moment it was replayed, or crashed). The server's JSON holds what JavaScript reads one way and Python another: a
lone surrogate (the replay crashed with UnicodeEncodeError), an integer past 2**53 (the test said "expected
9007199254740992, got 9007199254740992"), -0 (the recording wrote 0) and 1E400 (Infinity, recorded as YAML `.inf`
and read back as the text ".inf")."""

from __future__ import annotations

import json
from pathlib import Path

from tests.runtime.local_api import local_api, unrecorded_localdev
from tests.test_cli_dev_origins import invoke

TOOL = """title: Odd numbers
description: Reads the example API's odd JSON.
effect: read
steps:
  - let: r
    request: { url: https://api.example.com/odd }
return: "{ s: r.s, id: r.id, inv: str(1 / r.nz), big: r.big, same: r.id == 12345678901234567890 }"
"""


def test_a_recording_of_odd_json_replays_what_the_live_run_read(tmp_path: Path) -> None:
    folder = unrecorded_localdev(tmp_path / "localdev")
    (folder / "tools" / "odd.yaml").write_text(TOOL, "utf-8")
    manifest = folder / "PLUGIN.md"
    manifest.write_text(
        manifest.read_text("utf-8").replace(
            "  items: tools/items.yaml\n", "  items: tools/items.yaml\n  odd: tools/odd.yaml\n"
        ),
        "utf-8",
    )
    with local_api() as api:
        code, live, err = invoke(
            "plugin", "run", str(folder), "odd", "{}", "--now", "2026-11-30 09:00",
            "--kv-db", str(tmp_path / "kv.db"), "--record", "tests/odd.yaml", "--origin", api.mapping(),
        )  # fmt: skip
    assert code == 0, err
    want = {"s": "a\ufffdb", "id": 12345678901234567000, "inv": "-Infinity", "big": None, "same": True}
    assert json.loads(live) == want  # as JavaScript reads it (the lone half leaves the run as U+FFFD)
    code, out, err = invoke("plugin", "test", str(folder))  # no server: the recording answers
    assert code == 0, out + err
    assert out.strip().endswith("1 passed, 0 failed"), out
    code, replayed, err = invoke("tools", "call", "--demo", "--with", str(folder), "localdev.odd", "{}")
    assert code == 0, err
    assert json.loads(replayed) == want
