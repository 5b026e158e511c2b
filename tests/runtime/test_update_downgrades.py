"""Updates that look narrower but are not (issue 15 item 15), through the real installer and the fake GitHub: any
change of a tool's effect, and a guard that a renamed tool dropped, pause the update with the old version
running."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.cli.review_text import update_text
from tui.runtime.plugins.fetch import PluginFetcher
from tui.runtime.plugins.installer import Installer
from tui.runtime.plugins.review import EffectChange, GuardChange
from tui.runtime.runtime import Runtime

TREE = "https://github.com/someone/campus-plugins/tree/main/plugins/notes"
POSTS = [{"request": {"method": "POST", "url": "https://api.example.com/posts", "json": {"text": "x"}}}]

#: name → (tools before, tools after, modes the student chose, what the review must list, a line of its text)
DOWNGRADES: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, str], object, str]] = {
    "write to read on a tool that still POSTs": (
        {"post": {"title": "发帖", "effect": "write", "steps": POSTS}},
        {"post": {"title": "发帖", "effect": "read", "steps": POSTS}},
        {},
        EffectChange("post", "write", "read"),
        "effect: post: write → read",
    ),
    "public to money while money is on allow": (
        {"share": {"title": "分享", "effect": "public", "steps": POSTS}},
        {"share": {"title": "分享", "effect": "money", "steps": POSTS}},
        {"money": "allow"},
        EffectChange("share", "public", "money"),
        "effect: share: public → money",
    ),
    "an untrusted tool renamed without the flag": (
        {"feed": {"title": "动态", "untrusted": True}},
        {"feed2": {"title": "动态"}},
        {},
        GuardChange("feed2", "untrusted", "feed"),
        "new tool feed2 is not untrusted, as feed was",
    ),
    "a userOnly tool renamed without the flag": (
        {"secret": {"title": "私密", "userOnly": True}},
        {"secret2": {"title": "私密"}},
        {},
        GuardChange("secret2", "userOnly", "secret"),
        "new tool secret2 is not userOnly, as secret was",
    ),
}


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    yield rt
    rt.close()


@pytest.mark.parametrize("kind", list(DOWNGRADES))
def test_a_downgrade_that_widens_pauses_the_update(kind: str, runtime: Runtime) -> None:
    before, after, modes, listed, line = DOWNGRADES[kind]
    github = FakeGitHub()
    github.push("someone", "campus-plugins", plugin_files(tools=before), prefix="plugins/notes/")
    inst = Installer(runtime, PluginFetcher(transport=github.transport()))
    inst.install(inst.prepare(TREE))
    for effect, mode in modes.items():
        runtime.grants.set("notes", effect, mode)  # type: ignore[arg-type]
    github.push("someone", "campus-plugins", plugin_files(version="1.0.1", tools=after), prefix="plugins/notes/")
    outcome = inst.check("notes")
    assert outcome.status == "paused", outcome.message
    review = outcome.review
    assert review is not None and review.wider_scope and review.needs_approval
    assert listed in (review.stronger if isinstance(listed, EffectChange) else review.lost_guards)
    assert line in update_text(review)
    assert runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.0"  # the old version keeps running
    assert inst.pending_review("notes") == review


def test_a_tool_renamed_with_its_guard_is_no_change_but_a_new_unguarded_one_beside_a_guarded_one_is(
    runtime: Runtime,
) -> None:
    github = FakeGitHub()

    def publish(version: str, tools: dict[str, Any]) -> None:
        github.push("someone", "campus-plugins", plugin_files(version=version, tools=tools), prefix="plugins/notes/")

    publish("1.0.0", {"secret": {"title": "私密", "userOnly": True}})
    inst = Installer(runtime, PluginFetcher(transport=github.transport()))
    inst.install(inst.prepare(TREE))
    publish("1.0.1", {"secret2": {"title": "私密", "userOnly": True}})
    outcome = inst.check("notes")  # renamed with its flag: nothing lost, and the new tool is read-only
    assert outcome.status == "applied" and outcome.review is not None and outcome.review.lost_guards == []
    # A guarded stub kept under the old name does not hide an unguarded tool that does the work.
    publish("1.0.2", {"secret2": {"title": "私密", "userOnly": True}, "secret3": {"title": "私密"}})
    outcome = inst.check("notes")
    assert outcome.status == "paused" and outcome.review is not None
    assert outcome.review.lost_guards == [GuardChange("secret3", "userOnly", "secret2")]
