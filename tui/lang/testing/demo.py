"""A demo host: answers a plugin's requests from all of its recorded tests (for `--demo`, no network)."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from tui.lang.documents.source import BudgetedReader, PluginSource, SourceError, check_path
from tui.lang.testing.fixtures import FixtureReader
from tui.lang.testing.model import Case, TestFile
from tui.lang.testing.recorded import RecordedHost
from tui.lang.testing.runner import iso_now, parse_test_file

#: Recorded test files kept parsed: every file of 400 installed plugins of 5 tests each. An LRU smaller than the
#: files the dashboard cycles through (it was 256) keeps none of them: each refresh evicts the next one needed.
PARSED_FILES = 2048


_parsed_files: OrderedDict[tuple[bytes, str], TestFile | None] = OrderedDict()
_parsed_lock = threading.Lock()


def _parsed(text: str, path: str) -> TestFile | None:
    # The demo builds a host for every run of every tool (each widget refresh): parsing the same recordings
    # each time was most of a demo run's cost. Keyed by the text's digest (the text itself is not kept), so an
    # edited recording is parsed anew; the host copies what it consumes, so sharing the parsed cases is safe.
    key = (hashlib.sha256(text.encode()).digest(), path)
    with _parsed_lock:
        if key in _parsed_files:
            _parsed_files.move_to_end(key)
            return _parsed_files[key]
    parsed = parse_test_file(text, path)[0]
    with _parsed_lock:
        _parsed_files[key] = parsed
        while len(_parsed_files) > PARSED_FILES:
            _parsed_files.popitem(last=False)
    return parsed


def recorded_file(reader: BudgetedReader, path: str) -> TestFile | None:
    """One recorded test file, parsed once per content in a process; None when it cannot be read or is not valid."""
    try:
        text = reader.source.read_bytes(check_path(path)).decode("utf-8")
    except (SourceError, UnicodeDecodeError, ValueError):
        return None
    return _parsed(text, path)


def demo_host(source: PluginSource, test_files: list[str], now: str) -> RecordedHost:
    """A host that knows every exchange and ability answer recorded in the plugin's tests."""
    reader = BudgetedReader(source, limit=64 * 1024 * 1024)
    merged = Case(name="demo", expectKv={})
    inputs = []
    for path in test_files:
        tf = recorded_file(reader, path)
        if tf is None:
            continue
        for case in tf.cases:
            merged.http.extend(case.http)
            answers = [a for a in case.abilities if a.error is None]
            merged.abilities.extend(answers)
            inputs += [case.input] * len(answers)
    host = RecordedHost(merged, FixtureReader(source), now)
    host.replay_abilities = True
    host.ability_inputs = inputs
    return host


def recorded_times(source: PluginSource, test_files: list[str]) -> list[str]:
    """Every Beijing time the plugin's recordings say they were made at (file or case `now`), as ISO."""
    reader = BudgetedReader(source, limit=64 * 1024 * 1024)
    found = []
    for path in test_files:
        tf = recorded_file(reader, path)
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
