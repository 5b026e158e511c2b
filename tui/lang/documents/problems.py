"""Problems found in a plugin folder: each names the file, the line and column, a stable code, a reason an author
understands and, where one helps, a hint saying what to write instead (docs/PLUGIN-LANGUAGE.md lists the codes)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePath
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
    """1-based column on `line`, when the reader knows it."""
    code: str = ""
    """A stable UPPER_SNAKE name of the kind of problem (`UNKNOWN_KEY`, `TEMPLATE_SYNTAX`), for tools and docs."""
    hint: str = ""
    """What to write instead (`did you mean 'request'?`), or ''."""

    @property
    def where(self) -> str:
        """`file:line:column`, as far as they are known ('.' for the folder itself)."""
        where = self.file or "."
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    @property
    def text(self) -> str:
        """The message with its hint after '; ', or under it when the hint is an excerpt with a caret (the form
        `plugin validate` prints)."""
        if not self.hint:
            return self.message
        return f"{self.message}{chr(10) if chr(10) in self.hint else '; '}{self.hint}"

    def to_json(self) -> dict[str, Any]:
        """The machine-readable form `plugin validate --format json` prints."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint or None,
        }

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.text}" + (f" [{self.code}]" if self.code else "")

    def in_folder(self, folder: PurePath | str) -> str:
        """The problem as `plugin validate` prints it: its file as a path from where the command was run (the
        plugin folder as the author named it, then the file)."""
        where = PurePath(folder, self.where) if self.file else PurePath(folder)
        return f"{where}: {self.severity}: {self.text}" + (f" [{self.code}]" if self.code else "")


class DocumentError(Exception):
    """Loading stopped: the folder cannot be read as a plugin. Carries every problem found so far."""

    def __init__(self, problems: list[Problem], partial: Any = None) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = problems
        self.partial = partial
        """What did load (a `Plugin` whose broken parts are left out), so the validator can check the rest."""


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """The valid name closest to a misspelt one (`requst` → `request`), or None when none is close."""
    options = list(choices)
    folded = {c.lower(): c for c in options}
    if word.lower() in folded:  # only the case differs
        return folded[word.lower()]
    found = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`did you mean 'request'?` for the closest valid name, or ''."""
    best = nearest(word, choices)
    return f"did you mean {best!r}?" if best is not None else ""
