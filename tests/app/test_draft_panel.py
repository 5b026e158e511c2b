"""Plugin drafts in the app, driven like a student would: a scripted model (the fake OpenAI-compatible server)
writes 图书馆新书 beside the chat and the draft panel follows it to the install; the panel at 80×24 (one line above
the input) and at 160×45 (a column); 插件 → 草稿; discarding; the read-only file dialog; a draft's own text shown
literally."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Collapsible, OptionList, Static, TextArea

from tests.app.helpers import said_by, settle, until
from tests.app.test_chat_pane import NOW, ask, card_ready
from tests.runtime.draft_plugin import BROKEN, FIXED, MANIFEST, RECORDED, WIDGET, make, write_call
from tests.runtime.fake_openai import FakeOpenAI, call, calls, text
from tests.runtime.local_api import local_api
from tui.app.app import PkuHarnessApp, make_app
from tui.app.dialogs.draft_file import DraftFileDialog
from tui.app.dialogs.prompts import ConfirmDialog
from tui.app.dialogs.review import InstallReviewDialog
from tui.app.widgets.approval_card import ApprovalCard
from tui.app.widgets.chat_input import ChatInput
from tui.app.widgets.chat_pane import ChatPane
from tui.app.widgets.draft_panel import DraftPanel
from tui.app.widgets.drafts_table import DraftsTable
from tui.runtime.chat.providers import save_config
from tui.runtime.dev_origins import parse

WIDE, NARROW = (160, 45), (80, 24)
DRAFT = '{"draft": "libnew"}'


@pytest.fixture
def fake() -> Iterator[tuple[FakeOpenAI, str]]:
    server = FakeOpenAI()
    with server.serve() as url:
        yield server, url


def draft_app(tmp_path: Path, url: str | None = None) -> PkuHarnessApp:
    app = make_app(demo=True, data_dir=tmp_path, now=NOW)
    if url:
        save_config(app.runtime.store, "custom", url, "any")
    return app


def panel_of(app: PkuHarnessApp) -> DraftPanel:
    return app.query_one(DraftPanel)


def panel_text(app: PkuHarnessApp) -> str:
    """Everything the panel says: its line, title, files, problems, preview (widgets' text included)."""
    panel = panel_of(app)
    parts = [str(panel.query_one("#draft-head", Button).label)]
    parts += [str(s.render()) for s in panel.query(Static) if not isinstance(s, Button)]
    files = panel.query_one("#draft-files", OptionList)
    parts += [str(files.get_option_at_index(i).prompt) for i in range(files.option_count)]
    return "\n".join(parts)


def panel_settled(app: PkuHarnessApp) -> bool:
    panel = panel_of(app)
    return panel.settled and panel.view is not None


async def answer_cards(pilot: Any, app: PkuHarnessApp, count: int) -> None:
    """Allow `count` more approval cards, once each, by clicking 允许一次 as they come."""
    for _ in range(count):
        await until(pilot, lambda: any(not c.decided and card_ready(app, i + 1)
                                       for i, c in enumerate(app.query(ApprovalCard))), 30)  # fmt: skip
        card = next(c for c in app.query(ApprovalCard) if not c.decided)
        once = card.query_one("#once")
        once.scroll_visible(animate=False)  # a card showing a whole file is taller than the log: scroll as a person
        await until(pilot, lambda once=once: app.screen.region.contains_region(once.region), 5)
        await pilot.click(once)
        await until(pilot, lambda card=card: card.decided, 5)


async def test_the_assistant_writes_a_plugin_beside_the_chat(tmp_path: Path, fake: tuple[FakeOpenAI, str]) -> None:
    server, url = fake
    server.add(
        calls(
            write_call("PLUGIN.md", MANIFEST, "w1"),
            write_call("tools/list.yaml", BROKEN, "w2", 1),
            write_call("tests/list.yaml", RECORDED, "w3", 2),
            write_call("widgets/books.json", WIDGET, "w4", 3),
        ),
        calls(call("plugins__draftValidate", DRAFT, id="v1")),
        calls(write_call("tools/list.yaml", FIXED, "w5")),
        calls(call("plugins__draftTest", DRAFT, id="t1")),
        calls(call("plugins__draftInstall", DRAFT, id="i1")),
        text("装好了：图书馆新书。"),
    )
    app = draft_app(tmp_path, url)
    async with app.run_test(size=WIDE) as pilot:
        await ask(pilot, app, "帮我写一个显示图书馆新书的插件")
        await answer_cards(pilot, app, 4)  # the four writes
        # the validation the model asked for: the panel shows the same problem, at its line
        await until(pilot, lambda: server.requests and len(server.requests) >= 3, 10)
        await until(pilot, lambda: "tools/list.yaml:8" in panel_text(app) and panel_settled(app), 10)
        pane = app.query_one(ChatPane)
        assert pane.has_class("-side")  # 160 columns: a column beside the log, open
        said = panel_text(app)
        assert "草稿 libnew" in said and "图书馆新书" in said and "requst" in said
        assert "PLUGIN.md" in said and "widgets/books.json" in said
        # the lines of the writes: the file and the size of the change, the diff behind them
        lines = [str(c.title) for c in app.query(".tool-draft-write").results(Collapsible)]
        assert "写入 widgets/books.json（+5 −0） · 完成" in "\n".join(lines)
        await answer_cards(pilot, app, 1)  # the fix
        await until(pilot, lambda: "✓ 没有问题" in panel_text(app) and panel_settled(app), 10)
        said = panel_text(app)
        assert "三体" in said and "活着" in said  # the widget, on the recorded test's data
        assert "requst" not in said
        fix = [c for c in app.query(".tool-draft-write").results(Collapsible) if "（+1 −1）" in str(c.title)]
        assert len(fix) == 1 and fix[0].collapsed
        diff = str(fix[0].query_one(".draft-diff", Static).render())
        assert "-    requst:" in diff and "+    request:" in diff
        await answer_cards(pilot, app, 1)  # draftInstall is a write: asked first
        await until(pilot, lambda: isinstance(app.screen, InstallReviewDialog), 10)
        review = app.screen
        assert isinstance(review, InstallReviewDialog) and review.review.plugin_id == "libnew"
        await pilot.click("#install")
        await until(pilot, lambda: "libnew" in app.runtime.registry.plugins, 10)
        await until(pilot, lambda: any("装好了" in m.source for m in app.query("Markdown").results()), 10)
        await settle(pilot, app)
        # the shell was built again after the turn: the chat and its draft are back, the tool is listed
        await until(pilot, lambda: app.query(DraftPanel) and panel_settled(app), 10)
        assert app.query_one("#tools").get_row("libnew.list")
        with local_api() as api:  # its tool runs for real, its declared host answered on loopback
            app.runtime.map_origins((parse(api.mapping()),))
            outcome = await app.runtime.gate.call("libnew__list", {"q": "书"}, actor="user")
        assert outcome.status == "ok" and outcome.result == ["本地书一", "api.example.com"], outcome.message
    test = next(m for m in server.requests[4]["messages"] if m.get("tool_call_id") == "t1")
    assert '"ok":true' in test["content"] and '"passed":1,"failed":0' in test["content"]


async def open_drafts(pilot: Any, app: PkuHarnessApp, count: int) -> DraftsTable:
    """插件 → 草稿, the list focused, once it lists `count` drafts."""
    await pilot.press("3")
    await until(pilot, lambda: app.query(DraftsTable) and app.query_one(DraftsTable).row_count == count, 10)
    table = app.query_one(DraftsTable)
    table.focus()
    await pilot.pause()
    return table


async def test_continue_a_draft_from_the_plugins_page_at_80x24(tmp_path: Path) -> None:
    app = draft_app(tmp_path)
    make(app.runtime.drafts, broken=True)
    async with app.run_test(size=NARROW) as pilot:
        table = await open_drafts(pilot, app, 1)
        row = [str(c) for c in table.get_row("libnew")]
        assert row[:4] == ["libnew", "图书馆新书", "4", row[3]] and row[5] == "1 个问题"
        await pilot.press("enter")
        await until(pilot, lambda: app.query(DraftPanel) and panel_settled(app), 10)
        box = app.query_one("#chat-input", ChatInput)
        await until(pilot, lambda: app.focused is box)
        assert box.text == "我们继续写插件草稿 libnew："  # the student goes on from there
        panel = panel_of(app)
        head = panel.query_one("#draft-head", Button)
        # 80 columns: one line above the input, collapsed, saying how the draft stands
        assert str(head.label) == "▸ 草稿 libnew · 1 个问题"
        assert not app.query_one(ChatPane).has_class("-side")
        assert panel.has_class("-collapsed") and not panel.query_one("#draft-body").display
        assert head.region.height == 1 and head.region.bottom <= box.region.y
        await pilot.click(head)
        await until(pilot, lambda: panel.open and panel.query_one("#draft-body").region.height > 0)
        said = panel_text(app)
        assert "tools/list.yaml:8:5 · STEP_UNKNOWN_KIND" in said and "did you mean 'request'?" in said
        assert panel.region.bottom <= box.region.y  # still above the input, the log above it
        assert app.query_one("#chat-log").region.height >= 3
        # its body fits in the panel and scrolls: the check and the preview under the files can be reached (at
        # 80×24 a fixed 14-row body overflowed the panel and nothing under 检查 could be scrolled to)
        body = panel.query_one("#draft-body")
        assert body.region.bottom <= panel.region.bottom and body.max_scroll_y > 0
        body.scroll_end(animate=False)
        problems = panel.query_one("#draft-problems")
        await until(pilot, lambda: body.region.contains_region(problems.region))


async def test_the_side_panel_at_160x45_files_read_only_and_literal_text(tmp_path: Path) -> None:
    app = draft_app(tmp_path)
    make(app.runtime.drafts)
    drafts = app.runtime.drafts
    name = "[b]粗[/b] [@click=app.quit]点[/]"
    drafts.write("libnew", "PLUGIN.md", MANIFEST.replace("name: 图书馆新书", f'name: "{name}"'))
    drafts.write("libnew", "notes/[red]x[/red].md", "[red]不是红色[/red]\x1b[31m $(rm -rf ~)\n")
    async with app.run_test(size=WIDE) as pilot:
        app.open_draft("libnew")
        await until(pilot, lambda: app.query(DraftPanel) and panel_settled(app), 10)
        panel = panel_of(app)
        assert app.query_one(ChatPane).has_class("-side") and panel.open
        log, box = app.query_one("#chat-log"), app.query_one("#chat-input")
        assert panel.region.x >= log.region.right and panel.region.height > 20 and log.region.width >= 80
        said = panel_text(app)
        assert f"libnew · {name}" in said and "notes/[red]x[/red].md" in said  # literal, not styled or run
        assert "三体" in said and "✓ 没有问题" in said
        files = panel.query_one("#draft-files", OptionList)
        files.focus()
        paths = [str(files.get_option_at_index(i).prompt).split("  ")[0] for i in range(files.option_count)]
        files.highlighted = paths.index("notes/[red]x[/red].md")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DraftFileDialog))
        area = app.screen.query_one(TextArea)
        await until(pilot, lambda: "不是红色" in area.text)
        assert area.text == "[red]不是红色[/red] $(rm -rf ~)\n" and area.read_only  # no escape code, no markup
        assert app.focused is area
        await pilot.press("x", "backspace", "enter", "ctrl+k")
        assert area.text == "[red]不是红色[/red] $(rm -rf ~)\n"
        assert drafts.read("libnew", "notes/[red]x[/red].md").startswith("[red]不是红色")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, DraftFileDialog))
        assert app.is_running  # the [@click=app.quit] in the name did nothing
        # r in the panel reads the draft again: a file changed in an editor shows
        drafts.write("libnew", "tools/list.yaml", BROKEN)
        files.focus()
        await pilot.press("r")
        await until(pilot, lambda: "1 个问题" in str(panel.query_one("#draft-head", Button).label), 10)
        # 收起 makes it one line above the input; the log takes the width again
        await pilot.click(panel.query_one("#draft-toggle"))
        await until(pilot, lambda: not app.query_one(ChatPane).has_class("-side"))
        assert panel.region.bottom <= box.region.y and log.region.width > 120


