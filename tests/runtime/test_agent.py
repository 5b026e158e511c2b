"""The agent loop against a fake OpenAI-compatible server on 127.0.0.1, with the demo runtime's real tools:
each case asserts what the server received (every tool_call_id answered, reasoning sent back) and what the
student sees (events, history)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tui.runtime.chat.agent import MAX_ROUNDS, Agent, AgentEvent
from tui.runtime.chat.client import ModelClient
from tui.runtime.chat.history import ChatHistory
from tui.runtime.chat.providers import ModelConfig
from tui.runtime.gate import Approval, ApprovalRequest
from tui.runtime.runtime import DEMO_NOW, Runtime

FREE = '{"building": "二教"}'


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3", demo=True)
    yield rt
    rt.close()


class Chat:
    """An agent wired to a fake server; `events` is what the chat pane would have been shown."""

    def __init__(self, runtime: Runtime, base_url: str, provider: str = "custom") -> None:
        self.events: list[AgentEvent] = []
        self.waits: list[float] = []
        self.history = ChatHistory(runtime.store)
        self.client = ModelClient(ModelConfig(provider, base_url, "any"), "sk-test")

        async def no_sleep(seconds: float) -> None:
            self.waits.append(seconds)

        self.client.sleep = no_sleep

        async def emit(event: AgentEvent) -> None:
            self.events.append(event)

        self.agent = Agent(runtime, self.client, self.history, emit)
        self.agent.now = DEMO_NOW
        self.cid = self.history.start("test")

    async def send(self, message: str) -> Any:
        try:
            return await self.agent.send(self.cid, message)
        finally:
            await self.client.close()

    def kinds(self, kind: str) -> list[AgentEvent]:
        return [e for e in self.events if e.kind == kind]


def answered(request: dict[str, Any]) -> bool:
    """Every tool call in the request's history has its tool message."""
    asked = {c["id"] for m in request["messages"] if m["role"] == "assistant" for c in m.get("tool_calls") or []}
    replied = {m["tool_call_id"] for m in request["messages"] if m["role"] == "tool"}
    return asked == replied


