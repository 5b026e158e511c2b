"""Problems found in a plugin folder: each names the file, the line and a reason an author understands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding of the loader or the validator."""

    file: str
    """Path of the file inside the plugin folder (`tools/free.yaml`), or '' for the folder itself."""
    line: int | None
    """1-based line, when the problem sits on one."""
    message: str
    """What is wrong and, where it helps, what to write instead."""
    severity: Literal["error", "warning"] = "error"
    """Errors stop a plugin from loading; warnings do not."""
    column: int | None = None
    """1-based column on `line`, when the reader knows it (a file that does not parse as YAML or JSON)."""

    @property
    def where(self) -> str:
        """`file:line:column`, as far as they are known ('.' for the folder itself)."""
        where = self.file or "."
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.message}"


class DocumentError(Exception):
    """Loading stopped: the folder cannot be read as a plugin. Carries every problem found so far."""

    def __init__(self, problems: list[Problem], partial: Any = None) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems
        self.partial = partial
        """What did load (a `Plugin` whose broken parts are left out), so the validator can check the rest."""