async def test_discard_asks_first_and_install_opens_the_review(tmp_path: Path) -> None:
    app = draft_app(tmp_path)
    make(app.runtime.drafts)
    make(app.runtime.drafts, broken=True, draft="other")
    async with app.run_test(size=(120, 40)) as pilot:
        table = await open_drafts(pilot, app, 2)
        table.move_cursor(row=table.get_row_index("other"))
        await pilot.press("i")  # errors: not offered to the review, the student is told
        await until(pilot, lambda: any("草稿 other 还有 1 个错误" in str(n.message) for n in app._notifications))
        assert not isinstance(app.screen, InstallReviewDialog)
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("n")  # no: it stays
        await until(pilot, lambda: not isinstance(app.screen, ConfirmDialog))
        assert app.runtime.drafts.exists("other")
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert "丢弃草稿 other？" in str(app.screen.query_one(Static).render())
        await pilot.press("y")
        await until(pilot, lambda: not app.runtime.drafts.exists("other") and table.row_count == 1, 10)
        table.move_cursor(row=0)
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, InstallReviewDialog), 10)
        await pilot.press("escape")  # 取消: nothing installed, the draft stays
        await until(pilot, lambda: not isinstance(app.screen, InstallReviewDialog))
        assert "libnew" not in app.runtime.registry.plugins and app.runtime.drafts.exists("libnew")
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await until(pilot, lambda: table.row_count == 0, 10)
        await settle(pilot, app)
        assert "还没有草稿" in table.empty and "pku-harness plugins draft new ID" in table.empty