async def test_a_plain_answer_streams_and_is_stored(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        text("你好，", "我是助手。", usage={"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
    )
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("你好")
    assert result.answer == "你好，我是助手。" and [e.text for e in chat.kinds("text")] == ["你好，", "我是助手。"]
    assert result.usage.total == 15
    sent = fake.requests[0]
    assert (
        sent["model"] == "any"
        and sent["stream"] is True
        and sent["messages"][-1] == {"role": "user", "content": "你好"}
    )
    assert "classrooms__free" in {t["function"]["name"] for t in sent["tools"]}
    assert "classrooms__free" in sent["messages"][0]["content"]  # each plugin's instructions are in the system prompt
    assert fake.headers[0]["authorization"] == "Bearer sk-test"
    assert [m["role"] for m in chat.history.messages(chat.cid)] == ["user", "assistant"]


async def test_one_tool_call_runs_through_the_gate_and_is_answered(runtime: Runtime) -> None:
    fake = FakeOpenAI(calls(call("classrooms__free", FREE)), text("二教有 201 和 202。"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("二教今天有哪些空教室?")
    assert result.answer == "二教有 201 和 202。"
    [view] = result.calls
    assert (view.tool_id, view.status, view.arguments) == ("classrooms.free", "ok", {"building": "二教"})
    assert [r["room"] for r in view.result["buildings"][0]["rooms"]] == ["201", "202"]
    second = fake.requests[1]
    assert answered(second)
    tool_message = next(m for m in second["messages"] if m["role"] == "tool")
    assert "_ui" not in tool_message and '"201"' in tool_message["content"]
    assert runtime.audit.recent(5)[0].actor == "agent"  # it went through the gate as the agent


STREAM_SHAPES = {
    "empty then braces": [
        call("classrooms__free", ""),
        {"tool_calls": [{"index": 0, "function": {"arguments": FREE}}]},
    ],
    "arguments first": [
        {"tool_calls": [{"index": 0, "function": {"arguments": FREE}}]},
        {"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "classrooms__free"}}]},
    ],
    "id and name in every chunk": [call("classrooms__free", '{"building":'), call("classrooms__free", ' "二教"}')],
    "null arguments": [
        {
            "tool_calls": [
                {
                    "index": 0,
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "canteen__openNow", "arguments": None},
                }
            ]
        }
    ],
    "integer ids": [call("classrooms__free", FREE, id=7)],
}


@pytest.mark.parametrize("shape", list(STREAM_SHAPES))
async def test_streamed_tool_call_shapes(runtime: Runtime, shape: str) -> None:
    fake = FakeOpenAI(calls(*STREAM_SHAPES[shape]), text("好"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("查")
    assert [c.status for c in result.calls] == ["ok"], result.calls
    assert answered(fake.requests[1])


async def test_parallel_calls_by_index_and_with_index_zero_reused(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        calls(call("classrooms__free", FREE, id="a", index=0), call("canteen__openNow", "{}", id="b", index=1)),
        text("两个都查了"),
        calls(call("classrooms__free", FREE, id="c", index=0), call("canteen__openNow", "{}", id="d", index=0)),
        text("又查了"),
    )
    with fake.serve() as url:
        chat = Chat(runtime, url)
        first = await chat.send("查两个")
        chat.client = chat.agent.client = ModelClient(chat.client.config, "sk-test")
        second = await chat.send("再查")
    assert [c.tool_id for c in first.calls] == ["classrooms.free", "canteen.openNow"]
    assert [c.tool_id for c in second.calls] == ["classrooms.free", "canteen.openNow"]
    assert answered(fake.requests[1]) and answered(fake.requests[3])


async def test_broken_json_arguments_are_an_error_to_the_model_and_never_run(runtime: Runtime) -> None:
    fake = FakeOpenAI(calls(call("classrooms__free", '{"building": ')), text("抱歉"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("查")
    [view] = result.calls
    assert view.status == "error" and "not valid JSON" in view.message
    tool_message = next(m for m in fake.requests[1]["messages"] if m["role"] == "tool")
    assert "was not run" in json.loads(tool_message["content"])["error"]
    assert runtime.audit.recent(5) == []  # nothing reached the gate


async def test_reasoning_is_sent_back_for_deepseek(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        calls({"reasoning_content": "先查二教。"}, call("classrooms__free", FREE)),
        text("好了"),
    )
    with fake.serve() as url:
        chat = Chat(runtime, url, provider="deepseek")
        await chat.send("查")
    assistant = next(m for m in fake.requests[1]["messages"] if m["role"] == "assistant")
    assert assistant["reasoning_content"] == "先查二教。"
    assert [e.text for e in chat.kinds("reasoning")] == ["先查二教。"]


async def test_a_tool_call_ending_with_finish_stop_still_runs(runtime: Runtime) -> None:
    fake = FakeOpenAI(calls(call("canteen__openNow"), finish="stop"), text("下一班 17:10"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("校车")
    assert [c.status for c in result.calls] == ["ok"] and result.answer == "下一班 17:10"


async def test_429_waits_for_retry_after_and_500_is_retried(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        {"status": 429, "headers": {"Retry-After": "3"}},
        {"status": 500},
        text("终于"),
    )
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("hi")
    assert result.answer == "终于" and len(fake.requests) == 3
    assert [e.seconds for e in chat.kinds("wait")][:4] == [3.0, 2.0, 1.0, 0.0]  # the countdown the pane shows
    assert sum(chat.waits) == 3.0 + 1.0


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ({"status": 402, "body": {"error": {"message": "Insufficient Balance"}}}, "balance"),
        ({"status": 401}, "auth"),
        ({"status": 404}, "model"),
        ({"status": 429, "headers": {"Retry-After": "600"}}, "rate"),  # too long to wait by itself: shown
        (
            {"chunks": [{"content": "半"}, {"content": "句"}, {"content": "话"}], "finish": "stop", "drop_after": 2},
            "dropped",
        ),
    ],
)
async def test_errors_are_mapped_for_the_student(runtime: Runtime, answer: dict[str, Any], kind: str) -> None:
    fake = FakeOpenAI(answer)
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("hi")
    assert result.error is not None and result.error.kind == kind, result.error
    assert chat.kinds("error")[0].error is result.error


async def test_a_stream_without_done_still_answers(runtime: Runtime) -> None:
    fake = FakeOpenAI({**text("没有", "结束标记"), "done": False})
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("hi")
    assert result.answer == "没有结束标记" and result.error is None


async def test_ask_without_a_person_is_declined_and_answered(runtime: Runtime) -> None:
    fake = FakeOpenAI(calls(call("memory__remember", '{"text": "我住在 45 楼"}')), text("没能记住"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        result = await chat.send("记住我住 45 楼")
    [view] = result.calls
    assert view.status == "declined" and "no one is there to approve it" in view.message
    assert answered(fake.requests[1])


class Card:
    """An approver that answers like the approval card, and remembers what it was shown."""

    def __init__(self, answer: Approval) -> None:
        self.answer = answer
        self.shown: list[ApprovalRequest] = []

    async def approve(self, request: ApprovalRequest) -> Approval:
        self.shown.append(request)
        return self.answer


async def test_always_writes_the_mode_and_a_reason_reaches_the_model(runtime: Runtime) -> None:
    runtime.gate.approver = card = Card(Approval(True, always=True))
    fake = FakeOpenAI(calls(call("memory__remember", '{"text": "45 楼"}')), text("记住了"))
    with fake.serve() as url:
        await Chat(runtime, url).send("记住")
    assert card.shown[0].tool.id == "memory.remember" and card.shown[0].arguments == {"text": "45 楼"}
    assert runtime.grants.mode("memory", "write", True, None) == "allow"
    runtime.gate.approver = Card(Approval(False, reason="不要记这个"))
    runtime.grants.set("memory", "write", "ask")
    fake = FakeOpenAI(calls(call("memory__remember", '{"text": "x"}')), text("好的"))
    with fake.serve() as url:
        result = await Chat(runtime, url).send("记住")
    assert "不要记这个" in result.calls[0].message and "do not try this call again" in result.calls[0].message
    assert "不要记这个" in next(m for m in fake.requests[1]["messages"] if m["role"] == "tool")["content"]


async def test_deny_hides_the_tool_and_a_tainted_turn_asks_even_when_allowed(runtime: Runtime) -> None:
    runtime.grants.set("memory", "write", "allow")
    runtime.grants.set("campus-events", "read", "deny")
    runtime.gate.approver = card = Card(Approval(False))
    fake = FakeOpenAI(
        calls(call("notices__latest", "{}")),  # untrusted third-party text enters the turn …
        calls(call("memory__remember", '{"text": "通知里说的"}', id="call_2")),  # … so this write asks
        text("没有记"),
    )
    with fake.serve() as url:
        result = await Chat(runtime, url).send("看通知并记下来")
    assert "campus-events__events" not in {t["function"]["name"] for t in fake.requests[0]["tools"]}
    assert [c.status for c in result.calls] == ["ok", "declined"]
    assert "third-party text" in card.shown[0].reason and "notices.latest" in card.shown[0].reason
    untrusted = next(m for m in fake.requests[1]["messages"] if m["role"] == "tool")["content"]
    assert untrusted.startswith("[untrusted data from notices.latest")


async def test_tool_rounds_are_capped(runtime: Runtime) -> None:
    fake = FakeOpenAI(*[calls(call("canteen__openNow", "{}", id=f"c{i}")) for i in range(MAX_ROUNDS)])
    with fake.serve() as url:
        result = await Chat(runtime, url).send("一直查")
    assert len(fake.requests) == MAX_ROUNDS and result.error is not None and "rounds" in str(result.error)
    assert answered(fake.requests[-1])


async def test_non_streaming_providers_get_tools_without_stream(runtime: Runtime) -> None:
    fake = FakeOpenAI(calls(call("canteen__openNow")), text("17:10"))
    with fake.serve() as url:
        chat = Chat(runtime, url, provider="llamacpp")
        result = await chat.send("校车")
    assert fake.requests[0]["stream"] is False and result.answer == "17:10" and result.calls[0].status == "ok"


async def test_history_lists_exports_and_deletes(runtime: Runtime) -> None:
    fake = FakeOpenAI(calls(call("classrooms__free", FREE)), text("二教有 201。"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        await chat.send("二教空教室")
    [conversation] = chat.history.conversations()
    assert conversation.id == chat.cid and conversation.title == "test"
    markdown = chat.history.export_markdown(chat.cid)
    assert markdown.startswith("# test\n") and "**You:** 二教空教室" in markdown
    assert "tool `classrooms__free`" in markdown and "**Assistant:** 二教有 201。" in markdown and '"201"' in markdown
    chat.history.delete(chat.cid)
    assert chat.history.conversations() == [] and chat.history.messages(chat.cid) == []


async def test_what_says_the_answer_ended_comes_after_it_is_stored(runtime: Runtime) -> None:
    """The usage line and `done` are the screen's marks that an answer ended: by then it is in the history."""
    fake = FakeOpenAI(text("好了", usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        stored_when: dict[str, list[str]] = {}

        async def emit(event: AgentEvent) -> None:
            stored_when[event.kind] = [str(m.get("content")) for m in chat.history.messages(chat.cid)]

        chat.agent.emit = emit
        await chat.send("你好")
    assert stored_when["text"] == ["你好"]  # shown while it streams, before it can be stored
    assert stored_when["usage"] == stored_when["done"] == ["你好", "好了"]


async def test_a_long_history_is_sent_as_given_without_the_sdks_walk(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SDK walks `messages` and `tools` against its TypedDicts before sending (a no-op for these types that
    cost ~60 ms a request at turn 200); the client sends them through `extra_body`, byte for byte as stored."""
    from openai._utils import _transform

    walked = 0
    real = _transform._async_transform_recursive

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal walked
        walked += 1
        return await real(*args, **kwargs)

    monkeypatch.setattr(_transform, "_async_transform_recursive", counted)
    fake = FakeOpenAI(text("好。"))
    with fake.serve() as url:
        chat = Chat(runtime, url)
        for i in range(200):
            chat.history.append(chat.cid, {"role": "user", "content": f"问题 {i}"})
            chat.history.append(chat.cid, {"role": "assistant", "content": f"回答 {i}"})
        result = await chat.send("最后一个问题")
    [request] = fake.requests
    assert result.answer == "好。" and len(request["messages"]) == 402 and request["tools"]
    assert request["messages"][-3:] == [
        {"role": "user", "content": "问题 199"},
        {"role": "assistant", "content": "回答 199"},
        {"role": "user", "content": "最后一个问题"},
    ]
    assert walked < 40, walked  # the few top-level fields; the history alone is thousands of calls
