"""The demo's offline model: with no model set up, `--demo` shows the assistant for real — the agent loop, the
gate and its approval cards over the plugins' recordings — and says it is the demo; a configured model wins."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from tests.app.helpers import open_settings_section, said_by, settle, until
from tests.app.test_chat_pane import SIZE, ask, card_ready, card_text, chat_app, shown
from tests.runtime.fake_openai import FakeOpenAI, text
from tui.app.widgets.approval_card import ApprovalCard
from tui.app.widgets.chat_pane import ChatPane
from tui.runtime.chat.demo_model import DemoModel
from tui.runtime.chat.demo_rules import plan_for
from tui.runtime.chat.providers import save_config


def test_chat_once_demo_answers_from_the_demo_model_after_calling_classrooms(tmp_path: Path) -> None:
    """The issue's check, in a real process with no model set up."""
    env = {**__import__("os").environ, "PKU_HARNESS_DATA": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "tui", "chat", "--once", "二教今天有哪些空教室?", "--demo"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "[空闲教室 (classrooms.free) ok" in done.stderr and "demo model answers" in done.stderr
    assert done.stdout.startswith("【演示模型】") and "**二教**：201（50 座，第 1-2 节）" in done.stdout


async def test_the_recharge_question_shows_the_money_approval_card(tmp_path: Path) -> None:
    app = chat_app(tmp_path, None)
    told = said_by(app)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "给校园卡充值 100 元")
        await until(pilot, lambda: card_ready(app), 10)
        card = app.query_one(ApprovalCard)
        said = card_text(card)
        assert "校园卡充值 (wallet.recharge) · 花钱" in said and '"amountYuan": 100' in said
        await pilot.click("#once")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and pane.last_answer, 10)
        # the demo opens the card page for real where it can (a served page's new tab); here, a terminal without
        # a display, it says the address instead of claiming a page opened
        assert pane.last_answer.startswith("【演示模型】充值 100 元：这里打不开浏览器：请自己打开校园卡页面"), (
            pane.last_answer
        )
        assert "这里打不开浏览器，请复制链接: https://bdcard.pku.edu.cn/" in told, told


async def test_an_untrusted_notice_then_a_change_shows_the_taint_warning(tmp_path: Path) -> None:
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "看看最新通知，把第一条记下来")
        await until(pilot, lambda: card_ready(app), 10)
        said = card_text(app.query_one(ApprovalCard))
        assert "memory.remember" in said and "notices.latest" in said  # the reason names the third-party text
        await pilot.click("#deny")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and pane.last_answer, 10)
        assert "最新通知" in pane.last_answer and "你没有同意" in pane.last_answer


async def test_settings_say_the_demo_model_answers_and_a_configured_one_wins(tmp_path: Path) -> None:
    server = FakeOpenAI(text("真模型在回答。"))
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await open_settings_section(pilot, app, "model")
        assert "演示模型" in str(app.query_one("#model-state", Static).render())
        with server.serve() as url:
            save_config(app.runtime.store, "custom", url, "any")
            await ask(pilot, app, "你好")
            pane = app.query_one(ChatPane)
            await until(pilot, lambda: not pane.running and pane.last_answer, 10)
            await settle(pilot, app)
        assert pane.last_answer == "真模型在回答。" and len(server.requests) == 1
        assert "【演示模型】" not in shown(app)


