"""A demo host: answers a plugin's requests from all of its recorded tests (for `--demo`, no network)."""

from __future__ import annotations

from tui.lang.documents.source import BudgetedReader, PluginSource
from tui.lang.testing.model import Case
from tui.lang.testing.recorded import RecordedHost
from tui.lang.testing.runner import iso_now, load_test_file


def demo_host(source: PluginSource, test_files: list[str], now: str) -> RecordedHost:
    """A host that knows every exchange and ability answer recorded in the plugin's tests."""
    reader = BudgetedReader(source, limit=64 * 1024 * 1024)
    merged = Case(name="demo", expectKv={})
    inputs = []
    for path in test_files:
        tf, _problems = load_test_file(reader, path)
        if tf is None:
            continue
        for case in tf.cases:
            merged.http.extend(case.http)
            answers = [a for a in case.abilities if a.error is None]
            merged.abilities.extend(answers)
            inputs += [case.input] * len(answers)
    host = RecordedHost(merged, reader, now)
    host.replay_abilities = True
    host.ability_inputs = inputs
    return host


def recorded_times(source: PluginSource, test_files: list[str]) -> list[str]:
    """Every Beijing time the plugin's recordings say they were made at (file or case `now`), as ISO."""
    reader = BudgetedReader(source, limit=64 * 1024 * 1024)
    found = []
    for path in test_files:
        tf, _problems = load_test_file(reader, path)
        if tf is None:
            continue
        found += [n for n in (tf.now, *(c.now for c in tf.cases)) if n]
    times = []
    for text in found:
        try:
            times.append(iso_now(text))
        except Exception:  # a malformed `now` is the test runner's to report, not the demo's
            continue
    return times
