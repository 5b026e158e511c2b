"""The shared conformance cases, all of them, through `pku-harness plugin eval --batch` (issue #2)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any


def same(actual: Any, expected: Any) -> bool:
    """Numbers by value (2 equals 2.0), booleans strictly, containers by keys and items."""
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
    return actual == expected and type(actual) is type(expected)


def load_cases(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    contexts = json.loads(lines[0])["contexts"]
    return contexts, [json.loads(x) for x in lines[1:] if x.strip()]


def test_every_case_passes_through_the_batch_cli(conformance_file: Path, tmp_path: Path) -> None:
    contexts, cases = load_cases(conformance_file)
    batch = tmp_path / "cases.jsonl"
    batch.write_text(
        "\n".join(json.dumps({"expr": c["expr"], "context": contexts[c["context"]]}, ensure_ascii=False) for c in cases)
        + "\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        [sys.executable, "-m", "tui", "plugin", "eval", "--batch", str(batch)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    outputs = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(outputs) == len(cases)
    failures = []
    for case, out in zip(cases, outputs, strict=True):
        if case.get("error"):
            ok = "error" in out
        elif "error" in out:
            ok = bool(case.get("orError"))
        else:
            ok = same(out["value"], case["expect"])
        if not ok:
            failures.append(f"{case['expr']!r}: expected {case.get('expect', 'an error')!r}, got {out}")
    assert not failures, f"{len(failures)} of {len(cases)} cases fail:\n" + "\n".join(failures)
    assert len(cases) >= 200
