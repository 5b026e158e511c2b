"""The published JSON Schemas (docs/schemas/) accept every official plugin file and refuse broken ones with an
error that names the wrong field, as an editor or CI running check-jsonschema would show it.

check-jsonschema runs as its command line does, on the local schema files only: the proxy is pointed at a closed
port, so fetching anything (a remote `$ref`, a metaschema) would fail the test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tui.lang.documents.loader import split_frontmatter
from tui.lang.documents.manifest import Manifest
from tui.lang.documents.source import MemorySource
from tui.lang.documents.validator import _template_check, validate
from widgets_render.validate import PluginFacts, ToolFacts, validate_spec

ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = ROOT / "docs" / "schemas"
PLUGINS = ROOT / "plugins_builtin"
OFFLINE = {**os.environ, "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}


def check(schema: str, files: list[Path]) -> tuple[int, str]:
    """check-jsonschema's exit code and output for files against docs/schemas/<schema>.schema.json."""
    assert files
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--color",
            "never",
            "--schemafile",
            str(SCHEMAS / f"{schema}.schema.json"),
        ]
        + [str(f) for f in files],
        capture_output=True,
        text=True,
        env=OFFLINE,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def refused(schema: str, path: Path, text: str) -> str:
    """check-jsonschema's output for `text` written to `path`, which it must refuse."""
    path.write_text(text, "utf-8")
    code, out = check(schema, [path])
    assert code == 1, out
    return out


def frontmatters(folder: Path) -> list[Path]:
    """Each official PLUGIN.md's YAML frontmatter, written to its own file in `folder`."""
    out = []
    for manifest in sorted(PLUGINS.glob("*/PLUGIN.md")):
        parts = split_frontmatter(manifest.read_text("utf-8"))
        assert parts is not None, manifest
        path = folder / f"{manifest.parent.name}.PLUGIN.yaml"
        path.write_text(parts[0], "utf-8")
        out.append(path)
    return out


def test_the_schemas_are_valid_draft_07_and_never_rely_on_openapi_keywords() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--check-metaschema", *map(str, sorted(SCHEMAS.glob("*.json")))],
        capture_output=True,
        text=True,
        env=OFFLINE,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for path in SCHEMAS.glob("*.json"):
        text = path.read_text("utf-8")
        assert '"discriminator"' not in text and '"oneOf"' not in text, path.name
        assert json.loads(text)["$schema"] == "http://json-schema.org/draft-07/schema#"
        assert '"$defs"' not in text and '"#/$defs/' not in text, path.name


@pytest.mark.parametrize(
    ("schema", "pattern"),
    [
        ("tool", "*/tools/*.yaml"),
        ("shared", "*/shared.yaml"),
        ("test", "*/tests/*.yaml"),
        ("genui-1", "*/widgets/*.json"),
        ("genui-1", "*/screens/*.json"),
    ],
)
def test_every_official_file_passes(schema: str, pattern: str) -> None:
    files = sorted(PLUGINS.glob(pattern))
    code, out = check(schema, files)
    assert code == 0, out


def test_every_official_manifest_frontmatter_passes(tmp_path: Path) -> None:
    files = frontmatters(tmp_path)
    assert len(files) == 7
    code, out = check("manifest", files)
    assert code == 0, out


MANIFEST = """\
spec: 1
id: demo
name: Demo
description: A demo plugin
version: "1.0"
author: someone
tools: { t: tools/t.yaml }
dataSources:
  x: { tool: t, ttl: thirty }
  y: { tool: t, ttl: 30m, refresh: 2h }
  z: { tool: t, ttl: 90000 }
"""


def test_a_broken_manifest_is_refused_at_its_fields(tmp_path: Path) -> None:
    out = refused("manifest", tmp_path / "PLUGIN.yaml", MANIFEST)
    assert "$.dataSources.x.ttl: 'thirty' does not match" in out, out
    assert "$.version: '1.0' does not match" in out, out
    assert "not valid under any" not in out and "dataSources.y" not in out and "dataSources.z" not in out, out
    # The app refuses the same two fields, and nothing else.
    from ruamel.yaml import YAML

    with pytest.raises(ValidationError) as caught:
        Manifest.model_validate(YAML(typ="safe").load(MANIFEST))
    assert {e["loc"][:3] for e in caught.value.errors()} == {("version",), ("dataSources", "x", "ttl")}


