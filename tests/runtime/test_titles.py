"""A conversation's title made by the model after its first answer: one short request (no tools, a small
`max_tokens`), what comes back tidied to one plain line, and the first question kept whenever the model has
nothing usable to say, fails, or the conversation was retitled or is past its first question."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.runtime.fake_openai import FakeOpenAI, text
from tui.runtime.chat.client import ModelClient
from tui.runtime.chat.demo_model import DemoModel
from tui.runtime.chat.history import TITLE_CHARS, ChatHistory
from tui.runtime.chat.providers import ModelConfig
from tui.runtime.chat.titles import TITLE_PROMPT, TITLE_TOKENS, retitle, tidy_title
from tui.runtime.store import Store

QUESTION = "二教今天有哪些空教室?我下午想自习"
ANSWER = "二教今天空着 **201**（1-2 节）和 202。"


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("二教空教室查询", "二教空教室查询"),
        ("**标题：「二教空教室查询」**\n", "二教空教室查询"),
        ('"Free rooms in Teaching Building 2."', "Free rooms in Teaching Building 2"),
        ("Title: Shuttle to Changping", "Shuttle to Changping"),
        ("\n\n# 校车时间\n\n下面是解释……", "校车时间"),  # the first line with words
        ("二教\x1b]52;c;aGk=\x07空教室\u202e", "二教空教室"),  # escapes and bidi controls gone, not shown
        ("《》", None),
        ("", None),
        ("空" * 100, "空" * TITLE_CHARS),
    ],
)
def test_what_the_model_says_becomes_one_plain_line(said: str, title: str | None) -> None:
    assert tidy_title(said) == title


def conversation(store: Store, *turns: tuple[str, str]) -> tuple[ChatHistory, str]:
    history = ChatHistory(store)
    cid = history.start(turns[0][0])
    for question, answer in turns:
        history.append(cid, {"role": "user", "content": question})
        history.append(cid, {"role": "assistant", "content": answer})
    return history, cid


def client(url: str) -> ModelClient:
    return ModelClient(ModelConfig("custom", url, "m"), None)


async def test_the_model_names_a_conversation_after_its_first_answer(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    history, cid = conversation(store, (QUESTION, ANSWER))
    fake = FakeOpenAI()
    fake.titles.append(text("二教", "空教室"))
    with fake.serve() as url:
        assert await retitle(history, client(url), cid) == "二教空教室"
    found = history.find(cid)
    assert found is not None and found.title == "二教空教室"
    assert [c.id for c in history.search("空教室")] == [cid]  # found by its new title
    [request] = fake.title_requests
    assert request["max_tokens"] == TITLE_TOKENS and "tools" not in request
    assert request["messages"][0] == {"role": "system", "content": TITLE_PROMPT}
    assert QUESTION in request["messages"][1]["content"] and ANSWER in request["messages"][1]["content"]
    assert fake.requests == []  # no turn was asked for


async def test_the_first_question_stays_the_title_when_the_model_has_none(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    history, cid = conversation(store, (QUESTION, ANSWER))
    fake = FakeOpenAI()
    rambling = text("你可以在学义晚上走到最新的空教室，对诸如适合每天", finish="length")
    fake.titles += [text(""), {"status": 401, "body": {"error": {"message": "bad key"}}}, rambling]
    with fake.serve() as url:
        assert await retitle(history, client(url), cid) is None  # said nothing
        assert await retitle(history, client(url), cid) is None  # refused
        assert await retitle(history, client(url), cid) is None  # cut at the limit: a ramble, not a title
    found = history.find(cid)
    assert found is not None and found.title == QUESTION
    assert len(fake.title_requests) == 3


async def test_only_a_first_answer_still_titled_by_its_question_is_renamed(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    fake = FakeOpenAI()
    with fake.serve() as url:
        two, cid_two = conversation(store, (QUESTION, ANSWER), ("下午呢", "也空着。"))
        assert await retitle(two, client(url), cid_two) is None  # past its first question
        renamed, cid_renamed = conversation(store, (QUESTION, ANSWER))
        assert renamed.retitle(cid_renamed, "我的自习", was=QUESTION)
        assert await retitle(renamed, client(url), cid_renamed) is None
        unanswered = ChatHistory(store)
        cid_unanswered = unanswered.start(QUESTION)
        unanswered.append(cid_unanswered, {"role": "user", "content": QUESTION})
        assert await retitle(unanswered, client(url), cid_unanswered) is None  # the turn failed: no answer
        demo, cid_demo = conversation(store, (QUESTION, ANSWER))
        assert await retitle(demo, DemoModel(pause_s=0), cid_demo) is None  # it would only repeat the question
    assert fake.title_requests == []
    found = renamed.find(cid_renamed)
    assert found is not None and found.title == "我的自习"


def test_a_title_made_meanwhile_does_not_overwrite_the_students(tmp_path: Path) -> None:
    history, cid = conversation(Store(tmp_path / "db.sqlite3"), (QUESTION, ANSWER))
    assert history.retitle(cid, "我的自习", was=QUESTION)
    assert not history.retitle(cid, "二教空教室", was=QUESTION)  # the model's title arrives after the rename
    found = history.find(cid)
    assert found is not None and found.title == "我的自习"
