"""帮我写一个显示图书馆新书的插件: a scripted model (the fake OpenAI-compatible server on 127.0.0.1) writes a small
plugin in several draftWrite calls, gets a validation error, fixes it, runs the recorded test and installs the draft
through the install review; then the installed plugin's tool runs through the gate against a loopback server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.runtime.draft_plugin import BROKEN, FIXED, RECORDED, write_call
from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tests.runtime.local_api import local_api
from tests.runtime.test_agent import Card, Chat
from tui.runtime.chat.client import ModelClient
from tui.runtime.dev_origins import parse
from tui.runtime.gate import Approval
from tui.runtime.plugins import InstallReview
from tui.runtime.runtime import Runtime

MANIFEST = """---
spec: 1
id: libnew
name: 图书馆新书
description: The library's newest books.
version: 1.0.0
author: a student
network: [api.example.com]
tools:
  list: tools/list.yaml
---
Use libnew__list when the user asks for the library's new books.
"""


class Student:
    """The person at the app: says yes on the install review, and remembers what it showed."""

    def __init__(self) -> None:
        self.reviews: list[InstallReview] = []

    async def review_install(self, review: InstallReview) -> bool:
        self.reviews.append(review)
        return True


@pytest.fixture
def student() -> Student:
    return Student()


@pytest.fixture
def runtime(tmp_path: Path, student: Student) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3", ui=student)  # type: ignore[arg-type]
    yield rt
    rt.close()


DRAFT = '{"draft": "libnew"}'


async def test_the_assistant_writes_fixes_tests_and_installs_a_plugin(runtime: Runtime, student: Student) -> None:
    runtime.gate.approver = card = Card(Approval(True))  # the student allows each write the assistant asks for
    fake = FakeOpenAI(
        calls(
            write_call("PLUGIN.md", MANIFEST, "w1"),
            write_call("tools/list.yaml", BROKEN, "w2", 1),
            write_call("tests/list.yaml", RECORDED, "w3", 2),
        ),
        calls(call("plugins__draftValidate", DRAFT, id="v1")),
        calls(write_call("tools/list.yaml", FIXED, "w4")),
        calls(call("plugins__draftValidate", DRAFT, id="v2")),
        calls(call("plugins__draftTest", DRAFT, id="t1")),
        calls(call("plugins__draftInstall", DRAFT, id="i1")),
        text("装好了：图书馆新书。"),
    )
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("帮我写一个显示图书馆新书的插件")
    assert result.answer == "装好了：图书馆新书。"
    views = {v.call_id: v for v in result.calls}
    assert all(v.status == "ok" for v in views.values()), [(v.call_id, v.message) for v in views.values()]
    diff = views["w4"].result["diff"].splitlines()
    assert views["w1"].result["created"] and diff[:2] == ["--- a/tools/list.yaml", "+++ b/tools/list.yaml"]
    assert "-    requst: { url: https://api.example.com/items, query: { q: '${input.q}' } }" in diff
    assert "+    request: { url: https://api.example.com/items, query: { q: '${input.q}' } }" in diff
    problems = views["v1"].result["problems"]
    assert views["v1"].result["ok"] is False and problems[0]["file"] == "tools/list.yaml"
    assert problems[0]["line"] == 8 and "request" in (problems[0]["hint"] or "")
    assert views["v2"].result == {"draft": "libnew", "ok": True, "plugin": "libnew", "problems": []}
    assert views["t1"].result["cases"] == [{"file": "tests/list.yaml", "name": "新书", "passed": True, "message": ""}]
    assert views["i1"].result["installed"] is True and views["i1"].result["id"] == "libnew"
    assert "draft is kept" in views["i1"].result["draftKept"]

    # the model saw the validator's problem, as data, in the next request
    sent = next(m for m in fake.requests[2]["messages"] if m.get("tool_call_id") == "v1")
    assert "tools/list.yaml" in sent["content"] and "requst" in sent["content"]
    assert [r.tool.id for r in card.shown] == ["plugins.draftWrite"] * 4 + ["plugins.draftInstall"]
    # the normal review: a community plugin from the draft's folder, with its website
    [review] = student.reviews
    assert review.plugin_id == "libnew" and not review.official
    assert review.source == str(runtime.drafts.folder("libnew"))
    assert runtime.drafts.exists("libnew")  # installing keeps the draft

    installed = runtime.installs.get("libnew")
    assert installed is not None and not installed.official and installed.current.version == "1.0.0"
    with local_api() as api:
        runtime.map_origins((parse(api.mapping()),))
        out = await runtime.gate.call("libnew__list", {"q": "书"}, actor="user")
    assert out.status == "ok" and out.result == ["本地书一", "api.example.com"]
    assert runtime.audit.recent(1)[0].tool == "libnew.list"


async def test_installing_an_installed_draft_again_takes_the_edit_as_its_update(
    runtime: Runtime, student: Student
) -> None:
    runtime.gate.approver = Card(Approval(True))
    for path, content in (("PLUGIN.md", MANIFEST), ("tools/list.yaml", FIXED), ("tests/list.yaml", RECORDED)):
        runtime.drafts.write("libnew", path, content)
    first = await runtime.gate.call("plugins__draftInstall", {"draft": "libnew"}, actor="user")
    assert first.status == "ok" and first.result["installed"] is True
    runtime.drafts.write("libnew", "tools/list.yaml", FIXED.replace("New books for a word.", "Newest books."))
    again = await runtime.gate.call("plugins__draftInstall", {"draft": "libnew"}, actor="user")
    assert again.status == "ok", again.message
    assert (again.result["installed"], again.result["updated"], again.result["status"]) == (True, True, "applied")
    assert len(student.reviews) == 1  # the same scope: applied without a second review, as updates are
    assert runtime.registry.find("libnew.list").description == "Newest books."  # type: ignore[union-attr]


async def test_the_assistant_is_told_when_the_student_installs_a_draft_without_it(runtime: Runtime) -> None:
    """The student pressed 安装 in the draft panel (not through the assistant): the next turn's system prompt says
    the draft is installed (the assistant had gone on saying "say 安装 to install it")."""
    for path, content in (("PLUGIN.md", MANIFEST), ("tools/list.yaml", FIXED), ("tests/list.yaml", RECORDED)):
        runtime.drafts.write("libnew", path, content)
    fake = FakeOpenAI(text("草稿写好了，说「安装」就装上。"), text("已经装好了。"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        await chat.send("写好了吗？")
        await runtime.install_reviewed(str(runtime.drafts.folder("libnew")))  # what the panel's 安装 runs
        chat.client = chat.agent.client = ModelClient(chat.client.config, "sk-test")  # send() closed the first
        await chat.send("能用了吗？")
    before, after = (r["messages"][0]["content"] for r in fake.requests)
    assert "# Plugin drafts" in before and "- libnew: 3 files, not installed" in before
    assert "- libnew: 3 files, installed as plugin libnew 1.0.0" in after
