"""The runtime's sentences for a person: a key and arguments, English as their `str`, translated only on a screen,
and kept (in JSON, in a text column) without losing the key."""

from __future__ import annotations

import json
import pickle

import pytest

from tui.runtime.message import Message, from_json, message_of, restored, say, say_error, stored, to_json


class Refusal(Exception):
    pass


def test_an_error_says_the_first_message_among_its_arguments() -> None:
    reason = Message("not_run_why")
    error = Refusal("context", reason)
    assert message_of(error) is reason
    assert say_error(error, "zh") == "你拒绝了" and say_error(error, "en") == "you declined"
    plain = Refusal("a server's own words")
    assert message_of(plain) == "a server's own words" and say_error(plain, "zh") == "a server's own words"
    assert say_error(Refusal(), "zh") == ""


def test_an_error_wrapping_a_message_keeps_it() -> None:
    inner = Refusal(Message("no_such_tool", name="x.y"))
    outer = Refusal(message_of(inner))
    assert str(outer) == "there is no tool 'x.y'"
    assert say_error(outer, "zh") == "没有工具 x.y"


def test_lists_are_said_one_a_line() -> None:
    lines = [Message("not_run_why"), "a plugin's words", {"zh": "树洞", "en": "Treehole"}]
    assert say(lines, "zh") == "你拒绝了\na plugin's words\n树洞"
    assert say(lines, "en") == "you declined\na plugin's words\nTreehole"


def test_a_message_survives_json_and_pickle() -> None:
    said = Message(
        "campus_relogin_failed", title={"zh": "树洞", "en": "Treehole"}, error=Message("no_such_tool", name="t")
    )
    back = from_json(json.loads(json.dumps(to_json(said))))
    assert isinstance(back, Message) and back == said
    assert back.text("zh") == said.text("zh") == "重新登录树洞失败：没有工具 t"
    assert pickle.loads(pickle.dumps(said)).text("zh") == said.text("zh")
    assert from_json("plain") == "plain" and to_json(3) == 3
    with pytest.raises(ValueError):
        from_json({1, 2})


def test_a_stored_message_reads_as_its_english_sentence_and_comes_back() -> None:
    said = Message("why_denied", effect=Message("effect_money"))
    text = stored(said)
    assert text.startswith("money tools of this plugin are set to deny\x1e")
    back = restored(text)
    assert isinstance(back, Message) and back.text("zh") == "这个插件的花钱工具设为「不能执行」"
    assert restored("a plugin's words") == "a plugin's words" and stored("plain") == "plain"


def test_a_stored_message_that_is_cut_or_damaged_reads_as_its_sentence() -> None:
    said = Message("why_denied", effect="money")
    assert stored(said, limit=20) == str(said)[:20]  # too long to keep whole: the sentence, cut
    assert restored(str(said) + "\x1e{not json") == str(said)
    assert restored(str(said) + '\x1e"just a string"') == str(said)


def test_an_unknown_key_reads_as_the_key() -> None:
    assert Message("no_such_key_anywhere") == "no_such_key_anywhere"
