"""Shared fixtures: where the shared conformance data lives, and a fixed clock for date tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest
from keyring.backend import KeyringBackend

REPO = Path(__file__).resolve().parent.parent


def shared_dir() -> Path:
    """`../shared` beside the checkout (CI lays a copy there); PKU_HARNESS_SHARED overrides it."""
    env = os.environ.get("PKU_HARNESS_SHARED")
    return Path(env) if env else REPO.parent / "shared"


#: The shared expression conformance cases, kept in the project as test data: a fresh clone has no `../shared`.
CONFORMANCE = REPO / "tests" / "fixtures" / "conformance" / "expressions.jsonl"


@pytest.fixture
def conformance_file() -> Path:
    """The expression conformance cases (the project's copy; `test_conformance` checks it against `../shared`)."""
    assert CONFORMANCE.exists(), f"conformance cases not found at {CONFORMANCE}"
    return CONFORMANCE


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own app data directory, so no test reads or writes the developer's real one."""
    data = tmp_path / "app-data"
    monkeypatch.setenv("PKU_HARNESS_DATA", str(data))
    # No test reaches the real GitHub: the app checks the built-in plugins' official links whenever it starts
    # outside the demo, and a closed loopback port refuses at once (tests that fetch serve their own fake).
    monkeypatch.setenv("PKU_HARNESS_GITHUB_API", "http://127.0.0.1:9/api")
    monkeypatch.setenv("PKU_HARNESS_GITHUB_RAW", "http://127.0.0.1:9/raw")
    # No test opens the developer's browser: a link the app opens goes to a desktop browser only with a display.
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return data


class MemoryKeyring(KeyringBackend):
    """An in-memory keyring: real keyring calls, no OS keychain (none exists on CI)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.items.pop((service, username), None)


@pytest.fixture(autouse=True)
def memory_keyring() -> MemoryKeyring:
    """Every test gets an empty in-memory keyring backend."""
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    return backend


@pytest.fixture
def campus_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A running fake campus, with PKU_HARNESS_CAMPUS_ORIGIN pointing every campus host at it."""
    from tests.runtime.fake_campus import FakeCampus  # an RSA key is made on import: only for tests that use it

    fake = FakeCampus()
    with fake.running() as origin:
        monkeypatch.setenv("PKU_HARNESS_CAMPUS_ORIGIN", origin)
        yield fake


#: The slowest test modules (worker seconds in a full run on 2 cores, 2026-12-01), started first. pytest-xdist's
#: work stealing (`--dist worksteal`) then evens out the rest; had these come last (they sat at the end of the
#: collection order), one worker ran them alone while the other idled — the suite took 25 min for 15 of work.
HEAVY_FIRST = (
    "tests/app/test_memory_tour.py",  # 130 s, one test
    "tests/app/test_key_mashing.py",  # 5 × ~60 s
    "tests/app/test_readable.py",  # two of ~55 s
    "tests/app/test_screenshots.py",  # 38 s, one test
    "tests/app/test_one_language.py",  # two of ~35 s
    "tests/app/test_navigation.py",
    "tests/test_cli_store_faults.py",
    "tests/app/test_plugin_admin.py",
    "tests/app/test_slow_plugins.py",
    "tests/app/test_render_never_crashes.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the heaviest modules first (a stable sort: every module keeps its own order)."""
    rank = {path: i for i, path in enumerate(HEAVY_FIRST)}

    def weight(item: pytest.Item) -> int:
        return rank.get(Path(os.path.relpath(item.path, REPO)).as_posix(), len(HEAVY_FIRST))

    items.sort(key=weight)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two workers a core. Much of the suite waits (pilot pauses, loopback servers, subprocesses) rather
    than computes, so one worker a core leaves the cores idle: on 2 cores (2026-12-02, same machine, same tree)
    `-n 2` took 656 s and `-n 4` 540 s. `PYTEST_XDIST_AUTO_NUM_WORKERS` still overrides it."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    return 2 * (os.cpu_count() or 1)
