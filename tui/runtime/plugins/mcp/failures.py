"""What a remote server's failures say: one line for the student from the SDK's errors and the server's login
challenge. The SDK wraps a transport's failure in exception groups and JSON-RPC errors; the client reads them here
to tell a connection that failed from a request the server refused."""

from __future__ import annotations

import re

import mcp_types as types
from mcp.shared.exceptions import MCPError


def challenge_error(challenge: str) -> str:
    """` (invalid_token)` from a `WWW-Authenticate: Bearer error="invalid_token", …` challenge, else nothing."""
    found = re.search(r'error="([A-Za-z0-9_]{1,40})"', challenge)  # bounded, no nested repetition: linear
    return f" ({found.group(1)})" if found else ""


def _leaf(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def describe(exc: BaseException) -> str:
    """One line for a connection failure."""
    exc = _leaf(exc)
    if isinstance(exc, MCPError):
        return exc.error.message
    if isinstance(exc, TimeoutError):
        return "it did not answer in time"
    return str(exc) or type(exc).__name__


def connection_error(e: MCPError) -> bool:
    """Whether the SDK's error stands for the connection failing (closed, an HTTP error status, a session the
    server no longer knows) rather than the server refusing this one request."""
    return e.code in (types.CONNECTION_CLOSED, types.INTERNAL_ERROR) or e.error.message == "Session terminated"
