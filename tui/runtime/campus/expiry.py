"""How each campus service says "your session has lapsed" — each from the independent client that knows it.

An answer that matches its service's signature costs a re-login and the request is sent once more; anything else is
the service's own answer, passed to the plugin as it is. So a signature must be narrow: a rejected request mistaken
for an expiry costs the student a full login and sends the request twice (cwfw's `SYS_ERROR` did both).

Sources (read with the `fetch`/`search` tools; facts carried over, no code):
- pkucli (`pkuinfo/pkucli`): `crates/treehole/src/client.rs` and `docs/treehole-api.md` (treehole 401, "Token not
  provided"), `crates/campuscard/src/api.rs` (`parse_response`: HTTP 401, or `code: 401` in a 200),
  `crates/course/src/api.rs` (`get_homepage`: 401, a final URL on IAAA or a login path, an IAAA login page),
  `crates/cwfw/src/context.rs` (`fetch_user_context`: `loadRolesMenu.action` carries `<input id="userContext">`
  while the session lives) and `crates/cwfw/src/api.rs` (`SYS_ERROR` is "the server rejected the request").
- PKUAutoElective (`autoelective/exceptions.py`, `hook.py`): elective answers an expired session with HTTP 200 and
  a page titled 系统异常 (a newer client reads 系统提示) saying `您尚未登录或者会话超时,请重新登录.` (error 313).

Unconfirmed (no client checks it): bdkj's expiry (pkucli trusts its 24 h timer) — the generic SSO signature is used.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Expiry = Callable[[int, dict[str, str], bytes, str], bool]
"""True when an answer says the session has lapsed (status, lower-case headers, body, the URL that answered)."""

REDIRECTS = (301, 302, 303, 307, 308)


def _text(body: bytes) -> str:
    return body[:20000].decode("utf-8", "replace")


def _json_code(body: bytes) -> Any:
    try:
        doc = json.loads(body)
    except ValueError:
        return None
    return doc.get("code") if isinstance(doc, dict) else None


def _to_login(status: int, headers: dict[str, str]) -> bool:
    """A redirect to IAAA or to a login page."""
    location = headers.get("location", "").lower()
    return status in REDIRECTS and ("iaaa" in location or "login" in location or "oauth.jsp" in location)


def treehole(status: int, headers: dict[str, str], body: bytes, url: str) -> bool:
    """pkucli treehole: the API answers 401 once the JWT is not accepted."""
    return status == 401


def card(status: int, headers: dict[str, str], body: bytes, url: str) -> bool:
    """pkucli campuscard `parse_response`: HTTP 401, or HTTP 200 with `code: 401` ("登录已失效")."""
    return status == 401 or _json_code(body) in (401, "401")


def sso(status: int, headers: dict[str, str], body: bytes, url: str) -> bool:
    """Blackboard (pkucli course `get_homepage`) and bdkj: a 401, a redirect to IAAA or a login page, or IAAA's
    login page itself."""
    if status == 401 or _to_login(status, headers):
        return True
    text = _text(body)
    return "IAAA" in text and "login" in text.lower() and "<form" in text.lower()


ELECTIVE_EXPIRED = ("尚未登录或者会话超时", "尚未登录或会话超时")


def elective(status: int, headers: dict[str, str], body: bytes, url: str) -> bool:
    """The SSO signature, and elective's own page: HTTP 200, titled 系统异常, `您尚未登录或者会话超时,请重新登录.`
    (PKUAutoElective `SessionExpiredError`). Other 系统异常 pages (不在操作时段, 请不要用刷课机刷课) are answers."""
    if sso(status, headers, body, url):
        return True
    text = _text(body)
    return any(words in text for words in ELECTIVE_EXPIRED)


def cwfw(status: int, headers: dict[str, str], body: bytes, url: str) -> bool:
    """A 401; the portal's timeout page (系统超时 with a link to login.html); or `loadRolesMenu.action` without the
    `userContext` input that every live session's menu carries (pkucli `context.rs`). Not `SYS_ERROR`: that is the
    server rejecting this request (pkucli `api.rs`), which a new login does not change."""
    if status == 401 or _to_login(status, headers):
        return True
    text = _text(body)
    if "系统超时" in text and "login.html" in text:
        return True
    return "loadRolesMenu.action" in url and status == 200 and 'id="userContext"' not in text.replace("'", '"')
