"""Loading: only the files the manifest names are read, within 512 KB in all; the structure is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.lang.documents.loader import load_plugin, split_frontmatter
from tui.lang.documents.problems import DocumentError
from tui.lang.documents.source import DirectorySource, MemorySource

SHOWCASE = Path(__file__).parents[2] / "fixtures" / "plugins" / "showcase"


class Spy(DirectorySource):
    """Remembers every path read."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.read: list[str] = []

    def read_bytes(self, relpath: str) -> bytes:
        self.read.append(relpath)
        return super().read_bytes(relpath)


def test_only_the_files_the_manifest_names_are_read() -> None:
    spy = Spy(SHOWCASE)
    plugin = load_plugin(spy)
    assert sorted(spy.read) == sorted(
        [
            "PLUGIN.md",
            "shared.yaml",
            "tools/rooms.yaml",
            "tools/pages.yaml",
            "tools/notices.yaml",
            "tools/summary.yaml",
            "tools/remember.yaml",
            "widgets/overview.json",
        ]
    )  # never tests/, fixtures/ or anything else in the folder
    assert set(plugin.files) == set(spy.read)


def test_the_loaded_plugin_keeps_what_the_app_needs() -> None:
    plugin = load_plugin(DirectorySource(SHOWCASE))
    assert plugin.instructions.startswith("Use `showcase__rooms`")
    assert plugin.manifest.dataSources["free"].ttl == 30 * 60_000
    assert plugin.shared_constants["DAYS"]["today"] == "今天"
    assert "big(row)" in plugin.shared_functions
    assert plugin.tools["echo"].file == "PLUGIN.md"  # written inline
    assert plugin.tools["rooms"].steps[0].kind == "request"
    assert plugin.widgets["overview"]["kind"] == "widget" and plugin.widgets["overview"]["source"] == "free"


def test_the_512_kb_budget_counts_every_file() -> None:
    manifest = (SHOWCASE / "PLUGIN.md").read_text("utf-8")
    files = {p.relative_to(SHOWCASE).as_posix(): p.read_bytes() for p in SHOWCASE.rglob("*") if p.is_file()}
    files["widgets/overview.json"] = b'{"pad": "' + b"x" * 520_000 + b'"}'
    with pytest.raises(DocumentError, match="512 KB limit"):
        load_plugin(MemorySource({**files, "PLUGIN.md": manifest}))


def test_frontmatter_split() -> None:
    assert split_frontmatter("---\na: 1\n---\nbody\n") == ("a: 1\n", "body", 1)
    assert split_frontmatter("no frontmatter") is None
    assert split_frontmatter("---\na: 1\n") is None  # never closed