async def test_the_grades_flow_sends_a_code_then_reads_it() -> None:
    """Through the rules alone: grades needing a verification → the SMS tool (a write: the card) → the code."""
    offered = {"grades__scores", "grades__sendCode"}
    q = [{"role": "user", "content": "我的成绩"}]
    assert plan_for(q, offered).calls == [("grades__scores", {})]
    asked = [*q, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "grades__scores", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": '{"status": "verification_required"}'}]  # fmt: skip
    assert plan_for(asked, offered).calls == [("grades__sendCode", {})]
    code = [*asked, {"role": "assistant", "content": "把验证码发给我"}, {"role": "user", "content": "482913"}]
    assert plan_for(code, offered).calls == [("grades__scores", {"code": "482913", "method": "sms"})]
    # A tool that is not offered is named, never called.
    assert "grades" in plan_for(q, set()).text and not plan_for(q, set()).calls


async def test_the_demo_model_streams_and_speaks_english() -> None:
    chunks: list[str] = []

    async def emit(event: object) -> None:
        chunks.append(event.text)  # type: ignore[attr-defined]

    done = await DemoModel(pause_s=0).complete([{"role": "user", "content": "hello"}], [], emit)
    assert done.content.startswith("[demo model] I am the offline demo model") and len(chunks) > 20
    assert "".join(chunks) == done.content and done.usage is None


def test_what_an_outsider_asked_goes_to_the_right_tool() -> None:
    """Questions a new student typed in the demo that went wrong: 30 元 became 50 (never guess an amount), "busy"
    matched "bus", 充100块 read the balance, and "把第一条记下来" after the notices got the help text."""
    offered = {"wallet__recharge", "wallet__cardBalance", "canteen__crowd", "shuttle__next", "memory__remember",
               "notices__latest"}  # fmt: skip
    asks = plan_for([{"role": "user", "content": "给校园卡充值 30 元"}], offered)
    assert not asks.calls and "只能充 10、50、100、200、500 或 800 元" in asks.text
    assert plan_for([{"role": "user", "content": "Are the canteens busy?"}], offered).calls == [("canteen__crowd", {})]
    assert plan_for([{"role": "user", "content": "帮我往饭卡里充100块"}], offered).calls == [
        ("wallet__recharge", {"amountYuan": 100})]  # fmt: skip
    read = [{"role": "user", "content": "最新通知"}, {"role": "assistant", "content": None, "tool_calls": [
        {"id": "n", "type": "function", "function": {"name": "notices__latest", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "n", "content": '[untrusted data from notices.latest: x]\n'
         '[{"title": "选课通知"}, {"title": "奖学金公示"}]'},
        {"role": "assistant", "content": "最新通知：…"}]  # fmt: skip
    then = plan_for([*read, {"role": "user", "content": "把第二条记下来"}], offered)
    assert then.calls == [("memory__remember", {"text": "通知：奖学金公示"})]
    # A message with no words (a code) is answered in the language of the one before, else the app's.
    assert plan_for([{"role": "user", "content": "hello"}, {"role": "user", "content": "123"}], set()).text.startswith(
        "[demo model]")  # fmt: skip
    assert plan_for([{"role": "user", "content": "123"}], set(), "zh").text.startswith("【演示模型】")


async def test_esc_while_a_card_waits_leaves_no_live_buttons(tmp_path: Path) -> None:
    """Found by an outsider: after Esc the card kept buttons that did nothing, its tool line said 运行中 for good,
    and the focus stayed on the card, so the next message typed went to the tabs' keys."""
    from textual.widgets import Button

    from tui.app.widgets.chat_input import ChatInput

    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "给校园卡充值 50 元")
        await until(pilot, lambda: card_ready(app), 10)
        await pilot.press("escape")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running, 10)
        await settle(pilot, app)
        card = app.query_one(ApprovalCard)
        assert not card.query(Button) and "已停止：没有运行" in card_text(card)
        assert "校园卡充值 · 已停止" in shown(app) and "运行中" not in shown(app)
        assert isinstance(app.focused, ChatInput)


async def test_enter_in_the_reason_box_denies_with_the_reason(tmp_path: Path) -> None:
    from textual.widgets import Input

    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "记住我住 45 楼")
        await until(pilot, lambda: card_ready(app), 10)
        app.query_one("#reason", Input).focus()
        await pilot.press(*"太私密", "enter")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and pane.last_answer, 10)
        assert "已拒绝：太私密" in shown(app) and "你没有同意" in pane.last_answer
        # The tool line says the student's reason, not what the model is told ("do not try this call again").
        assert "你拒绝了：太私密" in shown(app) and "不要再试" not in shown(app)


