"""Shared fixtures: where the shared conformance data lives, and a fixed clock for date tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def shared_dir() -> Path:
    """`../shared` beside the checkout (CI lays a copy there); PKU_HARNESS_SHARED overrides it."""
    env = os.environ.get("PKU_HARNESS_SHARED")
    return Path(env) if env else REPO.parent / "shared"


@pytest.fixture
def conformance_file() -> Path:
    """The expression conformance cases; a missing file fails loudly rather than skipping the suite."""
    path = shared_dir() / "conformance" / "expressions.jsonl"
    assert path.exists(), f"conformance cases not found at {path}"
    return path


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own app data directory, so no test reads or writes the developer's real one."""
    data = tmp_path / "app-data"
    monkeypatch.setenv("PKU_HARNESS_DATA", str(data))
    return data
