"""The worked example plugin (examples/lectures) stays what the docs say it is: it validates with no warnings,
its recorded tests pass, its widget and screens render on the recorded data, and a student can go from the list
to a lecture's detail and be reminded of it — the list → detail pattern docs/WIDGETS-AND-SCREENS.md teaches."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from textual.widgets import DataTable, Static

from tests.app.helpers import settle, until
from tui.app.app import make_app
from tui.app.preview_render import PreviewData
from tui.app.screens.plugin_screen import PluginScreen
from tui.lang.documents.loader import split_frontmatter
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate
from tui.lang.documents.yamlsafe import load_yaml
from tui.lang.testing.runner import run_tests
from tui.runtime.registry import InstalledPlugin
from tui.runtime.runtime import recorded_test_files
from widgets_render.textual_render import GenButton
from widgets_render.viewmodel import VNode

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "lectures"
#: The time the example's recordings were made at (its tests' `now`).
NOW = "2026-11-30T12:00:00+08:00"


def texts(node: Any) -> list[str]:
    """Every text a resolved view shows, depth first."""
    if not isinstance(node, VNode):
        return []
    own = [str(v) for k, v in node.props.items() if k in ("text", "label", "k", "v", "emptyText") and v]
    cells = [str(c) for c in node.props.get("cells", [])]
    return own + cells + [t for c in node.children for t in texts(c)]


def test_the_example_validates_without_warnings_and_its_recordings_pass() -> None:
    plugin, problems = validate(DirectorySource(EXAMPLE))
    assert plugin is not None, [str(p) for p in problems]
    assert problems == [], [str(p) for p in problems]
    m = plugin.manifest
    # What the example is there to show, and no official plugin did (issue 21 item 8).
    assert set(m.settings) == {"campus", "remindMinutes"} and len(m.commands) == 4
    assert {c.screen for c in m.commands.values() if c.screen} == {"list"}
    assert m.abilities == ["todos"] and set(plugin.widgets) == {"next"} and set(plugin.screens) == {"list", "detail"}
    results, test_problems = run_tests(plugin, DirectorySource(EXAMPLE), recorded_test_files(EXAMPLE))
    assert test_problems == []
    failed = [r.line() for r in results if not r.passed or r.warnings]
    assert not failed, "\n".join(failed)
    assert len(results) == 14


def test_the_widget_and_the_list_screen_render_on_the_recorded_data() -> None:
    async def render() -> tuple[Any, ...]:
        plugin, _ = validate(DirectorySource(EXAMPLE))
        assert plugin is not None
        preview = PreviewData(EXAMPLE, None, "zh", NOW)
        try:
            widget, widget_notes = await preview.widget(plugin, True, "next", "medium")
            screen, screen_notes = await preview.screen(plugin, True, "list")
        finally:
            preview.close()
        return widget, widget_notes, screen, screen_notes

    widget, widget_notes, screen, screen_notes = asyncio.run(render())
    assert widget_notes == [] and widget.warnings == []
    # Three of the recorded lectures at medium size (limit), soonest first, read over two pages.
    assert texts(widget.body) == [
        *("12/1 19:00", "宋词里的城市", "12/2 14:00", "大语言模型的推理", "12/3 19:00", "城市化与人口流动")
    ]
    assert screen_notes == [] and screen.warnings == []
    shown = texts(screen.body)
    assert "3 场讲座 · 回车看详情" in shown
    assert shown[shown.index("12/2 14:00") :][:4] == ["12/2 14:00", "大语言模型的推理", "王立", "理教 107"]
    assert "还没有记进待办的讲座" in shown  # the `mine` source: no todo added yet


@pytest.mark.parametrize(
    ("schema", "pattern"),
    [("genui-1", "*/*.json"), ("tool", "tools/*.yaml"), ("test", "tests/*.yaml"), ("manifest", "PLUGIN.md")],
)
def test_the_example_passes_the_json_schemas_editors_use(schema: str, pattern: str) -> None:
    """What an editor checks as the author types (docs/schemas/, PLUGIN-LANGUAGE.md §20): the example's files name
    their schema with `$schema` (JSON) or a `yaml-language-server` comment, and pass it."""
    validator = jsonschema.Draft7Validator(
        json.loads((ROOT / "docs" / "schemas" / f"{schema}.schema.json").read_text())
    )
    files = sorted(EXAMPLE.glob(pattern))
    assert files
    for path in files:
        text = path.read_text("utf-8")
        if path.suffix == ".json":
            value = json.loads(text)
        else:
            if path.name == "PLUGIN.md":
                parts = split_frontmatter(text)
                assert parts is not None
                text = parts[0]
            else:
                assert text.startswith(f"# yaml-language-server: $schema=../../../docs/schemas/{schema}.schema.json")
            located, problems = load_yaml(text, path.name)
            assert located is not None, problems
            value = located.data
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(value)]
        assert errors == [], f"{path.name}: {errors}"


async def test_a_row_opens_the_detail_screen_with_its_id_and_reminds_the_student(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(110, 40)) as pilot:
        plugin, _ = validate(DirectorySource(EXAMPLE))
        assert plugin is not None
        app.runtime.registry.add(InstalledPlugin(plugin, False, DirectorySource(EXAMPLE)))
        app.runtime.folders["lectures"] = EXAMPLE
        await app.push_screen(PluginScreen(app.runtime, "lectures", "list", now=NOW))
        await settle(pilot, app)
        listing = app.screen
        table = listing.query_one(DataTable)
        assert table.row_count == 3
        table.focus()
        await pilot.press("down", "enter")  # the second row: 大语言模型的推理, id 102
        await until(pilot, lambda: app.screen is not listing)
        await settle(pilot, app)
        detail = app.screen
        assert isinstance(detail, PluginScreen) and detail.screen_name == "detail"
        assert detail.params == {"id": "102"}  # the rowAction's params, `${item.id}` of the chosen row
        shown = [str(w.render()) for w in detail.query(Static)]
        assert "大语言模型的推理" in shown and any("信息科学技术学院" in s for s in shown)
        button = next(b for b in detail.query(GenButton) if "提醒我去听" in str(b.label))
        await pilot.click(button)
        await settle(pilot, app)
        assert detail.state is not None and detail.state["reminder"]["added"] is True  # then: { set: reminder }
        shown = [str(w.render()) for w in detail.query(Static)]
        assert "已记进待办，2026-12-02 13:30 到期" in shown  # 30 minutes before, the default setting
        assert not [b for b in detail.query(GenButton) if "提醒我去听" in str(b.label)]  # its `when` hid it
        calls = [e for e in app.runtime.audit.recent() if e.tool == "lectures.remind"]
        assert len(calls) == 1 and calls[0].actor == "user"  # a student's own press, never the model's


async def test_the_palette_and_the_screens_list_offer_no_screen_that_needs_params(tmp_path: Path) -> None:
    """Issue 21: Ctrl+P listed 讲座详情, which requires an `id`; opened without it, it could only say 输入有误."""
    from tui.app.widgets.plugins_page import screens_table

    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    async with app.run_test(size=(110, 40)):
        plugin, _ = validate(DirectorySource(EXAMPLE))
        assert plugin is not None
        app.runtime.registry.add(InstalledPlugin(plugin, False, DirectorySource(EXAMPLE)))
        titles = [str(c.title) for c in app.get_system_commands(app.screen)]
        assert "讲座预告 · 近期讲座" in titles  # its topic has a default: it opens alone
        assert not [title for title in titles if "讲座详情" in title]
        keys = [str(k.value) for k in screens_table(app.runtime, "zh").rows]
        assert "lectures/list" in keys and "lectures/detail" not in keys
