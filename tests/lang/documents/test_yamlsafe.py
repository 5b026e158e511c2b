"""YAML as data only (threats.md L-yaml): no 1.1 coercions, duplicate keys with both lines, no aliases or tags."""

from __future__ import annotations

import re
import time

import pytest

from tui.lang.documents.yamlsafe import load_yaml


def data(text: str) -> object:
    located, problems = load_yaml(text, "t.yaml")
    assert not problems, problems
    assert located is not None
    return located.data


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("v: no", "no"),
        ("v: on", "on"),
        ("v: yes", "yes"),
        ("v: 12:30", "12:30"),
        ("v: 0755", "0755"),
        ("v: 0x1F", "0x1F"),
        ("v: 1.2.0", "1.2.0"),
        ("v: +1", "+1"),
        ("v: .inf", ".inf"),
        ("v: 1_000", "1_000"),
        ("v: 2026-11-30", "2026-11-30"),
        ("v: 7", 7),
        ("v: -7", -7),
        ("v: 1.5", 1.5),
        ("v: 1e3", 1000.0),
        ("v: true", True),
        ("v: False", False),
        ("v: ~", None),
        ("v:", None),
        ("v: null", None),
        ("v: '7'", "7"),
        ('v: "true"', "true"),
        ("v: !!str 7", "7"),
        ("v: |\n  a\n  b", "a\nb"),
        ("v: 123456789012345678901234567890", 1.2345678901234568e29),
    ],
)
def test_scalars_are_typed_as_json_would_type_them(text: str, want: object) -> None:
    got = data(text)
    assert isinstance(got, dict)
    assert got["v"] == want and type(got["v"]) is type(want)


def test_every_value_has_its_line() -> None:
    located, _ = load_yaml("a:\n  b: 1\n  c:\n    - x\n    - y\n", "t.yaml", line_offset=1)
    assert located is not None
    assert located.line(("a", "b")) == 3
    assert located.line(("a", "c", 1)) == 6
    assert located.line(("a", "c", 1, "missing")) == 6  # nearest ancestor


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("a: 1\nb: 2\na: 3\n", 3, "duplicate key 'a' \\(first at line 1\\)"),
        ("e: &x [1]\nf: *x\n", 1, "anchors and aliases"),
        ("a: &a ['lol','lol']\nb: &b [*a,*a]\nc: &c [*b,*b]\n", 1, "anchors and aliases"),
        ("h: !!python/object:os.system x\n", 1, "tags like !!python/object:os.system"),
        ("h: !custom x\n", 1, "tags like !custom"),
        ("<<: {a: 1}\n", 1, "merge keys"),
        ("a: [\n", 2, "not valid YAML"),
        ("? [a]\n: 1\n", 1, "keys must be plain text"),
        ("a: " + "[" * 70 + "]" * 70, 1, "nested deeper than 64"),
    ],
)
def test_refused_yaml_names_the_line(text: str, line: int, message: str) -> None:
    located, problems = load_yaml(text, "t.yaml")
    assert located is None
    assert len(problems) == 1
    assert problems[0].file == "t.yaml" and problems[0].line == line
    assert re.search(message, problems[0].message), problems[0].message


def test_text_that_does_not_parse_names_the_line_and_column() -> None:
    """An editor's half-written save: where the reader stopped, to the column (`file:line:column`)."""
    (problem,) = load_yaml("a: 1\nb: [x, y\nc: 2\n", "t.yaml", line_offset=1)[1]
    assert (problem.line, problem.column) == (4, 2)
    assert str(problem).startswith("t.yaml:4:2: error: not valid YAML")


def test_alias_bomb_is_refused_before_it_grows() -> None:
    bomb = "a: &a ['lol','lol','lol','lol','lol','lol','lol','lol','lol']\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
    )
    t0 = time.process_time()
    located, problems = load_yaml(bomb, "bomb.yaml")
    assert located is None and "anchors" in problems[0].message
    assert time.process_time() - t0 < 0.2


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    located, problems = load_yaml("a: " + "[" * 5000 + "]" * 5000, "t.yaml")
    assert located is None and "nested" in problems[0].message