async def test_while_the_first_write_waits_the_panel_says_none_yet_and_the_card_shows_the_file(tmp_path: Path) -> None:
    """The demo model asks to write its first file: the panel is there already and says there are no files yet
    (not "the draft is gone", nor the store's English words), and the card shows the file as lines, not one JSON
    string of `\\n`; once discarded after it existed, the panel says it is gone."""
    app = draft_app(tmp_path)  # the demo model answers
    async with app.run_test(size=WIDE) as pilot:
        await ask(pilot, app, "帮我写一个显示图书馆新书的插件")
        await until(pilot, lambda: card_ready(app), 30)
        await until(pilot, lambda: panel_settled(app), 30)
        said = panel_text(app)
        assert "草稿 libnew · 还没有文件" in said and "等你同意" in said, said
        assert "草稿已不在了" not in said and "no draft" not in said
        args = str(app.query_one(ApprovalCard).query_one(".args", Static).render())
        assert "content:\n  ---\n  spec: 1\n  id: libnew" in args and "\\n" not in args, args
        await answer_cards(pilot, app, 4)
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and "写好了" in pane.last_answer, 40)
        await until(pilot, lambda: panel_settled(app) and "✓" in panel_text(app), 10)
        app.runtime.drafts.discard("libnew")
        panel_of(app).reload()
        await until(pilot, lambda: panel_settled(app) and "草稿已不在了" in panel_text(app), 10)


