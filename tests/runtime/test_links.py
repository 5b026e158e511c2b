"""Install links: every form of the seeds' table parses; everything else is refused with the accepted forms;
only exact links into pkuinfo/pku-harness-plugins under plugins/ may claim the official mark (whether they get it
is decided by the fetched ref: tests/runtime/test_official_mark.py)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from tui.runtime.plugins.links import LinkError, parse_link

TREE = "https://github.com/someone/campus-plugins/tree/main/plugins/notes"


def test_a_github_folder_link() -> None:
    link = parse_link(TREE)
    assert (link.kind, link.owner, link.repo, link.ref, link.path) == (
        "github", "someone", "campus-plugins", "main", "plugins/notes"
    )  # fmt: skip
    # a ref may itself contain '/': the fetcher tries each split, shortest ref first
    assert parse_link("https://github.com/o/r/tree/feature/x/notes").candidates() == [
        ("feature", "x/notes"),
        ("feature/x", "notes"),
        ("feature/x/notes", ""),
    ]


def test_a_repository_root_and_a_file_link() -> None:
    root = parse_link("https://github.com/someone/notes-plugin")
    assert (root.kind, root.ref, root.path, root.candidates()) == ("github", None, "", [("", "")])
    blob = parse_link("https://github.com/someone/r/blob/v1.2/plugins/notes/PLUGIN.md")
    assert (blob.ref, blob.path) == ("v1.2", "plugins/notes")
    assert parse_link("https://github.com/someone/r.git").repo == "r"


def test_any_https_url_of_a_plugin_md() -> None:
    link = parse_link("https://gist.githubusercontent.com/u/abc/raw/PLUGIN.md")
    assert (link.kind, link.base_url) == ("url", "https://gist.githubusercontent.com/u/abc/raw/")
    assert parse_link("https://plugins.example.org/notes/PLUGIN.md").in_official_repo is False


def test_a_deep_link_is_decoded_exactly_once() -> None:
    link = parse_link("pkuharness://plugin?src=" + quote(TREE, safe=""))
    assert link.kind == "github" and link.text == TREE
    twice = "pkuharness://plugin?src=" + quote(quote(TREE, safe=""), safe="")
    with pytest.raises(LinkError, match="https://"):
        parse_link(twice)  # one decode leaves 'https%3A%2F%2F…', which is not a link


def test_a_local_folder_for_authors(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "PLUGIN.md").write_text("---\n---\n")
    assert parse_link("p", cwd=tmp_path).folder == tmp_path / "p"
    assert parse_link(str(tmp_path / "p" / "PLUGIN.md")).folder == tmp_path / "p"


@pytest.mark.parametrize(
    ("link", "why"),
    [
        ("http://plugins.example.org/notes/PLUGIN.md", "https only"),
        ("ftp://example.org/PLUGIN.md", "unknown link scheme"),
        ("https://example.org/notes/README.md", "must point at a PLUGIN.md"),
        ("https://example.org/PLUGIN.md?x=1", "query"),
        ("https://user:pw@example.org/PLUGIN.md", "user name or password"),
        ("https://github.com/o/r/issues/3", "must be a repository"),
        ("https://github.com/o/r/blob/main/notes/README.md", "must end in /PLUGIN.md"),
        ("https://github.com/o/r/tree/main/plugins/../evil", "'..'"),
        ("https://github.com/o/r/tree/main/plugins/%2e%2e/evil", "'..'"),
        ("https://github.com/o", "owner and a repository"),
        ("pkuharness://install?src=x", "pkuharness://plugin"),
        ("pkuharness://plugin?src=a&src=b", "exactly one"),
        ("pkuharness://plugin?src=" + quote("pkuharness://plugin?src=x", safe=""), "another pkuharness"),
        ("pkuharness://plugin?src=notes", "not a local folder"),
        ("no-such-folder", "accepted: a GitHub folder"),
        ("", "empty link"),
    ],
)
def test_anything_else_is_refused_saying_why(link: str, why: str) -> None:
    with pytest.raises(LinkError, match=why.replace("?", r"\?").replace("(", r"\(").replace(".", r"\.")):
        parse_link(link)


@pytest.mark.parametrize(
    ("link", "official"),
    [
        ("https://github.com/pkuinfo/pku-harness-plugins/tree/main/plugins/notes", True),
        ("https://github.com/PKUInfo/PKU-Harness-Plugins/tree/main/plugins/notes", True),  # GitHub ignores case
        ("https://github.com/pkuinfo/pku-harness-plugins/blob/v2/plugins/notes/PLUGIN.md", True),
        (
            "pkuharness://plugin?src=https%3A%2F%2Fgithub.com%2Fpkuinfo%2Fpku-harness-plugins%2Ftree%2Fmain%2Fplugins%2Fn",
            True,
        ),
        ("https://github.com/pkuinfo/pku-harness-plugins", False),  # the root is not a plugin under plugins/
        ("https://github.com/pkuinfo/pku-harness-plugins/tree/main/plugins", False),
        ("https://github.com/pkuinfo/pku-harness-plugins/tree/main/community/notes", False),
        ("https://github.com/pkuinfo/pku-harness-plugins-fork/tree/main/plugins/notes", False),
        ("https://github.com/pkuinfo-evil/pku-harness-plugins/tree/main/plugins/notes", False),
        ("https://github.com.evil.example/pkuinfo/pku-harness-plugins/tree/main/plugins/notes/PLUGIN.md", False),
        ("https://raw.githubusercontent.com/pkuinfo/pku-harness-plugins/main/plugins/notes/PLUGIN.md", False),
    ],
)
def test_only_exact_links_into_the_official_repository_may_claim_the_mark(link: str, official: bool) -> None:
    assert parse_link(link).in_official_repo is official
