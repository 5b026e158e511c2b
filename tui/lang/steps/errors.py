"""ToolError: a failed tool run, with the kind a `catch` sees and where in the plugin it happened."""

from __future__ import annotations

from typing import Any, Literal

ErrorKind = Literal["http", "network", "timeout", "limit", "check", "expression", "ability", "input"]


class ToolError(Exception):
    """A tool run failed.

    Attributes:
        kind: what failed (language.md §9: http network timeout limit check expression ability; input).
        message: a message a user can read.
        status: the HTTP status, for kind 'http'.
        final: no `catch` (nor a cache's staleOnError) may handle it: the run ends here. A host's refusal of a
            request that carries a secret is final, so a plugin cannot probe with it and carry on.
        tool: `plugin.tool`; step: `2` or `3.1` (nested); file and line: where that step is written.
    """

    def __init__(self, kind: ErrorKind, message: str, status: int | None = None, final: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.final = final
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
