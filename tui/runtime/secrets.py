"""Known secrets (tokens, cookies, passwords, OTP codes, payment codes) and the scrubbing that keeps them out
of every sink: results, model text, errors, audit details and every log record of every logger.

The campus session layer registers what it holds, each with its kind (so a refusal can say what it refused
without showing it); the gate scrubs with it, the outgoing-request check (`outgoing.py`) refuses with it, and a
log-record factory masks every record of every logger with every live registry — as a backstop to never
putting secrets there in the first place (threats.md S2, S3).
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
import traceback
import weakref
from collections.abc import Callable, Iterable
from typing import Any, Literal

from tui.lang.expr.secret import SECRET_MASK
from tui.runtime.credentials import mask_credentials

MASK = SECRET_MASK
#: Secrets shorter than this are not scrubbed: a 3-character "secret" would mangle ordinary text.
MIN_SECRET = 6
#: Session cookies are long and random; a short or all-digit cookie value (a date, `lang=zh_CN`) is not one,
#: and treating it as a secret would refuse an innocent request that happens to hold the same date.
MIN_COOKIE = 8

Kind = Literal["token", "cookie", "password", "otp", "otp-secret", "payment", "uuid", "remote-token"]
#: How a refusal names each kind (never the value).
KIND_NAMES: dict[str, str] = {
    "token": "campus token",
    "cookie": "campus cookie",
    "password": "password",
    "otp": "mobile-token code",
    "otp-secret": "mobile-token secret",
    "payment": "payment code",
    "uuid": "campus session id (uuid)",
    "remote-token": "remote plugin's server token",
}
#: Kinds a person chose or a short code: an attacker can list candidates for them (a dictionary in a treehole
#: post), so they are never masked where a plugin could watch the masking happen (campus answers).
GUESSABLE: frozenset[str] = frozenset({"password", "otp"})
#: A mobile-token code is worth nothing after a few steps of 30 s; forgetting it keeps 6-digit numbers intact.
OTP_LIFETIME = 300.0


class Secrets:
    """A set of secret strings with their kinds, safe to share across threads.

    Every instance is live for the log scrubber while it exists (a weak reference: no leak).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._values: dict[str, tuple[str, float | None]] = {}
        """value → (kind, forget-after on `clock`, or None)."""
        self._lock = threading.Lock()
        self._clock = clock
        self._sorted: list[tuple[str, str]] | None = None
        """(value, kind), longest first: built once per change, since the gate scrubs every string of a result."""
        self._next_lapse = math.inf
        _live(self)

    def add(self, value: str | None, kind: Kind = "token", lifetime: float | None = None) -> None:
        """Remember a secret to keep out of every sink (an OTP code is forgotten after OTP_LIFETIME)."""
        if not isinstance(value, str) or len(value) < MIN_SECRET:
            return
        if kind == "cookie" and (len(value) < MIN_COOKIE or value.isdigit()):
            return  # a timestamp, date or counter a service keeps in a cookie is not a credential
        if lifetime is None and kind == "otp":
            lifetime = OTP_LIFETIME
        until = None if lifetime is None else self._clock() + lifetime
        with self._lock:
            old = self._values.get(value)
            if old is not None and old[1] is None:
                until = None  # a lasting secret stays lasting
            self._values[value] = (old[0] if old else kind, until)
            self._sorted = None
            if until is not None:
                self._next_lapse = min(self._next_lapse, until)

    def discard(self, value: str) -> None:
        with self._lock:
            self._values.pop(value, None)
            self._sorted = None

    def items(self, guessable: bool = True) -> list[tuple[str, str]]:
        """(value, kind) pairs, longest first (so one cannot hide inside another); lapsed ones dropped."""
        now = self._clock()
        with self._lock:
            if now >= self._next_lapse:
                for v in [v for v, (_, until) in self._values.items() if until is not None and until <= now]:
                    del self._values[v]
                self._next_lapse = min((u for _, u in self._values.values() if u is not None), default=math.inf)
                self._sorted = None
            if self._sorted is None:
                pairs = [(v, k) for v, (k, _) in self._values.items()]
                self._sorted = sorted(pairs, key=lambda p: len(p[0]), reverse=True)
            pairs = self._sorted
        return pairs if guessable else [p for p in pairs if p[1] not in GUESSABLE]

    def scrub_text(self, text: str, guessable: bool = True) -> str:
        """`text` with every known secret masked (all-digit ones only where no digit touches them)."""
        for v, _ in self.items(guessable):
            if v in text:
                text = _digits(v).sub(MASK, text) if v.isdigit() else text.replace(v, MASK)
        return text

    def scrub(self, value: Any) -> Any:
        """A JSON value with every string scrubbed (keys included)."""
        if isinstance(value, str):
            return self.scrub_text(value)
        if isinstance(value, list):
            return [self.scrub(v) for v in value]
        if isinstance(value, dict):
            return {self.scrub_text(k): self.scrub(v) for k, v in value.items()}
        return value

    def find(self, texts: Iterable[str]) -> str | None:
        """The kind of the first known secret that occurs in any of `texts` (ignoring case), or None."""
        folded = [t.casefold() for t in texts if t]
        for v, kind in self.items():
            needle = v.casefold()
            for t in folded:
                if needle in t and (not v.isdigit() or _digits(v).search(t)):
                    return kind
        return None


def _digits(v: str) -> re.Pattern[str]:
    # "123456" inside "2100123456" is a student id, not the code: digits must not touch it.
    return re.compile(rf"(?<!\d){re.escape(v)}(?!\d)")


# -- every log record, of every logger, through every handler --------------------------------------------
_LIVE: weakref.WeakSet[Secrets] = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()
_installed = False


def _live(secrets: Secrets) -> None:
    global _installed
    with _LIVE_LOCK:
        _LIVE.add(secrets)
        if _installed:
            return
        _installed = True
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        _scrub_record(record)
        return record

    # A record factory, not a filter: filters on a parent logger never see records that child loggers
    # (httpcore.http11, openai._base_client) pass up to the handlers, and handlers come and go.
    logging.setLogRecordFactory(factory)


def scrub_everything(text: str) -> str:
    """`text` with every secret of every live registry masked, and credentials recognised by their shape."""
    with _LIVE_LOCK:
        registries = list(_LIVE)
    for secrets in registries:
        text = secrets.scrub_text(text)
    return mask_credentials(text)


def _scrub_record(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a record whose arguments do not fit its format: logging reports that itself
        return
    clean = scrub_everything(message)
    if clean != message:
        record.msg, record.args = clean, None
    if record.exc_info and record.exc_info[0] is not None:
        # Formatted now and scrubbed; the exception object (its arguments may hold a token) is dropped.
        record.exc_text = scrub_everything("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
        record.exc_info = None
    if record.stack_info:
        record.stack_info = scrub_everything(record.stack_info)


def scrub_logs(secrets: Secrets) -> None:
    """Make sure log records are scrubbed with `secrets` (every Secrets is from its creation: kept for callers)."""
    _live(secrets)
