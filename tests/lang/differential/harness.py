"""Running many seeded cases, classifying each, and the figures of the on-demand report.

Case `i` of seed `s` is generated from `random.Random(f"{s}:{i}")` alone, so any case can be replayed on its
own (`python -m tests.lang.differential --case s:i`). Every finding gets a label:

* agreeing verdicts: 'same', 'same with JS coercion', or for "both refuse" the documented rule the oracle
  named (documented.BY_ROW) or 'native JS throw';
* disagreements: the first documented entry that explains it, else the first PENDING entry, else 'unknown'.

Unknown findings are minimised (minimise.py) for the failure message; so is the first finding of each
PENDING entry, for the report.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import tree as T
from .documented import BY_ROW, DOCUMENTED, Entry
from .generator import Generator
from .lab import Finding, Lab
from .outcomes import Verdict
from .pending import PENDING
from .pools import Contexts

SEED = 20261130
UNKNOWN = "unknown"


def make_case(seed: int | str, i: int) -> tuple[T.Node, dict[str, Any]]:
    rng = random.Random(f"{seed}:{i}")
    return Generator(rng).case(), Contexts(rng).context()


def label(f: Finding, lab: Lab) -> str:
    """The name of what explains this finding (see the module docstring)."""
    if f.verdict is Verdict.SAME:
        return "same"
    if f.verdict is Verdict.SAME_LENIENT:
        return "same with JS coercion"
    if f.verdict is Verdict.BOTH_REFUSE:
        entry = BY_ROW.get(f.js.row)
        return entry.name if entry else "native JS throw"
    entries = explain(f, lab)
    return " + ".join(e.name for e in entries) if entries else UNKNOWN


def explain(f: Finding, lab: Lab) -> list[Entry]:
    """The entry that accounts for a disagreement (documented first, then PENDING); or, for a case with
    several causes, the fewest entries whose changes (and at most one test) account for it together."""
    table = DOCUMENTED + PENDING
    for e in table:
        if e.explains(f, lab):
            return [e]
    usable = [e for e in table if e.usable(f)]
    if not usable:
        return []

    def rest(entries: list[Entry]) -> list[Entry] | None:
        """What still explains the case once the entries' changes are made: [] if it agrees, None if not."""
        g = lab.apply(f, [e.change for e in entries])  # type: ignore[misc]
        if g.verdict.agrees:
            return []
        last = next((e for e in table if e.test is not None and e.explains(g, lab)), None)
        return None if last is None else [last]

    tail = rest(usable)
    if tail is None:
        return []
    needed = list(usable)
    for e in usable:
        fewer = [x for x in needed if x is not e]
        if fewer and (t := rest(fewer)) is not None:
            needed, tail = fewer, t
    return needed + [e for e in tail if e not in needed]


def is_documented(name: str) -> bool:
    """True for a label made of documented entries only."""
    documented = {e.name for e in DOCUMENTED}
    return all(part in documented for part in name.split(" + "))


@dataclass
class Tally:
    """Counts by (verdict, label), and examples of what needs a human."""

    counts: Counter[tuple[Verdict, str]] = field(default_factory=Counter)
    unknown: list[Finding] = field(default_factory=list)
    pending_examples: dict[str, Finding] = field(default_factory=dict)
    cases: int = 0

    def by_verdict(self) -> Counter[Verdict]:
        out: Counter[Verdict] = Counter()
        for (v, _), n in self.counts.items():
            out[v] += n
        return out

    def table(self) -> str:
        """The on-demand report: agreement by class, each class split by what explains it."""
        lines = [f"{self.cases:,} cases"]
        totals = self.by_verdict()
        for v in Verdict:
            if not totals[v]:
                continue
            lines.append(f"  {v.value}: {totals[v]:,} ({100 * totals[v] / max(1, self.cases):.2f}%)")
            labels = sorted(((n, lab) for (vv, lab), n in self.counts.items() if vv is v), reverse=True)
            for n, name in labels:
                if v.agrees:
                    kind = ""
                else:
                    kind = "documented" if is_documented(name) else ("UNKNOWN" if name == UNKNOWN else "pending")
                lines.append(f"      {n:>7,}  {name}" + (f"  [{kind}]" if kind else ""))
        return "\n".join(lines)


def run(lab: Lab, n: int, seed: int | str = SEED, minimise_unknown: int = 20, batch: int = 500) -> Tally:
    """Generate and check `n` cases; minimise up to `minimise_unknown` unknown findings."""
    from .minimise import minimise

    tally = Tally()
    for start in range(0, n, batch):
        cases = [make_case(seed, i) for i in range(start, min(n, start + batch))]
        for f in lab.check_many(cases):
            name = label(f, lab)
            tally.counts[f.verdict, name] += 1
            tally.cases += 1
            if name == UNKNOWN:
                small = minimise(f, lab) if len(tally.unknown) < minimise_unknown else f
                tally.unknown.append(small)
            elif not f.verdict.agrees and not is_documented(name) and name not in tally.pending_examples:
                tally.pending_examples[name] = f
    return tally
