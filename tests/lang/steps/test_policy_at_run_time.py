"""The interpreter enforces the policy itself, for hosts computed at run time and campus paths."""

from __future__ import annotations

import pytest

from tui.lang.steps.errors import ToolError
from tui.lang.steps.interpreter import Interpreter

from .helpers import NOW, CountingHost, make_plugin, tool


async def run(plugin, host, input_value=None):  # type: ignore[no-untyped-def]
    return await Interpreter(plugin, host).run("main", input_value or {}, now=NOW)


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://evil.example.com/x", "evil.example.com is not declared"),
        ("http://api.example.edu.cn/x", "only https://"),
        ("https://api.example.edu.cn:8443/x", "port 8443"),
        ("https://user:pw@api.example.edu.cn/x", "user name or password"),
        ("https://127.0.0.1/x", "IP address"),
        ("https://api.example.edu.cn.evil.com/x", "is not declared"),
        ("https://api.example.edu.cn@evil.com/x", "user name or password"),
    ],
)
async def test_computed_urls_are_checked_before_sending(url: str, reason: str) -> None:
    plugin = make_plugin(
        {"main": tool("  - request: { url: '${input.u}' }\n", inputs="input:\n  u: { type: string }\n")}
    )
    host = CountingHost()
    with pytest.raises(ToolError, match=reason) as info:
        await run(plugin, host, {"u": url})
    assert info.value.kind == "network"
    assert host.requests == []


@pytest.mark.parametrize("path", ["//evil.com/x", "https://evil.com/x", "x/y", "/a\\b", "/a b"])
async def test_campus_paths_stay_on_the_service(path: str) -> None:
    plugin = make_plugin(
        {"main": tool("  - request: { campus: card, url: '${input.p}' }\n", inputs="input:\n  p: { type: string }\n")},
        extra="campus: [card]\n",
    )
    with pytest.raises(ToolError, match="campus") as info:
        await run(plugin, CountingHost(), {"p": path})
    assert info.value.kind == "network"


async def test_the_wildcard_matches_the_apex_and_whole_labels_only() -> None:
    plugin = make_plugin(
        {"main": tool("  - request: { url: '${input.u}' }\n", inputs="input:\n  u: { type: string }\n")},
        network="['*.pku.edu.cn']",
    )
    host = CountingHost()
    for ok in ("https://pku.edu.cn/", "https://www.pku.edu.cn/", "https://a.b.pku.edu.cn/", "https://WWW.PKU.EDU.CN./"):
        await run(plugin, host, {"u": ok})
    for bad in ("https://evilpku.edu.cn/", "https://pku.edu.cn.evil.com/"):
        with pytest.raises(ToolError, match="not declared"):
            await run(plugin, host, {"u": bad})


async def test_plugins_cannot_set_credential_headers() -> None:
    plugin = make_plugin(
        {"main": tool("  - request: { url: 'https://api.example.edu.cn/', headers: { Cookie: 'a=b' } }\n")}
    )
    with pytest.raises(ToolError, match="set by the app, never by a plugin"):
        await run(plugin, CountingHost())


async def test_errors_name_the_tool_step_file_and_line() -> None:
    plugin = make_plugin({"main": tool("  - let: a\n    value: '1'\n  - value: 'a.b.c'\n")})
    with pytest.raises(ToolError) as info:
        await run(plugin, CountingHost())
    e = info.value
    assert (e.tool, e.step, e.file, e.line, e.kind) == ("t.main", "2", "tools/main.yaml", 7, "expression")
    assert str(e).startswith("t.main, step 2, tools/main.yaml:7: cannot read 'c' of null (a.b.c)")


async def test_http_errors_are_catchable_with_their_status() -> None:
    plugin = make_plugin(
        {
            "main": tool(
                "  - try:\n      - request: { url: 'https://api.example.edu.cn/' }\n"
                "    catch:\n      - value: '[error.kind, error.status, error.message]'\n"
            )
        }
    )
    result = await run(plugin, CountingHost(status=503))
    assert result.value == ["http", 503, "HTTP 503 from https://api.example.edu.cn/"]


@pytest.mark.parametrize(
    "url",
    ["https://api.example.edu.cn/a b", "https://api.example.edu.cn/\x07", "https://api.example.edu.cn\\@evil.com/"],
)
async def test_urls_with_spaces_controls_or_backslashes_are_refused(url: str) -> None:
    plugin = make_plugin(
        {"main": tool("  - request: { url: '${input.u}' }\n", inputs="input:\n  u: { type: string }\n")}
    )
    with pytest.raises(ToolError, match="spaces, control characters or a backslash"):
        await run(plugin, CountingHost(), {"u": url})


@pytest.mark.parametrize(
    ("header", "value", "reason"),
    [
        ("X-Forwarded-For", "1.2.3.4", "set by the app"),
        ("X-Ok", "a\r\nSet-Cookie: x", "line break"),
        ("'Bad Name'", "x", "not a valid header name"),
    ],
)
async def test_header_injection_is_refused(header: str, value: str, reason: str) -> None:
    steps = f"  - request: {{ url: 'https://api.example.edu.cn/', headers: {{ {header}: '${{input.v}}' }} }}\n"
    plugin = make_plugin({"main": tool(steps, inputs="input:\n  v: { type: string }\n")})
    host = CountingHost()
    with pytest.raises(ToolError, match=reason):
        await run(plugin, host, {"v": value})
    assert host.requests == []


async def test_as_response_never_shows_credentials_even_from_a_careless_host() -> None:
    from tui.lang.host import HttpRequest, HttpResponse

    class Careless(CountingHost):
        async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
            return HttpResponse(
                200,
                "https://api.example.edu.cn/cb?ticket=ST-1&x=1&token=abc",
                {"Set-Cookie": "sid=1", "Authorization": "Bearer t", "X-Ok": "1"},
                b"ok",
            )

    plugin = make_plugin({"main": tool("  - request: { url: 'https://api.example.edu.cn/' }\n    as: response\n")})
    result = await run(plugin, Careless())
    assert result.value["headers"] == {"x-ok": "1"}
    assert result.value["url"] == "https://api.example.edu.cn/cb?x=1"
