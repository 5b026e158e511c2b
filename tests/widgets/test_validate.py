"""genui validation (genui.md §2.9 and §3 check 1): broken specs give the expected code and JSON Pointer."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tui.lang.documents.source import DirectorySource, MemorySource
from tui.lang.documents.validator import _template_check, validate
from widgets_render.validate import PluginFacts, ToolFacts, validate_spec

FACTS = PluginFacts(
    plugin_id="classrooms",
    data_sources={"overview": "free", "pay": "recharge"},
    tools={
        "free": ToolFacts("read", frozenset({"building", "day"})),
        "recharge": ToolFacts("money", frozenset({"amountYuan"})),
    },
    screens=frozenset({"search"}),
    has_english=True,
    shared_names=frozenset({"BUILDINGS"}),
)

WIDGET: dict[str, Any] = {
    "spec": 1,
    "kind": "widget",
    "title": {"zh": "空闲教室", "en": "Free rooms"},
    "source": "overview",
    "sizes": ["small", "medium"],
    "let": {"rooms": "${data.buildings[0].rooms}"},
    "tap": {"open": "screen:search"},
    "body": {
        "type": "column",
        "children": [
            {"type": "stat", "id": "n", "label": {"zh": "空闲", "en": "Free"}, "value": "${rooms.length}"},
            {"type": "list", "items": "${rooms}", "item": {"type": "text", "text": "${item.room}"}},
        ],
    },
}


def broken(path: str, value: Any) -> dict[str, Any]:
    """WIDGET with the value at a JSON Pointer replaced (or removed when value is ...)."""
    spec = copy.deepcopy(WIDGET)
    parts = [int(p) if p.isdigit() else p for p in path.split("/")[1:]]
    cur: Any = spec
    for p in parts[:-1]:
        cur = cur[p]
    if value is ...:
        del cur[parts[-1]]
    else:
        cur[parts[-1]] = value
    return spec


def codes(spec: dict[str, Any], size: int = 0) -> list[tuple[str, str]]:
    return [
        (d.code, d.path)
        for d in validate_spec(spec, "widgets/w.json", FACTS, _template_check, size)
        if d.severity == "error"
    ]


def test_the_valid_widget_has_no_problems() -> None:
    assert validate_spec(WIDGET, "w.json", FACTS, _template_check) == []


@pytest.mark.parametrize(
    ("name", "spec", "code", "path"),
    [
        ("unknown type", broken("/body/children/0/type", "chart3d"), "UNKNOWN_TYPE", "/body/children/0"),
        ("missing body", broken("/body", ...), "MISSING", "/body"),
        ("missing title", broken("/title", ...), "MISSING", "/title"),
        ("unknown prop", broken("/body/children/0/colour", "red"), "UNKNOWN_PROP", "/body/children/0/colour"),
        ("cross-plugin invoke", broken("/tap", {"invoke": "wallet.recharge"}), "INVOKE_TARGET", "/tap/invoke"),
        ("templated invoke", broken("/tap", {"invoke": "${'classrooms.free'}"}), "INVOKE_TARGET", "/tap/invoke"),
        ("non-read data tool", broken("/source", "pay"), "SOURCE_NOT_READ", "/source"),
        ("unknown source", broken("/source", "nope"), "SOURCE_UNKNOWN", "/source"),
        (
            "unparsable template",
            broken("/body/children/0/value", "${rooms.length +}"),
            "TEMPLATE_SYNTAX",
            "/body/children/0/value",
        ),
        (
            "item outside a list",
            broken("/body/children/0/value", "${item.room}"),
            "TEMPLATE_NAME",
            "/body/children/0/value",
        ),
        (
            "state in a widget",
            broken("/body/children/0/value", "${state.x}"),
            "TEMPLATE_NAME",
            "/body/children/0/value",
        ),
        ("duplicate id", broken("/body/children/1/id", "n"), "DUPLICATE_ID", "/body/children/1/id"),
        ("open an unknown screen", broken("/tap", {"open": "screen:nope"}), "OPEN_TARGET", "/tap/open"),
        ("http openUrl", broken("/tap", {"openUrl": "http://x.pku.edu.cn"}), "OPENURL_SCHEME", "/tap/openUrl"),
        ("bad size", broken("/sizes", ["huge"]), "BAD_ENUM_VALUE", "/sizes/0"),
        ("a tone not named", broken("/body/children/0/tone", "loud"), "BAD_ENUM_VALUE", "/body/children/0/tone"),
        ("bad refresh", broken("/refresh", {"every": "often"}), "DURATION", "/refresh/every"),
        (
            "form in a widget",
            broken(
                "/body/children/1", {"type": "form", "bind": "f", "fields": [], "submit": {"invoke": "classrooms.free"}}
            ),
            "SCREEN_ONLY",
            "/body/children/1",
        ),
    ],
)
def test_broken_specs(name: str, spec: dict[str, Any], code: str, path: str) -> None:
    assert (code, path) in codes(spec), codes(spec)


def test_caps() -> None:
    deep: dict[str, Any] = {"type": "text", "text": "x"}
    for _ in range(14):
        deep = {"type": "column", "children": [deep]}
    assert ("CAP_DEPTH", "/body" + "/children/0" * 12) in codes(broken("/body", deep))
    assert ("CAP_STRING", "/body/children/0/value") in codes(broken("/body/children/0/value", "x" * 2001))
    many = {"type": "column", "children": [{"type": "text", "text": "x"}] * 301}
    assert any(c == "CAP_NODES" for c, _ in codes(broken("/body", many)))
    assert ("CAP_FILE", "") in codes(WIDGET, size=70_000)


def test_warnings_for_missing_english_confirm_and_fast_refresh() -> None:
    spec = broken("/refresh", {"every": "5s"})
    spec["body"]["children"][0]["label"] = {"zh": "空闲"}
    spec["tap"] = {"invoke": "classrooms.recharge"}
    warnings = {d.code for d in validate_spec(spec, "w.json", FACTS, _template_check) if d.severity == "warning"}
    assert warnings == {"REFRESH_FLOOR", "I18N_MISSING", "INVOKE_NO_CONFIRM"}


def test_form_fields_must_be_inputs_of_the_submit_tool() -> None:
    screen = {
        "spec": 1,
        "kind": "screen",
        "title": "x",
        "body": {
            "type": "form",
            "bind": "f",
            "submit": {"invoke": "classrooms.free"},
            "fields": [{"type": "field", "name": "building"}, {"type": "field", "name": "floor"}],
        },
    }
    assert ("FORM_FIELD_UNKNOWN", "/body/fields/1/name") in codes(screen)


def test_plugin_validate_reports_spec_problems_with_file_and_line(tmp_path: Path) -> None:
    src = Path("plugins_builtin/classrooms")
    files = {p.relative_to(src).as_posix(): p.read_bytes() for p in src.rglob("*") if p.is_file()}
    widget = json.loads(files["widgets/overview.json"])
    widget["body"]["children"][1]["item"]["children"][0]["text"] = "${item.room +}"
    files["widgets/overview.json"] = json.dumps(widget, ensure_ascii=False, indent=2).encode()
    plugin, problems = validate(MemorySource(files))
    assert plugin is None
    hit = next(p for p in problems if p.code == "TEMPLATE_SYNTAX")
    assert hit.file == "widgets/overview.json"
    assert (
        hit.line is not None
        and '"${item.room +}"' in files["widgets/overview.json"].decode().splitlines()[hit.line - 1]
    )
    assert "/body/children/1/item/children/0/text" in hit.message


def test_every_official_widget_and_screen_validates() -> None:
    for folder in sorted(Path("plugins_builtin").iterdir()):
        if (folder / "PLUGIN.md").is_file():
            plugin, problems = validate(DirectorySource(folder))
            assert plugin is not None and problems == [], [str(p) for p in problems]
            assert plugin.widgets


def test_a_schema_named_for_editors_is_accepted_and_ignored() -> None:
    """Editors find a JSON file's schema by its `$schema` key (docs/PLUGIN-LANGUAGE.md, §Editors)."""
    src = Path("plugins_builtin/grades")
    files = {p.relative_to(src).as_posix(): p.read_bytes() for p in src.rglob("*") if p.is_file()}
    for name in ("widgets/gpa.json", "screens/scores.json"):
        spec = json.loads(files[name])
        assert "$schema" not in spec
        files[name] = json.dumps({"$schema": "../../docs/schemas/genui-1.schema.json", **spec}).encode()
    plugin, problems = validate(MemorySource(files))
    assert plugin is not None and problems == [], [str(p) for p in problems]
    # Only `$schema`: another `$` key is still an unknown prop.
    assert ("UNKNOWN_PROP", "/$id") in codes({**WIDGET, "$schema": "x", "$id": "y"})
    assert validate_spec({**WIDGET, "$schema": "x"}, "w.json", FACTS, _template_check) == []


