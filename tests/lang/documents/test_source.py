"""Only files inside the plugin folder, by safe relative paths, strict UTF-8, 512 KB in all (threats.md §3.6)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui.lang.documents.source import (
    MAX_PLUGIN_BYTES,
    BudgetedReader,
    DirectorySource,
    MemorySource,
    SourceError,
    check_path,
)


@pytest.mark.parametrize("path", ["tools/free.yaml", "PLUGIN.md", "widgets/a-b_c.json", "fixtures/页面.html"])
def test_good_paths(path: str) -> None:
    assert check_path(path) == path


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("../secret", "leaves the plugin folder"),
        ("tools/../../x", "leaves the plugin folder"),
        ("%2e%2e/x", "leaves the plugin folder"),
        ("%252e%252e/x", "leaves the plugin folder"),
        ("tools%2f..%2f..%2fx", "leaves the plugin folder"),
        ("/etc/passwd", "absolute"),
        ("%2fetc/passwd", "absolute"),
        ("C:/x", "drive or a URL"),
        ("https://evil.com/x", "drive or a URL"),
        ("tools\\free.yaml", "backslash"),
        ("tools%5cfree.yaml", "backslash"),
        ("./tools/free.yaml", "'.' segment"),
        ("tools//free.yaml", "empty"),
        ("tools/\x00.yaml", "control"),
        ("", "non-empty"),
    ],
)
def test_bad_paths_say_which_rule(path: str, reason: str) -> None:
    with pytest.raises(SourceError, match=reason):
        check_path(path)


def test_symlinks_are_refused_even_inside_the_folder(tmp_path: Path) -> None:
    (tmp_path / "real.yaml").write_text("a: 1", "utf-8")
    os.symlink(tmp_path / "real.yaml", tmp_path / "link.yaml")
    os.symlink(tmp_path, tmp_path / "dirlink")
    src = DirectorySource(tmp_path)
    assert src.read_bytes("real.yaml") == b"a: 1"
    with pytest.raises(SourceError, match="symbolic link"):
        src.read_bytes("link.yaml")
    with pytest.raises(SourceError, match="symbolic link"):
        src.read_bytes("dirlink/real.yaml")


def test_missing_and_non_files(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    src = DirectorySource(tmp_path)
    with pytest.raises(SourceError, match="does not exist"):
        src.read_bytes("nope.yaml")
    with pytest.raises(SourceError, match="not a regular file"):
        src.read_bytes("dir")


def test_strict_utf8_with_the_line_of_the_bad_byte() -> None:
    reader = BudgetedReader(MemorySource({"a.yaml": b"ok: 1\nbad: \xff\n", "b.yaml": b"\xef\xbb\xbfk: v"}))
    with pytest.raises(SourceError, match=r"a.yaml is not UTF-8 text \(byte 11, line 2\)"):
        reader.read_text("a.yaml")
    assert reader.read_text("b.yaml") == "k: v"  # a BOM is dropped


def test_the_budget_counts_all_files_together() -> None:
    half = b"x" * (MAX_PLUGIN_BYTES // 2)
    reader = BudgetedReader(MemorySource({"a": half, "b": half, "c": b"x"}))
    reader.read_text("a")
    reader.read_text("b")
    reader.read_text("a")  # read once, counted once
    with pytest.raises(SourceError, match="512 KB limit"):
        reader.read_text("c")
