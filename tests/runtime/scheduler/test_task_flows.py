"""Scheduled assistant tasks may not pass text the model wrote into another plugin's network request (issue 15
item 17a), through the real runner, task runner, Agent and gate against the scripted model server; the plugins'
requests are answered from their recordings (`--demo`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tests.runtime.plugin_folder import tool, write_plugin
from tui.runtime.chat.client import ModelClient
from tui.runtime.chat.providers import ModelConfig
from tui.runtime.runtime import Runtime
from tui.runtime.scheduler.checks import Checks
from tui.runtime.scheduler.runner import Scheduler
from tui.runtime.scheduler.tasks import task_runner

T0 = 1_796_053_800_000
MARKS = {
    "scores": tool("  - value: \"({courses: [{name: '高等数学', grade: '92'}], gpa: 3.71})\"\n"),
    "lookup": tool(
        "  - request: { url: 'https://marks.example.edu.cn/course', query: { name: '${input.name}' } }\n",
        inputs="input:\n  name: { type: string }\n",
    ),
}
SEARCH = {
    "web": tool(
        "  - request: { url: 'https://search.example.com/s', query: { q: '${input.q}', n: '${input.n}' } }\n",
        inputs="input:\n  q: { type: string }\n  n: { type: integer, default: 10 }\n",
    ),
    "format": tool("  - value: \"'«' + input.text + '»'\"\n", inputs="input:\n  text: { type: string }\n"),
}


def recording(name: str, url: str, inputs: str) -> str:
    return (
        f"tool: {name}\ncases:\n  - name: recorded\n    input: {inputs}\n    http:\n"
        f"      - request: {{ url: '{url}' }}\n        response: {{ status: 200, json: {{ ok: true }} }}\n"
        "    expect: { ok: true }\n"
    )


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    src = tmp_path / "src"
    marks = write_plugin(src, "marks", MARKS, "network: [marks.example.edu.cn]\n",
                         {"lookup": recording("lookup", "https://marks.example.edu.cn/course?name=高等数学",
                                              "{ name: 高等数学 }")})  # fmt: skip
    search = write_plugin(src, "search", SEARCH, "network: [search.example.com]\n",
                          {"web": recording("web", "https://search.example.com/s?q=北大食堂&n=10",
                                            "{ q: 北大食堂 }")})  # fmt: skip
    rt = Runtime.open(tmp_path / "app.sqlite3", extra=[marks, search], demo=True)
    yield rt
    rt.close()


async def run_task(runtime: Runtime, fake: FakeOpenAI, prompt: str) -> tuple[str, str]:
    """Create the task, let its time come, run the due round; the run's outcome and its run-log detail."""
    check = Checks(runtime.store).add("成绩提醒", "30 7 * * *", prompt=prompt, now=T0)
    with fake.serve() as url:
        client = ModelClient(ModelConfig("custom", url, "any"), "sk-test")
        scheduler = Scheduler(runtime, runtime.notices, task_runner(runtime, client), clock=lambda: T0 + 9 * 3600_000)
        try:
            [report] = await scheduler.run_due()
        finally:
            await client.close()
    return report.outcome, Checks(runtime.store).runs(check.id)[0].detail


def audit(runtime: Runtime) -> list[tuple[str, str, str]]:
    """(tool, decision, outcome) of every call, oldest first."""
    return [(r.tool, r.decision, r.outcome) for r in reversed(runtime.audit.recent(20))]


async def test_a_grade_in_another_plugins_query_is_refused_and_logged(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        calls(call("marks__scores")),
        calls(call("search__web", '{"q": "高等数学 92 分 算高吗"}', id="call_2")),
        text("没能搜索。"),
    )
    outcome, detail = await run_task(runtime, fake, "看看我这学期的成绩")
    assert outcome == "refused"
    assert "search.web" in detail and "results of marks" in detail and "(search) sends requests" in detail
    assert audit(runtime) == [("marks.scores", "run", "ok"), ("search.web", "refuse", "refused")]
    row = runtime.audit.recent(1)[0]
    assert row.actor == "scheduler" and "'高等数学 92 分 算高吗'" in row.detail and "marks" in row.detail
    reply = fake.requests[2]["messages"][-1]
    assert reply["role"] == "tool" and "may not pass text the model wrote" in reply["content"]


