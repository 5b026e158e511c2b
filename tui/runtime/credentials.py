"""Credentials recognised by their shape, so they are masked even before anyone registered the value.

A campus redirect hands out a token in its `Location` (`token=`, `synjones-auth=`, a CAS `ticket=ST-…`), a
Java service appends `;jsessionid=…` to paths, and HTTP libraries log header tuples like
`(b'Set-Cookie', b'SESSION=…')` before the session layer has seen them. These patterns catch such values in
log lines and campus answers; the registry of known secrets (`secrets.py`) catches everything else.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlsplit

from tui.lang.expr.secret import SECRET_MASK

#: Query, form and path parameters whose value is a credential (lower case; matched case-insensitively).
CREDENTIAL_PARAMS = frozenset(
    {"token", "ticket", "access_token", "refresh_token", "id_token", "synjones-auth", "jsessionid", "jwt",
     "sessionid", "st"}
)  # fmt: skip

_NAMES = "|".join(sorted((re.escape(n) for n in CREDENTIAL_PARAMS if n != "st"), key=len, reverse=True))
# `name=value` (or `name%3Dvalue` inside an encoded URL); `ST=` only in capitals, as CAS writes it, since
# a lower-case `st=` is an ordinary parameter on many sites.
_PARAM = re.compile(
    rf"(?<![A-Za-z0-9_.-])((?i:{_NAMES})|ST)(=|%3[dD])([^\s&\"'<>;,#?\\%]+)",
)
#: A CAS service ticket wherever it stands: ST-<digits>-<random>.
_CAS_TICKET = re.compile(r"\bST-\d+-[A-Za-z0-9._-]+")
#: A bearer token after its scheme (`Authorization: Bearer …`, the card's `bearer …`).
_BEARER = re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})")
#: A JSON member that holds a credential: "token": "…".
_JSON_MEMBER = re.compile(rf"(\"(?i:{_NAMES})\"\s*:\s*\")([^\"\\]*)(\")")
#: Headers that carry credentials, as text (`Cookie: a=b`) or as a logged tuple (`(b'Cookie', b'a=b')`).
CREDENTIAL_HEADER_NAMES = ("set-cookie2", "set-cookie", "cookie", "authorization", "proxy-authorization",
                           "synjones-auth", "x-xsrf-token", "uuid")  # fmt: skip
_HEADER_NAMES = "|".join(re.escape(n) for n in CREDENTIAL_HEADER_NAMES)
_HEADER = re.compile(rf"(?i)(?<![A-Za-z0-9_-])({_HEADER_NAMES})(['\"]?\s*[:,]\s*b?['\"]?)([^'\"\r\n]+)")
# In a campus answer `uuid` is an ordinary field name; the session's own uuid is registered instead.
_ANSWER_HEADER = re.compile(
    rf"(?i)(?<![A-Za-z0-9_-])({'|'.join(re.escape(n) for n in CREDENTIAL_HEADER_NAMES if n != 'uuid')})"
    r"(['\"]?\s*[:]\s*['\"]?)([^'\"\r\n]+)"
)


def mask_credentials(text: str, headers: bool = True, answer: bool = False) -> str:
    """`text` with every credential recognised by its shape masked.

    Args:
        headers: also mask the values of credential headers written out (`Cookie: …`).
        answer: the text is a campus answer, where `uuid` is an ordinary name and header values are JSON.
    """
    if not text:
        return text
    text = _PARAM.sub(lambda m: m.group(1) + m.group(2) + SECRET_MASK, text)
    text = _CAS_TICKET.sub(SECRET_MASK, text)
    text = _BEARER.sub(lambda m: m.group(1) + SECRET_MASK, text)
    text = _JSON_MEMBER.sub(lambda m: m.group(1) + SECRET_MASK + m.group(3), text)
    if headers:
        pattern = _ANSWER_HEADER if answer else _HEADER
        text = pattern.sub(lambda m: m.group(1) + m.group(2) + SECRET_MASK, text)
    return text


def credential_values(url: str) -> list[str]:
    """The values of credential parameters in `url`: its query and any `;jsessionid=` in its path."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    found = [v for k, v in parse_qsl(parts.query, keep_blank_values=False) if k.lower() in CREDENTIAL_PARAMS]
    for segment in parts.path.split(";")[1:]:
        name, _, value = segment.partition("=")
        if name.lower() in CREDENTIAL_PARAMS and value:
            found.append(unquote(value))
    return found


def cookie_values(set_cookie: str) -> list[str]:
    """The value a `Set-Cookie` header sets (its attributes are not secret)."""
    first = set_cookie.split(";", 1)[0]
    _, _, value = first.partition("=")
    return [value.strip()] if value.strip() else []
