"""The screenshot script drives the real demo app through every scene the README shows."""

from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def svg_text(path: Path) -> str:
    raw = path.read_text(encoding="utf-8")
    return re.sub(
        r"\s+",
        " ",
        " ".join(html.unescape(t).replace("\xa0", " ") for t in re.findall(r"<text[^>]*>(.*?)</text>", raw)),
    )


async def test_every_scene_is_written_and_shows_its_content(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts" / "screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = await module.shoot(tmp_path)
    assert sorted(p.name for p in written) == sorted(
        f"{n}.svg"
        for n in (
            "dashboard",
            "plugin-screen",
            "tool-form",
            "settings",
            "plugins",
            "plugin-draft",
            "install-review",
            "update-approval",
            "widget-preview",
        )
    )
    expect = {
        "dashboard": "食堂人流",
        "plugin-screen": "空闲节次",  # the classroom form was submitted and its table is there
        "tool-form": "17:10, 21:30",  # the shuttle timetable's result: its times, a list read as a, b, c
        "settings": "校园账号",
        "plugins": "添加插件",
        "plugin-draft": "没有问题",  # the draft's check, and its widget on the recorded data below
        "install-review": "社区插件",
        "update-approval": "0.3.1 → 0.4.0",
        "widget-preview": "农园",
    }
    for name, text in expect.items():
        assert text in svg_text(tmp_path / f"{name}.svg"), name
