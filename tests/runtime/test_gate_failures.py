"""Every failure of a run is caught, logged and answered (issue 15 item 11).

A campus path with a DEL byte, a campus or public server answering `Location: https:\\x` (which httpx cannot
join), a host that raises something nobody expected: each ends in an error outcome with a clear message and an
audit row, never a traceback out of the gate; and in a chat the model's call always gets its tool message, so the
next request is accepted by a server that (like OpenAI's) refuses a history with an unanswered `tool_call_id`.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.fake_campus import FakeCampus, Seen, _redirect
from tests.runtime.fake_openai import FakeOpenAI, call, calls, history_problem, text
from tests.runtime.plugin_folder import tool, write_plugin
from tui.lang.host import Host, HostError, HttpRequest
from tui.lang.netpolicy import PolicyError, campus_url
from tui.runtime.campus.net import RerouteTransport
from tui.runtime.chat.agent import Agent, AgentEvent
from tui.runtime.chat.client import ModelClient
from tui.runtime.chat.history import ChatHistory
from tui.runtime.chat.providers import ModelConfig
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.gate import ApprovalRequest
from tui.runtime.plugin_host import PluginHost
from tui.runtime.registry import InstalledPlugin
from tui.runtime.runtime import Runtime

BAD_LOCATION = "https:\\\\x"  # the header's text is `https:\\x`
CAMPUS = "campus: [treehole]\nnetwork: [api.example.edu.cn]\nabilities: [browser]\n"
TOOLS = {
    "path": tool(
        "  - request: { campus: treehole, url: '/chapi/api/${input.p}' }\n", inputs="input:\n  p: { type: string }\n"
    ),
    "away": tool("  - request: { campus: treehole, url: /chapi/api/v3/bad }\n"),
    "web": tool("  - request: { url: 'https://api.example.edu.cn/start' }\n"),
    "open": tool("  - ability: browser.open\n    args: \"({url: 'https://www.pku.edu.cn/'})\"\n"),
    "note": tool("  - value: \"'noted'\"\n", effect="write"),
}


class BrokenUi:
    """A person's UI with a bug: opening a URL raises what no caller expects (or waits, for a cancellation)."""

    def __init__(self, message: str = "the UI broke", hang: bool = False) -> None:
        self.message = message
        self.hang = hang
        self.entered = asyncio.Event()

    async def open_url(self, url: str) -> bool:
        self.entered.set()
        if self.hang:
            await asyncio.Event().wait()
        raise RuntimeError(self.message)

    async def open_campus_page(self, service: str) -> bool:
        raise RuntimeError(self.message)

    async def pick_files(self, types: list[str], multiple: bool) -> list[dict[str, Any]] | None:
        raise RuntimeError(self.message)

    async def await_sms_code(self) -> str | None:
        raise RuntimeError(self.message)


class BadRedirectCampus(FakeCampus):
    """The fake campus, with a treehole path that answers a redirect httpx cannot join."""

    def treehole(self, seen: Seen) -> tuple[int, dict[str, str], bytes]:
        if seen.path == "/chapi/api/v3/bad":
            return _redirect(BAD_LOCATION)
        return super().treehole(seen)


