"""A campus answer as a plugin may see it: no credential header, and no secret in its body, headers or URL.

A service that reflects the signed request (its headers with `synjones-auth`, `Authorization`, `uuid`,
`Cookie`; its URL with token parameters) or hands out payment codes would otherwise let a read tool forward
them. Here every registered secret of the session is masked — as written, JSON-escaped and percent-encoded —
and so is every credential recognised by its shape (`token=`, `ticket=`, `ST-…`, `;jsessionid=`, `Bearer …`).
A service's secret JSON members (the card's payment codes) are replaced before anything else, and registered.

Passwords and mobile-token codes are not masked here on purpose: they are short or chosen by a person, and a
campus answer can hold text anyone wrote (a treehole post listing candidates); masking one there would tell
the plugin which candidate is right. A plugin never has them to send, and the gate masks them in every sink.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, quote_plus

from tui.lang.host import HttpResponse
from tui.lang.steps.requests import CREDENTIAL_HEADERS, scrub_url
from tui.runtime.campus.services import Service
from tui.runtime.credentials import mask_credentials
from tui.runtime.secrets import MASK, Secrets

_CHARSET = re.compile(r"charset=([\w-]+)", re.IGNORECASE)
_SENTINEL = "\x00\x01secret\x01\x00"
"""Marks a masked span while a body is worked on as Latin-1 text (bytes one to one), replaced at the end."""


def scrub_answer(
    secrets: Secrets, svc: Service, status: int, url: str, headers: dict[str, str], body: bytes
) -> HttpResponse:
    """The response a plugin sees for a campus request."""
    body = _secret_fields(secrets, svc, body)
    safe = {
        k: _text(secrets, v) for k, v in headers.items() if k.lower() not in CREDENTIAL_HEADERS
    }  # the credential headers go entirely; the rest are masked
    return HttpResponse(status, _text(secrets, scrub_url(url)), safe, _body(secrets, body, _charset(headers)))


def _text(secrets: Secrets, text: str) -> str:
    return mask_credentials(secrets.scrub_text(text, guessable=False), answer=True)


def _charset(headers: dict[str, str]) -> str:
    ctype = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
    m = _CHARSET.search(ctype)
    return m.group(1) if m else "utf-8"


def _forms(value: str) -> set[str]:
    """How a secret can be written in an answer: as it is, JSON-escaped (also PHP's `\\/`), percent-encoded."""
    return {value, json.dumps(value)[1:-1], value.replace("/", "\\/"), quote(value, safe=""), quote_plus(value)}


def _body(secrets: Secrets, body: bytes, charset: str) -> bytes:
    if not body:
        return body
    try:
        mask = MASK.encode(charset)
    except (LookupError, UnicodeEncodeError):
        mask = b"[secret]"
    # Latin-1 maps every byte to one character and back, so the body's own encoding (GBK pages are common)
    # is never touched outside the masked spans.
    text = body.decode("latin-1")
    for value, _kind in secrets.items(guessable=False):
        for form in _forms(value):
            try:
                raw = form.encode(charset).decode("latin-1")
            except (LookupError, UnicodeEncodeError):
                raw = form.encode("utf-8").decode("latin-1")
            if raw in text:
                pattern = rf"(?<!\d){re.escape(raw)}(?!\d)" if raw.isdigit() else re.escape(raw)
                text = re.sub(pattern, _SENTINEL, text)
    text = mask_credentials(text, answer=True).replace(MASK, _SENTINEL)
    return text.encode("latin-1", "replace").replace(_SENTINEL.encode("latin-1"), mask)


def _secret_fields(secrets: Secrets, svc: Service, body: bytes) -> bytes:
    """A JSON body with the service's secret members replaced by the mask (and their values registered)."""
    if not svc.secret_fields or not any(f.encode() in body for f in svc.secret_fields):
        return body
    try:
        doc = json.loads(body)
    except ValueError:
        return body
    found: list[str] = []
    clean = _replace_fields(doc, frozenset(svc.secret_fields), found)
    if not found:
        return body
    for value in found:
        secrets.add(value, "payment")
    return json.dumps(clean, ensure_ascii=False).encode()


def _replace_fields(v: Any, fields: frozenset[str], found: list[str], depth: int = 0) -> Any:
    if depth > 64:
        return v
    if isinstance(v, dict):
        return {
            k: _masked(x, found) if k in fields else _replace_fields(x, fields, found, depth + 1) for k, x in v.items()
        }
    if isinstance(v, list):
        return [_replace_fields(x, fields, found, depth + 1) for x in v]
    return v


def _masked(v: Any, found: list[str]) -> Any:
    """A secret member's value with every text or number in it masked (lists keep their length)."""
    if isinstance(v, list):
        return [_masked(x, found) for x in v]
    if isinstance(v, dict):
        return {k: _masked(x, found) for k, x in v.items()}
    if isinstance(v, str | int | float) and not isinstance(v, bool):
        found.append(str(v))
        return MASK
    return v
