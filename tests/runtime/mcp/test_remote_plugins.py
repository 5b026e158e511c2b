"""Remote plugins in the app, against a real fastmcp server on loopback (the plugin's `remote.mcp` host mapped by a
dev origin): the install review lists the server's tools; the effects the student chose are the gate's; hints
never weaken; the scheduler runs a remote tool only when the student set it to read; a tool whose description
changed after the install is held until approved; failures and Esc are outcomes, never crashes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.runtime.mcp.remote_plugin import (
    NotesServer,
    install,
    notes_folder,
    open_runtime,
    prepare,
    serve_notes,
)
from tui.runtime.gate import Turn
from tui.runtime.runtime import Runtime

TOOLS = {"lookup", "post", "echo", "fail", "sleep", "count"}


@pytest.fixture
def notes() -> Iterator[NotesServer]:
    yield from serve_notes()


@pytest.fixture
async def rt(tmp_path: Path, notes: NotesServer) -> Runtime:
    runtime = open_runtime(tmp_path / "data" / "db.sqlite3", notes)
    yield runtime  # type: ignore[misc]
    await runtime.remote.close()
    runtime.close()


async def installed(rt: Runtime, tmp_path: Path, **effects: str) -> None:
    prepared = await asyncio.to_thread(prepare, rt, notes_folder(tmp_path / "src"))
    install(rt, prepared, effects)  # type: ignore[arg-type]


async def test_the_install_review_lists_every_tool_of_the_server(rt: Runtime, tmp_path: Path) -> None:
    review = (await asyncio.to_thread(prepare, rt, notes_folder(tmp_path / "src"))).review.remote
    assert review is not None and review.listed
    assert (review.url, review.host, review.auth) == ("https://mcp.example.com/mcp", "mcp.example.com", "none")
    assert {t.name for t in review.tools} == TOOLS
    lookup = next(t for t in review.tools if t.name == "lookup")
    assert (lookup.id, lookup.description, lookup.hints) == (
        "mcp-notes.lookup",
        "Find a note by its words.",
        "read-only",
    )
    # the server's hints are shown, never used: every tool starts at the strongest effect, none at money
    assert {t.effect for t in review.tools} == {"public"} and all(t.status == "new" for t in review.tools)
    assert rt.registry.find("mcp-notes.lookup") is None  # nothing is on before the student says yes


async def test_a_server_that_is_down_gives_a_review_that_says_why(tmp_path: Path) -> None:
    rt = open_runtime(tmp_path / "db.sqlite3", None)  # no mapping: mcp.example.com is looked up for real
    try:
        review = (await asyncio.to_thread(prepare, rt, notes_folder(tmp_path / "src"))).review.remote
    finally:
        rt.close()
    assert review is not None and not review.listed and review.tools == ()
    assert review.state == "error" and review.reason.startswith("cannot connect to mcp.example.com")


async def test_the_effects_chosen_are_the_gates(rt: Runtime, tmp_path: Path) -> None:
    await installed(rt, tmp_path, lookup="read", echo="write")
    assert rt.registry.find("mcp-notes.lookup") is None  # lazy: nothing connects until something needs it
    await rt.remote.ensure_all()
    effects = {t.name: t.effect for t in rt.registry.tools_of("notes")}
    assert effects == {
        "lookup": "read",
        "echo": "write",
        "post": "public",
        "fail": "public",
        "sleep": "public",
        "count": "public",
    }
    tool = rt.registry.find("mcp-notes__lookup")
    assert tool is not None and tool.untrusted and tool.sends and tool.remote == "lookup"

    turn = Turn("s1")
    out = await rt.gate.call("mcp-notes__lookup", {"words": "exam"}, actor="agent", turn=turn)
    assert (out.status, out.result) == ("ok", "note about exam")
    assert out.untrusted and turn.tainted and turn.taint_sources == ["mcp-notes.lookup"]
    assert out.model_text.startswith("[untrusted data from mcp-notes.lookup")
    # public asks (a community plugin), and there is no one to ask here: not run
    posted = await rt.gate.call("mcp-notes.post", {"text": "hi"}, actor="agent", turn=Turn("s2"))
    assert posted.status == "declined"
    rows = rt.audit.recent(2)
    assert [(r.tool, r.effect, r.decision, r.outcome) for r in rows] == [
        ("mcp-notes.post", "public", "ask-declined", "refused"),
        ("mcp-notes.lookup", "read", "run", "ok"),
    ]


async def test_the_scheduler_runs_a_remote_tool_only_when_it_is_read(rt: Runtime, tmp_path: Path) -> None:
    await installed(rt, tmp_path, lookup="read", echo="write")
    read = await rt.gate.call("mcp-notes.lookup", {"words": "x"}, actor="scheduler")  # connects on first need
    assert read.status == "ok"
    for name in ("mcp-notes.echo", "mcp-notes.post"):
        out = await rt.gate.call(name, {"text": "x"}, actor="scheduler")
        assert out.status == "refused" and "read" in out.message
    rt.remote.set_effect("notes", "echo", "read")
    assert (await rt.gate.call("mcp-notes.echo", {"text": "x"}, actor="scheduler")).status == "ok"


async def test_a_changed_description_is_held_until_approved(tmp_path: Path, notes: NotesServer) -> None:
    db = tmp_path / "data" / "db.sqlite3"
    rt = open_runtime(db, notes)
    await installed(rt, tmp_path, lookup="read")
    rt.close()
    notes.restart(v2=True)  # the server changes lookup's description and adds a tool
    rt = open_runtime(db, notes)
    try:
        await rt.remote.ensure_all()
        on = {t.name for t in rt.registry.tools_of("notes")}
        assert on == TOOLS - {"lookup"}
        assert {t.name for t in rt.remote.held("notes")} == {"lookup", "extra"}
        model_names = {s["function"]["name"] for s in rt.gate.model_tools()[0]}
        assert "mcp-notes__lookup" not in model_names and "mcp-notes__echo" in model_names
        held = await rt.gate.call("mcp-notes.lookup", {"words": "x"}, actor="user")
        assert held.status == "refused" and "changed" in held.message and "Plugins → notes" in held.message
        new = await rt.gate.call("mcp-notes.extra", {}, actor="user")
        assert new.status == "refused" and "new tool" in new.message

        review = rt.remote.review("notes")
        status = {t.name: t.status for t in review.tools}
        assert status["lookup"] == "changed" and status["extra"] == "new" and status["echo"] == "approved"
        lookup = next(t for t in review.tools if t.name == "lookup")
        assert (
            "IGNORE PREVIOUS" in lookup.description and lookup.effect == "read" and lookup.approved_effect == "read"
        )  # the picker starts at the student's earlier choice, not back at public
        assert next(t for t in review.tools if t.name == "extra").effect == "public"
        assert rt.remote.approve(review) == ["extra", "lookup"]
        assert (await rt.gate.call("mcp-notes.lookup", {"words": "x"}, actor="user")).status == "ok"
        assert rt.registry.find("mcp-notes.lookup").effect == "read"  # type: ignore[union-attr]
        assert rt.registry.find("mcp-notes.extra").effect == "public"  # type: ignore[union-attr]
    finally:
        await rt.remote.close()
        rt.close()


async def test_a_removed_tool_disappears(tmp_path: Path, notes: NotesServer) -> None:
    db = tmp_path / "data" / "db.sqlite3"
    rt = open_runtime(db, notes)
    await installed(rt, tmp_path)
    rt.remote.approvals.approve("notes", {"gone": ("sha256:old", "read")})  # approved once, no longer listed
    try:
        await rt.remote.ensure_all()
        assert "gone" not in rt.remote.approvals.of("notes") and rt.registry.find("mcp-notes.gone") is None
    finally:
        await rt.remote.close()
        rt.close()


async def test_failures_are_outcomes_with_clear_messages(rt: Runtime, tmp_path: Path, notes: NotesServer) -> None:
    await installed(rt, tmp_path)
    failed = await rt.gate.call("mcp-notes.fail", {"why": "tests"}, actor="user")
    assert failed.status == "error" and failed.message == "mcp-notes.fail failed: failed on purpose: tests"
    assert failed.cause == "service" and failed.taints
    wrong = await rt.gate.call("mcp-notes.count", {"n": 12}, actor="user")
    assert (
        wrong.status == "error"
        and wrong.cause == "input"
        and "the arguments do not fit mcp-notes.count" in wrong.message
    )
    notes.stop()
    down = await rt.gate.call("mcp-notes.echo", {"text": "x"}, actor="user")
    assert down.status == "error" and down.cause == "network" and "mcp.example.com" in down.message
    assert rt.audit.recent(1)[0].outcome == "error"


async def test_esc_cancels_a_remote_call(rt: Runtime, tmp_path: Path) -> None:
    await installed(rt, tmp_path)
    await rt.remote.ensure_all()
    call = asyncio.create_task(rt.gate.call("mcp-notes.sleep", {"seconds": 30}, actor="user"))
    await asyncio.sleep(0.5)
    started = time.process_time()
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert time.process_time() - started < 2
    row = rt.audit.recent(1)[0]
    assert (row.tool, row.outcome) == ("mcp-notes.sleep", "error")
    # the connection is still good for the next call
    assert (await rt.gate.call("mcp-notes.echo", {"text": "又"}, actor="user")).result == "echo: 又"


async def test_a_server_that_was_down_at_install_has_every_tool_waiting(tmp_path: Path, notes: NotesServer) -> None:
    db = tmp_path / "data" / "db.sqlite3"
    rt = open_runtime(db, None)
    prepared = await asyncio.to_thread(prepare, rt, notes_folder(tmp_path / "src"))
    install(rt, prepared)
    rt.map_origins((__import__("tui.runtime.dev_origins", fromlist=["parse"]).parse(notes.mapping),))
    try:
        await rt.remote.ensure_all()
        assert rt.registry.tools_of("notes") == [] and {t.name for t in rt.remote.held("notes")} == TOOLS
        assert rt.remote.state("notes") == ("ready", "")
    finally:
        await rt.remote.close()
        rt.close()


async def test_a_scheduled_check_runs_a_remote_tool_only_when_read(rt: Runtime, tmp_path: Path) -> None:
    from tui.runtime.scheduler.runner import Scheduler

    await installed(rt, tmp_path, lookup="read")  # nothing connected yet: the check connects when it runs
    scheduler = Scheduler(rt, rt.notices)
    read = scheduler.checks.add("笔记", "every 1h", tool="mcp-notes.lookup", args={"words": "考试"})
    public = scheduler.checks.add("发帖", "every 1h", tool="mcp-notes.post", args={"text": "x"})
    assert (await scheduler.run(read)).outcome == "met"
    report = await scheduler.run(public)
    assert report.outcome == "refused" and "read" in report.detail
    assert [(r.tool, r.actor, r.decision) for r in rt.audit.recent(2)] == [
        ("mcp-notes.post", "scheduler", "refuse"),
        ("mcp-notes.lookup", "scheduler", "run"),
    ]


async def test_removing_the_plugin_forgets_its_tools_and_approvals(rt: Runtime, tmp_path: Path) -> None:
    from tui.runtime.plugins.installer import Installer

    await installed(rt, tmp_path, lookup="read")
    await rt.remote.ensure_all()
    assert rt.registry.find("mcp-notes.lookup") is not None and rt.remote.approvals.of("notes")
    Installer(rt).remove("notes")
    assert rt.registry.find("mcp-notes.lookup") is None and rt.remote.approvals.of("notes") == {}
    refused = await rt.gate.call("mcp-notes.lookup", {"words": "x"}, actor="user")
    assert refused.status == "refused" and "no tool" in refused.message


async def test_a_server_that_restarted_gets_a_new_session_and_the_call_is_retried(
    rt: Runtime, tmp_path: Path, notes: NotesServer
) -> None:
    await installed(rt, tmp_path, lookup="read")
    await rt.remote.ensure_all()
    first = await rt.gate.call("mcp-notes.lookup", {"words": "a"}, actor="user")
    assert first.status == "ok"
    notes.restart()  # same port, a new process: it answers 404 to the session the app holds
    again = await rt.gate.call("mcp-notes.lookup", {"words": "b"}, actor="user")
    assert (again.status, again.result) == ("ok", "note about b"), again.message
    assert rt.remote.state("notes") == ("ready", "")
    assert (await rt.gate.call("mcp-notes.lookup", {"words": "c"}, actor="user")).status == "ok"


async def test_a_server_that_restarted_changed_lists_again_and_holds_the_changed_tool(
    rt: Runtime, tmp_path: Path, notes: NotesServer
) -> None:
    await installed(rt, tmp_path, lookup="read")
    await rt.remote.ensure_all()
    assert (await rt.gate.call("mcp-notes.lookup", {"words": "a"}, actor="user")).status == "ok"
    notes.restart(v2=True)  # the new session's listing has lookup changed: its pin is compared again
    held = await rt.gate.call("mcp-notes.lookup", {"words": "b"}, actor="user")
    # it was on when the call began; the new session's listing stops it before it is sent
    assert held.status == "error" and held.cause == "input" and "changed" in held.message, held.message
    assert rt.registry.find("mcp-notes.lookup") is None
    assert {t.name for t in rt.remote.held("notes")} == {"lookup", "extra"}
    assert (await rt.gate.call("mcp-notes.echo", {"text": "x"}, actor="user")).result == "echo: x"


async def test_an_install_the_assistant_started_keeps_the_effects_the_student_chose(
    rt: Runtime, tmp_path: Path
) -> None:
    """`plugins__install` / `draftInstall` end on the same review: what the student picked there for each remote
    tool is what the gate uses (the chat's install used to drop it and keep the preselected `public`)."""
    from tui.runtime.plugins import InstallChoice, InstallReview

    class Student:
        async def review_install(self, review: InstallReview) -> InstallChoice:
            return InstallChoice({"lookup": "read"})

    rt.ui = rt.abilities.ui = Student()  # type: ignore[assignment]
    answer = await rt.install_reviewed(str(notes_folder(tmp_path / "src")))
    assert answer == {"installed": True, "id": "notes", "version": "1.0.0"}
    await rt.remote.ensure_all()
    effects = {t.name: t.effect for t in rt.registry.tools_of("notes")}
    assert effects["lookup"] == "read" and effects["post"] == "public"
