"""The oracle's node process, once per session; the differential tests skip when node is not on PATH.

When the environment variable CI is set and node is missing, the tests still skip (a Python-only CI image
must stay green) but the reason says so loudly, so a CI log shows the differential test did not run.
Where node is on PATH the tests always run, in CI or not: they never skip for any other reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from .lab import Lab
from .node import Oracle, node_path


def skip_reason() -> str | None:
    """Why the differential tests cannot run here, or None."""
    if node_path() is not None:
        return None
    reason = "node is not on PATH, so the differential test against JavaScript cannot run"
    if os.environ.get("CI"):
        reason += " (CI is set: install node 18+ in the CI image to run it)"
    return reason


@pytest.fixture(scope="session")
def lab() -> Iterator[Lab]:
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    with Oracle() as oracle:
        yield Lab(oracle)
