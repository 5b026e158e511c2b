"""A plugin's settings (issue 18 item 1): checked against the declaration, kept per plugin, given to every run."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tui.lang.documents.manifest import Manifest
from tui.runtime.message import say_error
from tui.runtime.plugin_settings import PluginSettings, SettingRefused
from tui.runtime.runtime import Runtime
from tui.runtime.store import Store

PREFS = Path(__file__).resolve().parents[1] / "fixtures" / "plugins" / "prefs"


@pytest.fixture
def rt(tmp_path: Path) -> Runtime:
    return Runtime.open(tmp_path / "db.sqlite3", extra=[PREFS])


def manifest(rt: Runtime) -> Manifest:
    return rt.registry.plugins["prefs"].plugin.manifest


def echo(rt: Runtime) -> dict[str, object]:
    outcome = asyncio.run(rt.gate.call("prefs.echo", {}, actor="user"))
    assert outcome.status == "ok", outcome.message
    return outcome.result  # type: ignore[no-any-return]


def test_every_run_sees_the_students_values_else_the_defaults(rt: Runtime) -> None:
    assert echo(rt) == {"nickname": "同学", "minSeats": 50, "day": "today"}
    assert rt.set_plugin_setting("prefs", "minSeats", "120") == 120  # typed text is read as the setting's type
    rt.set_plugin_setting("prefs", "day", "tomorrow")
    rt.set_plugin_setting("prefs", "nickname", "小王")
    assert echo(rt) == {"nickname": "小王", "minSeats": 120, "day": "tomorrow"}
    rt.reset_plugin_setting("prefs", "minSeats")
    assert echo(rt)["minSeats"] == 50
    rt.reset_plugin_setting("prefs")
    assert echo(rt) == {"nickname": "同学", "minSeats": 50, "day": "today"}


@pytest.mark.parametrize(
    ("key", "value", "zh", "en"),
    [
        ("minSeats", "5", "最少座位要填 10 到 300 之间的整数", "Min. seats takes a whole number from 10 to 300"),
        ("minSeats", "many", "最少座位要填 10 到 300 之间的整数", "Min. seats takes a whole number from 10 to 300"),
        ("day", "someday", "默认日期要填其中之一：今天, 明天", "Default day takes one of: Today, Tomorrow"),
        (
            "nickname",
            "一个非常非常非常非常长的昵称",
            "昵称要填最多 12 个字",
            "Nickname takes text of at most 12 characters",
        ),
        (
            "colour",
            "red",
            "插件 prefs 没有设置项 colour（有：nickname, minSeats, day）",
            "plugin prefs has no setting colour",
        ),
    ],
)
def test_a_value_the_declaration_refuses_is_said_in_words_and_not_kept(
    rt: Runtime, key: str, value: str, zh: str, en: str
) -> None:
    with pytest.raises(SettingRefused) as refused:
        rt.set_plugin_setting("prefs", key, value)
    assert say_error(refused.value, "zh") == zh
    assert say_error(refused.value, "en").startswith(en)
    assert rt.plugin_settings.stored("prefs") == {}
    assert echo(rt) == {"nickname": "同学", "minSeats": 50, "day": "today"}


def test_a_change_drops_the_plugins_cached_data_so_its_widget_fetches_anew(rt: Runtime) -> None:
    first = asyncio.run(rt.sources.read("prefs.mine"))
    assert first.value["minSeats"] == 50
    assert asyncio.run(rt.sources.read("prefs.mine")).fetched_ms == first.fetched_ms  # cached (ttl 1h)
    rt.set_plugin_setting("prefs", "minSeats", 200)
    assert asyncio.run(rt.sources.read("prefs.mine")).value["minSeats"] == 200


def test_a_stored_value_the_declaration_no_longer_takes_reads_as_the_default(rt: Runtime) -> None:
    """An update may narrow a setting: the old value is not given to runs it would break."""
    settings = PluginSettings(rt.store)
    rt.set_plugin_setting("prefs", "minSeats", 250)
    narrowed = manifest(rt).model_copy(deep=True)
    narrowed.settings["minSeats"].max = 100
    listing = {s.key: s for s in settings.listing("prefs", narrowed)}
    assert listing["minSeats"].value == 50 and not listing["minSeats"].changed
    assert settings.values("prefs", manifest(rt))["minSeats"] == 250  # the old declaration still takes it


def test_values_are_kept_per_plugin_and_go_with_it(rt: Runtime) -> None:
    rt.set_plugin_setting("prefs", "nickname", "小李")
    assert rt.plugin_settings.stored("notices") == {}
    rt.forget_plugin("prefs")
    assert rt.plugin_settings.stored("prefs") == {}


def test_a_corrupt_entry_reads_as_no_values() -> None:
    store = Store(":memory:")
    store.db.execute("INSERT INTO app_settings (key, value) VALUES ('plugin_settings:prefs', '[1, 2]')")
    assert PluginSettings(store).stored("prefs") == {}


def test_the_official_notices_follow_the_sources_the_student_chose(tmp_path: Path) -> None:
    """The notices plugin's 关注的来源: its latest notices come only from the sites the student follows."""
    rt = Runtime.open(tmp_path / "db.sqlite3", demo=True)
    with pytest.raises(SettingRefused):
        rt.set_plugin_setting("notices", "sources", [])  # at least one
    assert rt.set_plugin_setting("notices", "sources", "教务部, 学工部") == ["教务部", "学工部"]
    outcome = asyncio.run(rt.gate.call("notices.latest", {"limit": 8}, actor="user"))
    assert outcome.status == "ok" and {n["source"] for n in outcome.result} == {"教务部", "学工部"}
