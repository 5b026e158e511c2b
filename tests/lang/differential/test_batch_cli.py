"""Generated cases through `python -m tui plugin eval --batch`, the command line authors use (docs §18).

The differential test runs the engine in-process; this checks the command line gives the same answers as
JavaScript on a sample (as JSON: whole numbers without a fraction, NaN and ±Infinity as null, -0 as 0), and
that one bad line does not end the batch.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

from . import harness
from . import render as R
from .lab import Lab
from .outcomes import Canon, Verdict

REPO = Path(__file__).resolve().parents[3]
SAMPLE = 300


def as_json(c: Canon) -> Any:
    """What a value is once it leaves the interpreter as JSON (docs §1)."""
    match c:
        case ("null",):
            return None
        case ("bool", b):
            return b
        case ("num", r):
            x = float(r)
            return None if not math.isfinite(x) else (int(x) if x == int(x) and abs(x) < 2**53 else x)
        case ("str", s):
            return s
        case ("arr", items):
            return [as_json(x) for x in items]
        case ("obj", pairs):
            return {k: as_json(x) for k, x in pairs}
    raise ValueError(f"a {c[0]} cannot leave the interpreter")


def run_batch(lines: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    batch = tmp_path / "cases.jsonl"
    batch.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "tui", "plugin", "eval", "--batch", str(batch)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="surrogateescape",
        timeout=120,
        check=False,
        cwd=REPO,
    )


def plain_text(v: Any) -> bool:
    """No lone surrogates anywhere (those are the xfail test's business)."""
    return not any(0xD800 <= ord(ch) <= 0xDFFF for ch in json.dumps(v, ensure_ascii=False))


def test_the_batch_command_answers_as_javascript_does(lab: Lab, tmp_path: Path) -> None:
    agreeing = []
    for i in range(SAMPLE * 4):
        f = lab.check(*harness.make_case(harness.SEED, i))
        if f.verdict not in (Verdict.SAME, Verdict.BOTH_REFUSE) or not plain_text([f.context, f.source]):
            continue
        if f.verdict is Verdict.SAME:
            try:
                value = as_json(f.js.value)  # type: ignore[arg-type]
            except ValueError:
                continue  # a regex or function value: an error once it leaves, not a JSON answer
            if not plain_text(value):
                continue
        agreeing.append(f)
        if len(agreeing) == SAMPLE:
            break
    lines = [json.dumps({"expr": f.source, "context": f.context}, ensure_ascii=False) for f in agreeing]
    proc = run_batch(lines, tmp_path)
    assert proc.returncode == 0, proc.stderr
    outputs = [json.loads(line) for line in proc.stdout.split("\n") if line]  # JSON may hold U+2028 raw
    assert len(outputs) == len(agreeing)
    for f, out in zip(agreeing, outputs, strict=True):
        if f.verdict is Verdict.BOTH_REFUSE:
            assert "error" in out, f.describe()
        else:
            assert out == {"value": as_json(f.js.value)}, f.describe()  # type: ignore[arg-type]


def test_a_lone_surrogate_does_not_end_the_batch(tmp_path: Path) -> None:
    lines = [
        json.dumps({"expr": "1 + 1"}),
        json.dumps({"expr": "stringify(s)", "context": {"s": "\ud800"}}),  # ensure_ascii: \ud800 in the JSON
        json.dumps({"expr": "2 + 2"}),
    ]
    proc = run_batch(lines, tmp_path)
    outputs = [json.loads(line) for line in proc.stdout.split("\n") if line]  # JSON may hold U+2028 raw
    assert len(outputs) == 3, proc.stderr
    assert outputs[0] == {"value": 2}
    assert outputs[2] == {"value": 4}
    assert outputs[1] == {"value": '"\\ud800"'}  # JavaScript's answer: the escaped text


def test_a_sample_case_renders_to_one_line() -> None:
    tree, ctx = harness.make_case(harness.SEED, 3)
    assert "\n" not in R.lang(tree)
    assert json.loads(json.dumps({"expr": R.lang(tree), "context": ctx}))["expr"] == R.lang(tree)
