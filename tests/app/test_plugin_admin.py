"""Installing and updating in the app, driven by real reviews from the installer against the fake GitHub:
paste a link → review → install or cancel; a wider update → notice → approval dialog → accept or keep; roll back,
auto-update and uninstall from 设置; the assistant's `plugins.install` always shows the review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Switch

from tests.app.helpers import said_by, settle, until
from tests.runtime.fake_github import FakeGitHub, plugin_files
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.prompts import ChooseDialog, ConfirmDialog
from tui.app.dialogs.review import InstallReviewDialog, UpdateApprovalDialog
from tui.runtime.plugins.fetch import PluginFetcher

TREE = "https://github.com/someone/campus-plugins/tree/main/plugins/notes"
NOW = "2026-11-30T12:00:00+08:00"


@pytest.fixture
def github() -> FakeGitHub:
    gh = FakeGitHub()
    gh.push("someone", "campus-plugins", plugin_files(), prefix="plugins/notes/")
    return gh


def app_for(tmp_path: Path, github: FakeGitHub, locale: str = "zh") -> PkuHarnessApp:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW, locale=locale)
    app.demo = False  # recorded data for the dashboard, but update checks on (they go to the fake GitHub)
    app.runtime.plugin_fetcher = PluginFetcher(transport=github.transport())
    return app


def rows(app: PkuHarnessApp, table: str) -> list[list[str]]:
    t: DataTable[Any] = app.query_one(f"#{table}", DataTable)
    return [[str(c) for c in t.get_row_at(i)] for i in range(t.row_count)]


async def paste_and_install(pilot: Any, app: PkuHarnessApp, link: str) -> None:
    await pilot.press("3")
    app.query_one("#install-link", Input).value = link
    app.query_one("#install-link", Input).focus()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, InstallReviewDialog), 10)


async def install_notes(pilot: Any, app: PkuHarnessApp) -> None:
    await paste_and_install(pilot, app, TREE)
    await pilot.press("i")
    await until(pilot, lambda: "notes" in app.runtime.registry.plugins, 10)


async def test_paste_a_link_review_and_install(tmp_path: Path, github: FakeGitHub) -> None:
    app = app_for(tmp_path, github)
    async with app.run_test(size=(120, 50)) as pilot:
        await paste_and_install(pilot, app, TREE)
        review = app.screen.review  # type: ignore[attr-defined]
        assert review.plugin_id == "notes" and review.source == TREE and not review.official
        await pilot.press("i")
        await until(pilot, lambda: "notes" in app.runtime.registry.plugins and app.query("#installed"), 10)
        await settle(pilot, app)
        assert any(r[2] == "notes.list" for r in rows(app, "tools"))  # the tables were rebuilt
        assert rows(app, "installed") == [["笔记", "1.0.0", "社区插件", "开", "—"]]
        assert app.query_one("TabbedContent").active == "plugins"


async def test_cancel_installs_nothing_and_a_bad_link_says_why(tmp_path: Path, github: FakeGitHub) -> None:
    app = app_for(tmp_path, github)
    async with app.run_test(size=(120, 50)) as pilot:
        await paste_and_install(pilot, app, TREE)
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.runtime.installs.all() == [] and "notes" not in app.runtime.registry.plugins
        app.query_one("#install-link", Input).value = "http://example.org/PLUGIN.md"
        app.query_one("#install-link", Input).focus()
        await pilot.press("enter")
        await settle(pilot, app)
        messages = [n.message for n in app._notifications]
        assert any(m.startswith("无法安装：") and "插件只能通过 https 获取" in m for m in messages)


async def test_a_wider_update_waits_for_approval_then_rollback_and_uninstall(
    tmp_path: Path, github: FakeGitHub
) -> None:
    app = app_for(tmp_path, github)
    async with app.run_test(size=(120, 50)) as pilot:
        await install_notes(pilot, app)
        await settle(pilot, app)
        github.push("someone", "campus-plugins", plugin_files(version="2.0.0", campus=("card",)),
                    prefix="plugins/notes/")  # fmt: skip
        await app.admin.check()  # what opening the plugins page does
        # Read before settling: the notice lasts 6 s, and a loaded CI machine settled for longer (it was gone).
        assert any("笔记 2.0.0 需要你审核" in n.message for n in app._notifications)
        await settle(pilot, app)
        assert app.runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.0"
        await pilot.press("4")
        assert rows(app, "installed")[0][4] == "2.0.0 待审核"

        async def choose(label: str) -> None:
            table = app.query_one("#installed", DataTable)
            table.focus()
            table.move_cursor(row=0)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
            dialog = app.screen
            assert isinstance(dialog, ChooseDialog)
            dialog.dismiss(next(c for c in dialog.choices if c.startswith(label)))

        await choose("审核更新到 2.0.0")
        await until(pilot, lambda: isinstance(app.screen, UpdateApprovalDialog))
        assert app.screen.review.added_campus == ["card"]  # type: ignore[attr-defined]
        await pilot.press("a")
        await until(pilot, lambda: app.runtime.registry.plugins["notes"].plugin.manifest.campus == ["card"])
        await settle(pilot, app)
        assert rows(app, "installed")[0][1:] == ["2.0.0", "社区插件", "开", "可回滚到 1.0.0"]

        await choose("回滚到 1.0.0")
        await until(pilot, lambda: app.runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.0")
        await settle(pilot, app)
        await choose("关闭自动更新")
        await until(pilot, lambda: app.runtime.installs.get("notes").auto_update is False)  # type: ignore[union-attr]
        await settle(pilot, app)
        await choose("卸载")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        app.screen.dismiss(True)
        await until(pilot, lambda: app.runtime.installs.all() == [])
        assert "notes" not in app.runtime.registry.plugins


async def test_keeping_the_old_version_is_remembered(tmp_path: Path, github: FakeGitHub) -> None:
    app = app_for(tmp_path, github)
    async with app.run_test(size=(120, 50)) as pilot:
        await install_notes(pilot, app)
        github.push("someone", "campus-plugins", plugin_files(version="2.0.0", abilities=("todos",)),
                    prefix="plugins/notes/")  # fmt: skip
        await pilot.press("4")
        await settle(pilot, app)
        await app.admin.check(manual=True)
        await settle(pilot, app)
        app.run_worker(app.admin._review("notes"))
        await until(pilot, lambda: isinstance(app.screen, UpdateApprovalDialog))
        await pilot.press("escape")
        await settle(pilot, app)
        record = app.runtime.installs.get("notes")
        assert record is not None and record.pending is None and record.declined_hash is not None
        outcomes = await app.admin.check(manual=True)  # the built-in plugins are checked too
        assert [o.status for o in outcomes if o.plugin_id == "notes"] == ["declined"]


async def test_the_global_switch_and_the_plugins_page_check(tmp_path: Path, github: FakeGitHub) -> None:
    app = app_for(tmp_path, github)
    async with app.run_test(size=(120, 50)) as pilot:
        await install_notes(pilot, app)
        github.push("someone", "campus-plugins", plugin_files(version="1.0.1", description="Newer."),
                    prefix="plugins/notes/")  # fmt: skip
        said = said_by(app)  # a toast lasts seconds: a loaded CI machine looked after it had gone
        await pilot.press("1")
        app.checked_open_ms = 0.0
        await pilot.press("3")  # opening the plugins page checks, and a same-scope update applies at once
        await until(pilot, lambda: app.runtime.registry.plugins["notes"].plugin.manifest.version == "1.0.1", 10)
        await settle(pilot, app)
        await until(pilot, lambda: any("笔记 已更新到 1.0.1" in m for m in said), 10)
        await pilot.press("4")
        app.query_one("#auto-update-all", Switch).value = False
        await settle(pilot, app)
        assert app.admin.installer.auto_update_enabled() is False
        assert await app.admin.check() == []  # automatic checks are off


async def test_the_assistant_install_tool_always_shows_the_review(tmp_path: Path, github: FakeGitHub) -> None:
    app = app_for(tmp_path, github)
    async with app.run_test(size=(120, 50)) as pilot:
        outcomes: list[Any] = []
        app.run_worker(_call(app, outcomes))
        await until(pilot, lambda: isinstance(app.screen, InstallReviewDialog), 10)
        await pilot.press("escape")  # the student says no
        await until(pilot, lambda: outcomes)
        assert outcomes[0].result == {"installed": False, "message": "the student chose not to install it"}
        app.run_worker(_call(app, outcomes))
        await until(pilot, lambda: isinstance(app.screen, InstallReviewDialog), 10)
        await pilot.press("i")
        await until(pilot, lambda: len(outcomes) == 2)
        assert outcomes[1].result == {"installed": True, "id": "notes", "version": "1.0.0"}


async def _call(app: PkuHarnessApp, out: list[Any]) -> None:
    out.append(await app.runtime.gate.call("plugins.install", {"link": TREE}, actor="user"))


async def test_the_offline_demo_says_it_cannot_install_or_log_in_rather_than_trying(tmp_path: Path) -> None:
    """Found by a new student: in --demo (its header: 不联网) a pasted link and 登录 both went to the network and
    came back with ConnectError; 安装 with an empty box did nothing at all."""
    from textual.widgets import Button

    from tests.app.helpers import open_settings_section

    app = make_app(demo=True, data_dir=tmp_path, now="2026-11-30T12:00:00+08:00")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: bool(app.query("#install-link")))
        app.query_one("#install-go", Button).press()
        await until(pilot, lambda: any("先把插件链接粘贴到框里" in str(n.message) for n in app._notifications))
        app.query_one("#install-link", Input).value = "https://github.com/someone/plugins/tree/main/notes"
        app.query_one("#install-go", Button).press()
        await until(pilot, lambda: any("演示模式不联网，不能从链接安装" in str(n.message) for n in app._notifications))
        assert not isinstance(app.screen, InstallReviewDialog)
        await open_settings_section(pilot, app, "campus")
        note = app.query_one("#campus-demo")
        assert "不需要也不能登录" in str(note.render())
        assert not app.query("#campus-login") and not app.query("#campus-token")  # nothing to log in to


async def test_built_in_plugins_update_from_their_links_in_settings_and_roll_back_to_the_built_in_copy(
    tmp_path: Path, github: FakeGitHub
) -> None:
    from tests.app.helpers import open_settings_section
    from tui.runtime.builtin import builtin_folders

    shipped = next(f for f in builtin_folders() if f.name == "shuttle")
    manifest = (shipped / "PLUGIN.md").read_text(encoding="utf-8").replace("version: 1.0.0", "version: 1.0.1")
    github.publish_builtins({"shuttle": {"PLUGIN.md": manifest}})
    app = app_for(tmp_path, github)
    said = said_by(app)
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot, app)  # the start's daily check (not the demo): the built-in plugins' links
        await until(pilot, lambda: app.runtime.registry.plugins["shuttle"].plugin.manifest.version == "1.0.1", 10)
        # what was said, not what still shows (the toast had gone on a CI run that took longer than it lasts)
        await until(pilot, lambda: any("校车 已更新到 1.0.1" in m for m in said), 10)
        assert any(r.startswith("api/repos/pkuinfo/pku-harness-plugins/commits/main") for r in github.requests)
        await open_settings_section(pilot, app, "updates")
        await settle(pilot, app)
        table = {r[0]: r[1:] for r in rows(app, "builtin-plugins")}
        assert len(table) == 7 and table["校车"] == ["1.0.1", "链接上的新版本", "开", "可回滚到 内置副本 1.0.0"]
        assert all(row[1:] == ["内置副本", "开", "—"] for name, row in table.items() if name != "校车")
        assert rows(app, "installed") == []  # nothing installed from a link

        async def choose(label: str) -> list[str]:
            table = app.query_one("#builtin-plugins", DataTable)
            table.focus()
            table.move_cursor(row=table.get_row_index("shuttle"))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ChooseDialog))
            dialog = app.screen
            assert isinstance(dialog, ChooseDialog)
            choices = list(dialog.choices)
            dialog.dismiss(next(c for c in choices if c.startswith(label)))
            return choices

        choices = await choose("回滚到 内置副本 1.0.0")
        assert "卸载" not in choices  # a built-in plugin is never removed
        await until(pilot, lambda: app.runtime.registry.plugins["shuttle"].plugin.manifest.version == "1.0.0")
        await settle(pilot, app)
        assert {r[0]: r[1:] for r in rows(app, "builtin-plugins")}["校车"] == ["1.0.0", "内置副本", "开", "—"]
        await choose("关闭自动更新")
        await until(pilot, lambda: app.admin.installer.record("shuttle").auto_update is False)
        await settle(pilot, app)
        assert {r[0]: r[1:] for r in rows(app, "builtin-plugins")}["校车"][2] == "关"


async def test_the_demo_never_fetches_built_in_plugins(tmp_path: Path, github: FakeGitHub) -> None:
    github.publish_builtins()
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    app.runtime.plugin_fetcher = PluginFetcher(transport=github.transport())
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.press("3")  # outside the demo, opening 插件 checks every plugin's link
        await until(pilot, lambda: bool(app.query("#install-link")))
        await settle(pilot, app)
        await pilot.press("4")
        await settle(pilot, app)
    assert github.requests == []