async def test_quitting_while_a_card_waits_runs_nothing_and_fails_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The app closed under a waiting card: the card's buttons were gone before the stop reached it, and the gate
    reported an internal error in wallet.recharge instead of a stopped call."""
    from tui.runtime.chat.history import ChatHistory

    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "给校园卡充值 50 元")
        await until(pilot, lambda: card_ready(app), 10)
        store = app.runtime.store
    [conversation] = ChatHistory(store).conversations()
    [reply] = [m for m in ChatHistory(store).messages(conversation.id) if m["role"] == "tool"]
    assert reply["_ui"]["status"] == "error" and "stopped before it finished" in reply["content"]
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text


def keys_line(app: Any) -> str:
    return str(app.query_one(ApprovalCard).query_one(".keys", Static).render())


async def test_the_card_says_what_enter_does_arrows_move_and_typing_is_kept(tmp_path: Path) -> None:
    """Found by an outsider: Enter on the top-up card denied it (the focused button was 拒绝, shown only by
    reversed text), and what they typed while the card waited vanished."""
    from tui.app.widgets.chat_input import ChatInput

    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "给校园卡充值 50 元")
        await until(pilot, lambda: card_ready(app), 10)
        await pilot.pause(0.2)  # not settle(): the turn's worker waits for the card
        assert keys_line(app).startswith("⏎ 拒绝")  # money: a reflexive Enter says no, and the card says so
        await pilot.press("left")
        assert app.focused is not None and app.focused.id == "always"
        assert keys_line(app).startswith("⏎ 总是允许")
        await pilot.press("left", "left")
        assert app.focused is not None and app.focused.id == "reason"  # around the end, to the reason box
        assert "理由告诉助手" in keys_line(app)
        await pilot.press("right")  # in the box ←/→ move its cursor, not the focus
        assert app.focused is not None and app.focused.id == "reason"
        app.query_one("#deny").focus()
        await pilot.press(*"先等等")
        box = app.query_one(ChatInput)
        assert app.focused is box and box.text == "先等等"
        card = app.query_one(ApprovalCard)
        assert not card.decided
        await pilot.press("enter")  # the card still waits: the text stays, and the app says why
        await pilot.pause(0.2)  # not settle(): the turn's worker waits for the card
        assert box.text == "先等等" and not card.decided
        assert any("先回答上面的卡片" in str(n.message) for n in app._notifications)
        await pilot.click("#once")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and pane.last_answer, 10)
        assert pane.last_answer.startswith("【演示模型】充值 50 元") and box.text == "先等等"


async def test_esc_on_a_card_at_80x24_shows_what_the_stop_did(tmp_path: Path) -> None:
    """Found by an outsider at 80×24: after Esc the card's 已停止 and the tool line were under the bottom edge."""
    from tui.app.widgets.chat_log import ChatLog

    app = chat_app(tmp_path, None)
    async with app.run_test(size=(80, 24)) as pilot:
        for question in ("二教今天有哪些空教室?", "校园卡余额多少"):
            await ask(pilot, app, question)
            pane = app.query_one(ChatPane)
            await until(pilot, lambda pane=pane: not pane.running and pane.last_answer, 10)
        await ask(pilot, app, "给校园卡充值 50 元")
        await until(pilot, lambda: card_ready(app), 10)
        await pilot.press("escape")
        await until(pilot, lambda: not pane.running, 10)
        await settle(pilot, app)
        log = app.query_one(ChatLog)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        stopped = [w for w in log.query(Static) if "已停止" in str(w.render())]
        assert stopped and all(w.region.height > 0 for w in stopped[-1:])


async def test_always_on_a_card_asked_for_third_party_text_says_it_will_still_ask(tmp_path: Path) -> None:
    """Found by an outsider: 总是允许 said the setting changed, and the next change asked again without a word
    why (a conversation holding third-party text asks before every change)."""
    app = chat_app(tmp_path, None)
    async with app.run_test(size=SIZE) as pilot:
        await ask(pilot, app, "看看最新通知，把第一条记下来")
        await until(pilot, lambda: card_ready(app), 10)
        await pilot.click("#always")
        pane = app.query_one(ChatPane)
        await until(pilot, lambda: not pane.running and pane.last_answer, 10)
        said = card_text(app.query_one(ApprovalCard))
        assert "已允许，并已在设置里" in said and "之后的修改仍会先问你" in said
