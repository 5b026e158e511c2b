"""What `plugin validate` finds in a plugin folder, as data: every problem of the plugin and of its recorded
tests, and the claims the installer would refuse as imitating the official mark.

The command line prints it (`pku-harness plugin validate`, `--format json`) and the assistant's `draftValidate`
returns it, so both say the same thing about the same folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tui.lang.documents.loader import MANIFEST_FILE, Plugin
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import DirectorySource, SourceError
from tui.lang.documents.validator import check
from tui.runtime.plugins.official_mark import IMITATION_ADVICE, imitations


def recorded_test_files(folder: Path) -> list[str]:
    """A plugin folder's recorded tests (`tests/*.yaml`), as paths inside it."""
    tests = folder / "tests"
    return sorted(f"tests/{p.name}" for p in tests.glob("*.yaml")) if tests.is_dir() else []


def test_file_problems(plugin: Plugin | None, folder: Path) -> list[Problem]:
    """The problems of the plugin's tests/*.yaml files (their format alone when the plugin does not load)."""
    from tui.lang.testing.checks import check_test_file, parse_checked

    source = DirectorySource(folder)
    problems: list[Problem] = []
    for file in recorded_test_files(folder):
        if plugin is not None:
            problems += check_test_file(plugin, source, file)[1]
            continue
        try:
            text = source.read_bytes(file).decode("utf-8")
        except (SourceError, UnicodeDecodeError) as e:
            problems.append(Problem(file, None, str(e)))
            continue
        problems += parse_checked(text, file)[1]
    return problems


@dataclass(frozen=True)
class Report:
    """A folder's validation: the plugin (None when it has an error), the problems in the validator's order and
    the imitation claims as warnings (empty for the app's own plugins)."""

    plugin: Plugin | None
    """The plugin when it loaded without error (its recorded tests may still have some: see `ok`)."""
    plugin_id: str | None
    """The manifest's id when it loaded as one (also when other parts have errors), else None."""
    problems: list[Problem]
    claims: list[Problem]

    @property
    def ok(self) -> bool:
        """No error anywhere: the folder would install (the claims are warnings here, refusals at install)."""
        return self.plugin is not None and not any(p.severity == "error" for p in self.problems)

    @property
    def errors(self) -> int:
        return sum(p.severity == "error" for p in self.problems)

    @property
    def warnings(self) -> int:
        return len(self.problems) + len(self.claims) - self.errors

    def to_json(self) -> dict[str, Any]:
        """`{ok, plugin, problems: [{file, line, column, code, severity, message, hint}]}`: the shape of
        `plugin validate --format json`."""
        found = [p.to_json() for p in self.problems] + [c.to_json() for c in self.claims]
        return {"ok": self.ok, "plugin": self.plugin_id, "problems": found}


def validation_report(folder: Path, official: bool = False) -> Report:
    """Run every check the app runs on `folder`, and check its recorded tests; `official` (the app's own
    plugins) leaves out the imitation check, which only a plugin from elsewhere is refused for."""
    loaded, problems = check(DirectorySource(folder))
    plugin = None if any(p.severity == "error" for p in problems) else loaded
    problems += test_file_problems(plugin, folder)
    claims = [] if plugin is None or official else imitations(plugin.manifest)
    warned = [
        Problem(MANIFEST_FILE, None, claim, "warning", code="IMITATION", hint=IMITATION_ADVICE) for claim in claims
    ]
    plugin_id = loaded.manifest.id if loaded and "id" not in loaded.stand_ins else None
    return Report(plugin, plugin_id, problems, warned)
