"""A running fake campus and a campus session pointed at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.runtime.campus.net import CampusNet
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.vault import KeyringVault
from tui.runtime.secrets import Secrets
from tui.runtime.store import Store

from ..fake_campus import FakeCampus

USER, PASSWORD = "2100012345", "correct horse"


@pytest.fixture
def campus() -> Iterator[tuple[FakeCampus, str]]:
    fake = FakeCampus()
    with fake.running() as origin:
        yield fake, origin


@pytest.fixture
def fake(campus: tuple[FakeCampus, str]) -> FakeCampus:
    return campus[0]


@pytest.fixture
def session(campus: tuple[FakeCampus, str], tmp_path: Path) -> Iterator[CampusSession]:
    store = Store(tmp_path / "app.sqlite3")
    s = CampusSession(store, Secrets(), KeyringVault(), CampusNet(origin=campus[1]), backoff=(0.01, 0.01))
    yield s
    store.close()
