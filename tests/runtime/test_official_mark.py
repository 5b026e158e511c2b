"""The official mark is a verdict of the fetch (issue 15 item 14): a named branch or tag of the official
repository, or a commit reachable from its default branch. A fork's commit, which GitHub serves through the
parent's API and raw URLs, is a community plugin: no mark, no `defaultModes`. The review shows the resolved ref.
Community plugins whose name, id or author imitates the mark are refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.cli.review_text import install_text
from tui.runtime.plugins.fetch import PluginFetcher
from tui.runtime.plugins.installer import Installer, InstallError
from tui.runtime.plugins.links import ResolvedRef
from tui.runtime.plugins.official_mark import imitation
from tui.runtime.runtime import Runtime

OWNER, REPO = "pkuinfo", "pku-harness-plugins"
OFFICIAL = f"https://github.com/{OWNER}/{REPO}/tree/{{ref}}/plugins/notes"
#: A write tool that the manifest wants to start at allow: only an official plugin's defaultModes count.
WRITES = {"tools": {"add": {"title": "记一条", "effect": "write"}}, "default_modes": "{ write: allow }"}


@pytest.fixture
def github() -> FakeGitHub:
    gh = FakeGitHub()
    gh.push(OWNER, REPO, plugin_files(version="1.0.0", **WRITES), prefix="plugins/notes/")  # type: ignore[arg-type]
    gh.push(OWNER, REPO, plugin_files(version="1.1.0", **WRITES), prefix="plugins/notes/")  # type: ignore[arg-type]
    return gh


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "db.sqlite3")
    yield rt
    rt.close()


def installer(runtime: Runtime, github: FakeGitHub) -> Installer:
    return Installer(runtime, PluginFetcher(transport=github.transport()))


def write_mode(runtime: Runtime) -> str:
    inst = runtime.registry.plugins["notes"]
    return runtime.grants.modes("notes", inst.official, inst.plugin.manifest.defaultModes)["write"]


def test_a_fork_commit_served_through_the_official_repository_is_a_community_plugin(
    runtime: Runtime, github: FakeGitHub
) -> None:
    fork = github.push_fork(
        OWNER,
        REPO,
        plugin_files(version="6.6.6", **WRITES),
        prefix="plugins/notes/",  # type: ignore[arg-type]
    )
    inst = installer(runtime, github)
    for ref in (fork, fork[:7]):  # the full id and a short one
        prepared = inst.prepare(OFFICIAL.format(ref=ref))
        assert prepared.review.version == "6.6.6"  # GitHub did serve the fork's files under the official name
        assert prepared.review.official is False and prepared.fetched.official is False
        assert prepared.review.ref == ResolvedRef("ref", ref, fork)
        assert [t.name for t in prepared.review.asks_first] == ["add"]
    record = inst.install(inst.prepare(OFFICIAL.format(ref=fork)))
    assert record.official is False and runtime.registry.plugins["notes"].official is False
    assert write_mode(runtime) == "ask"  # the manifest's `write: allow` is not honoured
    assert f"api/repos/{OWNER}/{REPO}/compare/main...{fork}" in github.requests
    again = Runtime.open(runtime.store.path)  # and it stays community at the next start
    try:
        assert again.registry.plugins["notes"].official is False
    finally:
        again.close()


def test_a_branch_of_the_official_repository_carries_the_mark_and_its_default_modes(
    runtime: Runtime, github: FakeGitHub
) -> None:
    tip = github.repos[OWNER, REPO].refs["main"]
    inst = installer(runtime, github)
    prepared = inst.prepare(OFFICIAL.format(ref="main"))
    assert prepared.review.official and prepared.review.ref == ResolvedRef("branch", "main", tip)
    assert prepared.review.asks_first == []
    assert f"  ref:    branch main at commit {tip}" in install_text(prepared.review)
    record = inst.install(prepared)
    assert record.official and write_mode(runtime) == "allow"


@pytest.mark.parametrize("annotated", [False, True])
def test_a_tag_of_the_official_repository_carries_the_mark(
    annotated: bool, runtime: Runtime, github: FakeGitHub
) -> None:
    r = github.repos[OWNER, REPO]
    first = r.parents[r.refs["main"]]
    assert first is not None
    github.tag(OWNER, REPO, "v1.0.0", first, annotated=annotated)
    prepared = installer(runtime, github).prepare(OFFICIAL.format(ref="v1.0.0"))
    assert prepared.review.official and prepared.review.ref == ResolvedRef("tag", "v1.0.0", first)
    assert prepared.review.version == "1.0.0"
    assert "  ref:    tag v1.0.0 at commit " in install_text(prepared.review)


def test_a_commit_on_the_default_branch_carries_the_mark(runtime: Runtime, github: FakeGitHub) -> None:
    r = github.repos[OWNER, REPO]
    first = r.parents[r.refs["main"]]
    assert first is not None
    inst = installer(runtime, github)
    for ref in (first, first[:10], r.refs["main"]):  # behind the tip, short, and the tip itself (identical)
        prepared = inst.prepare(OFFICIAL.format(ref=ref))
        assert prepared.review.official, ref
        assert prepared.review.ref is not None and prepared.review.ref.kind == "commit"
    assert f"commit {first}, on the default branch" in install_text(inst.prepare(OFFICIAL.format(ref=first)).review)


def test_a_community_repository_is_not_looked_up(runtime: Runtime, github: FakeGitHub) -> None:
    github.push("someone", "plugins", plugin_files(), prefix="plugins/notes/")
    prepared = installer(runtime, github).prepare("https://github.com/someone/plugins/tree/main/plugins/notes")
    assert not prepared.review.official and prepared.review.ref is not None
    assert prepared.review.ref.kind == "ref"  # shown as written, with its commit
    assert not any("/git/" in r or "/compare/" in r for r in github.requests)  # no extra API calls


def test_an_official_install_whose_commit_stops_being_on_the_default_branch_is_not_updated(
    runtime: Runtime, github: FakeGitHub
) -> None:
    r = github.repos[OWNER, REPO]
    tip = r.refs["main"]
    inst = installer(runtime, github)
    assert inst.install(inst.prepare(OFFICIAL.format(ref=tip))).official
    github.force_push(OWNER, REPO, plugin_files(version="2.0.0"), prefix="plugins/notes/")  # history rewritten
    outcome = inst.check("notes")  # the commit is still served by id, but the repository no longer vouches
    assert outcome.status == "error" and "no longer resolves to a branch, a tag or a default-branch commit" in (
        outcome.message
    )
    assert runtime.registry.plugins["notes"].plugin.manifest.version == "1.1.0"


IMITATIONS = [
    ("name", "官方笔记"),
    ("author", "官\u200b方"),  # a zero-width space inside (names refuse invisible characters already)
    ("name", "笔记 ✅"),
    ("name", "笔记 ☑️"),
    ("name", "笔记 ✔"),
    ("name", "Official Notes"),
    ("name", "ＯＦＦＩＣＩＡＬ notes"),  # full-width, folded by NFKC
    ("name", "Оfficial notes"),  # a Cyrillic О
    ("name", "0fficial notes"),
    ("author", "tests\u202e(official)"),  # a bidi override
    ("author", "pkuinfo"),
    ("author", "PKU-Info team"),
    ("author", "PKU harness 官方"),
    ("author", "PKU Harness"),
]


@pytest.mark.parametrize(("field", "value"), IMITATIONS, ids=[v for _, v in IMITATIONS])
def test_a_community_plugin_imitating_the_mark_is_refused(
    field: str, value: str, runtime: Runtime, github: FakeGitHub
) -> None:
    files = plugin_files()
    files["PLUGIN.md"] = files["PLUGIN.md"].replace(
        "name: 笔记" if field == "name" else "author: tests", f"{field}: {value!r}".replace("'", '"')
    )
    github.push("someone", "plugins", files, prefix="plugins/notes/")
    with pytest.raises(InstallError, match=f"community plugin, but its {field} .* uses .*refused"):
        installer(runtime, github).prepare("https://github.com/someone/plugins/tree/main/plugins/notes")
    assert runtime.installs.all() == []


@pytest.mark.parametrize("text", ["Unofficial notes", "笔记", "Officially unsupported", "Office hours", "pku notes"])
def test_ordinary_names_are_not_imitations(text: str) -> None:
    assert imitation(text, author=True) is None


def test_the_official_repository_may_use_its_own_name(runtime: Runtime, github: FakeGitHub) -> None:
    files = plugin_files(version="1.2.0")
    files["PLUGIN.md"] = files["PLUGIN.md"].replace("author: tests", "author: pkuinfo")
    github.push(OWNER, REPO, files, prefix="plugins/notes/")
    assert installer(runtime, github).prepare(OFFICIAL.format(ref="main")).review.author == "pkuinfo"


def test_an_update_that_starts_imitating_the_mark_is_not_applied(runtime: Runtime, github: FakeGitHub) -> None:
    github.push("someone", "plugins", plugin_files(), prefix="plugins/notes/")
    link = "https://github.com/someone/plugins/tree/main/plugins/notes"
    inst = installer(runtime, github)
    inst.install(inst.prepare(link))
    files = plugin_files(version="1.0.1")
    files["PLUGIN.md"] = files["PLUGIN.md"].replace("name: 笔记", "name: 官方笔记")
    github.push("someone", "plugins", files, prefix="plugins/notes/")
    outcome = inst.check("notes")
    assert outcome.status == "error" and "官方" in outcome.message
    assert runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.0"
