"""The campus services plugins may name (`campus: [...]`), and for each: its host, how requests are signed,
how "session expired" looks, and its IAAA app (campus.md §1, §2.5, §4).

Services whose login flow nobody has documented (cwpay, library, library-space) are listed as unsupported and
answer so, rather than guessing at a flow that might send the student's password somewhere wrong.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tui.lang.netpolicy import CAMPUS_HOSTS
from tui.runtime.campus import expiry
from tui.runtime.campus.expiry import Expiry
from tui.runtime.campus.net import CHROME_UA
from tui.runtime.secrets import Kind

#: The card server answers only the official Android app's client (campus.md §3.2); pkucli's known-working string
#: (`crates/campuscard/src/client.rs` MOBILE_UA).
CARD_UA = "PKUANDROID2.2.0_SM-S938B Dalvik/2.1.0 (Linux; U; Android 15; SM-S938B Build/BP1A.250305.020) okhttp/4.12.0"
DAY = 24 * 3600


@dataclass
class ServiceState:
    """One service's login: a token and/or cookies, when it lapses, and service-specific extras."""

    token: str | None = None
    expires_at: float | None = None
    """Unix seconds; None when the server does not say (then `lifetime` of the service applies at login)."""
    cookies: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def expired(self, now: float | None = None) -> bool:
        return self.expires_at is not None and (time.time() if now is None else now) >= self.expires_at

    def to_json(self) -> dict[str, Any]:
        return {"token": self.token, "expiresAt": self.expires_at, "cookies": self.cookies, "extra": self.extra}

    @classmethod
    def from_json(cls, value: dict[str, Any] | None) -> ServiceState | None:
        if not isinstance(value, dict):
            return None
        cookies = value.get("cookies")
        extra = value.get("extra")
        expires = value.get("expiresAt")
        return cls(
            token=value.get("token") if isinstance(value.get("token"), str) else None,
            expires_at=float(expires) if isinstance(expires, int | float) else None,
            cookies=[c for c in cookies if isinstance(c, dict)] if isinstance(cookies, list) else [],
            extra=extra if isinstance(extra, dict) else {},
        )

    def secret_values(self) -> list[tuple[str, Kind]]:
        """Everything here that must never reach a plugin, a log or the model, each with its kind."""
        values: list[tuple[str, Kind]] = [(self.token or "", "token")]
        values += [(str(c.get("value", "")), "cookie") for c in self.cookies]
        for k, v in self.extra.items():
            if k in ("fullUuid", "subToken"):
                values.append((str(v), "uuid" if k == "fullUuid" else "token"))
        return [(v, kind) for v, kind in values if v]


Signer = Callable[[ServiceState, dict[str, str]], dict[str, str]]
"""Adds the service's credential headers; returns query parameters to add (card's `synAccessSource`)."""


def _sign_cookies_only(state: ServiceState, headers: dict[str, str]) -> dict[str, str]:
    return {}


def _sign_treehole(state: ServiceState, headers: dict[str, str]) -> dict[str, str]:
    headers["authorization"] = f"Bearer {state.token}"
    headers["uuid"] = str(state.extra.get("fullUuid", ""))
    headers["accept"] = "application/json, text/plain, */*"
    headers["user-agent"] = CHROME_UA
    return {}


#: PKUAutoElective (`elective.py`): without a Referer from elective itself, elective answers "请不要用刷课机刷课".
ELECTIVE_REFERER = "https://elective.pku.edu.cn/elective2008/edu/pku/stu/elective/controller/help/HelpController.jpf"


def _sign_elective(state: ServiceState, headers: dict[str, str]) -> dict[str, str]:
    headers.setdefault("referer", ELECTIVE_REFERER)  # a plugin that names the page it comes from keeps its own
    headers.setdefault("user-agent", CHROME_UA)
    return {}


def _sign_card(state: ServiceState, headers: dict[str, str]) -> dict[str, str]:
    headers["synjones-auth"] = f"bearer {state.token}"
    headers["synaccesssource"] = "h5"
    headers["user-agent"] = CARD_UA
    headers["x-requested-with"] = "cn.edu.pku.PKUAndroid"
    return {"synAccessSource": "h5"}


