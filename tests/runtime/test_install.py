"""Installing from every link form, against a GitHub-like source served in-process: one commit, only named files,
the budget, nothing half-installed, and the store and registry after an install."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.runtime.plugins.fetch import PluginFetcher, content_hash
from tui.runtime.plugins.installer import Installer, InstallError
from tui.runtime.runtime import Runtime

TREE = "https://github.com/someone/campus-plugins/tree/main/plugins/notes"


@pytest.fixture
def github() -> FakeGitHub:
    gh = FakeGitHub()
    gh.push("someone", "campus-plugins", plugin_files(), prefix="plugins/notes/")
    return gh


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Runtime]:
    rt = Runtime.open(tmp_path / "data" / "db.sqlite3")
    yield rt
    rt.close()


def installer(runtime: Runtime, github: FakeGitHub) -> Installer:
    return Installer(runtime, PluginFetcher(transport=github.transport()))


def nothing_installed(runtime: Runtime) -> bool:
    root = runtime.installs.root
    return (
        runtime.installs.all() == []
        and "notes" not in runtime.registry.plugins
        and not (root.is_dir() and any(root.iterdir()))
    )


def test_install_from_a_folder_link_fetches_one_commit_and_only_the_named_files(
    runtime: Runtime, github: FakeGitHub
) -> None:
    inst = installer(runtime, github)
    prepared = inst.prepare(TREE)
    assert nothing_installed(runtime)  # the review comes first: nothing is written before the student says yes
    review = prepared.review
    assert (review.plugin_id, review.official, review.source, review.network) == (
        "notes", False, TREE, ["api.example.com"]
    )  # fmt: skip
    assert [t.name for t in review.tools] == ["list"] and "notes__list" in review.instructions
    sha = github.repos["someone", "campus-plugins"].refs["main"]
    assert github.requests == [
        "api/repos/someone/campus-plugins/commits/main",
        f"raw/someone/campus-plugins/{sha}/plugins/notes/PLUGIN.md",
        f"raw/someone/campus-plugins/{sha}/plugins/notes/tools/list.yaml",
    ]  # never a folder listing, never NOTES.txt
    record = inst.install(prepared)
    assert (record.current.commit, record.current.version, record.official) == (sha, "1.0.0", False)
    assert record.current.hash.startswith("sha256:") and record.current.hash == prepared.fetched.content_hash
    files = sorted(p.name for p in Path(record.current.dir).rglob("*") if p.is_file())
    assert files == [".pku-harness-version", "PLUGIN.md", "list.yaml"]  # the named files, and the app's mark
    loaded, _ = validate(DirectorySource(Path(record.current.dir)))
    assert loaded is not None and sorted(loaded.files) == ["PLUGIN.md", "tools/list.yaml"]  # the mark is not loaded
    assert content_hash(loaded.files) == record.current.hash  # so the hash still covers exactly the loaded files
    assert runtime.registry.find("notes.list") is not None
    assert runtime.grants.mode("notes", "write", False, None) == "ask"  # community: write starts at ask


def test_an_installed_plugin_is_loaded_again_at_the_next_start(runtime: Runtime, github: FakeGitHub) -> None:
    inst = installer(runtime, github)
    inst.install(inst.prepare(TREE))
    again = Runtime.open(runtime.store.path)
    try:
        assert again.registry.find("notes__list") is not None and again.load_errors == []
        assert again.registry.plugins["notes"].official is False
    finally:
        again.close()


@pytest.mark.parametrize(
    "link",
    [
        "https://github.com/someone/notes-root",
        "https://github.com/someone/campus-plugins/blob/main/plugins/notes/PLUGIN.md",
        "https://github.com/someone/campus-plugins/tree/feature/new-ui/plugins/notes",
        "https://plugins.example.org/p/notes/PLUGIN.md",
        "pkuharness://plugin?src=" + quote(TREE, safe=""),
    ],
)
def test_every_link_form_installs(runtime: Runtime, github: FakeGitHub, link: str) -> None:
    github.push("someone", "notes-root", plugin_files(), ref="trunk")
    github.repos["someone", "notes-root"].default_branch = "trunk"
    github.push(
        "someone", "campus-plugins", plugin_files(version="1.0.1"), ref="feature/new-ui", prefix="plugins/notes/"
    )
    for path, text in plugin_files().items():
        github.sites["plugins.example.org", f"/p/notes/{path}"] = text.encode()
    inst = installer(runtime, github)
    record = inst.install(inst.prepare(link))
    assert record.id == "notes" and runtime.registry.find("notes.list") is not None
    assert record.source == (TREE if link.startswith("pkuharness:") else link)
    assert (record.current.commit is None) == ("example.org" in link)
    if "feature" in link:
        assert record.current.version == "1.0.1"  # the ref 'feature/new-ui' was found by trying each split


def test_a_local_folder_installs_for_authors(runtime: Runtime, tmp_path: Path) -> None:
    folder = tmp_path / "author" / "notes"
    for path, text in plugin_files().items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    inst = Installer(runtime)
    record = inst.install(inst.prepare(str(folder)))
    assert record.source == str(folder) and record.current.commit is None
    assert Path(record.current.dir) != folder  # a copy: editing the folder does not change the installed plugin


def test_a_ref_that_moves_while_fetching_still_gives_one_version(runtime: Runtime, github: FakeGitHub) -> None:
    def move(owner: str, ref: str) -> None:  # the author pushes right after the app resolved the ref
        github.on_resolve = None
        github.push("someone", "campus-plugins", plugin_files(version="2.0.0", network=("*.example.com",)),
                    prefix="plugins/notes/")  # fmt: skip

    github.on_resolve = move
    prepared = installer(runtime, github).prepare(TREE)
    assert prepared.review.version == "1.0.0" and prepared.review.network == ["api.example.com"]


def test_one_byte_over_512_kb_is_refused_and_nothing_is_installed(runtime: Runtime, github: FakeGitHub) -> None:
    files = plugin_files()
    manifest_size = len(files["PLUGIN.md"].encode())
    head = "title: 笔记列表\ndescription: Lists notes.\neffect: read\nreturn: \"['a', 'b']\"\n# "
    pad = 512 * 1024 + 1 - manifest_size - len(head.encode()) - 1
    files["tools/list.yaml"] = head + "x" * pad + "\n"
    assert len(files["PLUGIN.md"].encode()) + len(files["tools/list.yaml"].encode()) == 512 * 1024 + 1
    github.push("someone", "campus-plugins", files, prefix="plugins/notes/")
    with pytest.raises(InstallError, match="512 KB"):
        installer(runtime, github).prepare(TREE)
    assert nothing_installed(runtime)
    files["tools/list.yaml"] = files["tools/list.yaml"][:-2] + "\n"  # exactly 512 KB loads
    github.push("someone", "campus-plugins", files, prefix="plugins/notes/")
    assert installer(runtime, github).prepare(TREE).review.plugin_id == "notes"


def test_a_lying_content_length_is_refused(runtime: Runtime, github: FakeGitHub) -> None:
    sha = github.repos["someone", "campus-plugins"].refs["main"]
    body = plugin_files()["tools/list.yaml"].encode()
    github.override[f"/someone/campus-plugins/{sha}/plugins/notes/tools/list.yaml"] = lambda: (
        200, {"content-length": "12"}, body
    )  # fmt: skip
    with pytest.raises(InstallError, match=r"said 12 bytes and sent \d+"):
        installer(runtime, github).prepare(TREE)
    github.override[f"/someone/campus-plugins/{sha}/plugins/notes/tools/list.yaml"] = lambda: (
        200, {"content-length": str(10**9)}, body
    )  # fmt: skip
    with pytest.raises(InstallError, match="512 KB"):  # refused from the header, before reading
        installer(runtime, github).prepare(TREE)
    assert nothing_installed(runtime)


def test_a_compressed_body_is_refused(runtime: Runtime, github: FakeGitHub) -> None:
    sha = github.repos["someone", "campus-plugins"].refs["main"]
    github.override[f"/someone/campus-plugins/{sha}/plugins/notes/PLUGIN.md"] = lambda: (
        200, {"content-encoding": "gzip"}, b"\x1f\x8b"
    )  # fmt: skip
    with pytest.raises(InstallError, match="gzip-compressed"):
        installer(runtime, github).prepare(TREE)


def test_a_path_with_dotdot_is_refused_at_its_line(runtime: Runtime, github: FakeGitHub) -> None:
    files = plugin_files()
    files["PLUGIN.md"] = files["PLUGIN.md"].replace("list: tools/list.yaml", "list: ../secrets/list.yaml")
    github.push("someone", "campus-plugins", files, prefix="plugins/notes/")
    with pytest.raises(InstallError) as e:
        installer(runtime, github).prepare(TREE)
    assert any(p.file == "PLUGIN.md" and p.line == 12 and "'..'" in p.message for p in e.value.problems)
    assert not any(".." in r for r in github.requests)  # refused before any request
    assert nothing_installed(runtime)


def test_a_network_error_halfway_installs_nothing(runtime: Runtime, github: FakeGitHub) -> None:
    sha = github.repos["someone", "campus-plugins"].refs["main"]

    def broken() -> tuple[int, dict[str, str], bytes]:
        raise httpx.ReadError("connection reset by peer")

    github.override[f"/someone/campus-plugins/{sha}/plugins/notes/tools/list.yaml"] = broken
    with pytest.raises(InstallError, match="connection reset"):
        installer(runtime, github).prepare(TREE)
    assert nothing_installed(runtime)


def test_plain_http_and_unknown_repositories_are_refused(runtime: Runtime, github: FakeGitHub) -> None:
    inst = installer(runtime, github)
    with pytest.raises(InstallError, match="https only"):
        inst.prepare("http://plugins.example.org/p/notes/PLUGIN.md")
    with pytest.raises(InstallError, match="not found"):
        inst.prepare("https://github.com/someone/missing")
    with pytest.raises(InstallError, match="no branch, tag or commit"):
        inst.prepare("https://github.com/someone/campus-plugins/tree/nope/plugins/notes")


def test_a_plugin_cannot_take_a_built_in_id_or_be_installed_twice(runtime: Runtime, github: FakeGitHub) -> None:
    github.push("someone", "fake-wallet", plugin_files(pid="wallet"))
    inst = installer(runtime, github)
    with pytest.raises(InstallError, match="built into the app"):
        inst.prepare("https://github.com/someone/fake-wallet")
    inst.install(inst.prepare(TREE))
    with pytest.raises(InstallError, match="already installed"):
        inst.prepare(TREE)


def test_a_crash_before_the_switch_leaves_no_half_install(runtime: Runtime, github: FakeGitHub) -> None:
    """The folder written before the crash is moved to the trash at the next start (the store names another
    install: with none, the sweep moves nothing, see tests/runtime/test_version_folders.py)."""
    github.push("someone", "other-plugin", plugin_files(pid="other"))
    inst = installer(runtime, github)
    inst.install(inst.prepare("https://github.com/someone/other-plugin"))
    prepared = inst.prepare(TREE)

    def crash(*args: object) -> None:
        raise OSError("disk full")

    runtime.installs.insert = crash  # type: ignore[method-assign]
    with pytest.raises(OSError, match="disk full"):
        inst.install(prepared)
    written = next((runtime.installs.root / "notes").iterdir())
    again = Runtime.open(runtime.store.path)  # the next start sweeps the written but unrecorded folder
    try:
        assert [r.id for r in again.installs.all()] == ["other"] and "notes" not in again.registry.plugins
        assert not (again.installs.root / "notes").exists()
        [trashed] = (again.installs.root / ".trash").iterdir()  # moved, not deleted
        assert trashed.name.startswith(f"notes-{written.name}-") and (trashed / "PLUGIN.md").is_file()
    finally:
        again.close()


def test_a_file_that_is_not_utf8_is_refused_naming_it(runtime: Runtime, github: FakeGitHub) -> None:
    sha = github.repos["someone", "campus-plugins"].refs["main"]
    github.repos["someone", "campus-plugins"].commits[sha]["plugins/notes/tools/list.yaml"] = "标题".encode("gbk")
    with pytest.raises(InstallError, match=r"tools/list\.yaml is not UTF-8"):
        installer(runtime, github).prepare(TREE)


def test_a_redirect_to_plain_http_is_refused(runtime: Runtime, github: FakeGitHub) -> None:
    for path, text in plugin_files().items():
        github.sites["plugins.example.org", f"/p/notes/{path}"] = text.encode()
    github.override["/p/notes/tools/list.yaml"] = lambda: (302, {"location": "http://evil.example/list.yaml"}, b"")
    with pytest.raises(InstallError, match="https only"):
        installer(runtime, github).prepare("https://plugins.example.org/p/notes/PLUGIN.md")
    github.override["/p/notes/tools/list.yaml"] = lambda: (302, {"location": "https://cdn.example.org/list.yaml"}, b"")
    github.sites["cdn.example.org", "/list.yaml"] = plugin_files()["tools/list.yaml"].encode()
    assert installer(runtime, github).prepare("https://plugins.example.org/p/notes/PLUGIN.md").review.tools
