"""The assistant's draft tools through the gate, on a real store and real files: draftWrite's diff, draftValidate's
shape (the CLI's), draftTest, and draftRun — refused for a write tool, an undeclared domain, a campus request or
ability, and a path outside the draft; run for real against a loopback server (an author's dev origin, as
`plugin run --origin`). The scheduler is refused every draft tool."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.runtime.local_api import local_api
from tui.cli.main import cli
from tui.runtime.dev_origins import parse
from tui.runtime.gate import CallOutcome, Turn
from tui.runtime.host_drafts import diff_text
from tui.runtime.runtime import Runtime

DRAFT_TOOLS = ("draftWrite", "draftRead", "draftValidate", "draftTest", "draftRun", "draftInstall")

MANIFEST = """---
spec: 1
id: newbooks
name: 新书
description: The newest books of an example library.
version: 1.0.0
author: tests
network: [api.example.com, portal.pku.edu.cn]
campus: [card]
abilities: [otp, crypto]
tools:
  list: tools/list.yaml
  fetchAny: tools/fetch_any.yaml
  post: tools/post.yaml
  balance: tools/balance.yaml
  hash: tools/hash.yaml
  code: tools/code.yaml
  kept: tools/kept.yaml
---
Use newbooks__list for new books.
"""

TOOLS = {
    "tools/list.yaml": """title: 新书
description: New books for a word.
effect: read
input:
  q: { type: string, default: 书 }
