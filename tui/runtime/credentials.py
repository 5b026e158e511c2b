"""Credentials recognised by their shape, so they are masked even before anyone registered the value.

A campus redirect hands out a token in its `Location` (`token=`, `synjones-auth=`, a CAS `ticket=ST-…`), a
Java service appends `;jsessionid=…` to paths, and HTTP libraries log header tuples like
`(b'Set-Cookie', b'SESSION=…')` before the session layer has seen them. These patterns catch such values in
log lines and campus answers; the registry of known secrets (`secrets.py`) catches everything else.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from urllib.parse import parse_qsl, unquote, urlsplit

from tui.lang.expr.secret import SECRET_MASK

#: Query, form and path parameters whose value is a credential (lower case; matched case-insensitively).
CREDENTIAL_PARAMS = frozenset(
    {"token", "ticket", "access_token", "refresh_token", "id_token", "synjones-auth", "jsessionid", "jwt",
     "sessionid", "st"}
)  # fmt: skip

_LONGEST = max(len(n) for n in CREDENTIAL_PARAMS)
_NAMES = "|".join(sorted((re.escape(n) for n in CREDENTIAL_PARAMS if n != "st"), key=len, reverse=True))
# `name=value` (or `name%3Dvalue` inside an encoded URL); `ST=` only in capitals, as CAS writes it, since
# a lower-case `st=` is an ordinary parameter on many sites. Found from each `=`, looking back for a name.
_SEPARATOR = re.compile(r"=|%3[dD]")
# (inside an encoded URL the name follows an escape: `%3Ftoken%3D…`)
_NAME_BEFORE = re.compile(rf"(?:(?<![A-Za-z0-9_.-])|(?<=%[0-9A-Fa-f]{{2}}))(?:(?i:{_NAMES})|ST)\Z")
_VALUE = re.compile(r"[^\s&\"'<>;,#?\\%]+")
#: Headers that carry credentials, as text (`Cookie: a=b`) or as a logged tuple (`(b'Cookie', b'a=b')`).
CREDENTIAL_HEADER_NAMES = ("set-cookie2", "set-cookie", "cookie", "authorization", "proxy-authorization",
                           "synjones-auth", "x-xsrf-token", "uuid")  # fmt: skip
#: In a campus answer `uuid` is an ordinary field name (the session's own uuid is registered instead).
_ANSWER_HEADER_NAMES = tuple(n for n in CREDENTIAL_HEADER_NAMES if n != "uuid")
_HEADER_TAIL = re.compile(r"['\"]?\s*[:,]\s*b?['\"]?([^'\"\r\n]+)")
_ANSWER_HEADER_TAIL = re.compile(r"['\"]?\s*:\s*['\"]?([^'\"\r\n]+)")
#: A JSON member that holds a credential: "token": "…".
_JSON_NAMES = tuple(f'"{n}"' for n in CREDENTIAL_PARAMS)
_JSON_TAIL = re.compile(r"\s*:\s*\"([^\"\\]*)\"")
#: A bearer token after its scheme (`Authorization: Bearer …`, the card's `bearer …`).
_BEARER_TAIL = re.compile(r"\s+([A-Za-z0-9._~+/=-]{8,})")
#: A CAS service ticket wherever it stands: ST-<digits>-<random> (the whole ticket is masked).
_CAS_TAIL = re.compile(r"(\d+-[A-Za-z0-9._-]+)")
_NAME_CHAR = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_WORD_CHAR = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def mask_credentials(text: str, headers: bool = True, answer: bool = False) -> str:
    """`text` with every credential recognised by its shape masked.

    Args:
        headers: also mask the values of credential headers written out (`Cookie: …`).
        answer: the text is a campus answer, where `uuid` is an ordinary name and header values are JSON.
    """
    if not text:
        return text
    # Every shape is found by searching for its name (fast, in C) and matching what follows there: one regex
    # with the names in front would try them at every character of a 2 MB page.
    low = _lower(text)
    if any(f"{n}=" in low or f"{n}%3d" in low for n in CREDENTIAL_PARAMS):
        text = _mask_params(text)
    text = _mask_after(text, ("ST-",), _CAS_TAIL, _WORD_CHAR, (), whole=True, case=True)
    text = _mask_after(text, ("bearer",), _BEARER_TAIL, _WORD_CHAR, ())
    text = _mask_after(text, _JSON_NAMES, _JSON_TAIL, (), ())
    if headers:
        names = _ANSWER_HEADER_NAMES if answer else CREDENTIAL_HEADER_NAMES
        text = _mask_after(text, names, _ANSWER_HEADER_TAIL if answer else _HEADER_TAIL, _NAME_CHAR, _NAME_CHAR)
    return text


def _lower(text: str) -> str:
    """`text` lower-cased with every character where it was (lower() lengthens a few, like 'İ')."""
    low = text.lower()
    return low if len(low) == len(text) else text.translate(_ASCII_LOWER)


def _mask_after(
    text: str,
    names: tuple[str, ...],
    tail: re.Pattern[str],
    not_before: Collection[str],
    not_after: Collection[str],
    whole: bool = False,
    case: bool = False,
) -> str:
    """Mask group 1 of `tail` where it follows one of `names` standing on its own.

    Args:
        not_before, not_after: characters that may not touch the name (it would be part of a longer word).
        whole: mask the name too (a CAS ticket is `ST-…` as a whole).
        case: match the names case-sensitively.
    """
    hay = text if case else _lower(text)
    if not any(n in hay for n in names):
        return text
    found: list[tuple[int, int]] = []
    for name in names:
        at = hay.find(name)
        while at >= 0:
            found.append((at, at + len(name)))
            at = hay.find(name, at + 1)
    if not found:
        return text
    out: list[str] = []
    done = 0
    for start, end in sorted(found):
        if start < done or (start and text[start - 1] in not_before) or (end < len(text) and text[end] in not_after):
            continue  # inside a value masked already, or part of a longer word (`set-cookie` holds `cookie`)
        m = tail.match(text, end)
        if m is None:
            continue
        out += [text[done : start if whole else m.start(1)], SECRET_MASK]
        done = m.end(1)
    return "".join(out) + text[done:] if out else text


def _mask_params(text: str) -> str:
    out: list[str] = []
    done = 0
    for sep in _SEPARATOR.finditer(text):
        if sep.start() < done or not _NAME_BEFORE.search(text, max(done, sep.start() - _LONGEST), sep.start()):
            continue
        value = _VALUE.match(text, sep.end())
        if value is None:
            continue
        out += [text[done : value.start()], SECRET_MASK]
        done = value.end()
    return "".join(out) + text[done:] if out else text


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
