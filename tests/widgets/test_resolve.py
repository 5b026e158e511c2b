"""resolve(): every official widget with its demo data, at every size, in both languages; and it never raises."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui.app.genui_bridge import LangEvaluator, widget_names
from tui.runtime.runtime import Runtime
from widgets_render.resolve import resolve
from widgets_render.safe_text import clean
from widgets_render.viewmodel import ErrorCard, VNode

NOW = "2026-11-30T12:00:00+08:00"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Runtime:
    """A demo runtime with the official plugins."""
    return Runtime.open(tmp_path_factory.mktemp("rt") / "db.sqlite3", demo=True)


def widget_cases() -> list[tuple[str, str]]:
    out = []
    for folder in sorted(Path("plugins_builtin").iterdir()):
        for w in sorted((folder / "widgets").glob("*.json")):
            out.append((folder.name, w.stem))
    return out


def texts(node: VNode | ErrorCard) -> list[str]:
    """Every piece of text in a view model."""
    if isinstance(node, ErrorCard):
        return [node.message]
    out = [str(v) for v in node.props.values() if isinstance(v, str)]
    for c in node.children:
        out.extend(texts(c))
    return out


@pytest.mark.parametrize(("plugin_id", "name"), widget_cases())
@pytest.mark.parametrize("locale", ["zh", "en"])
def test_official_widget_resolves_with_demo_data(demo: Runtime, plugin_id: str, name: str, locale: str) -> None:
    plugin = demo.registry.plugins[plugin_id].plugin
    spec = plugin.widgets[name]
    source = f"{plugin_id}.{spec['source']}"
    value = asyncio.run(demo.sources.read(source, force=True)).value
    for size in spec.get("sizes", ["medium"]):
        ev = LangEvaluator(NOW, locale)
        names = widget_names(plugin, ev.run, value, {"stale": False, "fetchedAt": NOW})
        out = resolve(spec, f"{plugin_id}/widgets/{name}.json", ev, names, size, locale)
        assert isinstance(out.body, VNode), out.body
        assert out.title and not out.warnings, out.warnings
        assert all(t != "—" for t in texts(out.body)), texts(out.body)


def test_text_is_cleaned_and_markup_stays_literal() -> None:
    spec = {"spec": 1, "kind": "widget", "title": "t", "body": {"type": "text", "text": "${data}"}}
    ev = LangEvaluator(NOW)
    out = resolve(spec, "w", ev, {"data": "room [/bold] 101\x1b]52;c;AAAA\x07 [red]x"})
    assert isinstance(out.body, VNode)
    # The whole OSC 52 (clipboard write) sequence goes, not just its ESC byte.
    assert out.body.props["text"] == "room [/bold] 101 [red]x"
    assert clean("a\x9b31mb\tc\n") == "ab\tc\n"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("[/bold]\x1b[31m红\x1b[0m", "[/bold]红"),  # CSI colour, no "[31m" remnant
        ("a\x1b]8;;https://evil\x1b\\link\x1b]8;;\x1b\\b", "alinkb"),  # OSC 8 hyperlink, ST-terminated
        ("x\x1bcy", "xy"),  # RIS (full reset)
        ("p\x1b[2J\x1b[Hq", "pq"),  # clear screen, cursor home
        ("keep\ttabs\nand lines", "keep\ttabs\nand lines"),
        ("lone escape at end\x1b", "lone escape at end"),
    ],
)
def test_clean_removes_whole_escape_sequences(raw: str, shown: str) -> None:
    assert clean(raw) == shown


def test_failures_stay_small() -> None:
    spec = {
        "spec": 1,
        "kind": "widget",
        "title": {"zh": "标题", "en": "Title"},
        "body": {
            "type": "column",
            "children": [
                {"type": "text", "text": "${data.missing.deeper}"},
                {"type": "text", "text": "${data.a}", "when": "${nope.x}"},
                {"type": "chart3d"},
                {"type": "list", "items": "${data.a}", "item": {"type": "text", "text": "${item}"}},
                {"type": "list", "items": "${range(500)}", "limit": 1000, "item": {"type": "text", "text": "${item}"}},
            ],
        },
    }
    out = resolve(spec, "w", LangEvaluator(NOW, "en"), {"data": {"a": 1.0}}, locale="en")
    assert out.title == "Title" and isinstance(out.body, VNode)
    first, unsupported, not_a_list, long = out.body.children
    assert first.props["text"] == "—" and first.warnings == ["text"]
    assert unsupported.props["text"] == "[不支持: chart3d]"
    assert not_a_list.props["error"] == "Data does not fit"
    assert len(long.children) == 200 and long.props["more"] == 300  # the hard cap, then "+300"


def test_budget_and_version_errors_are_cards() -> None:
    spec = {
        "spec": 1,
        "kind": "widget",
        "title": "t",
        "body": {"type": "text", "text": "${range(1000).map(i => range(1000).map(j => j)).length}"},
    }
    out = resolve(spec, "w", LangEvaluator(NOW), {})
    assert isinstance(out.body, ErrorCard) and out.body.code == "EXPR_BUDGET"
    out = resolve({**spec, "spec": 2}, "w", LangEvaluator(NOW), {})
    assert isinstance(out.body, ErrorCard) and out.body.code == "SPEC_TOO_NEW"


def test_empty_state_and_sizes() -> None:
    spec = {
        "spec": 1,
        "kind": "widget",
        "title": "t",
        "emptyWhen": "${data.length == 0}",
        "states": {"empty": {"type": "notice", "text": {"zh": "没有", "en": "None"}}},
        "body": {"type": "column", "children": [{"type": "text", "text": "big", "sizes": ["large"]}]},
    }
    out = resolve(spec, "w", LangEvaluator(NOW), {"data": []})
    assert out.empty and isinstance(out.body, VNode) and out.body.props["text"] == "没有"
    out = resolve(spec, "w", LangEvaluator(NOW), {"data": [1.0]}, size="small")
    assert isinstance(out.body, VNode) and out.body.children == []


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.floats()
    | st.text(max_size=30)
    | st.sampled_from(["${data}", "${item.x}", "[/b]", "\x1b[2J", "${nope(", "$${x}"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "text",
                    "children",
                    "items",
                    "item",
                    "when",
                    "sizes",
                    "limit",
                    "zh",
                    "en",
                    "rows",
                    "columns",
                    "value",
                    "label",
                    "tabs",
                    "fields",
                    "pairs",
                    "body",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation=JSONISH, data=JSONISH, where=st.integers(0, 6), size=st.sampled_from(["small", "medium", "large"]))
def test_resolve_never_raises(mutation: Any, data: Any, where: int, size: str) -> None:
    base = json.loads(Path("plugins_builtin/classrooms/widgets/overview.json").read_text("utf-8"))
    spec = copy.deepcopy(base)
    targets: list[Any] = [
        spec,
        spec["body"],
        spec["body"]["children"][0],
        spec["body"]["children"][1],
        spec["body"]["children"][1]["item"],
        spec["let"],
        spec["states"],
    ]
    target = targets[where]
    if isinstance(mutation, dict):
        target.update(mutation)
    else:
        target["type" if where else "body"] = mutation
    out = resolve(spec, "w", LangEvaluator(NOW), {"data": data, "meta": {}}, size)
    assert isinstance(out.body, VNode | ErrorCard)


def test_an_empty_english_text_is_a_translation_not_a_gap() -> None:
    spec = {
        "spec": 1,
        "kind": "widget",
        "title": {"zh": "空闲", "en": "Free"},
        "body": {"type": "stat", "value": "2", "unit": {"zh": "间", "en": ""}, "label": {"zh": "教室"}},
    }
    out = resolve(spec, "w", LangEvaluator(NOW), {}, locale="en")
    assert isinstance(out.body, VNode)
    assert (out.title, out.body.props["unit"], out.body.props["label"]) == ("Free", "", "教室")


@pytest.mark.parametrize(("locale", "line"), [("zh", "总绩点：3.71"), ("en", "GPA: 3.71")])
def test_key_value_pairs_take_the_colon_of_the_language(locale: str, line: str) -> None:
    """The English grades screen read "GPA：3.71" (a full-width colon in English)."""
    from widgets_render.textual_render import build

    pair = {"k": {"zh": "总绩点", "en": "GPA"}, "v": "3.71"}
    spec = {"spec": 1, "kind": "widget", "title": "t", "body": {"type": "kv", "pairs": [pair]}}
    out = resolve(spec, "w", LangEvaluator(NOW, locale), {}, locale=locale)
    assert isinstance(out.body, VNode)
    assert str(build(out.body).render()) == line
