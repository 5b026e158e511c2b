"""The fast reading (libyaml's events) gives exactly what the pure YAML 1.2 reading gives, and a hostile nesting
neither crashes the process nor grows: differential tests of the two parsers behind `load_yaml`."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml.error import YAMLError

from tui.lang.documents import yamlsafe
from tui.lang.documents.yamlsafe import Located, _compose, _events, _FastFailed, _Refused, load_yaml

ROOT = Path(__file__).resolve().parents[3]
SCALE = int(os.environ.get("FUZZ_SCALE", "1"))

needs_libyaml = pytest.mark.skipif(not yamlsafe._HAVE_LIBYAML, reason="ruamel.yaml.clib is not installed")


def read(text: str, pure: bool) -> Any:
    """What one parser's reading gives: the data with every place, or the refusal (code, line, column)."""
    out = Located(None)
    try:
        data = _compose(_events(text, pure), out, 0)
    except _Refused as r:
        return ("refused", r.code, r.line, r.column)
    return (data, out.lines, out.columns, out.keys, out.styles)


def agree(text: str) -> bool:
    """Both parsers read `text` the same where both read it; False when libyaml refuses it (then the pure
    reading is the one used)."""
    try:
        fast = read(text, pure=False)
    except _FastFailed:
        return False
    try:
        slow = read(text, pure=True)
    except YAMLError:
        # ruamel refuses a few valid texts libyaml reads (a blank line holding a tab; a block scalar whose first
        # line is blank but indented): then libyaml's reading is used, and there is nothing to compare.
        return True
    assert fast == slow, text
    return True


def repo_yaml() -> list[Path]:
    found = [p for p in ROOT.rglob("*.y*ml") if ".git" not in p.parts and "node_modules" not in p.parts]
    return sorted(p for p in found if p.suffix in (".yaml", ".yml"))


@needs_libyaml
def test_every_yaml_file_of_the_project_reads_the_same_with_both_parsers() -> None:
    files = repo_yaml()
    assert len(files) > 40
    same = sum(agree(p.read_text(encoding="utf-8")) for p in files)
    print(f"{same} of {len(files)} read by libyaml")
    assert same >= len(files) * 0.7  # most are read fast; the rest fall back (a plain `:` in a flow mapping)


TRICKY = [
    "a: 1\nb: [1, 2, {c: d}]\n",
    "x: 'q'\ny: \"二\\t\"\nz: |\n  line\n   more\nw: >-\n  folded\n  text\n",
    "- - - a\n  - b\n- c: 1\n  d: 2\n",
    "? complex\n: value\n",
    "a: !!str 12\nb: !!int '3'\nc: ! 7\nd: !!map {x: 1}\n",
    "a: &x 1\n",
    "a: *x\n",
    "&x a: 1\n",
    "a: !custom 1\n",
    "<<: {a: 1}\n",
    "'<<': 1\n",
    "a: 1\na: 2\n",
    "[a, b]: 1\n",
    "1: one\ntrue: t\n~: n\n1.5: f\n",
    "",
    "# only a comment\n",
    "---\na: 1\n...\n",
    "a: 1\n---\nb: 2\n",
    "a:\n\tb: 1\n",
    "emoji: 😀 and \U00010000\ncjk: 空教室\n",
    "url: https://example.com/a?b=1#c\n",
    's: "\\u4e8c \\/ \\x41"\n',
    "key with spaces: v\n",
    "- {a: 1, b: [x, y], c: {d: e}}\n",
]


@needs_libyaml
@pytest.mark.parametrize("text", TRICKY, ids=range(len(TRICKY)))
def test_tricky_texts_read_the_same(text: str) -> None:
    try:
        agree(text)
    except YAMLError:  # both parsers refuse it: load_yaml reports the pure parser's words
        located, problems = load_yaml(text, "t.yaml")
        assert located is None and problems and problems[0].code == "YAML_SYNTAX"


@needs_libyaml
def test_what_libyaml_refuses_is_read_by_the_yaml_1_2_parser() -> None:
    text = "args: { q: '${a}', url: https://x.org/a:b }\n"
    with pytest.raises(_FastFailed):
        read(text, pure=False)
    located, problems = load_yaml(text, "t.yaml")
    assert not problems and located is not None
    assert located.data == {"args": {"q": "${a}", "url": "https://x.org/a:b"}}


@needs_libyaml
def test_a_syntax_error_is_worded_by_the_pure_parser() -> None:
    _, problems = load_yaml("title: at 10: closed\n", "t.yaml")
    assert problems[0].message == "not valid YAML: mapping values are not allowed here"
    assert (problems[0].line, problems[0].column) == (1, 13)
    assert "quotes" in problems[0].hint


@pytest.mark.parametrize(
    "text",
    ["- " * 200_000 + "x\n", "[" * 200_000 + "]" * 200_000, "{a: " * 100_000 + "}" * 100_000],
    ids=["dashes", "brackets", "braces"],
)
def test_hostile_nesting_is_refused_without_crashing_the_process(text: str) -> None:
    # Run apart: a regression here is a segfault (libyaml's composer recurses in C), which would end the suite.
    code = (
        "import sys\nfrom tui.lang.documents.yamlsafe import load_yaml\n"
        "located, problems = load_yaml(sys.stdin.read(), 'deep.yaml')\n"
        "print(problems[0].code, problems[0].line, problems[0].column)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=text, capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[0] == "YAML_TOO_DEEP"


_ATOMS = st.sampled_from(
    ["a", "b", "1", "-2.5", "true", "~", "'q'", '"d"', "二", "x y", "https://h.org/p", "${x}", "no", "0755", ""]
)


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """Small YAML-like texts: block and flow collections, scalars of every style, some broken on purpose."""
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        indent = "  " * draw(st.integers(0, 3))
        kind = draw(st.sampled_from(["map", "seq", "flow", "block", "junk"]))
        key, val = draw(_ATOMS), draw(_ATOMS)
        if kind == "map":
            lines.append(f"{indent}{key or 'k'}: {val}")
        elif kind == "seq":
            lines.append(f"{indent}- {val}")
        elif kind == "flow":
            lines.append(f"{indent}{key or 'k'}: [{val}, {{{key or 'k'}: {val}}}]")
        elif kind == "block":
            lines.append(f"{indent}{key or 'k'}: |\n{indent}  {val}")
        else:
            lines.append(indent + draw(st.sampled_from([":", "- -", "[", "}", "&a x", "*a", "!t v", "? k", "\t"])))
    return "\n".join(lines) + "\n"


@needs_libyaml
@settings(max_examples=150 * SCALE, deadline=None)
@given(yaml_texts())
def test_random_texts_read_the_same(text: str) -> None:
    with contextlib.suppress(YAMLError):  # both refuse: the pure parser's message is the one shown (test above)
        agree(text)
