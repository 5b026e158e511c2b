"""The drafts service on real files: ids, the install path rules, the 512 KB budget, atomic writes, list, read,
remove and discard."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.runtime.plugins.drafts import DraftError, Drafts


@pytest.fixture
def drafts(tmp_path: Path) -> Drafts:
    return Drafts(tmp_path / "drafts", {"canteen"})


def refused(fn: object, *args: object) -> str:
    with pytest.raises(DraftError) as e:
        fn(*args)  # type: ignore[operator]
    return str(e.value)


def test_a_new_draft_validates_and_is_listed_with_its_name(drafts: Drafts) -> None:
    folder = drafts.new("lib-books", "图书馆新书")
    plugin, problems = validate(DirectorySource(folder))
    assert plugin is not None and problems == []
    m = plugin.manifest
    assert (m.id, m.name, m.version, m.author) == ("lib-books", "图书馆新书", "0.1.0", "me")
    [info] = drafts.all()
    assert (info.id, info.files, info.name) == ("lib-books", 1, "图书馆新书")
    assert info.bytes == (folder / "PLUGIN.md").stat().st_size and info.modified_ms > 0
    assert "exists already" in refused(drafts.new, "lib-books")


@pytest.mark.parametrize(
    ("draft", "said"),
    [
        ("../x", "lower-case letters"),
        ("Books", "lower-case letters"),
        ("a" * 41, "lower-case letters"),
        ("plugins", "reserved for the app's own tools"),
        ("memory", "reserved for the app's own tools"),
        ("user", "reserved for the app's own tools"),
        ("mcp-books", "remote servers"),
        ("canteen", "a built-in plugin has it"),
    ],
)
def test_ids_follow_the_plugin_id_rule_and_built_in_ones_are_refused(drafts: Drafts, draft: str, said: str) -> None:
    assert said in refused(drafts.write, draft, "PLUGIN.md", "x")
    assert not (drafts.root / draft).exists()


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("../outside.yaml", "leaves the plugin folder"),
        ("tools/../../x.yaml", "leaves the plugin folder"),
        ("%2e%2e/x.yaml", "leaves the plugin folder"),
        ("/etc/passwd.yaml", "is absolute"),
        ("C:/x.yaml", "names a drive or a URL"),
        ("tools\\x.yaml", "backslash"),
        ("tools//x.yaml", "empty or '.' segment"),
        ("tools/run.py", "not a kind of file a plugin folder holds"),
        ("icon.png", "not a kind of file a plugin folder holds"),
    ],
)
def test_paths_follow_the_install_rules(drafts: Drafts, path: str, said: str) -> None:
    drafts.new("notes")
    message = refused(drafts.write, "notes", path, "x")
    assert said in message and "draft notes" in message
    assert [f.path for f in drafts.files("notes")] == ["PLUGIN.md"]


def test_a_symbolic_link_in_a_draft_is_neither_read_nor_written_through(drafts: Drafts, tmp_path: Path) -> None:
    folder = drafts.new("notes")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text("secret", encoding="utf-8")
    (folder / "tools").symlink_to(outside, target_is_directory=True)
    (folder / "link.md").symlink_to(outside / "secret.yaml")
    assert "symbolic link" in refused(drafts.write, "notes", "tools/list.yaml", "x")
    assert "symbolic link" in refused(drafts.read, "notes", "link.md")
    assert "symbolic link" in refused(drafts.read, "notes", "tools/secret.yaml")
    assert not (outside / "list.yaml").exists() and (outside / "secret.yaml").read_text() == "secret"
    assert [f.path for f in drafts.files("notes")] == ["PLUGIN.md"]  # links are not listed as files


def test_the_whole_draft_is_512_kb_at_most(drafts: Drafts) -> None:
    drafts.new("big")
    drafts.write("big", "fixtures/a.json", "x" * 400_000)
    message = refused(drafts.write, "big", "fixtures/b.json", "y" * 130_000)
    assert "512 KB" in message and "fixtures/b.json" in message
    assert not (drafts.root / "big" / "fixtures" / "b.json").exists()
    written = drafts.write("big", "fixtures/a.json", "z" * 500_000)  # replacing counts the new size only
    assert written.previous == "x" * 400_000 and written.bytes == 500_000


def test_a_write_is_atomic_a_failed_rename_leaves_the_old_file(drafts: Drafts, monkeypatch: pytest.MonkeyPatch) -> None:
    drafts.new("notes")
    drafts.write("notes", "tools/list.yaml", "old\n")

    def crash(src: str, dst: str) -> None:
        assert Path(src).read_text() == "new\n"  # the whole new text was in the temporary file
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        drafts.write("notes", "tools/list.yaml", "new\n")
    monkeypatch.undo()
    assert drafts.read("notes", "tools/list.yaml") == "old\n"
    assert sorted(p.name for p in (drafts.root / "notes" / "tools").iterdir()) == ["list.yaml"]  # no temp file left


def test_write_read_list_remove_and_discard(drafts: Drafts) -> None:
    first = drafts.write("notes", "tools/list.yaml", "一\n")
    assert first.created and first.previous is None and first.bytes == len("一\n".encode())
    again = drafts.write("notes", "tools/list.yaml", "二\n")
    assert not again.created and again.previous == "一\n"
    drafts.write("notes", "PLUGIN.md", "---\nname: 笔记\n---\n")
    assert [(f.path, f.bytes) for f in drafts.files("notes")] == [("PLUGIN.md", 21), ("tools/list.yaml", 4)]
    assert drafts.read("notes", "tools/list.yaml") == "二\n"
    assert drafts.all()[0].name == "笔记"
    assert "has no file" in refused(drafts.read, "notes", "tools/none.yaml")
    drafts.remove("notes", "tools/list.yaml")
    assert not (drafts.root / "notes" / "tools").exists()  # the folder it left empty goes too
    assert "has no file" in refused(drafts.remove, "notes", "tools/list.yaml")
    drafts.discard("notes")
    assert drafts.all() == [] and "there is no draft notes" in refused(drafts.files, "notes")
    assert "there is no draft notes" in refused(drafts.discard, "notes")


def test_the_list_skips_what_is_no_draft(drafts: Drafts, tmp_path: Path) -> None:
    drafts.new("notes")
    (drafts.root / "Not A Draft").mkdir()
    (drafts.root / "stray.txt").write_text("x")
    (drafts.root / "linked").symlink_to(tmp_path, target_is_directory=True)
    (drafts.root / "half").mkdir()
    (drafts.root / "half" / "PLUGIN.md").write_text("---\nname: [broken\n")
    assert [(d.id, d.name) for d in drafts.all()] == [("half", None), ("notes", "notes")]
    assert "not a plain folder" in refused(drafts.read, "linked", "PLUGIN.md")
