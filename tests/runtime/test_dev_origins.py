"""Dev origins: which mappings are accepted, and a request through one against a real loopback server."""

from __future__ import annotations

import httpcore
import pytest

from tests.runtime.local_api import local_api
from tui.lang.host import HostError, HttpRequest
from tui.runtime.dev_origins import (
    ENV,
    DevOrigin,
    DevOriginError,
    DevRoutes,
    check_declared,
    from_env,
    loopback_only,
    parse,
    parse_all,
)
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.pinned import PinnedBackend

NETWORK = ("api.example.com", "*.pku.edu.cn")


@pytest.mark.parametrize(
    ("text", "host", "origin"),
    [
        ("api.example.com=http://127.0.0.1:8000", "api.example.com", "http://127.0.0.1:8000"),
        (" API.Example.com. = https://127.9.9.9:8443/ ", "api.example.com", "https://127.9.9.9:8443"),
        ("api.example.com=http://localhost:3000", "api.example.com", "http://localhost:3000"),
        ("api.example.com=http://[::1]:3000", "api.example.com", "http://[::1]:3000"),
        ("api.example.com=http://127.0.0.1", "api.example.com", "http://127.0.0.1"),
    ],
)
def test_a_mapping_names_a_host_and_a_loopback_origin(text: str, host: str, origin: str) -> None:
    assert parse(text) == DevOrigin(host, origin)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("api.example.com", "is not a mapping like"),
        ("=http://127.0.0.1:8000", "is not a mapping like"),
        ("api.example.com=", "is not a mapping like"),
        ("https://api.example.com=http://127.0.0.1:8000", "is not a host name"),
        ("*.example.com=http://127.0.0.1:8000", "is not a host name"),
        ("api.example.com:443=http://127.0.0.1:8000", "is not a host name"),
        ("1.2.3.4=http://127.0.0.1:8000", "is not a host name"),
        ("api.example.com=ftp://127.0.0.1:21", "must be an http:// or https:// origin"),
        ("api.example.com=http://127.0.0.1:8000/api", "without a path"),
        ("api.example.com=http://127.0.0.1:8000/?x=1", "without a path"),
        ("api.example.com=http://u:p@127.0.0.1:8000", "without a path"),
        ("api.example.com=http://10.0.0.1:8000", "'10.0.0.1' is not this machine"),
        ("api.example.com=http://192.168.1.2:8000", "is not this machine"),
        ("api.example.com=http://example.com:8000", "is not this machine"),
        ("api.example.com=http://0x7f.1:8000", "is not this machine"),
    ],
)
def test_a_bad_mapping_is_one_sentence_naming_it(text: str, said: str) -> None:
    with pytest.raises(DevOriginError) as e:
        parse(text)
    assert said in str(e.value)
    assert text.split("=")[0].strip() in str(e.value)  # the mapping is named
    assert "\n" not in str(e.value)


def test_the_variable_takes_several_and_refuses_a_host_mapped_twice() -> None:
    two = from_env({ENV: "api.example.com=http://127.0.0.1:1, b.example.com=http://127.0.0.1:2"})
    assert [m.host for m in two] == ["api.example.com", "b.example.com"]
    assert from_env({ENV: " "}) == () and from_env({}) == ()
    with pytest.raises(DevOriginError, match="mapped twice"):
        parse_all(["api.example.com=http://127.0.0.1:1", "api.example.com=http://127.0.0.1:2"])


def test_only_a_declared_host_is_mapped_and_a_campus_host_only_when_named_exactly() -> None:
    check_declared([parse("api.example.com=http://127.0.0.1:1")], {"p": NETWORK})
    check_declared([parse("portal.pku.edu.cn=http://127.0.0.1:1")], {"p": NETWORK})  # not a campus session host
    with pytest.raises(DevOriginError, match="not in the network list of p"):
        check_declared([parse("other.example.com=http://127.0.0.1:1")], {"p": NETWORK})
    with pytest.raises(DevOriginError, match="must be named exactly"):
        check_declared([parse("treehole.pku.edu.cn=http://127.0.0.1:1")], {"p": NETWORK})
    check_declared([parse("treehole.pku.edu.cn=http://127.0.0.1:1")], {"p": ("treehole.pku.edu.cn",)})
    assert DevRoutes.for_plugin([parse("iaaa.pku.edu.cn=http://127.0.0.1:1")], NETWORK) is None


async def test_a_mapped_request_reaches_the_local_server_and_reads_as_the_declared_url() -> None:
    with local_api() as api:
        routes = DevRoutes([parse(api.mapping())])
        async with PolicyFetcher(dev=routes) as fetcher:
            url = "https://api.example.com/items?q=%E4%B9%A6&page=2"
            response = await fetcher.fetch(HttpRequest("GET", url, {}, None), ("api.example.com",))
            assert response.status == 200 and response.url == url
            assert response.body.decode().startswith('{"word": "\\u4e66"')
            # followed to the server's own absolute URL, which the plugin sees on the declared host
            moved = await fetcher.fetch(
                HttpRequest("GET", "https://api.example.com/old", {}, None), ("api.example.com",)
            )
            assert moved.url == "https://api.example.com/items?q=moved"
            # the policy still applies to the declared URL: an undeclared host is refused, never sent
            with pytest.raises(HostError, match="not declared"):
                await fetcher.fetch(HttpRequest("GET", "https://x.example.com/items", {}, None), ("api.example.com",))
    assert api.seen == [
        ("/items?q=%E4%B9%A6&page=2", "api.example.com"),  # path and query kept, Host the declared host
        ("/old", "api.example.com"),
        ("/items?q=moved", "api.example.com"),
    ]


async def test_a_name_for_a_dev_origin_must_resolve_to_loopback_where_it_connects() -> None:
    async def rebinding(host: str) -> list[str]:
        return ["127.0.0.1", "93.184.216.34"]

    with pytest.raises(httpcore.ConnectError, match="must be a loopback address"):
        await PinnedBackend(rebinding, rule=loopback_only).connect_tcp("localhost", 80)
