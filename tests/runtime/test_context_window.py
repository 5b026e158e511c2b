"""Long conversations fit the model's context window: a 300-turn chat's requests stay under the preset's window,
old tool results become stubs, the oldest turns a summary (said to the student once), `max_tokens` is sent,
and with 60 plugins installed the tools offered are the relevant ones. Against the fake server, through the
real agent, gate and store."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tests.runtime.plugin_folder import write_plugin
from tui.runtime.chat.agent import Agent, AgentEvent
from tui.runtime.chat.client import ModelClient
from tui.runtime.chat.context_window import estimate_tokens, fit, message_tokens, tools_tokens
from tui.runtime.chat.history import ChatHistory
from tui.runtime.chat.providers import ModelConfig, configured_in, model_config, save_config
from tui.runtime.chat.tool_selection import MAX_OFFERED, pieces
from tui.runtime.runtime import DEMO_NOW, Runtime

BIG = "教室 201 空闲，容量 120 人，第三节到第五节。" * 60  # ~1.6k tokens a result


def request_tokens(body: dict[str, Any]) -> int:
    """The request as the app estimates it (the same estimate the fit uses, applied to what was sent)."""
    return sum(message_tokens(m) for m in body["messages"]) + tools_tokens(body.get("tools") or [])


def stored_turn(i: int) -> list[dict[str, Any]]:
    """One turn as the agent stores it: the question, a tool call with its result every third turn, the answer."""
    out: list[dict[str, Any]] = [{"role": "user", "content": f"问题 {i}：二教今天有哪些空教室?"}]
    if i % 3 == 0:
        out += [
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": "classrooms__free", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": BIG[:400],
             "_ui": {"tool": "classrooms.free", "status": "ok"}},
        ]  # fmt: skip
    return [*out, {"role": "assistant", "content": f"回答 {i}：" + "二教 201 空闲。" * 10}]


async def test_a_300_turn_conversation_stays_under_the_window(tmp_path: Path) -> None:
    """297 turns stored, then three more through the agent (one with a tool call) against the smallest preset."""
    rt = Runtime.open(tmp_path / "db.sqlite3", demo=True)
    history = ChatHistory(rt.store)
    cid = history.start("q")
    for i in range(297):
        for m in stored_turn(i):
            history.append(cid, m)
    said: list[AgentEvent] = []

    async def emit(e: AgentEvent) -> None:
        said.append(e)

    fake = FakeOpenAI(calls(call("classrooms__free", '{"building": "二教"}')), text("二教 201。"), text("好。"),
                      text("好的。"))  # fmt: skip
    with fake.serve() as url:
        config = model_config("ollama", url, "any")  # 4,096 tokens: the smallest preset
        client = ModelClient(config, None)
        agent = Agent(rt, client, history, emit)
        agent.now = DEMO_NOW
        for i in range(297, 300):
            result = await agent.send(cid, f"问题 {i}：二教今天有哪些空教室?")
            assert result.error is None, result.error
        await client.close()
    assert len(fake.requests) == 4
    sizes = [request_tokens(r) for r in fake.requests]
    assert max(sizes) < config.window - config.answer_tokens, sizes  # room left for the answer
    assert all(r["max_tokens"] == 1_024 for r in fake.requests)
    last = fake.requests[-1]["messages"]
    # The oldest turns are a summary in the system prompt; the last question is sent whole.
    assert "earlier turns of this conversation are not included" in last[0]["content"]
    assert "问题 299：二教今天有哪些空教室?" in [m.get("content") for m in last]
    assert "问题 0：" not in json.dumps(last, ensure_ascii=False)
    context = [e for e in said if e.kind == "context"]
    assert context and context[-1].turns > 280 and "问题 2" in context[-1].text


def test_turns_are_left_out_a_few_at_a_time() -> None:
    """What is left out moves in steps of five turns as the conversation grows: the chat's note (said when more
    is left out than before) and the start of what a provider caches change every few turns, not at every one.
    A result that turns old becomes a stub, which may bring back one step for a turn."""
    stored: list[dict[str, Any]] = []
    counts = []
    for i in range(120):
        stored += stored_turn(i)
        counts.append(fit("system", [], stored, window=4_096, answer=1_024).left_out)
    new_highs = [c for i, c in enumerate(counts) if c > max(counts[:i], default=0)]
    assert counts[-1] > 90 and all(c % 5 == 0 for c in counts) and len(new_highs) < 120 / 4
    assert all(b >= a - 5 for a, b in itertools.pairwise(counts))


def test_old_tool_results_become_stubs_before_turns_are_left_out(tmp_path: Path) -> None:
    stored: list[dict[str, Any]] = []
    for i in range(8):
        stored += [
            {"role": "user", "content": f"问题 {i}"},
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": "classrooms__free", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": BIG,
             "_ui": {"tool": "classrooms.free", "status": "ok", "taint": "notices.latest"}},
            {"role": "assistant", "content": f"回答 {i}"},
        ]  # fmt: skip
    whole = sum(message_tokens(m) for m in stored)
    fitted = fit("system", [], stored, window=whole // 2 + 2_000, answer=1_000)
    assert fitted.left_out == 0 and fitted.stubbed >= 1  # stubs were enough
    stubs = [m for m in fitted.messages if m.get("role") == "tool" and m["content"].startswith("[result of")]
    assert stubs and stubs[0]["content"].startswith("[result of classrooms__free, ")
    assert stubs[0]["content"].endswith("KB, kept in the UI]")
    assert "taint" not in stubs[0]["_ui"]  # not sent any more: no longer taints the conversation
    # The last KEEP_TURNS turns keep their results whole.
    assert [m["content"] for m in fitted.messages if m.get("role") == "tool"][-4:] == [BIG] * 4
    assert fitted.tokens <= (whole // 2 + 2_000) * 0.92 - 1_000


def test_the_estimate_errs_high_for_chinese_and_english() -> None:
    assert estimate_tokens("二教今天有哪些空教室") == 10
    assert estimate_tokens("which rooms are free") == 5  # 20 characters


def topic_tool(topic: str, k: int) -> str:
    return (f"title: {topic}{k}\nsummary: 查{topic}的信息\ndescription: Look up {topic} ({k}).\neffect: read\n"
            "steps:\n  - value: \"'ok'\"\n")  # fmt: skip


@pytest.fixture
def sixty(tmp_path: Path) -> list[Path]:
    """60 community plugins of two tools each about unrelated things, and one about lost property (失物招领)."""
    topics = [
        "天气预报",
        "图书借阅",
        "体育场馆",
        "快递取件",
        "洗衣机",
        "打印店",
        "校医院",
        "讲座报名",
        "社团活动",
        "租借雨伞",
    ]
    folders = [
        write_plugin(tmp_path / "src", f"p{i}", {f"t{k}": topic_tool(topics[i % len(topics)], k) for k in range(2)})
        for i in range(60)
    ]
    folders.append(write_plugin(tmp_path / "src", "lost", {"t0": topic_tool("失物招领", 0)}))
    return folders


async def test_with_60_plugins_the_relevant_tools_are_offered(tmp_path: Path, sixty: list[Path]) -> None:
    rt = Runtime.open(tmp_path / "db.sqlite3", extra=sixty, demo=True)
    assert len(rt.registry.tools()) > 100
    fake = FakeOpenAI(
        calls(call("plugins__tools", '{"query": "失物"}')),
        calls(call("lost__t0", "{}", id="c2")),
        text("找到了。"),
        text("还有别的吗？"),
    )
    with fake.serve() as url:
        client = ModelClient(ModelConfig("openai", url, "any"), None)

        async def quiet(e: AgentEvent) -> None:
            pass

        agent = Agent(rt, client, ChatHistory(rt.store), quiet)
        cid = agent.history.start("x")
        await agent.send(cid, "我的伞丢了，有失物招领吗？")
        await agent.send(cid, "谢谢，还有吗？")
        await client.close()
    first = [t["function"]["name"] for t in fake.requests[0]["tools"]]
    assert len(first) <= MAX_OFFERED and "plugins__tools" in first
    assert "lost__t0" in first  # 失物招领 matches the question
    # Found through plugins__tools: offered from then on; used: still offered in the next turn.
    assert "lost__t0" in [t["function"]["name"] for t in fake.requests[3]["tools"]]
    found = json.loads(fake.requests[1]["messages"][-1]["content"])
    assert found["tools"][0]["name"] == "lost__t0"


def test_pieces_split_chinese_into_pairs_and_drop_common_words() -> None:
    assert {"二教", "空教", "教室"} <= pieces("二教今天有哪些空教室")
    assert "什么" not in pieces("有什么") and "balance" in pieces("card balance")


def test_the_student_sets_the_window_and_the_answer_limit(tmp_path: Path) -> None:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    config = save_config(rt.store, "ollama", context_window=8_192, max_tokens=2_000)
    assert (config.window, config.answer_tokens) == (8_192, 2_000)
    with pytest.raises(ValueError, match="1024|1,024"):
        model_config("ollama", context_window=500)
    with pytest.raises(ValueError, match="half"):
        model_config("ollama", max_tokens=3_000)  # more than half of 4,096
    rt.store.close()
    assert configured_in(tmp_path / "db.sqlite3") == {
        "provider": "ollama", "base_url": "http://127.0.0.1:11434/v1", "model": "qwen2.5",
        "context_window": 8_192, "max_tokens": 2_000,
    }  # fmt: skip
    assert configured_in(tmp_path / "none.sqlite3") is None
