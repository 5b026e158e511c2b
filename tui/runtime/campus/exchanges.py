"""Each service's exchange of a one-time IAAA token for its own session (campus.md §2.5, §3), and its's own
form login. Redirects are followed by hand and only on university hosts; the exchange returns the new state.
"""

from __future__ import annotations

import html
import random
import re
import string
import time
import uuid
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qs, urlsplit

import httpx

from tui.runtime.campus.iaaa import LoginError, login_send
from tui.runtime.campus.net import CHROME_UA, CampusNet
from tui.runtime.campus.services import CARD_UA, Service, ServiceState
from tui.runtime.message import Message

MAX_HOPS = 5


def _rand() -> str:
    return repr(random.random())


def _on_campus(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "pku.edu.cn" or host.endswith(".pku.edu.cn")


async def _get(net: CampusNet, jar: httpx.Cookies, url: str, headers: dict[str, str] | None = None) -> httpx.Response:
    if not _on_campus(url):
        raise LoginError("server", Message("campus_off_campus", host=str(urlsplit(url).hostname)))
    return await login_send(net, jar, "GET", url, headers=headers)


async def _follow(
    net: CampusNet, jar: httpx.Cookies, url: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    """GET `url`, following up to five redirects that stay on university hosts."""
    response = await _get(net, jar, url, headers=headers)
    for _ in range(MAX_HOPS):
        location = response.headers.get("location")
        if response.status_code not in (301, 302, 303, 307, 308) or not location:
            return response
        response = await _get(net, jar, str(httpx.URL(url).join(location)), headers=headers)
        url = str(response.request.url)
    return response


def _rejected(response: httpx.Response) -> bool:
    text = response.text[:20000]
    return "iaaa.pku.edu.cn" in text and "oauth.jsp" in text


def _login_url(service: Service, device: str) -> str:
    """The https form of the service's redirect URL, where the token is exchanged."""
    assert service.redirect is not None
    u = httpx.URL(service.redirect.format(device=device))
    return str(u.copy_with(scheme="https", port=None))


Exchange = Callable[[CampusNet, httpx.Cookies, Service, str, str], Awaitable[ServiceState]]
"""(net, jar, service, IAAA token, treehole device id) → the service's new state."""


async def treehole(net: CampusNet, jar: httpx.Cookies, service: Service, token: str, device: str) -> ServiceState:
    url = f"{_login_url(service, device)}&_rand={_rand()}&token={token}"
    response = await _get(net, jar, url, headers={"user-agent": CHROME_UA})
    jwt: str | None = None
    expires: str | None = None
    if response.status_code in (301, 302, 303) and "location" in response.headers:
        query = parse_qs(urlsplit(response.headers["location"]).query)
        jwt = next(iter(query.get("token", [])), None)
        expires = next(iter(query.get("expires_in", [])), None)
    elif response.status_code == 200:
        jwt, expires = jar.get("pku_token"), jar.get("pku_expires_in")
    if not jwt:
        raise LoginError("server", Message("campus_treehole_refused", status=response.status_code))
    full = f"Web_PKUHOLE_2.0.0_WEB_UUID_{str(uuid.uuid4())[:23]}-{device}"
    # `expires_in` is an absolute Unix time, not a duration (campus.md §3.1).
    at = float(expires) if expires and expires.isdigit() else time.time() + service.lifetime
    return ServiceState(token=jwt, expires_at=at, extra={"fullUuid": full, "device": device})


async def card(net: CampusNet, jar: httpx.Cookies, service: Service, token: str, device: str) -> ServiceState:
    headers = {"user-agent": CARD_UA, "x-requested-with": "cn.edu.pku.PKUAndroid"}
    await _get(net, jar, f"{_login_url(service, device)}?_rand={_rand()}&token={token}", headers=headers)
    url = "https://portal.pku.edu.cn/portal2017/util/redirectToCard.do"
    for _ in range(MAX_HOPS):
        response = await _get(net, jar, url, headers=headers)
        location = response.headers.get("location")
        if response.status_code not in (301, 302, 303, 307, 308) or not location:
            break
        url = str(httpx.URL(url).join(location))
        jwt = next(iter(parse_qs(urlsplit(url).query).get("synjones-auth", [])), None)
        if jwt:
            return ServiceState(token=jwt, expires_at=time.time() + service.lifetime)  # the server does not say
    raise LoginError("server", Message("campus_card_no_token"))


async def cookie_service(net: CampusNet, jar: httpx.Cookies, service: Service, token: str, device: str) -> ServiceState:
    """Blackboard and bdkj: the token at the service's login URL sets its session cookies."""
    sep = "&" if "?" in _login_url(service, device) else "?"
    response = await _follow(
        net, jar, f"{_login_url(service, device)}{sep}_rand={_rand()}&token={token}", {"user-agent": CHROME_UA}
    )
    if response.status_code >= 400 or _rejected(response):
        raise LoginError("server", Message("campus_refused", service=service.titles, status=response.status_code))
    return ServiceState(expires_at=time.time() + service.lifetime)


#: PKUAutoElective (`elective.py` `sso_login`): elective answers 101 to an SSO request that carries no JSESSIONID
#: cookie, so it is sent one in the shape the server hands out (52 characters, "!", a number).
_ALNUM = string.ascii_letters + string.digits
#: PKUAutoElective `InvalidTokenError` (312): the token was spent by a login elsewhere in the meantime.
_TOKEN_INVALID = "token无效"
#: pkucli `elective/src/login.rs` `extract_sida`: any 32 non-space characters, not only lowercase hex.
_SIDA = re.compile(r"sida=(\S{32})&sttp=")


def _jsessionid() -> str:
    rand = random.SystemRandom()
    return "".join(rand.choice(_ALNUM) for _ in range(52)) + "!" + str(rand.randrange(10**9, 10**10))


async def elective(net: CampusNet, jar: httpx.Cookies, service: Service, token: str, device: str) -> ServiceState:
    base = "https://elective.pku.edu.cn/elective2008/ssoLogin.do"
    if "JSESSIONID" not in jar:
        jar.set("JSESSIONID", _jsessionid(), domain="elective.pku.edu.cn", path="/")
        net.register([jar["JSESSIONID"]], "cookie")
    first = f"{base}?_rand={_rand()}&token={token}"
    response = await _follow(net, jar, first, {"user-agent": CHROME_UA})
    if _TOKEN_INVALID in response.text[:50000].lower():
        raise LoginError("server", Message("campus_elective_token_invalid"))
    chooser = _SIDA.search(response.text[:50000])
    if response.status_code == 200 and chooser and "div1" in response.text and "div2" in response.text:
        # A dual-degree account chooses a programme; the major (bzx) is the one most students mean. The choice
        # carries the SSO page as its Referer (PKUAutoElective `sso_login_dual_degree`).
        response = await _follow(
            net, jar, f"{base}?sida={chooser.group(1)}&sttp=bzx", {"user-agent": CHROME_UA, "referer": first}
        )
    if response.status_code >= 400 or _rejected(response):
        raise LoginError("server", Message("campus_refused", service=service.titles, status=response.status_code))
    return ServiceState(expires_at=time.time() + service.lifetime)


async def cwfw(net: CampusNet, jar: httpx.Cookies, service: Service, token: str, device: str) -> ServiceState:
    base = "https://cwfw.pku.edu.cn/WFManager"
    home = await _follow(net, jar, f"{base}/home2.jsp?_rand={_rand()}&token={token}")
    if _rejected(home):
        raise LoginError("server", Message("campus_cwfw_refused"))
    posted = await login_send(
        net, jar, "POST", f"{base}/findpages_postData.action",
        data={"token": token, "timeStamp": str(int(time.time() * 1000))},
        headers={"x-requested-with": "XMLHttpRequest"},
    )  # fmt: skip
    if posted.text.strip() != "ok":
        raise LoginError("server", Message("campus_cwfw_disabled"))
    page = await _follow(net, jar, f"{base}/home3.jsp")
    found = re.search(r'id="WF_CWBS"[^>]*\burl="([^"]+)"', page.text) or re.search(
        r'\burl="([^"]+)"[^>]*id="WF_CWBS"', page.text
    )
    if not found:
        raise LoginError("server", Message("campus_cwfw_no_sub"))
    target = html.unescape(found.group(1)).removeprefix("WINOPEN")
    # pkucli `cwfw/src/login.rs` sends home3.jsp as the Referer of the subsystem's entry
    sub = await _follow(net, jar, str(httpx.URL(f"{base}/home3.jsp").join(target)), {"referer": f"{base}/home3.jsp"})
    if "login.html" in sub.text and "系统超时" in sub.text:
        raise LoginError("server", Message("campus_cwfw_timeout"))
    return ServiceState(expires_at=time.time() + service.lifetime)


async def its(net: CampusNet, jar: httpx.Cookies, username: str, password: str, service: Service) -> ServiceState:
    """its's own form login with the network account (not IAAA)."""
    response = await login_send(
        net, jar, "POST", "https://its.pku.edu.cn/cas/webLogin",
        data={"iprange": "yes", "rid": "", "username": username, "password": password},
        headers={"referer": "https://its.pku.edu.cn/"},  # pkucli `portal/src/netfee.rs`
    )  # fmt: skip
    alert = re.search(r'alert\("([^"]*)"\)', response.text)
    if alert and "history.back" in response.text:
        raise LoginError("password", Message("its_said", message=alert.group(1)))
    if response.status_code >= 400:
        raise LoginError("server", Message("its_http", status=response.status_code))
    return ServiceState(expires_at=time.time() + service.lifetime)


EXCHANGES: dict[str, Exchange] = {
    "treehole": treehole,
    "card": card,
    "blackboard": cookie_service,
    "elective": elective,
    "cwfw": cwfw,
    "bdkj": cookie_service,
}