@pytest.mark.parametrize(
    ("kind", "template", "message", "hint"),
    [
        (
            "widget",
            "${params.id}",
            "'params' is only in scope in screens",
            "widgets have no params: a widget shows its source's data",
        ),
        (
            "widget",
            "${item.room}",
            "'item' is only in scope inside a list's item, a table's columns or bars (one per entry)",
            "outside them, read the whole value: data, or sources.<alias>",
        ),
        ("screen", "${book.shelf}", "'book' is not a name in scope here", "did you mean 'sources.book'?"),
        ("screen", "${setings.x}", "'setings' is not a name in scope here", "did you mean 'settings'?"),
    ],
)
def test_a_name_out_of_scope_says_where_it_is_in_scope_and_what_was_meant(
    kind: str, template: str, message: str, hint: str
) -> None:
    """Issue 21: the messages said the opposite of the rule ("'params' is not in scope in screens")."""
    spec = broken("/body/children/0/value", template)
    if kind == "screen":
        spec = {**spec, "kind": "screen", "sources": {"book": {"source": "overview"}}}
        for key in ("sizes", "tap"):
            spec.pop(key)
    found = [d for d in validate_spec(spec, "x.json", FACTS, _template_check, 100) if d.code == "TEMPLATE_NAME"]
    assert [(d.message, d.hint) for d in found] == [(message, hint)]


def test_an_unknown_prop_is_said_once_not_checked_as_the_prop_it_meant() -> None:
    """A list's `tone` is evaluated per item; misspelt, its `${item…}` is not also called out of scope."""
    spec = copy.deepcopy(WIDGET)
    spec["body"] = {
        "type": "list",
        "items": "${rooms}",
        "item": {"type": "text", "text": "${item.room}"},
        "tnoe": "${item}",
    }
    assert codes(spec) == [("UNKNOWN_PROP", "/body/tnoe")]
    spec["body"]["tnoe"] = "${nosuchname}"
    assert codes(spec) == [("UNKNOWN_PROP", "/body/tnoe")]