@dataclass(frozen=True)
class Service:
    """One campus service."""

    name: str
    host: str
    title: str
    """What the student reads in the status panel (Chinese)."""
    title_en: str = ""
    supported: bool = True
    app_id: str | None = None
    """The IAAA app id; None for a service with its own login (its)."""
    redirect: str | None = None
    """The redirect URL registered at IAAA for `app_id` (some are plain http on purpose: IAAA matches it)."""
    sign: Signer = _sign_cookies_only
    expired: Expiry = expiry.sso
    """How its answers say the session lapsed (expiry.py, with the client each signature comes from)."""
    lifetime: float = DAY
    """How long a login is trusted when the server does not say (pkucli's guess for most services)."""
    extra_hosts: tuple[str, ...] = ()
    """Other hosts the login chain sets cookies on (the card's portal hop)."""
    secret_fields: tuple[str, ...] = ()
    """JSON members of its answers that hold secrets (the card's payment codes), masked before a plugin reads
    them and registered so no sink shows them (campus.md §3.2: "show on screen only, never in tool results")."""

    def title_for(self, locale: str) -> str:
        return self.title_en if locale == "en" and self.title_en else self.title

    @property
    def titles(self) -> dict[str, str]:
        """Its name in both languages, as a `Message` argument (the sentence then names it in the reader's)."""
        return {"zh": self.title, "en": self.title_for("en")}


SERVICES: dict[str, Service] = {
    s.name: s
    for s in (
        Service(
            "treehole",
            CAMPUS_HOSTS["treehole"],
            "树洞",
            "Treehole",
            app_id="PKU Helper",
            redirect="https://treehole.pku.edu.cn/chapi/cas_iaaa_login?version=3&uuid={device}&plat=web",
            sign=_sign_treehole,
            expired=expiry.treehole,
        ),
        Service(
            "card",
            CAMPUS_HOSTS["card"],
            "校园卡",
            "Campus card",
            app_id="portal2017",
            redirect="https://portal.pku.edu.cn/portal2017/ssoLogin.do",
            sign=_sign_card,
            expired=expiry.card,
            extra_hosts=("portal.pku.edu.cn",),
            secret_fields=("barcode",),  # batchGetBarCodeGet's data.barcode[]: payment codes
        ),
        Service(
            "blackboard",
            CAMPUS_HOSTS["blackboard"],
            "教学网",
            "Course site (Blackboard)",
            app_id="blackboard",
            redirect="http://course.pku.edu.cn/webapps/bb-sso-BBLEARN/execute/authValidate/campusLogin",
        ),
        Service(
            "elective",
            CAMPUS_HOSTS["elective"],
            "选课网",
            "Course election",
            app_id="syllabus",  # the docs say `elective`; pkucli's working code uses `syllabus`
            redirect="http://elective.pku.edu.cn:80/elective2008/ssoLogin.do",
            sign=_sign_elective,
            expired=expiry.elective,
        ),
        Service(
            "cwfw",
            CAMPUS_HOSTS["cwfw"],
            "财务综合信息门户",
            "Finance portal",
            app_id="IIPF",
            redirect="https://cwfw.pku.edu.cn/WFManager/home2.jsp",
            expired=expiry.cwfw,
        ),
        Service(
            "bdkj",
            CAMPUS_HOSTS["bdkj"],
            "研讨室预约",
            "Seminar rooms",
            app_id="bdkj",
            redirect="http://bdkj.pku.edu.cn/login/oauth",
        ),
        # its has no lasting session: the network account's form login is repeated after a short while.
        Service("its", CAMPUS_HOSTS["its"], "网络账号（网费）", "Network account", lifetime=600),
        Service("cwpay", CAMPUS_HOSTS["cwpay"], "财务收费", "Finance payments", supported=False),
        Service("library", CAMPUS_HOSTS["library"], "图书馆", "Library", supported=False),
        Service("library-space", CAMPUS_HOSTS["library-space"], "图书馆空间预约", "Library spaces", supported=False),
    )
}


class UnsupportedService(Exception):
    """A service whose login flow is not documented yet."""


def service(name: str) -> Service:
    """The service called `name`.

    Raises:
        UnsupportedService: not a campus service, or its login is not supported yet.
    """
    found = SERVICES.get(name)
    if found is None:
        raise UnsupportedService(f"{name!r} is not a campus service; known: {', '.join(SERVICES)}")
    if not found.supported:
        raise UnsupportedService(
            f"campus service {name} ({found.title}) is not supported yet: its login flow is not documented, so "
            "the app does not guess at it"
        )
    return found
