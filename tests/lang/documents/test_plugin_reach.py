"""How far one plugin may reach (issue 15 items 12 and 13): no `network` entry covers a public suffix (the bundled
list, private section included), and a plugin declares at most 64 tools — a flood of them is refused before the
manifest is parsed in full or any tool file is read."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.lang.documents.source import MemorySource
from tui.lang.documents.validator import validate
from tui.runtime.plugins.fetch import PluginFetcher
from tui.runtime.plugins.installer import Installer, InstallError
from tui.runtime.runtime import Runtime


def manifest_with(network: list[str]) -> dict[str, str | bytes]:
    files = plugin_files(network=tuple(network))
    return dict(files)


@pytest.mark.parametrize(
    ("entry", "what"),
    [
        ("*.edu.cn", "covers a whole public suffix"),
        ("*.com.cn", "covers a whole public suffix"),
        ("*.github.io", "covers a whole public suffix"),  # the list's private section
        ("*.s3.amazonaws.com", "covers a whole public suffix"),
        ("*.公司.cn", "covers a whole public suffix"),  # an IDN rule, written in Unicode in the list
        ("*.kawasaki.jp", "covers a whole public suffix"),  # a wildcard rule: every x.kawasaki.jp is a suffix
        ("edu.cn", "is itself a public suffix"),
        ("github.io", "is itself a public suffix"),
    ],
)
def test_a_network_entry_covering_a_public_suffix_is_refused_at_its_line(entry: str, what: str) -> None:
    plugin, problems = validate(MemorySource(manifest_with(["api.example.com", entry])))
    assert plugin is None
    bad = [p for p in problems if "public suffix" in p.message]
    assert len(bad) == 1 and bad[0].file == "PLUGIN.md" and bad[0].line == 8, [str(p) for p in problems]
    assert what in bad[0].message and "anyone can register a site under" in bad[0].message


@pytest.mark.parametrize("entry", ["*.pku.edu.cn", "portal.pku.edu.cn", "someone.github.io", "*.someone.github.io"])
def test_a_registrable_domain_is_fine(entry: str) -> None:
    plugin, problems = validate(MemorySource(manifest_with([entry])))
    assert plugin is not None and problems == [], [str(p) for p in problems]


def test_the_entry_line_is_named_in_a_block_list() -> None:
    files = plugin_files()
    files["PLUGIN.md"] = files["PLUGIN.md"].replace(
        'network: ["api.example.com"]', "network:\n  - api.example.com\n  - '*.pku.edu.cn'\n  - '*.github.io'"
    )
    _, problems = validate(MemorySource(dict(files)))
    assert [(p.line, p.severity) for p in problems if "public suffix" in p.message] == [(11, "error")]


def test_the_suffix_list_is_read_without_the_network_and_lazily() -> None:
    """In a fresh process with every socket refused: importing the validator reads no list, a check does."""
    code = (
        "import socket, sys, time\n"
        "def no(*a, **k): raise OSError('no network in this test')\n"
        "socket.socket.connect = no; socket.getaddrinfo = no; socket.create_connection = no\n"
        "t = time.perf_counter(); import tui.lang.documents.validator, tui.lang.public_suffix as ps\n"
        "assert ps._text.cache_info().currsize == 0\n"
        "assert ps.is_public_suffix('edu.cn') and ps.is_public_suffix('github.io')\n"
        "assert not ps.is_public_suffix('pku.edu.cn')\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "ok", out.stderr


def tools_manifest(count: int) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = dict(plugin_files())
    lines = "".join(f"  t{i}: tools/list.yaml\n" for i in range(count - 1))
    files["PLUGIN.md"] = str(files["PLUGIN.md"]).replace(
        "  list: tools/list.yaml\n", "  list: tools/list.yaml\n" + lines
    )
    return files


def test_64_tools_load_and_65_are_refused_naming_the_count_and_the_limit() -> None:
    plugin, problems = validate(MemorySource(tools_manifest(64)))
    assert plugin is not None and len(plugin.tools) == 64, [str(p) for p in problems]
    plugin, problems = validate(MemorySource(tools_manifest(65)))
    assert plugin is None
    assert [(p.file, p.line, p.message) for p in problems] == [
        (
            "PLUGIN.md",
            12,
            "tools: 65 tools are declared; a plugin may declare at most 64 (every tool is described to the model "
            "in every request)",
        )
    ]


def test_a_6000_tool_plugin_is_refused_quickly_and_no_tool_file_is_fetched(tmp_path: object) -> None:
    github = FakeGitHub()
    files = tools_manifest(6000)
    github.push("someone", "flood", {k: str(v) for k, v in files.items()})
    runtime = Runtime.open(f"{tmp_path}/db.sqlite3")
    try:
        t0 = time.process_time()  # CPU, not wall: a loaded CI machine took 1.07 s of wall time for this
        with pytest.raises(InstallError, match="more than 1000 tools are declared; a plugin may declare at most 64"):
            Installer(runtime, PluginFetcher(transport=github.transport())).prepare("https://github.com/someone/flood")
        elapsed = time.process_time() - t0
    finally:
        runtime.close()
    assert [r.rsplit("/", 1)[-1] for r in github.requests if r.startswith("raw/")] == ["PLUGIN.md"]
    assert elapsed < 1.0, f"{elapsed:.2f} s of CPU"  # parsing the whole 150 KB manifest alone takes 1.5-2 s here