async def test_installing_an_installed_draft_again_updates_it(tmp_path: Path) -> None:
    """Edit → 安装 again is the author's loop: the app takes the edit as the plugin's update (an outsider was told
    "already installed; use plugins update" on the command line)."""
    from tui.runtime.plugins import Installer

    app = draft_app(tmp_path)
    make(app.runtime.drafts)
    folder = app.runtime.drafts.folder("libnew")
    installer = Installer(app.runtime)
    installer.install(installer.prepare(str(folder)))
    tool = folder / "tools" / "list.yaml"
    tool.write_text(tool.read_text("utf-8").replace("title: 新书", "title: 最新的书"), "utf-8")
    said = said_by(app)
    async with app.run_test(size=WIDE) as pilot:
        app.install_draft("libnew", None)
        await until(pilot, lambda: any("已更新到" in s for s in said), 15)
        await until(pilot, lambda: app.runtime.registry.find("libnew.list").title == "最新的书", 10)  # type: ignore[union-attr]
        app.discard_draft("libnew")  # its updates come from the draft: discarding it says so first
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert "插件 libnew 是从这个草稿装的" in app.screen.question  # type: ignore[attr-defined]
        await pilot.press("n")
    assert not any("已经安装过了" in s for s in said), said


async def test_an_edit_in_an_editor_shows_in_the_panel_by_itself(tmp_path: Path) -> None:
    """The README says to go on in an editor: the panel notices a file changed on disk (an outsider's panel kept
    ✓ after they broke a widget), and a draft discarded from the command line."""
    app = draft_app(tmp_path)
    make(app.runtime.drafts)
    async with app.run_test(size=WIDE) as pilot:
        await open_drafts(pilot, app, 1)
        await pilot.press("enter")  # 继续写: the panel in 助手
        await until(pilot, lambda: app.query(DraftPanel) and panel_settled(app) and "✓" in panel_text(app), 10)
        await pilot.pause(2.5)  # the panel's first look at the disk
        tool = app.runtime.drafts.folder("libnew") / "tools" / "list.yaml"
        tool.write_text(BROKEN, "utf-8")  # an editor saves a typo
        await until(pilot, lambda: panel_settled(app) and "STEP_UNKNOWN_KIND" in panel_text(app), 10)
        app.runtime.drafts.discard("libnew")  # `plugins draft discard` in another terminal
        await until(pilot, lambda: panel_settled(app) and "草稿已不在了" in panel_text(app), 10)


async def test_at_80x24_the_chat_follows_to_the_answer_after_tall_cards(tmp_path: Path) -> None:
    """Each write's card shows a whole file, taller than the log: answering it scrolled the log to its buttons and
    let go of the bottom, so the assistant's last answer arrived out of sight (an outsider pressed PageDown six
    times). Answered with Enter, as a student at 80×24 does, the log ends at the answer."""
    app = draft_app(tmp_path)
    async with app.run_test(size=NARROW) as pilot:
        await ask(pilot, app, "帮我写一个显示图书馆新书的插件")
        for _ in range(4):
            await until(pilot, lambda: any(not c.decided for c in app.query(ApprovalCard)), 10)
            await until(pilot, lambda: card_ready(app, len(app.query(ApprovalCard))), 10)
            await pilot.press("enter")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and "写好了" in pane.last_answer, 40)
        await settle(pilot, app)
        log = pane.log_view
        assert log.following(), (log.scroll_y, log.max_scroll_y)
