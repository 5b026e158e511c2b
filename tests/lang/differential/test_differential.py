"""The differential test: generated expressions, the engine against JavaScript (node), every disagreement
explained by the docs (documented.py) or known and waiting for a fix (pending.py).

CI runs 5,000 cases of a fixed seed (about 10 s). The on-demand mode runs more and prints the figures by
class::

    DIFF_SCALE=20 python -m pytest tests/lang/differential -s      # 100,000 cases
    python -m tests.lang.differential --cases 100000                # the same, as a script

A failure shows each unexplained disagreement shrunk to its smallest form. A crash (a Python exception that
is not the language's own LangError) fails the test unless a PENDING entry marked as a crash explains it.
"""

from __future__ import annotations

import os
import time

from . import harness
from .lab import Lab
from .outcomes import Verdict
from .pending import PENDING

SCALE = int(os.environ.get("DIFF_SCALE", "1"))
CASES = 5_000 * SCALE


def report(tally: harness.Tally, seconds: float) -> str:
    """The figures by class, then PENDING entries by how often they were met (a warning for none)."""
    lines = [tally.table(), f"  ({seconds:.1f} s)", "", "PENDING entries met:"]
    met = {name: 0 for name in (e.name for e in PENDING)}
    for (_, label), n in tally.counts.items():
        for part in label.split(" + "):
            if part in met:
                met[part] += n
    for name, n in sorted(met.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {n:>7,}  {name}" + ("   (warning: met by no case of this run)" if not n else ""))
    return "\n".join(lines)


def test_the_engine_gives_what_javascript_gives(lab: Lab) -> None:
    start = time.monotonic()
    tally = harness.run(lab, CASES, harness.SEED)
    print("\n" + report(tally, time.monotonic() - start))
    crashes = [f for f in tally.unknown if f.verdict is Verdict.CRASH]
    assert not crashes, f"{len(crashes)} crashes no PENDING entry explains:\n\n" + "\n\n".join(
        f.describe() for f in crashes[:10]
    )
    assert not tally.unknown, (
        f"{len(tally.unknown)} of {tally.cases:,} cases disagree in a way neither documented.py nor pending.py "
        "explains (each shrunk to its smallest form):\n\n" + "\n\n".join(f.describe() for f in tally.unknown[:10])
    )
    assert tally.cases == CASES


def test_a_case_replays_from_its_seed_and_index(lab: Lab) -> None:
    """Any case of a run can be looked at again on its own (the script's --case SEED:INDEX)."""
    first = harness.make_case(harness.SEED, 17)
    again = harness.make_case(harness.SEED, 17)
    assert first == again
    assert lab.check(*first).verdict == lab.check(*again).verdict