@contextmanager
def bad_redirect_server() -> Iterator[str]:
    """A loopback HTTP server that answers every request with `302 Location: https:\\x`."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self.send_response(302)
            self.send_header("Location", BAD_LOCATION)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    return write_plugin(tmp_path / "src", "probe", TOOLS, CAMPUS)


def open_runtime(tmp_path: Path, probe: Path, ui: Any = None) -> Runtime:
    return Runtime.open(tmp_path / "app.sqlite3", extra=[probe], ui=ui)


@pytest.mark.parametrize("bad", ["\x7f", "\x85", "\x9f", "\u202e", "\u200b", "\u2028", "\x00", " "])
def test_campus_paths_refuse_control_and_invisible_characters(bad: str) -> None:
    with pytest.raises(PolicyError, match="control or invisible characters"):
        campus_url("treehole", f"/chapi/api/a{bad}b")
    assert str(campus_url("treehole", "/chapi/api/中文")) == "https://treehole.pku.edu.cn/chapi/api/%E4%B8%AD%E6%96%87"


async def test_a_del_byte_in_a_campus_path_is_an_error_with_an_audit_row(tmp_path: Path, probe: Path) -> None:
    runtime = open_runtime(tmp_path, probe)
    out = await runtime.gate.call("probe.path", {"p": "v3/a\x7fb"}, actor="user")
    assert out.status == "error" and "control or invisible characters" in out.message
    row = runtime.audit.recent(1)[0]
    assert (row.tool, row.outcome) == ("probe.path", "error") and "invisible" in row.detail


async def test_a_campus_server_answering_an_unjoinable_location_is_a_network_error(
    tmp_path: Path, probe: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = BadRedirectCampus()
    with fake.running() as origin:
        monkeypatch.setenv("PKU_HARNESS_CAMPUS_ORIGIN", origin)
        runtime = open_runtime(tmp_path, probe)
        runtime.campus.remember_account("2100012345", "correct horse", remember=True)
        out = await runtime.gate.call("probe.away", {}, actor="user")
    assert fake.count("/chapi/api/v3/bad") == 1  # the request was sent …
    assert out.status == "error" and "the app cannot follow" in out.message, out.message
    row = runtime.audit.recent(1)[0]  # … and the log says so
    assert (row.tool, row.decision, row.outcome) == ("probe.away", "run", "error") and "cannot follow" in row.detail


async def test_a_public_server_answering_an_unjoinable_location_is_a_network_error(tmp_path: Path, probe: Path) -> None:
    async def public(host: str) -> list[str]:
        return ["93.184.216.34"]

    with bad_redirect_server() as origin:
        async with PolicyFetcher(transport=RerouteTransport(origin), resolve=public) as fetcher:
            with pytest.raises(HostError) as caught:
                await fetcher.fetch(HttpRequest("GET", "https://api.example.edu.cn/start"), ("api.example.edu.cn",))
        assert caught.value.kind == "network"

        runtime = open_runtime(tmp_path, probe)

        @asynccontextmanager
        async def hosts(installed: InstalledPlugin) -> AsyncIterator[Host]:
            async with PolicyFetcher(transport=RerouteTransport(origin), resolve=public) as f:
                yield PluginHost("probe", runtime.kv, f, runtime.abilities, runtime.campus, ("treehole",))

        runtime.gate.hosts = hosts
        out = await runtime.gate.call("probe.web", {}, actor="user")
    assert out.status == "error" and "api.example.edu.cn" in out.message
    assert runtime.audit.recent(1)[0].outcome == "error"


async def test_an_unexpected_exception_in_a_run_is_an_error_outcome_logged_and_audited(
    tmp_path: Path, probe: Path, caplog: pytest.LogCaptureFixture
) -> None:
    runtime = open_runtime(tmp_path, probe, BrokenUi("the UI broke near CANARY-5e3a"))
    runtime.secrets.add("CANARY-5e3a")
    with caplog.at_level(logging.ERROR, logger="tui.runtime.gate"):
        out = await runtime.gate.call("probe.open", {}, actor="user")
    assert out.status == "error" and out.message.startswith("internal error in probe.open: RuntimeError: the UI broke")
    assert out.untrusted  # its text may quote what a server sent: it taints a chat like a plugin's error
    row = runtime.audit.recent(1)[0]
    assert (row.tool, row.outcome) == ("probe.open", "error") and row.detail.startswith("internal error in probe.open")
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "Traceback" in record.getMessage() and "open_url" in record.getMessage()  # for developers
    assert all("CANARY-5e3a" not in s for s in (out.message, row.detail, record.getMessage()))


async def test_an_approver_that_fails_still_ends_in_an_answer_and_an_audit_row(tmp_path: Path, probe: Path) -> None:
    class Crashing:
        async def approve(self, request: ApprovalRequest) -> bool:
            raise ValueError("the dialog broke")

    runtime = open_runtime(tmp_path, probe)
    runtime.gate.approver = Crashing()
    out = await runtime.gate.call("probe.note", {}, actor="agent")
    assert out.status == "error" and "ValueError: the dialog broke" in out.message
    assert runtime.audit.recent(1)[0].tool == "probe.note"


class Chat:
    def __init__(self, runtime: Runtime, url: str) -> None:
        self.history = ChatHistory(runtime.store)
        self.client = ModelClient(ModelConfig("custom", url, "any"), "sk-test")

        async def no_sleep(seconds: float) -> None:
            return None

        async def emit(event: AgentEvent) -> None:
            return None

        self.client.sleep = no_sleep
        self.agent = Agent(runtime, self.client, self.history, emit)
        self.cid = self.history.start("test")

    async def send(self, message: str) -> Any:
        try:
            return await self.agent.send(self.cid, message)
        finally:
            await self.client.close()


async def test_a_chat_call_whose_run_raises_is_answered_and_the_next_request_accepted(
    tmp_path: Path, probe: Path
) -> None:
    runtime = open_runtime(tmp_path, probe, BrokenUi())
    fake = FakeOpenAI(calls(call("probe__open")), text("打不开"), text("好的"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("打开主页")
        chat.client = chat.agent.client = ModelClient(chat.client.config, "sk-test")
        again = await chat.send("那算了")
    assert result.answer == "打不开" and again.answer == "好的"
    assert fake.refused == [] and len(fake.requests) == 3
    reply = next(m for m in chat.history.messages(chat.cid) if m["role"] == "tool")
    assert reply["tool_call_id"] == "call_1" and "internal error in probe.open" in reply["content"]
    assert runtime.audit.recent(1)[0].tool == "probe.open"


async def test_a_stopped_call_is_answered_and_audited(tmp_path: Path, probe: Path) -> None:
    """Esc while a tool runs: the call still gets its tool message (and the audit its row) before it stops."""
    ui = BrokenUi(hang=True)
    runtime = open_runtime(tmp_path, probe, ui)
    fake = FakeOpenAI(calls(call("probe__open")), text("好"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        task = asyncio.create_task(chat.agent.send(chat.cid, "打开主页"))
        await asyncio.wait_for(ui.entered.wait(), 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await chat.client.close()
        stored = chat.history.messages(chat.cid)
        assert history_problem(stored) is None and "stopped before it finished" in stored[-1]["content"]
        assert runtime.audit.recent(1)[0].detail == "stopped before it ended"
        chat.client = chat.agent.client = ModelClient(chat.client.config, "sk-test")
        assert (await chat.send("继续")).answer == "好" and fake.refused == []


async def test_a_history_left_with_an_unanswered_call_is_repaired_for_the_model(tmp_path: Path, probe: Path) -> None:
    """A conversation an app killed mid-call left behind (or an older version stored) does not break the chat."""
    runtime = open_runtime(tmp_path, probe)
    fake = FakeOpenAI(text("好的"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        chat.history.append(chat.cid, {"role": "user", "content": "打开主页"})
        chat.history.append(chat.cid, {"role": "assistant", "content": None, "tool_calls": [
            {"id": "lost", "type": "function", "function": {"name": "probe__open", "arguments": "{}"}}]})  # fmt: skip
        result = await chat.send("继续")
    assert result.answer == "好的" and fake.refused == []
    sent = fake.requests[0]["messages"]
    assert [m["role"] for m in sent[1:]] == ["user", "assistant", "tool", "user"]
    assert sent[3]["tool_call_id"] == "lost" and "may or may not have run" in sent[3]["content"]
