"""The README's commands do what the README says (a command that silently does nothing is a false claim)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_benchmark_command_collects_every_benchmark() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"`(pytest tests/benchmarks[^`]*)`", readme)
    assert found, "the README names no benchmark command"
    args = shlex.split(found.group(1))[1:]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", *args, "--collect-only", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    collected = {line.split("::")[0] for line in out.stdout.splitlines() if "::" in line}
    benches = {f"tests/benchmarks/{p.name}" for p in (ROOT / "tests" / "benchmarks").glob("bench_*.py")}
    assert benches and collected == benches, out.stdout + out.stderr
