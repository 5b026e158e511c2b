"""Recorded tests assert more than the result (issue 21 item 7): stale and truncated runs, the calls and requests a
write tool made, cache entries seeded with an age, recordings no run used, and fixtures up to the response limit."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tui.cli.main import cli

MANIFEST = """---
spec: 1
id: writer
name: 写入示例
description: A plugin that writes, caches and pages, for the recorded-test runner.
version: 1.0.0
author: tests
network: [api.example.edu.cn]
abilities: [todos]
settings:
  minSeats: { type: integer, default: 50, title: 最少座位 }
tools:
  add: tools/add.yaml
  rooms: tools/rooms.yaml
  pages: tools/pages.yaml
  page: tools/page.yaml
---
Test plugin.
"""

ADD = """title: 加一条
description: Saves a note on the server and adds a todo for it.
effect: write
input:
  title: { type: string }
steps:
  - let: saved
    request:
      method: POST
      url: https://api.example.edu.cn/notes
      json: { title: '${input.title}', tags: [a, b], meta: { by: me, n: 2 } }
  - ability: todos.add
    args: "({ title: input.title, due: '2026-12-01' })"
return: "saved.id"
"""

ROOMS = """title: 教室
description: Rooms, cached an hour, the last good answer after an error.
effect: read
steps:
  - let: rooms
    cache: { key: rooms, ttl: 1h, staleOnError: true }
    steps:
      - request: { url: 'https://api.example.edu.cn/rooms' }
return: rooms
"""

PAGES = """title: 分页
description: Pages through a listing, two pages at most.
effect: read
steps:
  - paginate:
      request: { url: 'https://api.example.edu.cn/items', query: { page: '${cursor ?? 1}' } }
      next: "res.next"
      items: "res.items"
      max: 2
"""

PAGE = """title: 页面
description: A page's length.
effect: read
steps:
  - request: { url: 'https://api.example.edu.cn/page' }
    as: text
return: "0"
"""


def plugin(tmp_path: Path, tests: dict[str, str]) -> Path:
    folder = tmp_path / "writer"
    (folder / "tools").mkdir(parents=True)
    (folder / "tests").mkdir()
    (folder / "PLUGIN.md").write_text(MANIFEST, "utf-8")
    for name, text in {"add": ADD, "rooms": ROOMS, "pages": PAGES, "page": PAGE}.items():
        (folder / "tools" / f"{name}.yaml").write_text(text, "utf-8")
    for name, text in tests.items():
        (folder / "tests" / name).write_text(text, "utf-8")
    return folder


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


SAVE = """      - request: { method: POST, url: 'https://api.example.edu.cn/notes' }
        response: { json: { id: 7 } }
"""

ADD_TESTS = f"""tool: add
cases:
  - name: 写对了
    input: {{ title: 交作业 }}
    http:
{SAVE}    abilities:
      - call: todos.add
        result: {{ id: t1, title: 交作业, due: '2026-12-01', done: false, source: writer }}
    expect: 7
    expectCalls:
      - ability: todos.add
        args: {{ title: 交作业 }}
    expectRequests:
      - method: POST
        url: 'https://api.example.edu.cn/notes'
        headers: {{ Content-Type: application/json }}
        json: {{ title: 交作业, meta: {{ n: 2 }} }}
  - name: 标题不对
    input: {{ title: 交作业 }}
    http:
{SAVE}    abilities:
      - {{ call: todos.add, result: {{ id: t1 }} }}
    expectCalls:
      - ability: todos.add
        args: {{ title: 交 作业 }}
  - name: 多写了一次
    input: {{ title: x }}
    http:
{SAVE}    abilities:
      - {{ call: todos.add, result: {{ id: t1 }} }}
    expectCalls:
      - {{ ability: todos.add }}
      - {{ ability: todos.add }}
  - name: 不该写
    input: {{ title: x }}
    http:
{SAVE}    abilities:
      - {{ call: todos.add, result: {{ id: t1 }} }}
    expectCalls: []
  - name: JSON 不对
    input: {{ title: x }}
    http:
{SAVE}    abilities:
      - {{ call: todos.add, result: {{ id: t1 }} }}
    expectRequests:
      - {{ method: POST, json: {{ meta: {{ by: you }} }} }}