TOOL = """\
title: T
description: d
effect: read
steps:
  - let: a
    cache: { key: k, ttl: thirty }
    steps:
      - valeu: "1"
  - { let: b, each: "[1]", value: "item", concurrency: 2 }
  - { kv: set, key: k, value: "1", ttl: 5x }
"""


def test_a_broken_tool_is_refused_at_its_steps(tmp_path: Path) -> None:
    out = refused("tool", tmp_path / "t.yaml", TOOL)
    assert "$.steps[0].cache.ttl: 'thirty' does not match" in out, out
    assert "$.steps[0].steps[0]: Additional properties are not allowed ('valeu' was unexpected)" in out, out
    assert "$.steps[2].ttl: '5x' does not match" in out, out
    assert "steps[1]" not in out and "not valid under any" not in out, out
    # The app refuses the same three steps, and nothing else.
    manifest = "---\nspec: 1\nid: demo\nname: Demo\ndescription: A demo plugin\nversion: 1.0.0\nauthor: me\n"
    files = {"PLUGIN.md": manifest + "tools: { t: tools/t.yaml }\n---\nDemo.\n", "tools/t.yaml": TOOL}
    plugin, problems = validate(MemorySource(files))
    assert plugin is None and [p.line for p in problems] == [6, 8, 10], [str(p) for p in problems]


WIDGET: dict[str, Any] = {
    "$schema": "../../docs/schemas/genui-1.schema.json",
    "spec": 1,
    "kind": "widget",
    "title": "T",
    "body": {
        "type": "column",
        "children": [
            {"type": "text", "text": "a", "colr": "red"},
            {"type": "badge", "text": "b", "tone": "loud"},
            {"type": "badge", "text": "c", "tone": "${data.ok ? 'ok' : 'bad'}"},
            {"type": "button", "label": "go", "action": {"invoke": "demo.t", "confrim": "sure?"}},
            {"type": "text", "text": {"zh": "x", "fr": "y"}},
            {"type": "txet", "text": "x"},
        ],
    },
}


def test_a_broken_widget_is_refused_at_the_wrong_prop(tmp_path: Path) -> None:
    out = refused("genui-1", tmp_path / "w.json", json.dumps(WIDGET))
    expected = [
        "$.body.children[0]: Additional properties are not allowed ('colr' was unexpected)",
        "$.body.children[1].tone: 'loud' is not one of ['neutral', 'muted', 'info', 'ok', 'warn', 'bad', 'accent']",
        "$.body.children[3].action: Additional properties are not allowed ('confrim' was unexpected)",
        "$.body.children[4].text: Additional properties are not allowed ('fr' was unexpected)",
        "$.body.children[5].type: 'txet' is not one of ['badge',",
    ]
    for line in expected:
        assert line in out, out
    assert "children[2]" not in out and "$schema" not in out and "not valid under any" not in out, out
    # The app refuses the same nodes, and takes `$schema` and the templated tone.
    facts = PluginFacts("demo", {}, {"t": ToolFacts("read", frozenset())}, frozenset(), has_english=False)
    found = validate_spec(WIDGET, "w.json", facts, _template_check)
    assert {d.path.split("/")[3] for d in found if d.severity == "error"} == {"0", "1", "3", "4", "5"}, found


def test_a_widget_naming_its_schema_passes(tmp_path: Path) -> None:
    widget = json.loads((PLUGINS / "classrooms" / "widgets" / "overview.json").read_text("utf-8"))
    path = tmp_path / "overview.json"
    path.write_text(json.dumps({"$schema": "../schemas/genui-1.schema.json", **widget}), "utf-8")
    code, out = check("genui-1", [path])
    assert code == 0, out


def test_a_shared_file_with_an_unknown_key_is_refused(tmp_path: Path) -> None:
    out = refused("shared", tmp_path / "shared.yaml", "constants: { A: 1 }\nfunction:\n  f(x): x + 1\n")
    assert "Additional properties are not allowed ('function' was unexpected)" in out, out
