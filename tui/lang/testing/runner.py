"""Runs a plugin's recorded tests: one line per case, then 'N passed, N failed'."""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from tui.lang.documents.explain import pydantic_problems
from tui.lang.documents.loader import Plugin
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import BudgetedReader, PluginSource, SourceError, check_path
from tui.lang.documents.yamlsafe import Located, load_yaml
from tui.lang.expr import LangError, Run, compile_expression, from_json, stringify
from tui.lang.expr.values import truthy
from tui.lang.steps.errors import ToolError
from tui.lang.steps.inputs import check_value
from tui.lang.steps.interpreter import Interpreter
from tui.lang.testing.model import Case, TestFile
from tui.lang.testing.recorded import RecordedHost

DEFAULT_NOW = "2026-11-30T09:00:00+08:00"


@dataclass
class CaseResult:
    """The outcome of one case."""

    file: str
    name: str
    passed: bool
    reason: str = ""

    def line(self) -> str:
        mark = "PASS" if self.passed else "FAIL"
        return f"{mark} {self.file} › {self.name}" + ("" if self.passed else f"\n     {self.reason}")


def same(actual: Any, expected: Any) -> bool:
    """JSON equality with numbers by value (2 equals 2.0) and booleans strict."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return actual == expected or (math.isnan(actual) and math.isnan(expected))
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(same(a, e) for a, e in zip(actual, expected, strict=True))
        )
    if isinstance(expected, dict):
        return (
            isinstance(actual, dict)
            and actual.keys() == expected.keys()
            and all(same(actual[k], v) for k, v in expected.items())
        )
    return bool(actual == expected)


def load_test_file(reader: BudgetedReader, path: str) -> tuple[TestFile | None, list[Problem], Located | None]:
    """Read and check one tests/*.yaml file; with it, where each of its values is (for problems found later)."""
    try:
        text = reader.source.read_bytes(check_path(path)).decode("utf-8")
    except (SourceError, UnicodeDecodeError) as e:
        return None, [Problem(path, None, str(e))], None
    return _parse(text, path)


def parse_test_file(text: str, path: str) -> tuple[TestFile | None, list[Problem]]:
    """Parse and check the text of one tests/*.yaml file (`path` names it in problems)."""
    tf, problems, _ = _parse(text, path)
    return tf, problems


def _parse(text: str, path: str) -> tuple[TestFile | None, list[Problem], Located | None]:
    located, problems = load_yaml(text, path)
    if located is None:
        return None, problems, None
    try:
        return TestFile.model_validate(located.data), [], located
    except ValidationError as e:
        return None, pydantic_problems(e, path, located), located


def settings_problems(plugin: Plugin, path: str, tf: TestFile, located: Located | None) -> list[Problem]:
    """A case's `settings:` against the plugin's declarations: a key it does not declare, or a value its
    declaration refuses, is a problem at its line (it would test a plugin no student can have)."""
    declared = plugin.manifest.settings
    problems = []
    for i, case in enumerate(tf.cases):
        for key, value in case.settings.items():
            line = located.line(("cases", i, "settings", key)) if located else None
            if key not in declared:
                known = ", ".join(declared) or "none"
                said = f"settings: {key!r} is not a setting of the plugin (it has: {known})"
                problems.append(Problem(path, line, said))
                continue
            try:
                check_value("settings", key, declared[key], value)
            except ToolError as e:
                problems.append(Problem(path, line, str(e)))
    return problems


async def run_case(plugin: Plugin, reader: BudgetedReader, file: str, tf: TestFile, case: Case) -> CaseResult:
    """Run one case and judge it."""
    now = _iso(case.now or tf.now or DEFAULT_NOW)
    host = RecordedHost(case, reader, now)
    interp = Interpreter(plugin, host, settings=case.settings)

    def fail(reason: str) -> CaseResult:
        return CaseResult(file, case.name, False, reason)

    try:
        result = await interp.run(tf.tool, case.input, now=now)
    except ToolError as e:
        if case.expectError is not None:
            if case.expectError in str(e):
                return _kv_check(file, case, host) or CaseResult(file, case.name, True)
            return fail(f"expected an error containing {case.expectError!r}, got: {e}")
        return fail(f"the run failed: {e}")
    if case.expectError is not None:
        return fail(f"expected an error containing {case.expectError!r}, got the result {_short(result.value)}")
    if "expect" in case.model_fields_set and not same(result.value, case.expect):
        return fail(f"expected {_short(case.expect)}\n     got      {_short(result.value)}")
    checks = [case.check] if isinstance(case.check, str) else (case.check or [])
    for src in checks:
        try:
            ok = truthy(compile_expression(src).evaluate({"result": from_json(result.value)}, Run(now)))
        except LangError as e:
            return fail(f"check {src!r} failed with an error: {e.msg}")
        if not ok:
            return fail(f"check {src!r} is false for the result {_short(result.value)}")
    return _kv_check(file, case, host) or CaseResult(file, case.name, True)


def _kv_check(file: str, case: Case, host: RecordedHost) -> CaseResult | None:
    if case.expectKv is None:
        return None
    snapshot = host.kv.snapshot()
    for key, want in case.expectKv.items():
        if not same(snapshot.get(key), want):
            return CaseResult(
                file, case.name, False, f"kv {key!r}: expected {_short(want)}, got {_short(snapshot.get(key))}"
            )
    return None


def _short(v: Any) -> str:
    text = stringify(from_json(v))
    return text if len(text) <= 300 else text[:297] + "..."


def iso_now(text: str) -> str:
    """A recording's `now` (e.g. `2026-11-30 12:30`) as a full Beijing ISO timestamp."""
    from tui.lang.expr.stdlib.dates import iso, parse

    return iso(parse(Run(DEFAULT_NOW), text))


_iso = iso_now


def run_tests(plugin: Plugin, source: PluginSource, test_files: list[str]) -> tuple[list[CaseResult], list[Problem]]:
    """Run every case of the given test files."""
    reader = BudgetedReader(source, limit=64 * 1024 * 1024)  # fixtures are not part of the plugin's budget
    results: list[CaseResult] = []
    problems: list[Problem] = []
    for path in test_files:
        tf, probs, located = load_test_file(reader, path)
        problems.extend(probs)
        if tf is None:
            continue
        if tf.tool not in plugin.tools:
            problems.append(Problem(path, 1, f"tool {tf.tool!r} is not in the plugin"))
            continue
        wrong = settings_problems(plugin, path, tf, located)
        problems.extend(wrong)
        if wrong:
            continue
        for case in tf.cases:
            results.append(asyncio.run(run_case(plugin, reader, path, tf, case)))
    return results, problems
