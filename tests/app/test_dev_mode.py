"""The app with an author's plugin: `--demo --with` shows its widget on its recorded data; PKU_HARNESS_DEV_ORIGINS
runs it against the author's local server, says 开发模式 in the header and marks the audit rows."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Static

from tests.app.helpers import open_settings_section, until
from tests.app.preview_plugins import settled, shown
from tests.runtime.local_api import LOCALDEV, local_api
from tui.app.app import PkuHarnessApp, make_app
from tui.app.preview import PreviewApp
from tui.runtime.dev_origins import ENV, from_env
from widgets_render.textual_render import WidgetFrame

NOW = "2026-11-30T12:00:00+08:00"


def frame_text(app: PkuHarnessApp, file: str) -> str:
    """What the widget from `file` shows, as plain text ('' while it is not on the dashboard)."""
    for frame in app.query(WidgetFrame):
        if frame.file == file:
            return " ".join(str(s.render()) for s in frame.query(Static))
    return ""


async def shown_in(pilot: Any, app: PkuHarnessApp, text: str) -> str:
    """Wait until the localdev widget shows `text`; its whole text."""
    await until(pilot, lambda: text in frame_text(app, "localdev/widgets/items.json"), 10.0)
    return frame_text(app, "localdev/widgets/items.json")


async def test_demo_with_shows_the_plugins_widget_on_its_recorded_data(tmp_path: Path) -> None:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, extra=[LOCALDEV])
    async with app.run_test(size=(120, 40)) as pilot:
        text = await shown_in(pilot, app, "录制的条目甲")
        assert "录制的条目乙" in text
        assert "开发模式" not in app.sub_title and "演示模式" in app.sub_title
    assert app.runtime.dev_origins == ()
    assert {r.dev for r in app.runtime.audit.recent()} == {""}  # nothing marked without a mapping


async def test_dev_origins_say_dev_mode_and_the_plugin_runs_against_the_local_server(tmp_path: Path) -> None:
    with local_api() as api:
        origins = from_env({ENV: api.mapping()})
        app = make_app(demo=True, data_dir=tmp_path, now=NOW, extra=[LOCALDEV], dev_origins=origins)
        async with app.run_test(size=(120, 40)) as pilot:
            text = await shown_in(pilot, app, "本地书一")
            assert "api.example.com" in text  # the Host header the server saw
            assert app.sub_title.startswith(f"开发模式：api.example.com → {api.origin} · 演示模式")
            await open_settings_section(pilot, app, "audit")
            table = app.query_one("#audit", DataTable)
            outcomes = [str(table.get_row_at(i)[-1]) for i in range(table.row_count)]
            assert outcomes and all(o.endswith(" · 开发模式") for o in outcomes)
            await app.set_language("en")
            await until(pilot, lambda: app.sub_title.startswith("Dev mode: api.example.com → "))
        rows = app.runtime.audit.recent()
    assert rows and all(r.dev == api.mapping() for r in rows)  # every row, the other plugins' recorded ones too
    assert {"localdev.items", "classrooms.free"} <= {r.tool for r in rows}
    assert api.seen and all(host == "api.example.com" for _, host in api.seen)


async def test_widget_preview_with_an_origin_reads_the_local_server_and_says_dev_mode() -> None:
    with local_api() as api:
        app = PreviewApp(LOCALDEV, now=NOW, dev_origins=from_env({ENV: api.mapping()}))
        async with app.run_test(size=(120, 40)) as pilot:
            await settled(pilot, app)
            assert "本地书一" in shown(app) and "录制的条目甲" not in shown(app)
            assert app.sub_title == f"开发模式：api.example.com → {api.origin}"


async def test_demo_with_says_a_request_has_no_recording_not_to_check_the_network(tmp_path: Path) -> None:
    """Replayed data that lacks a request is not a network failure: the card says there is no recording."""
    plugin = tmp_path / "localdev"
    shutil.copytree(LOCALDEV, plugin)
    recorded = plugin / "tests" / "items.yaml"
    recorded.write_text(recorded.read_text("utf-8").replace("items?q=书", "items?q=笔"), "utf-8")
    app = make_app(demo=True, data_dir=tmp_path / "data", now=NOW, extra=[plugin])
    async with app.run_test(size=(120, 40)) as pilot:
        text = await shown_in(pilot, app, "演示数据里没有这个请求的录制")
        assert "连不上网络" not in text
        await app.set_language("en")
        await shown_in(pilot, app, "The demo has no recording of this request")
