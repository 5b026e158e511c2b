"""`--demo` runs at the recordings' own time, so dates in the recorded data mean what they meant."""

from __future__ import annotations

from collections import Counter

from tui.lang.documents.source import DirectorySource
from tui.lang.testing.demo import recorded_times
from tui.runtime.runtime import DEMO_NOW, builtin_folders, recorded_test_files


def test_the_demo_clock_is_the_day_most_recordings_were_made() -> None:
    days: Counter[str] = Counter()
    for folder in builtin_folders():
        times = recorded_times(DirectorySource(folder), recorded_test_files(folder))
        assert times, f"{folder.name} has recordings without a time"
        days.update({t[:10] for t in times})  # one vote per plugin and day
    assert days.most_common(1)[0][0] == DEMO_NOW[:10]
    assert days[DEMO_NOW[:10]] == len(builtin_folders())  # every official plugin has data from that day
