"""The permission matrix (issue #4): actor × effect × mode × tainted × userOnly × official/community."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tui.lang.documents.manifest import DefaultModes
from tui.runtime.permissions import ACTORS, EFFECTS, MODES, Grants, decide, default_mode
from tui.runtime.store import Store


def expected(actor: str, effect: str, mode: str, tainted: bool, user_only: bool) -> str:
    """The rule written independently of the implementation, as the seed and threats.md state it."""
    if actor == "user":
        return "run"  # 用户的调用从不询问
    if user_only:
        return "refuse"  # P3: refused at dispatch
    if actor == "scheduler":
        return "run" if effect == "read" and mode == "allow" else "refuse"  # P1: read only, ask means deny
    if mode == "deny":
        return "refuse"  # deny wins
    if tainted and effect in ("write", "money", "public"):
        return "ask"  # P6: forced ask in a tainted turn
    return "ask" if mode == "ask" else "run"


CASES = list(itertools.product(ACTORS, EFFECTS, MODES, (False, True), (False, True), (True, False)))


def test_the_matrix_has_at_least_288_cases() -> None:
    assert len(CASES) == 288


@pytest.mark.parametrize(("actor", "effect", "mode", "tainted", "user_only", "official"), CASES)
def test_matrix(actor: str, effect: str, mode: str, tainted: bool, user_only: bool, official: bool) -> None:
    # The community/official difference acts through the starting mode; the matrix checks both the stored
    # mode as given and the mode a fresh install starts with.
    got = decide(actor, effect, mode, tainted, user_only)  # type: ignore[arg-type]
    assert got.verdict == expected(actor, effect, mode, tainted, user_only)
    assert got.reason
    start = default_mode(effect, official, DefaultModes(**{effect: "allow"}))  # type: ignore[arg-type]
    fresh = decide(actor, effect, start, tainted, user_only)  # type: ignore[arg-type]
    assert fresh.verdict == expected(actor, effect, start, tainted, user_only)
    if not official and effect != "read":
        assert start == "ask"  # P4: a community manifest cannot grant itself allow


@pytest.mark.parametrize(
    ("effect", "official", "declared", "want"),
    [
        ("read", True, None, "allow"),
        ("write", True, None, "ask"),
        ("money", True, DefaultModes(money="allow"), "allow"),
        ("money", False, DefaultModes(money="allow"), "ask"),  # P4
        ("public", False, DefaultModes(public="deny"), "deny"),  # a plugin may always ask for less
        ("read", False, DefaultModes(read="ask"), "ask"),
        ("read", False, None, "allow"),
    ],
)
def test_default_modes(effect: str, official: bool, declared: DefaultModes | None, want: str) -> None:
    assert default_mode(effect, official, declared) == want  # type: ignore[arg-type]


def test_grants_are_stored_and_override_defaults(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    grants = Grants(store)
    assert grants.mode("wallet", "money", official=True, declared=None) == "ask"
    grants.set("wallet", "money", "deny")
    assert grants.mode("wallet", "money", official=True, declared=DefaultModes(money="allow")) == "deny"
    store.close()
    grants = Grants(Store(tmp_path / "db.sqlite3"))  # it survives a restart
    assert grants.chosen() == {("wallet", "money"): "deny"}
    grants.reset("wallet")
    assert grants.mode("wallet", "money", official=True, declared=None) == "ask"
    with pytest.raises(ValueError):
        grants.set("wallet", "money", "sometimes")  # type: ignore[arg-type]


def test_the_scheduler_refusal_explains_itself() -> None:
    d = decide("scheduler", "money", "allow", False, False)
    assert d.verdict == "refuse" and "only read" in d.reason
    d = decide("agent", "public", "allow", True, False)
    assert d.verdict == "ask" and "third-party text" in d.reason


@pytest.mark.parametrize("effect", EFFECTS)
def test_an_attended_tool_is_refused_to_the_scheduler_only(effect: str) -> None:
    """The plugin drafts are for a conversation with the student: the scheduler may not call one even to read."""
    d = decide("scheduler", effect, "allow", False, False, attended=True)  # type: ignore[arg-type]
    assert d.verdict == "refuse" and "scheduled runs may not use it" in d.reason
    for actor in ("user", "agent"):
        plain = decide(actor, effect, "allow", False, False)  # type: ignore[arg-type]
        assert decide(actor, effect, "allow", False, False, attended=True) == plain  # type: ignore[arg-type]
