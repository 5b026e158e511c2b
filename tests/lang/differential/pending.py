"""PENDING: every class of disagreement found that docs/PLUGIN-LANGUAGE.md does not document.

The engine's engineer works from this list: each entry has a short name, the docs' section it touches, one
minimal example (found by the minimiser) with what the engine gives and what JavaScript gives, and a
recogniser (recognise.py, or a change that takes the cause away, lab.py). When a fix lands, the entry's own
example stops disagreeing and test_tables fails until the entry is deleted; a disagreement that matches no
entry (here or in documented.py) fails test_differential.

Crashes (a Python exception that is not the language's LangError) are marked `crash=True`.
"""

from __future__ import annotations

from .documented import Entry

PENDING: list[Entry] = []
