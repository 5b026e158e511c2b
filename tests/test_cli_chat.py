"""`pku-harness chat --once` and `pku-harness model`, as a new user would run them, against the fake server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tui.cli.main import cli


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_chat_once_in_demo_answers_from_the_recorded_classrooms() -> None:
    """The issue's new-user check, in a real process: the answer is built from classrooms__free's recording."""
    fake = FakeOpenAI(
        calls(call("classrooms__free", '{"building": "二教"}')), text("二教现在空着 201（1-2 节）和 202。")
    )
    with fake.serve() as url:
        done = subprocess.run(
            [sys.executable, "-m", "tui", "chat", "--once", "二教今天有哪些空教室?", "--demo", "--base-url", url,
             "--model", "any"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "二教现在空着 201（1-2 节）和 202。"
    assert "[空闲教室 (classrooms.free) ok" in done.stderr
    tool_message = next(m for m in fake.requests[1]["messages"] if m["role"] == "tool")
    assert '"room":"201"' in tool_message["content"]


def test_chat_once_json_reports_decisions_and_ask_means_no() -> None:
    fake = FakeOpenAI(calls(call("memory__remember", '{"text": "45 楼"}')), text("没能记住。", usage={
        "prompt_tokens": 30, "completion_tokens": 4, "total_tokens": 34}))  # fmt: skip
    with fake.serve() as url:
        code, out, _ = run("chat", "--once", "记住我住 45 楼", "--base-url", url, "--model", "any", "--json")
    assert code == 0
    report = json.loads(out)
    [tool_call] = report["toolCalls"]
    assert (tool_call["tool"], tool_call["decision"]) == ("memory.remember", "declined")
    assert "no one is there to approve it" in tool_call["message"]
    # The first request's server sent no usage: the report's figure is estimated, and says so.
    assert report["usage"]["total"] > 34 and report["usage"]["estimated"] and report["answer"] == "没能记住。"
    assert [m["role"] for m in report["messages"]] == ["user", "assistant", "tool", "assistant"]


def test_chat_without_a_model_says_how_to_set_one_up() -> None:
    code, _, err = run("chat", "--once", "hi")
    assert code == 1 and "pku-harness model set deepseek" in err


def test_errors_exit_non_zero_with_the_kind() -> None:
    fake = FakeOpenAI({"status": 401})
    with fake.serve() as url:
        code, _, err = run("chat", "--once", "hi", "--base-url", url, "--model", "any")
    assert code == 1 and "error (auth)" in err


def test_model_set_keeps_the_key_in_keyring_and_uses_it(isolated_data_dir: Path, memory_keyring: Any) -> None:
    fake = FakeOpenAI(text("ok"))
    with fake.serve() as url:
        code, out, _ = run("model", "set", "deepseek", "--base-url", url, "--api-key-stdin", stdin="sk-secret-1\n")
        assert code == 0 and "API key saved in keyring" in out
        code, out, _ = run("model", "show")
        assert "DeepSeek: deepseek-chat at" in out and "API key saved" in out
        code, out, _ = run("chat", "--once", "hi")
    assert code == 0 and out.strip() == "ok"
    assert fake.headers[0]["authorization"] == "Bearer sk-secret-1"
    assert fake.requests[0]["model"] == "deepseek-chat"
    assert memory_keyring.items[("pku-harness", "model:deepseek")] == "sk-secret-1"
    stored = b"".join(p.read_bytes() for p in isolated_data_dir.iterdir() if p.is_file())
    assert b"sk-secret-1" not in stored  # never in the database (nor its WAL)


def test_model_set_takes_the_window_and_the_answer_limit(isolated_data_dir: Path) -> None:
    fake = FakeOpenAI(text("ok"))
    with fake.serve() as url:
        code, out, _ = run("model", "set", "vllm", "--base-url", url, "--model", "q", "--context-window", "8192",
                           "--max-tokens", "1500")  # fmt: skip
        assert code == 0 and "context window 8192 tokens, answers up to 1500" in out
        assert run("chat", "--once", "hi")[0] == 0
    assert fake.requests[0]["max_tokens"] == 1500
    code, _, err = run("model", "set", "vllm", "--model", "q", "--max-tokens", "20000")  # vLLM: 32,768
    assert code == 1 and "half the context window" in err
    assert "answers up to 1500" in run("model", "show")[1]  # nothing changed


def test_what_a_real_llama_cpp_server_needs(isolated_data_dir: Path) -> None:
    """Found by scripts/real_model_check.sh against llama-cpp-python: without `tool_choice` its function calling
    leaves the tools out of the prompt (no call ever comes); it takes tool requests only unstreamed; an answer
    cut at the length limit looked finished."""
    fake = FakeOpenAI(text("一句没说完的", finish="length"), text("ok"))
    with fake.serve() as url:
        code, out, err = run("chat", "--once", "hi", "--provider", "llamacpp", "--base-url", url, "--model", "m")
        assert code == 0 and "stopped at the length limit (1024 tokens)" in err
        code, out, _ = run("chat", "--once", "hi", "--base-url", url, "--model", "m", "--json")
    llama, custom = fake.requests
    assert (llama["tool_choice"], llama["stream"], llama["max_tokens"]) == ("auto", False, 1024)
    assert "tool_choice" not in custom and custom["stream"] is True  # an unknown server keeps its default
    assert json.loads(out)["cut"] is False


def test_without_a_keyring_the_key_is_refused_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    monkeypatch.setenv("MY_KEY", "sk-secret-2")
    code, _, err = run("model", "set", "openai", "--api-key-env", "MY_KEY")
    assert code == 1 and "no usable keyring backend" in err and "never stores keys in plain text" in err


def test_presets_list() -> None:
    code, out, _ = run("model", "presets")
    assert code == 0 and "deepseek" in out and "sends reasoning back" in out and "no tool streaming" in out


@pytest.mark.parametrize(
    ("key_args", "stdin", "says"),
    [
        (("--api-key-stdin",), "sk-secret-3\n", "no usable keyring backend"),  # no keyring to keep it in
        (("--api-key-stdin",), "", "no API key on standard input"),  # asked to read a key, none came
        (("--api-key-env", "NO_SUCH_VARIABLE"), None, "NO_SUCH_VARIABLE is not set"),
    ],
)
def test_model_set_changes_nothing_when_the_key_cannot_be_saved(
    monkeypatch: pytest.MonkeyPatch, key_args: tuple[str, ...], stdin: str | None, says: str
) -> None:
    import keyring
    from keyring.backends import fail

    assert run("model", "set", "ollama", "--model", "qwen2.5")[0] == 0
    if says.startswith("no usable"):
        keyring.set_keyring(fail.Keyring())
    monkeypatch.delenv("NO_SUCH_VARIABLE", raising=False)
    code, out, err = run("model", "set", "deepseek", *key_args, stdin=stdin)
    assert code == 1 and says in err and "deepseek" not in out
    code, out, _ = run("model", "show")
    assert code == 0 and out.startswith("Ollama: qwen2.5 at http://127.0.0.1:11434/v1")  # the old provider stays


def test_a_store_that_fails_after_the_key_was_saved_gets_the_old_key_back(
    monkeypatch: pytest.MonkeyPatch, memory_keyring: Any
) -> None:
    from tui.runtime.chat import providers
    from tui.runtime.store import Store

    memory_keyring.items[("pku-harness", "model:deepseek")] = "sk-old"

    def full_disk(*_: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(providers, "write_setting", full_disk)
    with pytest.raises(OSError):
        providers.save_config(Store(":memory:"), "deepseek", key="sk-new")
    assert memory_keyring.items[("pku-harness", "model:deepseek")] == "sk-old"
    with pytest.raises(OSError):
        providers.save_config(Store(":memory:"), "qwen", key="sk-new")
    assert ("pku-harness", "model:qwen") not in memory_keyring.items


def spoken(request: dict[str, Any]) -> list[tuple[str, str]]:
    """The student's and the assistant's words in a request to the model, in order."""
    return [(m["role"], m["content"]) for m in request["messages"] if m["role"] in ("user", "assistant")]


def test_chat_list_then_continue_a_conversation_by_id_or_the_latest() -> None:
    code, out, err = run("chat", "--list")
    assert (code, out) == (0, "") and "no conversations yet" in err
    fake = FakeOpenAI(text("201 和 202 空着。"), text("12:30 有一班。"), text("下午也空着。"), text("不客气。"))
    with fake.serve() as url:
        model = ("--base-url", url, "--model", "any")
        assert run("chat", "--once", "二教有空教室吗", *model)[0] == 0
        assert run("chat", "--once", "去昌平的校车几点", *model)[0] == 0
        code, out, _ = run("chat", "--list")
        assert code == 0
        rows = out.splitlines()
        assert [r.split("  ")[2] for r in rows] == ["去昌平的校车几点", "二教有空教室吗"]  # newest first
        bus, rooms = (r.split("  ")[0] for r in rows)
        listed = json.loads(run("chat", "--list", "--json")[1])
        assert [(c["id"], c["title"]) for c in listed] == [(bus, "去昌平的校车几点"), (rooms, "二教有空教室吗")]
        assert listed[0]["updatedMs"] >= listed[1]["updatedMs"]

        code, out, _ = run("chat", "--continue", rooms, "--once", "下午呢", *model)
        assert code == 0 and out.strip() == "下午也空着。"
        assert spoken(fake.requests[2]) == [
            ("user", "二教有空教室吗"),
            ("assistant", "201 和 202 空着。"),
            ("user", "下午呢"),
        ]
        code, out, _ = run("chat", "--once", "谢谢", "--continue", *model)  # no id: the latest, now the rooms
        assert code == 0 and spoken(fake.requests[3])[-2:] == [("assistant", "下午也空着。"), ("user", "谢谢")]
    assert len(json.loads(run("chat", "--list", "--json")[1])) == 2  # continued, not started anew

    code, out, _ = run("chat", "--list", "--search", "二教")  # two characters
    assert code == 0 and out.splitlines() == [next(r for r in out.splitlines() if r.startswith(rooms))]
    code, out, _ = run("chat", "--search", "下午也")  # --search lists by itself; the hit under its row
    assert code == 0 and out.splitlines()[1:] == ["    下午也空着。"]
    [hit] = json.loads(run("chat", "--search", "12:30", "--json")[1])
    assert (hit["id"], hit["snippet"]) == (bus, "12:30 有一班。")
    code, out, err = run("chat", "--list", "--search", "图书馆")
    assert (code, out) == (0, "") and "no conversation mentions '图书馆'" in err


def test_a_new_conversation_is_named_by_the_model_and_listed_so() -> None:
    fake = FakeOpenAI(text("下一班 12:30 从燕园出发。"), text("13:30 还有一班。"))
    fake.titles.append(text("标题：去昌平的校车"))
    with fake.serve() as url:
        model = ("--base-url", url, "--model", "any")
        code, out, _ = run("chat", "--once", "去昌平的校车几点发车？", *model, "--json")
        assert code == 0
        report = json.loads(out)
        assert report["conversation"]["title"] == "去昌平的校车" and report["answer"] == "下一班 12:30 从燕园出发。"
        cid = report["conversation"]["id"]
        code, out, _ = run("chat", "--continue", cid, "--once", "下一班呢", *model, "--json")
        assert code == 0 and json.loads(out)["conversation"] == {"id": cid, "title": "去昌平的校车"}
    assert len(fake.title_requests) == 1  # a continued conversation is not renamed
    assert [(c["id"], c["title"]) for c in json.loads(run("chat", "--list", "--json")[1])] == [(cid, "去昌平的校车")]


def test_continue_names_an_unknown_conversation_and_sends_nothing() -> None:
    fake = FakeOpenAI(text("ok"))
    with fake.serve() as url:
        code, _, err = run("chat", "--continue", "--once", "hi", "--base-url", url, "--model", "any")
        assert code == 1 and "there is no conversation to continue yet" in err
        assert run("chat", "--once", "hi", "--base-url", url, "--model", "any")[0] == 0
        code, out, err = run("chat", "--continue", "c-nope", "--once", "hi", "--base-url", url, "--model", "any")
    assert code == 1 and out == "" and "there is no conversation 'c-nope'" in err and "chat --list" in err
    assert len(fake.requests) == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ((), "give --once MESSAGE"),
        (("--continue", "c-1"), "--continue goes with --once"),
        (("--list", "--once", "hi"), "cannot go with them"),
        (("--search", "二教", "--continue"), "cannot go with them"),
    ],
)
def test_chat_used_the_wrong_way_says_how(args: tuple[str, ...], says: str) -> None:
    code, _, err = run("chat", *args)
    assert code == 2 and says in err


def test_model_clear_forgets_the_model_and_the_demo_model_answers_again(isolated_data_dir: Path) -> None:
    """Found by an outsider: once a model was set up nothing could remove it (neither 设置 nor the CLI)."""
    assert run("model", "set", "ollama", "--model", "qwen2.5")[0] == 0
    assert "qwen2.5" in run("model", "show")[1]
    code, out, _ = run("model", "clear")
    assert code == 0 and "model removed" in out
    code, _, err = run("model", "show")
    assert code == 1 and "no model is set up" in err.lower()
    code, _, err = run("model", "clear")
    assert code == 0 and "no model was set up" in err
    code, out, err = run("chat", "--once", "二教今天有哪些空教室?", "--demo")
    assert code == 0 and "demo model answers" in err and "【演示模型】" in out
