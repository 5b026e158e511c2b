"""Runs a plugin's recorded tests: one line per case, then 'N passed, N failed'."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from tui.lang.documents.loader import Plugin
from tui.lang.documents.problems import Problem
from tui.lang.documents.source import BudgetedReader, PluginSource
from tui.lang.expr import LangError, Run, compile_expression, from_json
from tui.lang.expr.values import truthy
from tui.lang.steps.errors import ToolError
from tui.lang.steps.interpreter import Interpreter
from tui.lang.testing.checks import check_test_file, parse_checked
from tui.lang.testing.expectations import (
    calls_differ,
    first_difference,
    requests_differ,
    run_flags,
    scalar_same,
    short,
    text_around,
)
from tui.lang.testing.fixtures import FixtureReader
from tui.lang.testing.model import DEFAULT_NOW, Case, TestFile, iso_now
from tui.lang.testing.recorded import RecordedHost

# `iso_now` and `DEFAULT_NOW` live with the format now; the demo and older callers import them from here.
__all__ = ["DEFAULT_NOW", "CaseResult", "iso_now", "parse_test_file", "run_case", "run_tests", "same"]


@dataclass
class CaseResult:
    """The outcome of one case."""

    file: str
    name: str
    passed: bool
    reason: str = ""
    warnings: list[str] = field(default_factory=list)
    """Recordings the run never used: they do not fail the case, but they test nothing."""

    def line(self) -> str:
        mark = "PASS" if self.passed else "FAIL"
        text = f"{mark} {self.file} › {self.name}" + ("" if self.passed else f"\n     {self.reason}")
        return text + "".join(f"\n     warning: {w}" for w in self.warnings)


def same(actual: Any, expected: Any) -> bool:
    """JSON equality with numbers by value (2 equals 2.0) and booleans strict."""
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
    return scalar_same(actual, expected)


def parse_test_file(text: str, path: str) -> tuple[TestFile | None, list[Problem]]:
    """Parse and check the format of one tests/*.yaml file's text (`path` names it in problems)."""
    tf, problems, _ = parse_checked(text, path)
    return (None if problems else tf), problems


async def run_case(
    plugin: Plugin, reader: BudgetedReader | FixtureReader, file: str, tf: TestFile, case: Case
) -> CaseResult:
    """Run one case and judge it; recordings it never used are warnings beside the verdict."""
    now = iso_now(case.now or tf.now or DEFAULT_NOW)
    host = RecordedHost(case, reader, now)
    verdict = await _judge(plugin, host, file, tf, case, now)
    verdict.warnings = host.unused()
    return verdict


async def _judge(plugin: Plugin, host: RecordedHost, file: str, tf: TestFile, case: Case, now: str) -> CaseResult:
    interp = Interpreter(plugin, host, settings=case.settings)

    def fail(reason: str) -> CaseResult:
        return CaseResult(file, case.name, False, reason)

    try:
        result = await interp.run(tf.tool, case.input, now=now)
    except ToolError as e:
        if case.expectError is not None:
            if case.expectError in str(e):
                return _after_run(file, case, host) or CaseResult(file, case.name, True)
            return fail(f"expected an error containing {case.expectError!r}, got: {e}")
        return fail(f"the run failed: {e}")
    flags = run_flags(case, result)
    if flags:
        return fail(flags)
    if case.expectError is not None:
        return fail(f"expected an error containing {case.expectError!r}, got the result {_short(result.value)}")
    if "expect" in case.model_fields_set and not same(result.value, case.expect):
        return fail(_expect_failed(result.value, case.expect))
    checks = [case.check] if isinstance(case.check, str) else (case.check or [])
    for src in checks:
        try:
            ok = truthy(compile_expression(src).evaluate({"result": from_json(result.value)}, Run(now)))
        except LangError as e:
            return fail(f"check {src!r} failed with an error: {e.msg}")
        if not ok:
            return fail(f"check {src!r} is false for the result {_short(result.value)}")
    return _after_run(file, case, host) or CaseResult(file, case.name, True)


def _after_run(file: str, case: Case, host: RecordedHost) -> CaseResult | None:
    """What the run did besides its result: the calls and requests it made, and the KV it left."""
    found = None
    if case.expectCalls is not None:
        found = calls_differ(case.expectCalls, host)
    if found is None and case.expectRequests is not None:
        found = requests_differ(case.expectRequests, host)
    if found is None and case.expectKv is not None:
        snapshot = host.kv.snapshot()
        for key, want in case.expectKv.items():
            if not same(snapshot.get(key), want):
                found = f"kv {key!r}: expected {_short(want)}, got {_short(snapshot.get(key))}"
                break
    return None if found is None else CaseResult(file, case.name, False, found)


_short = short


def _expect_failed(actual: Any, expected: Any) -> str:
    """A failed `expect`: where the first difference is, then the values around it (cut at 300 characters)."""
    found = first_difference(actual, expected)
    if found is None:  # `same` and `first_difference` agree; kept total for safety
        return f"expected {_short(expected)}\n     got      {_short(actual)}"
    words, want, got = found
    if want is None:  # the whole result is a scalar: the words show both values
        return words
    want_text, got_text = text_around(want, got)
    return f"{words}\n     expected {want_text}\n     got      {got_text}"


def run_tests(plugin: Plugin, source: PluginSource, test_files: list[str]) -> tuple[list[CaseResult], list[Problem]]:
    """Run every case of the given test files."""
    fixtures = FixtureReader(source)  # bounded on their own: not part of the plugin's budget
    results: list[CaseResult] = []
    problems: list[Problem] = []
    for path in test_files:
        tf, probs = check_test_file(plugin, source, path, fixtures)
        problems.extend(probs)
        if tf is None:
            continue
        for case in tf.cases:
            results.append(asyncio.run(run_case(plugin, fixtures, path, tf, case)))
    return results, problems