"""


def test_calls_and_requests_are_matched_partially_and_completely_per_name(tmp_path: Path) -> None:
    code, out, _ = run("plugin", "test", str(plugin(tmp_path, {"add.yaml": ADD_TESTS})))
    assert code == 1
    assert "PASS tests/add.yaml › 写对了" in out
    said = 'expectCalls: todos.add call 1: args.title: expected "交 作业", got "交作业"'
    assert f"FAIL tests/add.yaml › 标题不对\n     {said}" in out
    assert "expectCalls: todos.add expected twice, the run called it once" in out
    assert "expectCalls: [] but the run called todos.add" in out
    assert 'expectRequests: POST request 1 (POST https://api.example.edu.cn/notes): json.meta.by: expected "you"' in out
    assert out.strip().endswith("1 passed, 4 failed")


ROOMS_TESTS = """tool: rooms
now: '2026-11-30 09:00'
cases:
  - name: 两天前存的，刷新失败，用旧的
    cache: { rooms: { value: [101], age: 2d } }
    http:
      - request: { url: 'https://api.example.edu.cn/rooms' }
        response: { status: 503, text: busy }
    expect: [101]
    expectStale: true
  - name: 半小时前存的，不请求
    cache: { rooms: { value: [102], age: 30m } }
    expect: [102]
    expectStale: false
  - name: 说它旧了，其实是新的
    http:
      - request: { url: 'https://api.example.edu.cn/rooms' }
        response: { json: [103] }
    expectStale: true
  - name: 存了八天，太旧了
    cache: { rooms: { value: [104], age: 8d } }
    http:
      - request: { url: 'https://api.example.edu.cn/rooms' }
        response: { status: 503, text: busy }
    expectError: HTTP 503
"""


def test_a_cache_seeded_with_an_age_is_fresh_stale_or_too_old(tmp_path: Path) -> None:
    code, out, _ = run("plugin", "test", str(plugin(tmp_path, {"rooms.yaml": ROOMS_TESTS})))
    assert "PASS tests/rooms.yaml › 两天前存的，刷新失败，用旧的" in out
    assert "PASS tests/rooms.yaml › 半小时前存的，不请求" in out
    said = "expectStale: true, but no cache answered with its stored value after an error"
    assert f"说它旧了，其实是新的\n     {said}" in out
    assert "PASS tests/rooms.yaml › 存了八天，太旧了" in out  # a week is the most a stale value answers
    assert code == 1 and out.strip().endswith("3 passed, 1 failed")


PAGES_TESTS = """tool: pages
cases:
  - name: 第三页还没读
    http:
      - request: { url: 'https://api.example.edu.cn/items?page=1' }
        response: { json: { items: [1], next: 2 } }
      - request: { url: 'https://api.example.edu.cn/items?page=2' }
        response: { json: { items: [2], next: 3 } }
    expect: [1, 2]
    expectTruncated: true
    expectRequests:
      - { url: 'https://api.example.edu.cn/items?page=1' }
      - { method: get, url: 'https://api.example.edu.cn/items?page=2' }
  - name: 读完了
    http:
      - request: { url: 'https://api.example.edu.cn/items?page=1' }
        response: { json: { items: [1], next: null } }
      - request: { url: 'https://api.example.edu.cn/items?page=9' }
        response: { json: { items: [] } }
      - request: { url: 'https://api.example.edu.cn/items?page=8' }
        response: { json: { items: [] } }
    expectTruncated: true
"""


def test_truncation_is_asserted_and_unused_recordings_are_warned_of(tmp_path: Path) -> None:
    code, out, _ = run("plugin", "test", str(plugin(tmp_path, {"pages.yaml": PAGES_TESTS})))
    assert "PASS tests/pages.yaml › 第三页还没读\n" in out  # no warning: both recordings were used
    assert "expectTruncated: true, but no paginate stopped at its max with a page still to read" in out
    assert (
        "     warning: recorded exchange 2 (GET https://api.example.edu.cn/items?page=9) was never requested\n"
        "     warning: recorded exchange 3 (GET https://api.example.edu.cn/items?page=8) was never requested"
    ) in out
    assert code == 1 and out.strip().endswith("1 passed, 1 failed, 2 warnings")


def test_an_unused_ability_answer_is_a_warning_not_a_failure(tmp_path: Path) -> None:
    tests = ADD_TESTS.split("  - name: 标题不对")[0].replace(
        "        result: { id: t1, title: 交作业, due: '2026-12-01', done: false, source: writer }\n",
        "        result: { id: t1 }\n      - { call: todos.list, result: [] }\n",
    )
    code, out, _ = run("plugin", "test", str(plugin(tmp_path, {"add.yaml": tests})))
    assert code == 0, out
    assert "PASS tests/add.yaml › 写对了\n     warning: ability answer 2 (todos.list) was never asked for" in out
    assert out.strip().endswith("1 passed, 0 failed, 1 warning")


def test_a_fixture_may_be_as_big_as_a_response_and_no_bigger(tmp_path: Path) -> None:
    tests = """tool: page
