"""The interpreter's window on the world (architecture.md rule 3): HTTP, campus requests, KV, abilities.

`tui/runtime` implements `Host` for the app; the recorded-test runner implements it with recordings. The
interpreter itself enforces the policy and the limits, so every host gets the same guarantees.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

#: Bytes of keys and JSON values one plugin may keep (language.md §7).
KV_QUOTA_BYTES = 256 * 1024


def entry_size(key: str, value: Any) -> int:
    """What one KV entry counts against the quota: the UTF-8 bytes of its key and of its JSON value."""
    return len(key.encode()) + len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """A request as the interpreter built it (URL already checked against the policy)."""

    method: str
    url: str
    """The full URL; for a campus request, the URL on the service's host."""
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    campus: str | None = None
    """The campus service whose session the host attaches, or None for a public request."""
    effect: str = "read"
    """The running tool's effect: a host never retries a write, money or public request after an ambiguous
    failure (a timeout, a 5xx), since it may have happened."""


@dataclass(frozen=True, slots=True)
class HttpResponse:
    """A response as the plugin may see it: credential headers are already removed by the host."""

    status: int
    url: str
    """The final URL after redirects."""
    headers: dict[str, str]
    body: bytes


class HostError(Exception):
    """A failure of the outside world, with the kind a `catch` sees (`network`, `timeout`, `ability` …).

    A `final` error ends the run: no `catch` sees it (a request refused for carrying a secret).
    """

    def __init__(self, kind: str, message: str, status: int | None = None, final: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.final = final


class KvQuotaError(HostError):
    """A write would take the plugin's store past its quota; the old value is left in place."""

    def __init__(self, message: str) -> None:
        super().__init__("limit", message)


class Host(Protocol):
    """What a tool run may ask of the app."""

    async def fetch(self, request: HttpRequest, allowed: tuple[str, ...]) -> HttpResponse:
        """Send a public request; every redirect hop must stay within `allowed` domain patterns.

        Raises:
            HostError: network failure, timeout, response over the size limit, redirect out of policy.
        """
        ...

    async def campus(self, request: HttpRequest) -> HttpResponse:
        """Send a request signed with the user's session on `request.campus`.

        Raises:
            HostError: not logged in, network failure, timeout.
        """
        ...

    async def kv_get(self, key: str) -> Any:
        """The stored value, or None when missing or expired."""
        ...

    async def kv_set(self, key: str, value: Any, ttl_ms: int | None) -> None:
        """Store a JSON value atomically.

        Raises:
            KvQuotaError: the plugin's store would pass its quota (the old value stays).
        """
        ...

    async def kv_delete(self, key: str) -> None:
        """Remove a key (no error when missing)."""
        ...

    async def ability(self, name: str, args: Any) -> Any:
        """Run a host ability (`verify.treehole`) and return its JSON result.

        Raises:
            HostError: kind 'ability', with a message for the user.
        """
        ...
