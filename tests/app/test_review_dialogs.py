"""The install review and the update approval: what they show, accept and cancel, in zh and en."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from tui.app.dialogs.review import InstallReviewDialog, UpdateApprovalDialog
from tui.app.samples import SAMPLE_INSTALL, SAMPLE_UPDATE


class Host(App[None]):
    """A bare app that opens one dialog and records its answer."""

    def __init__(self, dialog: Any) -> None:
        super().__init__()
        self.dialog = dialog
        self.answers: list[bool | None] = []

    def compose(self) -> ComposeResult:
        yield Static("host")

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)


def shown(app: App[None]) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


@pytest.mark.parametrize(("key", "answer"), [("i", True), ("escape", False)])
async def test_install_review_answers_by_key(key: str, answer: bool) -> None:
    app = Host(InstallReviewDialog(SAMPLE_INSTALL))
    async with app.run_test(size=(100, 40)) as pilot:
        text = shown(app)
        assert "社区插件" in text and "图书馆空间预约" in text and "seats.example.edu.cn" in text
        assert "library-space" not in text  # the service by its name, not its manifest id
        assert "支付违约金  [花钱] · 仅限你自己操作" in text
        assert "先询问" in text  # a community plugin's non-read tools start as ask
        await pilot.press(key)
        await pilot.pause()
    assert app.answers == [answer]


async def test_install_review_by_mouse_and_in_english() -> None:
    app = Host(InstallReviewDialog(SAMPLE_INSTALL, locale="en"))
    async with app.run_test(size=(100, 40)) as pilot:
        text = shown(app)
        assert "Community plugin" in text and "[money]" in text
        await pilot.click("#install")
        await pilot.pause()
    assert app.answers == [True]


async def test_official_review_has_no_ask_first_note_and_plugin_text_is_cleaned() -> None:
    review = dataclasses.replace(SAMPLE_INSTALL, official=True, description="好[/bold]\x1b[2J插件")
    app = Host(InstallReviewDialog(review))
    async with app.run_test(size=(100, 40)):
        text = shown(app)
        assert "官方插件" in text and "先询问" not in text
        assert "好[/bold]插件" in text


@pytest.mark.parametrize(("button", "answer"), [("#accept", True), ("#keep", False)])
async def test_update_approval_shows_the_scope_change(button: str, answer: bool) -> None:
    app = Host(UpdateApprovalDialog(SAMPLE_UPDATE))
    async with app.run_test(size=(100, 40)) as pilot:
        text = shown(app)
        assert "0.3.1 → 0.4.0" in text
        assert "+ 网站：api.example.com" in text and "+ App 功能：短信验证码" in text
        assert "一开始就是 允许（原来是 先询问）" in text  # modes in words, not allow / ask
        assert "book：修改 → 花钱" in text and "share：新工具 → 公开" in text
        assert "  + Free seats per floor, and the user's phone." in text
        await pilot.click(button)
        await pilot.pause()
    assert app.answers == [answer]


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_install_review_snapshot(snap_compare: Any, locale: str) -> None:
    assert snap_compare(Host(InstallReviewDialog(SAMPLE_INSTALL, locale)), terminal_size=(100, 40))


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_update_approval_snapshot(snap_compare: Any, locale: str) -> None:
    assert snap_compare(Host(UpdateApprovalDialog(SAMPLE_UPDATE, locale)), terminal_size=(100, 40))


@pytest.mark.parametrize(
    ("kind", "locale", "want"),
    [
        ("branch", "zh", "分支 main · 提交 " + "a" * 40),
        ("tag", "en", "tag v1.0.0 · commit " + "a" * 40),
        ("commit", "en", "commit " + "a" * 40 + " on the default branch"),
    ],
)
async def test_install_review_shows_the_resolved_ref(kind: str, locale: str, want: str) -> None:
    from tui.runtime.plugins.links import ResolvedRef

    name = {"branch": "main", "tag": "v1.0.0", "commit": "a" * 40}[kind]
    review = dataclasses.replace(SAMPLE_INSTALL, ref=ResolvedRef(kind, name, "a" * 40))  # type: ignore[arg-type]
    app = Host(InstallReviewDialog(review, locale=locale))
    async with app.run_test(size=(120, 40)):
        assert want in shown(app)
