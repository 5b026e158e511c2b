"""ToolError: a failed tool run, with the kind a `catch` sees and where in the plugin it happened."""

from __future__ import annotations

from typing import Any, Literal

ErrorKind = Literal["http", "network", "timeout", "limit", "check", "expression", "ability", "input"]
Cause = Literal["login", "network", "service", "plugin", "input", "internal", "refused", "unrecorded"]
"""Whose move it is, for the person at the app (not seen by a `catch`): log in, wait for the network, the
service failed, the plugin is broken (its author runs `plugin validate`), the input was wrong, the app failed,
the call was not allowed, or (replayed data: the demo, `--with`) no recording answers the request. Set where the
error happens; the UI only looks it up."""

#: The cause a ToolError of each kind has unless its source said otherwise.
CAUSE_OF_KIND: dict[str, Cause] = {
    "network": "network",
    "timeout": "network",
    "http": "service",
    "check": "service",
    "limit": "plugin",
    "expression": "plugin",
    "ability": "plugin",
    "input": "input",
}


class ToolError(Exception):
    """A tool run failed.

    Attributes:
        kind: what failed (language.md §9: http network timeout limit check expression ability; input).
        message: a message a user can read.
        status: the HTTP status, for kind 'http'.
        cause: what would help the person at the app (log in, retry, tell the author); service: which campus
            service to log in to.
        final: no `catch` (nor a cache's staleOnError) may handle it: the run ends here. A host's refusal of a
            request that carries a secret is final, so a plugin cannot probe with it and carry on.
        tool: `plugin.tool`; step: `2` or `3.1` (nested); file and line: where that step is written.
    """

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        status: int | None = None,
        final: bool = False,
        cause: Cause | None = None,
        service: str | None = None,
        field: str | None = None,
        fields: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.final = final
        self.cause: Cause = cause or CAUSE_OF_KIND.get(kind, "plugin")
        """For the person at the app: what would help (see `Cause`); a `catch` sees `kind` only."""
        self.service = service
        """With cause 'login': the campus service to log in to."""
        self.field = field
        """With kind 'input': the input field that is wrong (its top-level name), so a form can mark it."""
        self.fields = fields or ((field,) if field else ())
        """With kind 'input': every field that is wrong (the first is `field`), so a form marks them all."""
        self.tool: str | None = None
        self.step: str | None = None
        self.file: str | None = None
        self.line: int | None = None

    def locate(self, tool: str, step: str | None, file: str | None, line: int | None) -> ToolError:
        """Record where the error happened (the innermost place wins)."""
        if self.tool is None:
            self.tool, self.step, self.file, self.line = tool, step, file, line
        return self

    def catch_value(self) -> dict[str, Any]:
        """The `error` a catch block sees: { message, kind, status? }."""
        out: dict[str, Any] = {"message": self.message, "kind": self.kind}
        if self.status is not None:
            out["status"] = float(self.status)
        return out

    def __str__(self) -> str:
        where = []
        if self.tool:
            where.append(self.tool)
        if self.step:
            where.append(f"step {self.step}")
        if self.file:
            where.append(f"{self.file}:{self.line}" if self.line else self.file)
        return (", ".join(where) + ": " if where else "") + self.message
