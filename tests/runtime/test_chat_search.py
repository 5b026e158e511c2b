"""Finding an earlier conversation: the full-text index (FTS5, trigram) and the LIKE search without it, the index
kept in step with the messages, and the migration that fills it from a history stored before it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tui.runtime.store as store_module
from tui.runtime.chat import search
from tui.runtime.chat.history import ChatHistory
from tui.runtime.store import Store

#: Three conversations, oldest first: (title = first question, the answer).
TALKS = [
    ("二教今天有空教室吗？", "二教现在空着 201（1-2 节）和 202。"),
    ("去昌平的校车几点发车", "下一班 12:30 从燕园出发，Free WiFi on board."),
    ("Where can I print?", "理教 and the library have printers; 二教 has none."),
]


def filled(history: ChatHistory) -> list[str]:
    """TALKS stored, each with a tool result the search must not look in; returns their ids, oldest first."""
    ids = []
    for n, (question, answer) in enumerate(TALKS):
        cid = history.start(question)
        history.append(cid, {"role": "user", "content": question})
        history.append(cid, {"role": "assistant", "content": None, "tool_calls": [{"id": "t", "function": {}}]})
        history.append(cid, {"role": "tool", "tool_call_id": "t", "content": '{"room": "理教 303 空教室"}'})
        history.append(cid, {"role": "assistant", "content": answer})
        history.store.db.execute("UPDATE chat_sessions SET updated_ms = ? WHERE id = ?", (1000 * (n + 1), cid))
        ids.append(cid)
    return ids


def titles(history: ChatHistory, query: str) -> list[str]:
    return [c.title for c in history.search(query)]


@pytest.fixture(params=["fts5", "like"])
def history(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ChatHistory:
    """A history on a new store, with the index (fts5) and as on an SQLite without FTS5 (like)."""
    if request.param == "like":
        monkeypatch.setattr(search, "MODULE", "no_such_fts_module")  # CREATE VIRTUAL TABLE fails as without FTS5
    history = ChatHistory(Store(tmp_path / "db.sqlite3"))
    assert history.indexed == (request.param == "fts5")
    return history


def test_words_of_three_or_more_characters_and_short_ones_are_found(history: ChatHistory) -> None:
    filled(history)
    assert titles(history, "空教室") == ["二教今天有空教室吗？"]  # a trigram
    assert titles(history, "二教") == ["Where can I print?", "二教今天有空教室吗？"]  # 2 characters: LIKE; newest first
    assert titles(history, "校车") == ["去昌平的校车几点发车"]
    assert titles(history, "free wifi") == ["去昌平的校车几点发车"]  # Latin letters in either case, every word
    assert titles(history, "PRINT") == ["Where can I print?"]
    assert titles(history, "二教 printers") == ["Where can I print?"]  # a short and a long word together
    assert titles(history, "二教 校车") == []


def test_what_is_not_the_students_or_the_assistants_words_is_not_found(history: ChatHistory) -> None:
    filled(history)
    assert titles(history, "303") == []  # a tool's result
    assert titles(history, "role") == titles(history, "content") == []  # the JSON the message is stored as
    assert titles(history, "tool_calls") == []


def test_the_query_language_and_like_wildcards_are_taken_as_written(history: ChatHistory) -> None:
    filled(history)
    cid = history.start("100% sure_thing")
    history.append(cid, {"role": "user", "content": '100% sure_thing "quoted" a*b NEAR(x y)'})
    for query in ["%", "_", "100%", "sure_thing", '"quoted"', '"', "a*b", "NEAR(x", "x y)"]:
        assert titles(history, query) == ["100% sure_thing"], query
    assert titles(history, "1_0") == titles(history, "1%") == []


def test_no_words_lists_every_conversation_newest_first(history: ChatHistory) -> None:
    filled(history)
    expected = [question for question, _ in reversed(TALKS)]
    assert titles(history, "") == titles(history, "   ") == expected
    assert all(c.snippet is None for c in history.search(""))
    assert [c.title for c in history.search("", limit=2)] == expected[:2]


def test_a_hit_in_an_answer_comes_with_the_text_around_it(history: ChatHistory) -> None:
    filled(history)
    [hit] = history.search("燕园")
    assert hit.snippet == "下一班 12:30 从燕园出发，Free WiFi on board."
    [titled] = history.search("空教室")
    assert titled.snippet is None  # the title shows it already


def test_a_snippet_is_a_window_around_the_first_word_found() -> None:
    text = "开头" * 40 + " 二教\n\n有空 " + "结尾" * 40
    shown = search.snippet(text, "二教", chars=20)
    assert shown.startswith("…") and shown.endswith("…") and "二教 有空" in shown and "\n" not in shown
    assert len(shown) == 22
    assert search.snippet("short 二教", "二教") == "short 二教"
    assert search.snippet("ends with 二教", "二教", chars=6) == "…二教"  # filled to the end, "with" not cut
    assert search.snippet("nothing here", "二教", chars=7) == "nothing…"
    long = "The library's east wing has printers on every floor; 二教 has none, 理教 has one near room 101."
    assert search.snippet(long, "二教", chars=48) == "…floor; 二教 has none, 理教 has one near room…"


def test_the_index_follows_truncate_and_delete(history: ChatHistory) -> None:
    first, second, _ = filled(history)
    answer = next(m["_id"] for m in history.messages(first) if m.get("content") == TALKS[0][1])
    history.truncate_from(first, answer)  # edit and resend: the answer is gone
    assert titles(history, "202") == []
    assert titles(history, "空教室") == ["二教今天有空教室吗？"]  # the question stays
    history.append(first, {"role": "assistant", "content": "现在只有 305 空着。"})
    assert [c.snippet for c in history.search("305")] == ["现在只有 305 空着。"]
    history.delete(second)
    assert titles(history, "燕园") == titles(history, "校车") == []
    if history.indexed:
        indexed = history.store.db.execute(f"SELECT rowid FROM {search.INDEX} ORDER BY rowid").fetchall()
        stored = history.store.db.execute(
            "SELECT id FROM chat_messages WHERE role IN ('user', 'assistant') AND content LIKE '%\"content\": \"%' "
            "ORDER BY id"
        ).fetchall()
        assert indexed == stored  # no word of a deleted message left, none of a stored one missing


def test_a_message_and_its_words_are_stored_together_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = ChatHistory(Store(tmp_path / "db.sqlite3"))
    cid = history.start("二教")

    def broken(*_: object) -> None:
        raise RuntimeError("the index write failed")

    monkeypatch.setattr(search, "add", broken)
    with pytest.raises(RuntimeError):
        history.append(cid, {"role": "user", "content": "二教有空教室吗"})
    assert history.messages(cid) == [] and not history.store.db.in_transaction


def test_the_migration_fills_the_index_from_a_history_stored_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.sqlite3"
    monkeypatch.setattr(store_module, "MIGRATIONS", store_module.MIGRATIONS[:8])
    old = Store(path)
    rows = [
        ("c-1", 1, "user", json.dumps({"role": "user", "content": "二教今天有空教室吗？"}, ensure_ascii=False)),
        ("c-1", 2, "assistant", json.dumps({"role": "assistant", "content": "空着 201。"}, ensure_ascii=False)),
        ("c-1", 3, "tool", json.dumps({"role": "tool", "content": "理教 303"}, ensure_ascii=False)),
        ("c-2", 4, "user", "{not json"),  # a damaged row: skipped, never the migration's end
        ("c-2", 5, "user", json.dumps({"role": "user", "content": [{"type": "text", "text": "校车时刻"}]})),
    ]
    old.db.executemany("INSERT INTO chat_messages (session, at_ms, role, content) VALUES (?, ?, ?, ?)", rows)
    old.db.execute("INSERT INTO chat_sessions VALUES ('c-1', '二教今天有空教室吗？', 1, 3), ('c-2', '校车', 4, 5)")
    old.close()
    monkeypatch.undo()
    history = ChatHistory(Store(path))
    assert history.store.version == len(store_module.MIGRATIONS) and history.indexed
    assert [(c.id, c.snippet) for c in history.search("201")] == [("c-1", "空着 201。")]
    assert [c.id for c in history.search("校车时刻")] == ["c-2"]  # the text parts of a message
    assert history.search("303") == []
    (count,) = history.store.db.execute(f"SELECT count(*) FROM {search.INDEX}").fetchone()
    assert count == 3
    assert (path.parent / "old.sqlite3.before-v9.bak").exists()  # the upgrade kept a copy, as every one does


def test_an_index_this_sqlite_cannot_read_falls_back_to_like(tmp_path: Path) -> None:
    """A database indexed by an SQLite with FTS5, opened by one without: the index is there, its module is not."""
    path = tmp_path / "db.sqlite3"
    filled(ChatHistory(Store(path)))
    raw = Store(path).db
    raw.execute("PRAGMA writable_schema = ON")
    raw.execute(f"UPDATE sqlite_master SET sql = replace(sql, 'fts5', 'gone_fts5') WHERE name = '{search.INDEX}'")
    raw.close()
    history = ChatHistory(Store(path))
    assert not history.indexed
    assert titles(history, "空教室") == ["二教今天有空教室吗？"] and titles(history, "二教")[0] == "Where can I print?"
    cid = history.start("新的一段")
    history.append(cid, {"role": "user", "content": "新的问题：图书馆几点关门"})  # storing goes on without the index
    history.truncate_from(cid, history.messages(cid)[0]["_id"])
    history.delete(cid)
    assert titles(history, "图书馆") == []