cases:
  - name: 1.9 MB
    http:
      - request: { url: 'https://api.example.edu.cn/page' }
        response: { file: fixtures/big.html }
    expect: 0
"""
    folder = plugin(tmp_path, {"page.yaml": tests})
    (folder / "fixtures").mkdir()
    (folder / "fixtures" / "big.html").write_bytes(b"x" * (19 * 1024 * 1024 // 10))  # over the 512 KB of a plugin
    code, out, err = run("plugin", "test", str(folder))
    assert code == 0 and out.strip().endswith("1 passed, 0 failed"), out + err
    (folder / "fixtures" / "big.html").write_bytes(b"x" * (2 * 1024 * 1024 + 1))
    code, out, err = run("plugin", "test", str(folder))
    assert code == 1
    assert (
        "tests/page.yaml:6:21: error: fixture: fixtures/big.html is 2,097,153 bytes; a recorded response may be at "
        "most 2 MB, as a real one" in err
    )


def test_a_plugin_without_tests_is_told_so_and_fails(tmp_path: Path) -> None:
    code, out, _ = run("plugin", "test", str(plugin(tmp_path, {})))
    assert code == 1
    assert out.startswith("no recorded tests: ") and "tests has no .yaml files" in out
    assert "--record tests/TOOL.yaml" in out and "passed" not in out


def test_a_key_in_both_kv_and_cache_is_refused_at_its_line(tmp_path: Path) -> None:
    tests = "tool: rooms\ncases:\n  - name: both\n    kv: { rooms: 1 }\n    cache: { rooms: { value: 2 } }\n"
    code, _, err = run("plugin", "test", str(plugin(tmp_path, {"rooms.yaml": tests + "    expect: 2\n"})))
    said = (
        "tests/rooms.yaml:3:5: error: cases.0: 'rooms' is in both kv and cache: a key holds one value [INVALID_VALUE]"
    )
    assert code == 1 and said in err


CAMPUS_MANIFEST = """---
spec: 1
id: former
name: 表单
description: Posts a form to treehole, for expectRequests on campus.
version: 1.0.0
author: tests
campus: [treehole]
tools:
  post: tools/post.yaml
---
Test plugin.
"""

POST = """title: 发表
description: Posts a form.
effect: write
steps:
  - request: { campus: treehole, method: POST, url: /chapi/api/v3/post, form: { pid: 3, tags: [a, b], text: 你好 } }
return: "1"
"""


def test_a_campus_request_and_its_form_are_matched_by_path_and_fields(tmp_path: Path) -> None:
    folder = tmp_path / "former"
    (folder / "tools").mkdir(parents=True)
    (folder / "tests").mkdir()
    (folder / "PLUGIN.md").write_text(CAMPUS_MANIFEST, "utf-8")
    (folder / "tools" / "post.yaml").write_text(POST, "utf-8")
    recorded = (
        "    http:\n      - request: { campus: treehole, method: POST, url: /chapi/api/v3/post }\n"
        "        response: { json: { ok: true } }\n"
    )
    (folder / "tests" / "post.yaml").write_text(
        "tool: post\ncases:\n"
        f"  - name: 对\n{recorded}"
        "    expectRequests:\n      - { campus: treehole, url: /chapi/api/v3/post, form: { pid: 3, tags: [a, b] } }\n"
        f"  - name: 字段不对\n{recorded}"
        "    expectRequests:\n      - { method: POST, form: { text: 再见 } }\n"
        f"  - name: 不是公开请求\n{recorded}"
        "    expectRequests:\n      - { url: 'https://treehole.pku.edu.cn/chapi/api/v3/post', campus: card }\n",
        "utf-8",
    )
    code, out, _ = run("plugin", "test", str(folder))
    assert "PASS tests/post.yaml › 对" in out
    assert 'form.text: expected "再见", got "你好"' in out
    assert "campus: expected card, got treehole" in out
    assert code == 1 and out.strip().endswith("1 passed, 2 failed")


def test_expect_stale_false_fails_a_run_a_stale_cache_answered(tmp_path: Path) -> None:
    tests = ROOMS_TESTS.split("  - name: 半小时前")[0].replace("expectStale: true", "expectStale: false")
    code, out, _ = run("plugin", "test", str(plugin(tmp_path, {"rooms.yaml": tests})))
    assert code == 1
    assert "expectStale: false, but a cache answered with its stored value after an error" in out
