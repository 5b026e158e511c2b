"""How fast the command line answers, as whole processes, against `python -c pass` started in the same rounds.

Commands: `--help`, `tools list` (opens the runtime and loads the built-in plugins) and `plugin validate
plugins_builtin/canteen`. Each round starts `python -c pass`, then each command, so every ratio compares runs
that saw the same load; the figures are medians over the rounds. With `--baseline REF` the same commands of that
git commit run too (from a copy made with `git archive`), each round, and the table adds before → after.
Goals of issue 21: `--help` ≤ 0.12 s and `plugin validate` of a small plugin ≤ 0.3 s on a machine where
`python -c pass` takes about 16 ms (so about 7x and 19x), `tools list` clearly faster than before.

Bytecode is cached (in a temporary folder, `PYTHONPYCACHEPREFIX`), as it is for an installed package, unless
`--no-bytecode-cache`: then every project module is compiled at every start, as with PYTHONDONTWRITEBYTECODE.
Each process gets an empty data folder of its own (`PKU_HARNESS_DATA`); the outputs of the two trees are compared.

Run: `python tests/benchmarks/bench_cli.py [--rounds 15] [--baseline REF] [--no-bytecode-cache]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

COMMANDS = {
    "--help": ["--help"],
    "tools list": ["tools", "list"],
    "plugin validate": ["plugin", "validate", "plugins_builtin/canteen"],
}


def checkout(ref: str, into: Path) -> Path:
    """The tree of commit REF, extracted into a new folder under INTO."""
    tree = into / "baseline"
    tree.mkdir()
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def start(argv: list[str], tree: Path, env: dict[str, str]) -> tuple[float, str]:
    """Run ARGV in TREE (so `-m tui` imports that tree's code) with a fresh data folder: seconds and output."""
    with tempfile.TemporaryDirectory(prefix="bench-cli-data-") as data:
        began = time.perf_counter()
        done = subprocess.run(argv, cwd=tree, env={**env, "PKU_HARNESS_DATA": data}, capture_output=True, text=True)
        took = time.perf_counter() - began
    return took, f"exit {done.returncode}\n{done.stdout}{done.stderr}"


def measure(trees: dict[str, Path], rounds: int, env: dict[str, str]) -> dict[tuple[str, str], list[float]]:
    """Per (tree, command) the ratio to `python -c pass` of each round; ("", "pass") holds pass's seconds."""
    ratios: dict[tuple[str, str], list[float]] = {("", "pass"): []}
    outputs: dict[tuple[str, str], str] = {}
    for round_ in range(rounds + 1):  # the first round writes the bytecode caches and is not counted
        base, _ = start([sys.executable, "-c", "pass"], ROOT, env)
        for label, tree in trees.items():
            for name, args in COMMANDS.items():
                took, out = start([sys.executable, "-m", "tui", *args], tree, env)
                outputs[label, name] = out
                if round_:
                    ratios.setdefault((label, name), []).append(took / base)
        if round_:
            ratios["", "pass"].append(base)
    if "before" in trees:
        for name in COMMANDS:
            if outputs["before", name] != outputs["after", name]:
                print(f"note: the output of {name!r} differs between the two trees")
    return ratios


def report(ratios: dict[tuple[str, str], list[float]], labels: list[str]) -> None:
    """The table: median ratio to `python -c pass` (and the seconds it stands for) per command and tree."""
    pass_s = statistics.median(ratios["", "pass"])
    print(f"python -c pass: {pass_s * 1000:.0f} ms (median of {len(ratios['', 'pass'])} rounds)")
    heading = "".join(f"{label + ' (x pass, s)':>24}" for label in labels)
    print(f"{'command':18}{heading}" + ("   after/before" if len(labels) == 2 else ""))
    for name in COMMANDS:
        row = f"{name:18}"
        for label in labels:
            r = statistics.median(ratios[label, name])
            row += f"{r:>15.1f}x {r * pass_s:>6.3f}s"
        if len(labels) == 2:
            pairs = [a / b for a, b in zip(ratios["after", name], ratios["before", name], strict=True)]
            row += f"   {statistics.median(pairs):.2f}"
        print(row)


def run(rounds: int = 15, baseline: str | None = None, bytecode_cache: bool = True) -> None:
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        if bytecode_cache:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        trees = {"this tree": ROOT}
        if baseline:
            trees = {"before": checkout(baseline, Path(tmp)), "after": ROOT}
        report(measure(trees, rounds, env), list(trees))


def test_report() -> None:
    run(rounds=3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--baseline", metavar="REF", help="Also time this git commit's command line (before).")
    parser.add_argument("--no-bytecode-cache", action="store_true", help="Compile every module at every start.")
    args = parser.parse_args()
    run(args.rounds, args.baseline, not args.no_bytecode_cache)


if __name__ == "__main__":
    main()