steps:
  - let: page
    request: { url: https://api.example.com/items, query: { q: '${input.q}' } }
return: page.items
""",
    "tools/fetch_any.yaml": """title: 任意
description: Any URL.
effect: read
input:
  url: { type: string }
steps:
  - request: { url: '${input.url}' }
""",
    "tools/post.yaml": """title: 发
description: Posts.
effect: write
steps:
  - request: { url: https://api.example.com/items, method: POST, json: { a: 1 } }
""",
    "tools/balance.yaml": """title: 余额
description: Card balance.
effect: read
steps:
  - request: { campus: card, url: /balance }
""",
    "tools/hash.yaml": """title: 哈希
description: A read ability.
effect: read
steps:
  - ability: crypto.sha256
    args: "{ text: 'a' }"
""",
    "tools/code.yaml": """title: 码
description: The mobile token's code.
effect: read
steps:
  - ability: otp.code
    args: "{}"
""",
    "tools/kept.yaml": """title: 存
description: Keeps a value in the KV store and reads it back.
effect: read
steps:
  - kv: get
    key: seen
    let: before
  - kv: set
    key: seen
    value: "'yes'"
return: before
""",
}


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    yield rt
    rt.close()


async def call(rt: Runtime, tool: str, args: dict[str, Any], actor: str = "user") -> CallOutcome:
    return await rt.gate.call(f"plugins__{tool}", args, actor=actor, turn=Turn("s"))  # type: ignore[arg-type]


async def write_all(rt: Runtime, files: dict[str, str]) -> None:
    for path, text in files.items():
        out = await call(rt, "draftWrite", {"draft": "newbooks", "path": path, "content": text})
        assert out.status == "ok", out.message


def test_the_diff_is_unified_and_capped() -> None:
    new = diff_text("PLUGIN.md", None, "a\nb\n")
    assert new.splitlines() == ["--- /dev/null", "+++ b/PLUGIN.md", "@@ -0,0 +1,2 @@", "+a", "+b"]
    changed = diff_text("x.yaml", "a\nb\nc\n", "a\nB\nc\n")
    assert "-b" in changed.splitlines() and "+B" in changed.splitlines()
    big = diff_text("x.yaml", None, "".join(f"line {i}\n" for i in range(2000)))
    assert len(big) < 4200 and big.endswith("more lines") and "line 0" in big


async def test_draft_write_read_and_validate_through_the_gate(runtime: Runtime) -> None:
    asked = await call(runtime, "draftWrite", {"draft": "newbooks", "path": "PLUGIN.md", "content": MANIFEST}, "agent")
    assert asked.status == "declined"  # a write tool: it asks, and nobody is here to say yes
    assert runtime.drafts.all() == []
    first = await call(runtime, "draftWrite", {"draft": "newbooks", "path": "PLUGIN.md", "content": MANIFEST})
    assert first.result["created"] and first.result["diff"].startswith("--- /dev/null")
    second = await call(runtime, "draftWrite", {"draft": "newbooks", "path": "PLUGIN.md", "content": MANIFEST + "x\n"})
    assert not second.result["created"] and second.result["diff"].endswith("+x")
    listed = await call(runtime, "draftRead", {"draft": "newbooks"}, "agent")
    assert listed.result["files"] == [{"path": "PLUGIN.md", "bytes": len((MANIFEST + "x\n").encode())}]
    read = await call(runtime, "draftRead", {"draft": "newbooks", "path": "PLUGIN.md"}, "agent")
    assert read.result["content"] == MANIFEST + "x\n"
    outside = await call(runtime, "draftWrite", {"draft": "newbooks", "path": "../x.md", "content": "x"})
    assert outside.status == "error" and "leaves the plugin folder" in outside.message

    checked = await call(runtime, "draftValidate", {"draft": "newbooks"}, "agent")
    problems = checked.result["problems"]
    assert checked.result["ok"] is False and checked.result["plugin"] == "newbooks"
    assert {"file", "line", "column", "code", "severity", "message", "hint"} == set(problems[0])
    assert any(p["code"] == "FILE_MISSING" and p["file"] == "PLUGIN.md" for p in problems)
    # the same data as `plugin validate --format json` on the draft's folder
    cli_out = CliRunner().invoke(
        cli, ["plugin", "validate", str(runtime.drafts.folder("newbooks")), "--format", "json"]
    )
    assert json.loads(cli_out.stdout) == {k: v for k, v in checked.result.items() if k != "draft"}


async def test_draft_run_refuses_what_a_draft_may_not_do_and_runs_a_read_tool(runtime: Runtime, tmp_path: Path) -> None:
    await write_all(runtime, {"PLUGIN.md": MANIFEST, **TOOLS})
    checked = await call(runtime, "draftValidate", {"draft": "newbooks"}, "agent")
    assert checked.result["ok"], checked.result
    with local_api() as api:
        runtime.map_origins((parse(api.mapping()),))  # the author's dev origin: api.example.com → loopback

        ran = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "list", "input": {"q": "书"}}, "agent")
        assert ran.status == "ok" and ran.untrusted  # a website's answer is third-party text
        assert ran.result["ok"] and ran.result["result"] == ["本地书一", "api.example.com"]
        assert ran.result["requests"] == [
            {"method": "GET", "url": "https://api.example.com/items?q=%E4%B9%A6", "status": 200}
        ]
        assert api.seen == [("/items?q=%E4%B9%A6", "api.example.com")]

        # a write tool: refused before anything is sent
        post = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "post"}, "agent")
        assert post.status == "error" and "a draft runs only read tools" in post.message
        # an undeclared domain, and loopback itself: the normal network policy
        said = {}
        for url in ("https://other.example.org/x", f"{api.origin}/items", "https://127.0.0.1/items"):
            out = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "fetchAny", "input": {"url": url}})
            assert out.status == "ok" and out.result["ok"] is False and out.result["requests"] == []
            said[url] = out.result["error"]
        assert "other.example.org is not declared in the manifest's network list" in said["https://other.example.org/x"]
        assert "only https:// URLs may be requested" in said[f"{api.origin}/items"]
        assert "names an IP address" in said["https://127.0.0.1/items"]
        campus_site = {"url": "https://portal.pku.edu.cn/x"}
        out = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "fetchAny", "input": campus_site})
        assert out.result["ok"] is False and out.result["requests"] == []
        assert "a draft cannot reach the campus site portal.pku.edu.cn" in out.result["error"]  # though declared
        assert len(api.seen) == 1  # nothing else reached the server
        # a campus request, and a campus ability
        out = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "balance"}, "agent")
        assert out.result["ok"] is False and "a draft cannot use campus services (card)" in out.result["error"]
        assert "must be installed" in out.result["error"]
        out = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "code"}, "agent")
        assert out.result["ok"] is False and "cannot use the campus ability otp.code" in out.result["error"]
        # a read ability runs; the KV is a scratch store that keeps nothing between runs
        assert (await call(runtime, "draftRun", {"draft": "newbooks", "tool": "hash"})).result["ok"]
        for _ in range(2):
            kept = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "kept"}, "agent")
            assert kept.result == {**kept.result, "ok": True, "result": None}
        assert runtime.kv.get("newbooks", "seen") is None

    # a path outside the draft: as the draft's id, or named by its manifest, or through a link
    out = await call(runtime, "draftRun", {"draft": "../newbooks", "tool": "list"}, "agent")
    assert out.status == "error" and "draft id '../newbooks' is refused" in out.message
    (tmp_path / "outside.yaml").write_text(TOOLS["tools/list.yaml"], encoding="utf-8")
    await write_all(runtime, {"PLUGIN.md": MANIFEST.replace("tools/list.yaml", "../outside.yaml")})
    out = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "list"}, "agent")
    assert out.status == "error" and "draft newbooks has 1 errors" in out.message
    await write_all(runtime, {"PLUGIN.md": MANIFEST})
    target = runtime.drafts.folder("newbooks") / "tools" / "list.yaml"
    target.unlink()
    target.symlink_to(tmp_path / "outside.yaml")
    out = await call(runtime, "draftRun", {"draft": "newbooks", "tool": "list"}, "agent")
    assert out.status == "error" and "has 1 errors" in out.message
    listed = await call(runtime, "draftValidate", {"draft": "newbooks"}, "agent")
    assert [p["code"] for p in listed.result["problems"]] == ["FILE_SYMLINK"]


async def test_draft_test_runs_the_recorded_cases_or_says_there_are_none(runtime: Runtime) -> None:
    await write_all(runtime, {"PLUGIN.md": MANIFEST, **TOOLS})
    none = await call(runtime, "draftTest", {"draft": "newbooks"}, "agent")
    assert (
        none.result["ok"] is False and none.result["message"] == "draft newbooks has no recorded tests (tests/*.yaml)"
    )
    recorded = """tool: list
cases:
  - name: 书
    input: { q: 书 }
    http:
      - request: { url: 'https://api.example.com/items?q=书' }
        response: { json: { items: [甲, 乙] } }
    expect: [甲, 乙]
  - name: wrong
    input: { q: 书 }
    http:
      - request: { url: 'https://api.example.com/items?q=书' }
        response: { json: { items: [甲] } }
    expect: [乙]
"""
    await write_all(runtime, {"tests/list.yaml": recorded})
    out = await call(runtime, "draftTest", {"draft": "newbooks"}, "agent")
    assert (out.result["ok"], out.result["passed"], out.result["failed"]) == (False, 1, 1)
    assert [(c["name"], c["passed"]) for c in out.result["cases"]] == [("书", True), ("wrong", False)]
    assert out.result["cases"][1]["message"]


async def test_the_scheduler_is_refused_every_draft_tool(runtime: Runtime) -> None:
    runtime.drafts.new("newbooks")
    args = {"draft": "newbooks", "path": "PLUGIN.md", "content": "x", "tool": "list"}
    for name in DRAFT_TOOLS:
        tool = runtime.registry.find(f"plugins.{name}")
        assert tool is not None and tool.attended
        fields = set(tool.input)
        out = await runtime.gate.call(f"plugins.{name}", {k: v for k, v in args.items() if k in fields}, "scheduler")
        assert out.status == "refused" and "scheduled runs may not use it" in out.message, name
        assert runtime.gate.verdict(tool, "scheduler").verdict == "refuse"
    specs, _ = runtime.gate.model_tools(read_only=True)  # a scheduled assistant task is not offered them either
    assert not {s["function"]["name"] for s in specs} & {f"plugins__{n}" for n in DRAFT_TOOLS}
    assert runtime.drafts.read("newbooks", "PLUGIN.md") != "x"
    shown, _ = runtime.gate.model_tools()
    assert {f"plugins__{n}" for n in DRAFT_TOOLS} <= {s["function"]["name"] for s in shown}
