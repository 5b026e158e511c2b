"""A differential test of the plugin expression language against JavaScript (node).

The one rule of docs/PLUGIN-LANGUAGE.md §2: every expression gives exactly what JavaScript gives, or fails
with a clear error. This package generates expressions (generator.py, productions.py, pools.py), prints each
one twice (render.py: the language for the engine, JavaScript for the oracle), runs both sides (lab.py: the
engine in-process, oracle.mjs in one long-lived node process), compares the answers as JavaScript sees
values (outcomes.py), and accounts for every disagreement: documented (documented.py, §10 and the
documented refusals) or known and waiting for a fix (pending.py). Anything else fails the test, shrunk to
its smallest form (minimise.py).

    python -m pytest tests/lang/differential              # CI: 5,000 cases
    DIFF_SCALE=20 python -m pytest tests/lang/differential -s   # 100,000 cases, figures by class
    python -m tests.lang.differential --cases 100000       # the same as a script; --case SEED:I replays one
"""
