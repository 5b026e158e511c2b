"""The interpreter's window on the world (architecture.md rule 3): HTTP, campus requests, KV, abilities.

`tui/runtime` implements `Host` for the app; the recorded-test runner implements it with recordings. The
interpreter itself enforces the policy and the limits, so every host gets the same guarantees. A run's KV
changes are kept by the interpreter and handed to the host in one batch when the run succeeds, so a failing run
leaves nothing behind (threats.md).
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

    def __init__(
        self,
        kind: str,
        message: str,
        status: int | None = None,
        final: bool = False,
        cause: str | None = None,
        service: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.final = final
        self.cause = cause
        """What would help the person at the app, when the kind alone does not say (`login`, `plugin`); see
        `tui.lang.steps.errors.Cause`."""
        self.service = service
        """With cause 'login': the campus service to log in to."""


class KvQuotaError(HostError):
    """A write would take the plugin's store past its quota; the old value is left in place."""

    def __init__(self, message: str) -> None:
        super().__init__("limit", message)


@dataclass(frozen=True, slots=True)
class KvWrite:
    """One change a run made to its plugin's store, kept until the run ends: a JSON value with its time to live,
    or with `deleted` a removal."""

    value: Any = None
    ttl_ms: int | None = None
    deleted: bool = False


KvBatch = dict[str, KvWrite]
"""A run's pending changes: each key's last change (reads in the run see them; they are written together)."""


def check_batch(used: int, replaced: int, batch: KvBatch, quota: int) -> None:
    """Judge a batch against the quota: `used` is what the plugin keeps now, `replaced` what the entries of the
    batch's keys take among it. A batch may end over the quota only if it does not grow the store (deletes and
    smaller values are always allowed).

    Raises:
        KvQuotaError: the store would pass its quota.
    """
    after = used - replaced + sum(entry_size(k, w.value) for k, w in batch.items() if not w.deleted)
    if after > quota and after > used:
        raise KvQuotaError(f"the plugin's store would hold {after:,} bytes; the limit is {quota // 1024} KB")


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

    async def kv_check(self, batch: KvBatch) -> None:
        """Judge the run's pending changes against the quota as the store is now (a dry run: nothing changes).
        The interpreter asks before each write, so a quota error is met at the step that causes it.

        Raises:
            KvQuotaError: writing `batch` now would take the plugin's store past its quota.
        """
        ...

    async def kv_commit(self, batch: KvBatch) -> None:
        """Write a run's pending changes in one transaction, the quota checked inside it (another run may have
        used the space since the last check); the interpreter calls it once, when the run has succeeded.

        Raises:
            KvQuotaError: the store would pass its quota; nothing is written.
        """
        ...

    async def ability(self, name: str, args: Any) -> Any:
        """Run a host ability (`verify.treehole`) and return its JSON result.

        Raises:
            HostError: kind 'ability', with a message for the user.
        """
        ...
