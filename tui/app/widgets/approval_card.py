"""The approval card in the chat: what the assistant wants to run, and allow once / always / deny with a reason."""

from __future__ import annotations

import asyncio
import json

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from tui.app.i18n import t, term
from tui.runtime.gate import Approval, ApprovalRequest
from tui.runtime.message import say
from widgets_render.textual_render import plain


class ApprovalCard(Vertical):
    """Plugin, tool, effect, the exact arguments and why it asks; allow once / always / deny with a reason."""

    DEFAULT_CSS = """
    ApprovalCard { height: auto; border: round $warning; padding: 0 1; margin: 1 0; }
    ApprovalCard .args { background: $boost; }
    ApprovalCard Horizontal { height: auto; }
    ApprovalCard Button { margin-right: 1; }
    ApprovalCard Input { width: 1fr; }
    ApprovalCard .decided { color: $accent; text-style: bold; }
    """

    def __init__(self, request: ApprovalRequest, locale: str, plugin_name: str) -> None:
        super().__init__(classes="approval")
        self.request = request
        self.locale = locale
        self.plugin_name = plugin_name
        self.answer: asyncio.Future[Approval] = asyncio.get_running_loop().create_future()
        self.decided = False

    def compose(self) -> ComposeResult:
        r, loc = self.request, self.locale
        tool = r.tool
        effect = term(tool.effect, loc)  # the seed's words, as in the install review and 设置
        yield Static(t("approve_heading", loc), markup=False, classes="heading")
        yield Static(plain(f"{self.plugin_name} · {tool.title} ({tool.id}) · {effect}"), markup=False)
        yield Static(plain(json.dumps(r.arguments, ensure_ascii=False, indent=2)), markup=False, classes="args")
        colon = "：" if loc == "zh" else ": "
        yield Static(plain(f"{t('why_ask', loc)}{colon}{say(r.reason, loc)}"), markup=False)
        with Horizontal(classes="choices"):
            yield Button(t("allow_once", loc), id="once", variant="primary")
            yield Button(plain(t("allow_always", loc).format(effect=effect)), id="always")
            yield Button(t("deny", loc), id="deny", variant="error")
            yield Input(placeholder=t("deny_reason", loc), id="reason")

    def focus_default(self) -> None:
        """Focus the answer a reflexive Enter should give: deny when the tool spends money or publishes,
        allow once for reads and writes (the card asks for those too, and Enter is then the quick yes)."""
        risky = self.request.tool.effect in ("money", "public")
        self.query_one("#deny" if risky else "#once", Button).focus()

    @on(Input.Submitted, "#reason")
    def reason_given(self, event: Input.Submitted) -> None:
        """Enter in the reason box denies with that reason (it did nothing: the student had to go back to 拒绝)."""
        event.stop()
        self.decide(Approval(False, reason=event.value))

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if self.decided:
            return
        reason = self.query_one("#reason", Input).value
        choice = {
            "once": Approval(True),
            "always": Approval(True, always=True),
            "deny": Approval(False, reason=reason),
        }.get(event.button.id or "", Approval(False))
        self.decide(choice)

    def decide(self, choice: Approval, stopped: bool = False) -> None:
        """Record the answer; the card stays, with the buttons replaced by what was decided. `stopped`: the reply
        was stopped (Esc) while the card waited — the wait is gone already, and the card says it did not run
        (it kept live buttons that did nothing)."""
        if self.decided:
            return
        self.decided = True
        if not self.answer.done():
            self.answer.set_result(choice)
        loc = self.locale
        if stopped:
            decided = t("decided_stopped", loc)
        elif choice.allow and choice.always:
            effect = term(self.request.tool.effect, loc)  # the app's word, not `money`
            decided = t("decided_always", loc).format(plugin=self.plugin_name, effect=effect)
        elif choice.allow:
            decided = t("decided_once", loc)
        else:
            decided = t("decided_deny", loc) + (f"：{choice.reason}" if choice.reason.strip() else "")
        if not self.is_attached:  # the app is closing (q while the card waited): nothing to redraw
            return
        self.query(".choices").remove()
        self.mount(Static(plain(decided), markup=False, classes="decided"))
