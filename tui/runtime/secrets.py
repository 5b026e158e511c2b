"""Known secrets (session cookies, tokens, OTP codes) and a scrubber that keeps them out of every sink.

The campus session layer registers what it holds; the gate scrubs results, model text, errors and audit
details with it, as a backstop to never putting secrets there in the first place (threats.md S2).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

MASK = "‹secret›"
#: Secrets shorter than this are not scrubbed: a 3-character "secret" would mangle ordinary text.
MIN_SECRET = 6


class Secrets:
    """A set of secret strings, safe to share across threads."""

    def __init__(self) -> None:
        self._values: set[str] = set()
        self._lock = threading.Lock()

    def add(self, value: str) -> None:
        """Remember a secret to keep out of every sink."""
        if isinstance(value, str) and len(value) >= MIN_SECRET:
            with self._lock:
                self._values.add(value)

    def discard(self, value: str) -> None:
        with self._lock:
            self._values.discard(value)

    def scrub_text(self, text: str) -> str:
        """`text` with every known secret masked (longest first, so one cannot hide inside another)."""
        with self._lock:
            values = sorted(self._values, key=len, reverse=True)
        for v in values:
            if v in text:
                text = text.replace(v, MASK)
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


class ScrubbingFilter(logging.Filter):
    """Masks known secrets in log records (httpx logs each request's URL, and SSO hops carry `token=`)."""

    def __init__(self, secrets: Secrets) -> None:
        super().__init__()
        self.secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        clean = self.secrets.scrub_text(text)
        if clean != text:
            record.msg, record.args = clean, None
        return True


#: The libraries that log request lines or headers (threats.md S3).
NOISY_LOGGERS = ("httpx", "httpcore", "openai")


def scrub_logs(secrets: Secrets) -> None:
    """Put a scrubbing filter on the HTTP libraries' loggers (once per Secrets)."""
    for name in NOISY_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ScrubbingFilter) and f.secrets is secrets for f in logger.filters):
            logger.addFilter(ScrubbingFilter(secrets))
