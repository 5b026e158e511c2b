"""Scheduled checks and assistant tasks: refusing a check as it is made (checks.py, timing.py) and what a run
says in its log, its state and its notification (runner.py, tasks.py)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {}
