"""A widget's `sources` (genui §2: `"sources": {alias: name}`, read as `sources.<alias>`): read on the dashboard
and in `widget preview` beside its `source`; a source that fails leaves out only the components that show it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.app.test_app import NOW, wait_for_widgets
from tui.app.app import make_app
from tui.app.preview_render import PreviewData
from tui.lang.documents.source import DirectorySource
from tui.lang.documents.validator import validate

MANIFEST = """\
---
spec: 1
id: pair
name: 两处
description: A widget reading two sources, one of which can only fail (nothing is recorded for it).
version: 1.0.0
author: tests
network: [feed.example.com]
tools:
  latest:
    title: 最新
    description: The latest items.
    effect: read
    steps:
      - let: res
        request: { url: "https://feed.example.com/latest" }
    return: res
  gone:
    title: 别处
    description: Another feed.
    effect: read
    steps:
      - let: res
        request: { url: "https://feed.example.com/gone" }
    return: res
dataSources:
  latest: { tool: latest, ttl: 1h }
  gone: { tool: gone, ttl: 1h }
widgets:
  both: widgets/both.json
  others: widgets/others.json
---
"""

BOTH = {
    "spec": 1,
    "kind": "widget",
    "title": "两处",
    "source": "latest",
    "sources": {"again": "latest", "away": "gone"},
    "body": {
        "type": "column",
        "children": [
            {"type": "text", "text": "头条 ${data.headline}"},
            {"type": "text", "text": "再看 ${sources.again.headline}"},
            {"type": "text", "text": "别处 ${sources.away.headline}"},
        ],
    },
}
OTHERS = {
    "spec": 1,
    "kind": "widget",
    "title": "只看别处",
    "sources": {"away": "gone"},
    "body": {"type": "text", "text": "别处 ${sources.away.headline}"},
}


#: A recording of `latest` only: the preview answers it, and `gone` has nothing to answer with.
RECORDED = """\
tool: latest
cases:
  - name: 有一条
    http:
      - request: { url: 'https://feed.example.com/latest' }
        response: { json: { headline: 图书馆延长开放 } }
    expect: { headline: 图书馆延长开放 }
"""


def pair_plugin(tmp_path: Path) -> Path:
    folder = tmp_path / "pair"
    (folder / "widgets").mkdir(parents=True)
    (folder / "tests").mkdir()
    (folder / "PLUGIN.md").write_text(MANIFEST, encoding="utf-8")
    (folder / "tests" / "latest.yaml").write_text(RECORDED, encoding="utf-8")
    for name, spec in (("both", BOTH), ("others", OTHERS)):
        (folder / "widgets" / f"{name}.json").write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
    return folder


def texts(frame: Any) -> list[str]:
    return [str(s.render()) for s in frame.query("Static, Button")]


def test_the_plugin_is_valid(tmp_path: Path) -> None:
    plugin, problems = validate(DirectorySource(pair_plugin(tmp_path)))
    assert plugin is not None and problems == [], problems


async def test_a_widget_reads_its_sources_and_leaves_out_what_a_failed_one_shows(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path / "data", now=NOW, extra=[pair_plugin(tmp_path)])
    app.runtime.store.db.execute(
        "INSERT INTO data_cache (plugin, source, value, fetched_ms) VALUES ('pair', 'latest', ?, ?)",
        (json.dumps({"headline": "图书馆延长开放"}), int(time.time() * 1000)),
    )
    async with app.run_test(size=(120, 60)) as pilot:
        frames = await wait_for_widgets(pilot, app, count=9)
        both = next(f for f in frames if f.file == "pair/widgets/both.json")
        shown = texts(both)
        assert "头条 图书馆延长开放" in shown and "再看 图书馆延长开放" in shown  # `sources.again` was read
        assert not any(t.startswith("别处") for t in shown)  # what shows the failed source is left out …
        assert not both.has_class("-error") and str(both.border_title) == "两处 ⟳ 部分数据没有取到"  # … and said
        # with only failed sources, nothing is left to show: the widget's error card, with 重试
        others = next(f for f in frames if f.file == "pair/widgets/others.json")
        assert others.has_class("-error") and "重试 r" in " ".join(texts(others))
        assert others.error is not None and "away" in others.error.detail()  # 详情 names the alias


async def test_preview_reads_a_widgets_sources_as_the_dashboard_does(tmp_path: Path) -> None:
    folder = pair_plugin(tmp_path)
    render = PreviewData(folder, None, "zh", NOW)
    plugin, _ = validate(DirectorySource(folder))
    assert plugin is not None
    resolved, notes = await render.widget(plugin, True, "both", "medium")
    text = json.dumps(resolved.body, default=str, ensure_ascii=False)
    assert "头条 图书馆延长开放" in text and "再看 图书馆延长开放" in text and "别处" not in text
    assert any("gone" in n.message for n in notes if n.severity == "error")  # the author is told which one failed
