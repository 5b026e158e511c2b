"""The differential test as a script: `python -m tests.lang.differential [--cases N] [--seed S] [--case S:I]`.

Runs N generated cases (default 100,000) against node and prints the figures by class, the PENDING entries
met, and every unexplained disagreement shrunk to its smallest form; exits 1 when there is one. `--case`
replays a single case (seed and index, as a failure names them) and prints both answers.
"""

from __future__ import annotations

import argparse
import sys
import time

from . import harness
from .conftest import skip_reason
from .lab import Lab
from .minimise import minimise
from .node import Oracle
from .test_differential import report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.lang.differential", description=__doc__)
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", default=str(harness.SEED))
    parser.add_argument("--case", help="replay one case: SEED:INDEX")
    args = parser.parse_args(argv)
    reason = skip_reason()
    if reason:
        print(reason, file=sys.stderr)
        return 2
    seed: int | str = int(args.seed) if args.seed.isdigit() else args.seed
    with Oracle() as oracle:
        lab = Lab(oracle)
        if args.case:
            s, _, i = args.case.rpartition(":")
            f = lab.check(*harness.make_case(int(s) if s.isdigit() else s, int(i)))
            print(f.describe(), f"\n    verdict: {f.verdict.value}; label: {harness.label(f, lab)}")
            if not f.verdict.agrees:
                print("\nsmallest form:\n" + minimise(f, lab).describe())
            return 0
        start = time.monotonic()
        tally = harness.run(lab, args.cases, seed, minimise_unknown=50)
        print(report(tally, time.monotonic() - start))
        for f in tally.unknown:
            print("\n" + f.describe())
        return 1 if tally.unknown else 0


if __name__ == "__main__":
    sys.exit(main())
