"""The shared conformance cases, all of them, through `pku-harness plugin eval --batch` (issue #2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tui.lang.testing.runner import same


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


def test_the_projects_copy_of_the_cases_is_the_shared_one() -> None:
    """The cases are kept in the project (a fresh clone has no `../shared`); where the shared page is beside the
    checkout, the copy must not have drifted from it."""
    from tests.conftest import CONFORMANCE, shared_dir

    shared = shared_dir() / "conformance" / "expressions.jsonl"
    if not shared.exists():
        pytest.skip(f"no shared conformance page at {shared} (a user's clone): the project's copy is the cases")
    assert CONFORMANCE.read_bytes() == shared.read_bytes(), "update tests/fixtures/conformance from ../shared"
