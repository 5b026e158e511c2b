"""`--origin HOST=URL` on `plugin run` (with `--record`), `tools call` and `widget preview`; PKU_HARNESS_DEV_ORIGINS
and `--with` for the app: against a real loopback server, and every refusal a usage error naming the mapping."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.runtime.local_api import LOCALDEV, local_api, unrecorded_localdev
from tui.cli.main import cli
from tui.runtime.audit import Audit
from tui.runtime.store import Store, default_path


def invoke(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


def test_run_sends_the_declared_host_to_the_local_server_and_says_so(tmp_path: Path) -> None:
    with local_api() as api:
        kv = str(tmp_path / "kv.db")
        code, out, err = invoke(
            "plugin", "run", str(LOCALDEV), "items", '{"q": "笔"}', "--kv-db", kv, "--origin", api.mapping()
        )
    assert code == 0, err
    assert '"本地笔一"' in out and '"api.example.com"' in out  # the server saw the declared host
    warnings = [line for line in err.splitlines() if line.startswith("warning: dev mode")]
    assert warnings == [f"warning: dev mode: requests for declared hosts go to this machine: {api.mapping()}"]
    assert api.seen == [("/items?q=%E7%AC%94", "api.example.com")]


def test_a_recording_made_through_a_mapping_keeps_the_declared_url_and_replays_without_it(tmp_path: Path) -> None:
    folder = unrecorded_localdev(tmp_path / "localdev")
    with local_api() as api:
        code, _, err = invoke(
            "plugin", "run", str(folder), "items", '{"q": "笔"}', "--now", "2026-11-30 09:00",
            "--kv-db", str(tmp_path / "kv.db"), "--record", "tests/items.yaml", "--origin", api.mapping(),
        )  # fmt: skip
    assert code == 0, err
    text = (folder / "tests" / "items.yaml").read_text("utf-8")
    assert "url: https://api.example.com/items?q=%E7%AC%94" in text
    assert "127.0.0.1" not in text
    code, out, err = invoke("plugin", "test", str(folder))  # no server, no mapping: the recording answers
    assert code == 0, out + err
    assert out.strip().endswith("1 passed, 0 failed")


@pytest.mark.parametrize(
    ("mapping", "said"),
    [
        ("other.example.com=http://127.0.0.1:9", "'other.example.com=http://127.0.0.1:9': other.example.com is not in"),
        ("api.example.com=http://10.1.2.3:9", "'api.example.com=http://10.1.2.3:9': the target '10.1.2.3' is not"),
        ("api.example.com=http://example.org", "is not this machine"),
        ("api.example.com", "'api.example.com' is not a mapping like"),
        ("api.example.com=http://127.0.0.1:9/v1", "without a path"),
    ],
)
def test_a_mapping_that_cannot_be_used_is_a_usage_error_naming_it(tmp_path: Path, mapping: str, said: str) -> None:
    kv = str(tmp_path / "kv.db")
    code, out, err = invoke("plugin", "run", str(LOCALDEV), "items", "{}", "--kv-db", kv, "--origin", mapping)
    assert code == 2 and out == ""
    assert said in err and "Invalid value for --origin" in err
    assert "Traceback" not in err
    code, _, err = invoke("tools", "call", "localdev.items", "{}", "--with", str(LOCALDEV), "--origin", mapping)
    assert code == 2 and said in err
    code, _, err = invoke("widget", "preview", str(LOCALDEV), "--origin", mapping)  # refused before the app starts
    assert code == 2 and said in err


def test_tools_call_marks_its_audit_row_and_an_ordinary_call_is_not_marked() -> None:
    with local_api() as api:
        code, out, err = invoke(
            "tools", "call", "localdev.items", '{"q": "x"}', "--with", str(LOCALDEV), "--origin", api.mapping()
        )
        assert code == 0, err
        assert '"本地x一"' in out and "warning: dev mode" in err
        code, out, _ = invoke("tools", "call", "localdev.items", '{"q": "书"}', "--with", str(LOCALDEV), "--demo")
        assert code == 0 and "录制的条目甲" in out  # without the flag: the recording, not the server
    assert len(api.seen) == 1
    store = Store(default_path())
    rows = Audit(store).recent()
    store.close()
    assert [(r.tool, r.dev) for r in rows] == [("localdev.items", ""), ("localdev.items", api.mapping())]
    code, out, _ = invoke("audit")
    assert code == 0 and out.count(f"[dev: {api.mapping()}]") == 1


def test_the_app_refuses_a_bad_variable_and_a_broken_with_folder_before_it_starts(tmp_path: Path) -> None:
    code, _, err = invoke("--demo", env={"PKU_HARNESS_DEV_ORIGINS": "api.example.com=http://8.8.8.8"})
    assert code == 2 and "Invalid value for PKU_HARNESS_DEV_ORIGINS: 'api.example.com=http://8.8.8.8'" in err
    code, _, err = invoke("--demo", env={"PKU_HARNESS_DEV_ORIGINS": "api.example.com=http://127.0.0.1:9"})
    assert code == 2 and "api.example.com is not in the network list of" in err  # no loaded plugin declares it
    broken = tmp_path / "localdev"
    shutil.copytree(LOCALDEV, broken)
    tool = broken / "tools" / "items.yaml"
    tool.write_text(tool.read_text("utf-8").replace("page.items", "page.items +"), "utf-8")
    code, _, err = invoke("--demo", "--with", str(broken))
    assert code == 2 and "Invalid value for --with" in err
    assert f"{broken}/tools/items.yaml:13:43: error:" in err  # as `plugin validate` says it: from where it ran
    code, _, err = invoke("--with", str(LOCALDEV))
    assert code == 2 and "--with works with --demo only" in err
