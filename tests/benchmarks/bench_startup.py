"""Start-up against what is installed (issue 22 item 8): the demo app and two commands with 0, 50 and 200
installed community plugins, as whole processes, pairwise in the same rounds.

Each data folder is made the way `plugins install` makes it: a copy of `examples/lectures` under another id is
prepared (fetched and validated) and installed by the `Installer`; `--widgets` keeps the example's dashboard widget
(then every copy adds a widget to the default layout, which the dashboard fills: that work grows with what is
shown, not with what is installed). Every data folder is started once before the rounds (bytecode, and the plugin
cache that install already filled); then each round starts every command on every folder in turn, so the figures
compared saw the same load. Reported: the median seconds and each folder's ratio to the one with none (median of
the per-round ratios). The demo's figure ends when its widgets are drawn; the commands' when they exit. Goal: the
demo with 200 within 1.3x of the demo with none.

With `--baseline REF` the same processes of that git commit run too (from `git archive`), in the same rounds, on
the same data folders; its rows are marked `before`.

Run: `PYTHONPATH=. python tests/benchmarks/bench_startup.py [--rounds 7] [--counts 0,50,200] [--widgets]
[--baseline REF]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "lectures"

#: The demo until the built-in plugins' seven widgets are drawn (what a student waits for), in a child process.
DEMO = """
import asyncio, sys, time
from tui.app.app import make_app
from widgets_render.textual_render import WidgetFrame

async def main():
    app = make_app(demo=True, data_dir=__import__("pathlib").Path(sys.argv[1]))
    async with app.run_test(size=(120, 45)) as pilot:
        for _ in range(2000):
            await pilot.pause(0.01)
            if len(app.query(WidgetFrame)) >= 7:
                print("shown at", time.time(), flush=True)  # the parent takes it from its own clock at the start
                for _ in range(1000):  # not measured: quit once the hidden tabs are in (not in their mount)
                    await pilot.pause(0.01)
                    if not app.query("WhenIdle"):  # by name: a baseline's tree has no such class
                        await app.workers.wait_for_complete()
                        return
                return
        raise SystemExit("the dashboard did not fill")

asyncio.run(main())
"""

COMMANDS = {
    "demo (7 widgets shown)": ["-c", DEMO, "{data}"],
    "audit --limit 20": ["-m", "tui", "audit", "--limit", "20"],
    "tools list": ["-m", "tui", "tools", "list"],
}


def make_data(folder: Path, count: int, widgets: bool) -> None:
    """Install `count` copies of the example plugin (ids lectures000…) into a new data folder."""
    from tui.runtime.plugins.installer import Installer
    from tui.runtime.runtime import Runtime

    folder.mkdir(parents=True)
    runtime = Runtime.open(folder / "pku-harness.sqlite3")
    installer = Installer(runtime)
    with tempfile.TemporaryDirectory(prefix="bench-startup-src-") as tmp:
        for i in range(count):
            pid = f"lectures{i:03d}"
            copy = Path(tmp) / pid
            shutil.copytree(EXAMPLE, copy)
            manifest = copy / "PLUGIN.md"
            text = manifest.read_text(encoding="utf-8").replace("id: lectures", f"id: {pid}", 1)
            if not widgets:
                text = text.replace("widgets:\n  next: widgets/next.json\n", "")
            manifest.write_text(text.replace("name: 讲座预告", f"name: 讲座 {i}", 1), encoding="utf-8")
            for spec in [*copy.glob("screens/*.json"), *copy.glob("widgets/*.json")]:
                spec.write_text(spec.read_text(encoding="utf-8").replace('"lectures.', f'"{pid}.'), encoding="utf-8")
            installer.install(installer.prepare(str(copy)))
    runtime.close()


def start(args: list[str], data: Path, tree: Path, env: dict[str, str]) -> float:
    """Seconds one process of TREE's code takes, from its start to its exit (it must succeed), or to the moment
    it prints `shown at <time.time()>` (the demo: its widgets are drawn; the app's teardown is not start-up)."""
    argv = [sys.executable, *(a.replace("{data}", str(data)) for a in args)]
    env = {**env, "PKU_HARNESS_DATA": str(data), "PYTHONPATH": str(tree)}
    wall, began = time.time(), time.perf_counter()
    done = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True)
    took = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:3])} failed on {data.name}:\n{done.stdout}{done.stderr}")
    shown = [line.split()[-1] for line in done.stdout.splitlines() if line.startswith("shown at ")]
    return float(shown[-1]) - wall if shown else took


def run(rounds: int, counts: list[int], widgets: bool, baseline: str | None = None) -> None:
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        trees = {"": ROOT}
        if baseline:
            from tests.benchmarks.bench_cli import checkout

            trees = {"before ": checkout(baseline, Path(tmp)), "": ROOT}
        folders = {}
        for n in counts:
            began = time.perf_counter()
            folders[n] = Path(tmp) / f"data-{n}"
            make_data(folders[n], n, widgets)
            print(f"installed {n} plugins in {time.perf_counter() - began:.1f} s", flush=True)
        seconds: dict[tuple[str, int], list[float]] = {}
        for round_ in range(rounds + 1):  # the first round writes bytecode and is not counted
            for label, tree in trees.items():
                for name, args in COMMANDS.items():
                    for n, data in folders.items():
                        took = start(args, data, tree, env)
                        if round_:
                            seconds.setdefault((label + name, n), []).append(took)
        base = counts[0]
        print(f"{'command':33}" + "".join(f"{f'{n} installed':>22}" for n in counts))
        for label in trees:
            for name in COMMANDS:
                row = f"{label + name:33}"
                for n in counts:
                    times, bases = seconds[label + name, n], seconds[label + name, base]
                    ratio = statistics.median(a / b for a, b in zip(times, bases, strict=True))
                    row += f"{statistics.median(times):>12.2f} s {ratio:>5.2f}x"
                print(row)


def test_report() -> None:
    run(rounds=1, counts=[0, 20], widgets=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--counts", default="0,50,200", help="Installed plugins per data folder (first: the base).")
    parser.add_argument("--widgets", action="store_true", help="Keep each copy's dashboard widget.")
    parser.add_argument("--baseline", metavar="REF", help="Also time this git commit's code (before).")
    args = parser.parse_args()
    run(args.rounds, [int(c) for c in args.counts.split(",")], args.widgets, args.baseline)


if __name__ == "__main__":
    main()