async def test_the_refusal_is_said_in_chinese_in_the_run_log_and_the_conversation_opened_later(
    runtime: Runtime,
) -> None:
    from tui.runtime.chat.context import tool_message
    from tui.runtime.chat.history import ChatHistory
    from tui.runtime.message import say

    fake = FakeOpenAI(
        calls(call("marks__scores")),
        calls(call("search__web", '{"q": "高等数学 92 分 算高吗"}', id="call_2")),
        text("没能搜索。"),
    )
    _, detail = await run_task(runtime, fake, "看看我这学期的成绩")
    assert "(the scheduled task refused these calls)" in detail  # the CLI's `scheduler log` reads English
    assert say(detail, "zh").startswith(
        "没能搜索。\n\n（定时任务拒绝了这些调用）\n- search.web：定时任务不能把模型写的文字"
    )
    [notice] = runtime.notices.all()
    assert "（定时任务拒绝了这些调用）" in say(notice.message, "zh")
    tool = [m for m in ChatHistory(runtime.store).messages(str(notice.session)) if m.get("role") == "tool"][-1]
    assert say(tool_message(tool["_ui"]), "zh").startswith("定时任务不能把模型写的文字（'高等数学 92 分 算高吗'）")
    assert tool_message(tool["_ui"]).startswith("a scheduled task may not pass text the model wrote")


async def test_the_same_plugin_and_tools_that_send_nothing_still_run(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        calls(call("marks__scores")),
        calls(
            call("marks__lookup", '{"name": "高等数学"}', id="call_2"),
            call("search__format", '{"text": "高等数学 92"}', id="call_3", index=1),
        ),
        text("高等数学 92 分。"),
    )
    outcome, _ = await run_task(runtime, fake, "看看我这学期的成绩")
    assert outcome == "ok"
    assert audit(runtime) == [("marks.scores", "run", "ok"), ("marks.lookup", "run", "ok"),
                              ("search.format", "run", "ok")]  # fmt: skip


async def test_calls_before_another_plugins_result_and_the_students_own_words_run(runtime: Runtime) -> None:
    fake = FakeOpenAI(
        calls(call("search__web", '{"q": "北大食堂"}')),  # nothing of another plugin is in the task yet
        calls(call("marks__scores", id="call_2")),
        calls(call("search__web", '{"q": "北大食堂", "n": 10}', id="call_3")),  # the student's words, the default
        text("都查了。"),
    )
    outcome, _ = await run_task(runtime, fake, "搜一下北大食堂，再看看我的成绩")
    assert outcome == "ok"
    assert [d for _, d, _ in audit(runtime)] == ["run", "run", "run"]


def test_what_counts_as_written_by_the_model() -> None:
    from tui.runtime.flows import model_written

    schema = {
        "type": "object",
        "properties": {"q": {"type": "string"}, "n": {"type": "integer", "default": 10}, "k": {"enum": ["a", "b"]},
                       "o": {"type": "object"}},
    }  # fmt: skip
    prompt = "低于 92 分时提醒我，查 高等数学"
    assert model_written({"q": "高等数学", "n": 10, "k": "b"}, schema, prompt) == []
    assert model_written({"q": "高等 数学"}, schema, prompt) == ["高等 数学"]
    assert model_written({"n": 92}, schema, prompt) == [] and model_written({"n": 9}, schema, prompt) == [9]
    assert model_written({"q": "92"}, schema, "在 1925 年") == ["92"]  # a number inside another is not it
    assert model_written({"o": {"gpa": True}}, schema, prompt) == ["gpa"]  # a free key is text the model chose
