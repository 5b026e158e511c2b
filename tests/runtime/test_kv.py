"""The plugins' KV store in SQLite: quota inside the transaction, old value intact, expiry, isolation."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from tui.lang.host import KV_QUOTA_BYTES, KvQuotaError, entry_size
from tui.lang.testing.memorykv import MemoryKv
from tui.runtime.kv import SqliteKv


def test_values_round_trip_and_expire(tmp_path: Path) -> None:
    kv = SqliteKv.open(tmp_path / "kv.db")
    kv.set("p", "a", {"x": [1, "二"]}, now_ms=1000)
    kv.set("p", "b", 1, ttl_ms=500, now_ms=1000)
    assert kv.get("p", "a", now_ms=2000) == {"x": [1, "二"]}
    assert kv.get("p", "b", now_ms=1499) == 1
    assert kv.get("p", "b", now_ms=1500) is None
    assert kv.get("other", "a") is None  # plugins never see each other's keys
    kv.delete("p", "a")
    assert kv.get("p", "a") is None


def test_a_write_past_the_quota_fails_and_leaves_the_old_value(tmp_path: Path) -> None:
    kv = SqliteKv.open(tmp_path / "kv.db", quota=1000)
    kv.set("p", "k", "x" * 400)
    kv.set("p", "other", "y" * 400)
    with pytest.raises(KvQuotaError, match="the limit is 0 KB|would hold"):
        kv.set("p", "k", "z" * 700)
    assert kv.get("p", "k") == "x" * 400
    kv.set("p", "k", "z" * 500)  # replacing counts the new size, not both
    assert kv.used("p") == entry_size("k", "z" * 500) + entry_size("other", "y" * 400)


def test_the_quota_is_256_kb_per_plugin(tmp_path: Path) -> None:
    kv = SqliteKv.open(tmp_path / "kv.db")
    big = "x" * (KV_QUOTA_BYTES - 100)
    kv.set("a", "k", big)
    kv.set("b", "k", big)  # another plugin has its own quota
    with pytest.raises(KvQuotaError):
        kv.set("a", "k2", "y" * 200)


def test_writes_survive_a_reopen_and_the_database_stays_sound(tmp_path: Path) -> None:
    path = tmp_path / "kv.db"
    kv = SqliteKv.open(path)
    for i in range(200):
        kv.set("p", f"k{i}", {"i": i})
    kv.close()
    kv = SqliteKv.open(path)
    assert kv.get("p", "k199") == {"i": 199}
    kv.close()
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)


class KvMatchesModel(RuleBasedStateMachine):
    """The SQLite store and the in-memory model agree on every sequence, and never pass the quota."""

    def __init__(self) -> None:
        super().__init__()
        import tempfile

        self.dir = tempfile.TemporaryDirectory()
        self.kv = SqliteKv.open(Path(self.dir.name) / "kv.db", quota=2000)
        self.model = MemoryKv(quota=2000)

    @rule(key=st.sampled_from(["a", "b", "c", "长键"]), size=st.integers(0, 900))
    def write(self, key: str, size: int) -> None:
        value = {"s": "v" * size, "n": random.random()}
        results = []
        for store in (self.kv, self.model):
            try:
                if store is self.kv:
                    self.kv.set("p", key, value, now_ms=0)
                else:
                    self.model.set(key, value, None, 0)
                results.append("ok")
            except KvQuotaError:
                results.append("quota")
        assert results[0] == results[1]

    @rule(key=st.sampled_from(["a", "b", "c", "长键"]))
    def delete(self, key: str) -> None:
        self.kv.delete("p", key)
        self.model.delete(key)

    @invariant()
    def same_contents_within_quota(self) -> None:
        snapshot = self.model.snapshot()
        for key in ("a", "b", "c", "长键"):
            assert self.kv.get("p", key, now_ms=0) == snapshot.get(key)
        assert self.kv.used("p") <= 2000

    def teardown(self) -> None:
        self.kv.close()
        self.dir.cleanup()


TestKvMatchesModel = KvMatchesModel.TestCase
TestKvMatchesModel.settings = settings(max_examples=30, stateful_step_count=20, deadline=None)
