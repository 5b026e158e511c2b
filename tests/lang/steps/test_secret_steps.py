"""`otp.code` through the steps: its answer is a secret whatever the host, only verify.*'s `code` gets its
text, and no step can put it in a result, the store, a cache, a call or a request (issue 15 item 1)."""

from __future__ import annotations

from typing import Any

import pytest

from tui.lang.expr.secret import SecretValue
from tui.lang.host import HostError, HttpRequest, HttpResponse
from tui.lang.steps.errors import ToolError
from tui.lang.steps.interpreter import Interpreter

from .helpers import NOW, CountingHost, make_plugin, tool

CODE = "493817"
NAMED = "the value of otp.code is a secret: only verify.* abilities accept it"
OTP = "  - let: code\n    ability: otp.code\n    args: '{}'\n"


class OtpHost(CountingHost):
    """Answers otp.code with plain text, as a recorded test would, and records every ability call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []

    async def ability(self, name: str, args: Any) -> Any:
        self.calls.append((name, args))
        if name == "otp.code":
            return CODE
        return {"ok": True}


def plugin(steps: str, ret: str | None = None, extra_tools: dict[str, str] | None = None) -> Any:
    tools = {"main": tool(OTP + steps, ret=ret), **(extra_tools or {})}
    return make_plugin(tools, extra="campus: [treehole]\nabilities: [otp, verify, crypto]\n")


async def run(p: Any, host: OtpHost) -> Any:
    return (await Interpreter(p, host).run("main", {}, now=NOW)).value


def _sent(host: OtpHost) -> str:
    return " ".join(f"{r.url} {r.headers} {r.body!r}" for r in host.requests) + repr(
        [a for n, a in host.calls if n != "otp.code"]
    )


# Every way a step could let the code out: each fails with the secret's message, and nothing carries it.
LEAKS = {
    "result": ("", "code"),
    "result in a list": ("", "'[1, code]'"),
    "result as text": ("", "'`code ${code}`'"),
    "value step template": ("  - value: \"{ 'x': `${code}` }\"\n", None),
    "kv value": ("  - kv: set\n    key: k\n    value: '{ c: code }'\n", None),
    "kv key": ("  - kv: set\n    key: 'k${code}'\n    value: '1'\n", None),
    "cache": ("  - cache: { key: c, ttl: 60000 }\n    steps:\n      - value: code\n", None),
    "call input": ("  - call: echo\n    input: '{ q: code }'\n", None),
    "request url": ("  - request: { url: 'https://api.example.edu.cn/x?c=${code}' }\n", None),
    "request query": ("  - request: { url: 'https://api.example.edu.cn/x', query: { c: '${code}' } }\n", None),
    "request header": ("  - request: { url: 'https://api.example.edu.cn/x', headers: { X-C: '${code}' } }\n", None),
    "request json": (
        "  - request: { url: 'https://api.example.edu.cn/x', method: POST, json: { c: '${code}' } }\n",
        None,
    ),
    "request json list": (
        "  - request: { url: 'https://api.example.edu.cn/x', method: POST, json: ['${[code]}'] }\n",
        None,
    ),
    "request form": (
        "  - request: { url: 'https://api.example.edu.cn/x', method: POST, form: { c: '${code}' } }\n",
        None,
    ),
    "request body": ("  - request: { url: 'https://api.example.edu.cn/x', method: POST, body: '${code}' }\n", None),
    "each request": (
        "  - each: '[code]'\n    request: { url: 'https://api.example.edu.cn/x', query: { c: '${item}' } }\n",
        None,
    ),
    "paginate": (
        "  - paginate:\n      request: { url: 'https://api.example.edu.cn/p', query: { c: '${cursor}' } }\n"
        "      next: 'cursor === null ? code : null'\n      items: '[]'\n      max: 3\n",
        None,
    ),
    "campus request": ("  - request: { campus: treehole, url: '/chapi/x?c=${code}' }\n", None),
    "another ability": ("  - ability: crypto.sha256\n    args: '{ text: code }'\n", None),
    "verify request": (
        "  - ability: verify.treehole\n    args: \"{ request: { url: '/x', query: { c: code } } }\"\n",
        None,
    ),
    "check message": ("  - check: 'false'\n    error: 'bad ${code}'\n", None),
}


@pytest.mark.parametrize("name", list(LEAKS))
async def test_no_step_lets_the_code_out(name: str) -> None:
    steps, ret = LEAKS[name]
    echo = {"echo": tool("  - value: input\n", inputs="input:\n  q: { type: string, optional: true }\n")}
    host = OtpHost()
    with pytest.raises(ToolError) as info:
        await run(plugin(steps, ret, echo), host)
    assert NAMED in info.value.message, info.value.message
    assert CODE not in _sent(host) and CODE not in str(info.value)
    assert host.kv.get("k", 0) is None and host.kv.get("c", 0) is None


async def test_a_verify_abilitys_code_gets_the_text_and_nothing_else_does() -> None:
    host = OtpHost()
    p = plugin("  - ability: verify.treehole\n    args: \"{ request: { url: '/chapi/x' }, code: code, via: 'otp' }\"\n")
    await run(p, host)
    assert host.calls == [
        ("otp.code", {}),
        ("verify.treehole", {"request": {"url": "/chapi/x"}, "code": CODE, "via": "otp"}),
    ]


async def test_the_answer_is_a_secret_whatever_the_host_gives() -> None:
    host = OtpHost()
    p = plugin("  - value: 'type(code)'\n    let: t\n", ret="'{ t, alive: code !== null }'")
    assert await run(p, host) == {"t": "secret", "alive": True}
    assert isinstance(SecretValue("otp.code", CODE), SecretValue)


class RefusingHost(CountingHost):
    """Refuses every public request finally, as the runtime refuses one that carries a secret."""

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        self.requests.append(request)
        raise HostError("network", "refused: the request to api.example.edu.cn carries a campus token", final=True)


async def test_a_final_refusal_cannot_be_caught_nor_covered_by_a_stale_cache() -> None:
    """A refusal for a secret ends the run: a plugin cannot catch it and try the next guess."""
    probe = (
        "  - try:\n"
        "      - request: { url: 'https://api.example.edu.cn/guess' }\n"
        "    catch:\n"
        "      - request: { url: 'https://api.example.edu.cn/next-guess' }\n"
    )
    host = RefusingHost()
    with pytest.raises(ToolError, match="carries a campus token") as info:
        await Interpreter(make_plugin({"main": tool(probe)}), host).run("main", {}, now=NOW)
    assert info.value.final and [r.url for r in host.requests] == ["https://api.example.edu.cn/guess"]

    cached = (
        "  - cache: { key: k, ttl: 1, staleOnError: true }\n"
        "    steps:\n      - request: { url: 'https://api.example.edu.cn/x' }\n"
    )
    host = RefusingHost()
    host.kv.set("k", {"v": "old", "t": 0}, None, 0)
    with pytest.raises(ToolError, match="carries a campus token"):
        await Interpreter(make_plugin({"main": tool(cached)}), host).run("main", {}, now=NOW)
