"""The approval card in the chat: what the assistant wants to run, and allow once / always / deny with a reason.

The card takes the focus when it comes; Enter answers with the focused button — deny for money and public
tools, allow once for the rest — and the line under the buttons says which (an outsider pressed Enter on a
top-up card to approve it and had it denied: reversed text was the only sign). ←/→ move between the answers.
Letters typed meanwhile are not lost on the buttons: they go to the message box below, where they wait.

Where the answers do not fit on one row (a phone's 40-odd columns) they stack, one under another, the width of
the card: each is seen and tapped, and the focus never moves to an answer off the screen.
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from tui.app.i18n import t, term
from tui.app.widgets.result_view import arguments_text
from tui.runtime.gate import Approval, ApprovalRequest
from tui.runtime.message import Message, say
from widgets_render.simple_widgets import plain


class ApprovalCard(Vertical):
    """Plugin, tool, effect, the exact arguments and why it asks; allow once / always / deny with a reason."""

    DEFAULT_CSS = """
    ApprovalCard { height: auto; border: round $warning; padding: 0 1; margin: 1 0; }
    ApprovalCard .args { background: $boost; }
    ApprovalCard Horizontal { height: auto; }
    ApprovalCard Button { margin-right: 1; }
    ApprovalCard Input { width: 1fr; }
    ApprovalCard .decided { color: $accent; text-style: bold; }
    ApprovalCard .keys { color: $text-muted; }
    ApprovalCard.-stacked .choices { layout: vertical; }
    ApprovalCard.-stacked Button { width: 100%; margin: 0; }
    ApprovalCard.-stacked Input { width: 100%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
    ]
    #: The answers in the order ←/→ walk them.
    ORDER = ("once", "always", "deny", "reason")
    #: The fewest cells the reason box needs beside the buttons for a few words to show.
    REASON_MIN = 16

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
        yield Static(plain(arguments_text(r.arguments)), markup=False, classes="args")
        colon = "：" if loc == "zh" else ": "
        yield Static(plain(f"{t('why_ask', loc)}{colon}{say(r.reason, loc)}"), markup=False)
        with Horizontal(classes="choices"):
            yield Button(t("allow_once", loc), id="once", variant="primary")
            yield Button(plain(t("allow_always", loc).format(effect=effect)), id="always")
            yield Button(t("deny", loc), id="deny", variant="error")
            yield Input(placeholder=t("deny_reason", loc), id="reason")
        yield Static("", markup=False, classes="keys")

    def row_width(self) -> int:
        """Cells the answers take on one row: each button as wide as its label (a button is at least 16 wide,
        with its border and padding), the margins, and room in the reason box."""
        buttons = list(self.query(".choices Button").results(Button))
        return sum(max(16, cell_len(str(b.label)) + 4) + 1 for b in buttons) + self.REASON_MIN

    def on_resize(self, event: events.Resize) -> None:
        """Stack the answers when the card is too narrow for them on one row."""
        stacked = self.content_region.width < self.row_width()
        if stacked != self.has_class("-stacked"):
            self.set_class(stacked, "-stacked")
            # The card grew (or shrank) after its answer was focused and scrolled to: the focused answer could
            # sit under the log's edge (80×24 in English, a race with the first layout). Show it again.
            self.call_after_refresh(self.show_focused)

    def show_focused(self) -> None:
        """Scroll the focused answer into sight (once the card has its size)."""
        focused = self.app.focused
        if focused is not None and self in focused.ancestors:
            focused.scroll_visible(animate=False)

    def focus_default(self) -> None:
        """Focus the answer a reflexive Enter should give: deny when the tool spends money or publishes,
        allow once for reads and writes (the card asks for those too, and Enter is then the quick yes)."""
        risky = self.request.tool.effect in ("money", "public")
        self.query_one("#deny" if risky else "#once", Button).focus()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The line under the buttons says what Enter answers now."""
        widget = event.widget
        if widget.id == "reason":
            said = t("card_keys_reason", self.locale)
        elif isinstance(widget, Button):
            said = t("card_keys", self.locale).format(choice=widget.label)
        else:
            return
        for line in self.query(".keys").results(Static):
            line.update(plain(said))

    def action_move(self, step: int) -> None:
        """←/→: the answer before or after the focused one."""
        focused = self.app.focused
        at = self.ORDER.index(focused.id) if focused is not None and focused.id in self.ORDER else 0
        target = self.ORDER[(at + step) % len(self.ORDER)]
        for widget in self.query(f"#{target}"):
            widget.focus()

    def on_key(self, event: events.Key) -> None:
        """A letter typed on the buttons goes to the message box (and the focus with it): nothing typed is lost
        while the card waits. Space and Enter stay the buttons'."""
        if self.decided or not event.is_printable or not event.character or event.character == " ":
            return
        if self.app.focused is None or self.app.focused.id == "reason":
            return
        from tui.app.widgets.chat_input import ChatInput

        for box in self.screen.query(ChatInput):
            event.stop()
            event.prevent_default()
            box.focus()
            box.insert(event.character)
            return

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
            reason = self.request.reason
            if isinstance(reason, Message) and reason.key == "why_tainted_by":  # asked again, and it says why
                decided += t("decided_always_tainted", loc)
        elif choice.allow:
            decided = t("decided_once", loc)
        else:
            colon = "：" if loc == "zh" else ": "
            decided = t("decided_deny", loc) + (f"{colon}{choice.reason}" if choice.reason.strip() else "")
        if not self.is_attached:  # the app is closing (q while the card waited): nothing to redraw
            return
        self.query(".choices, .keys").remove()
        self.mount(Static(plain(decided), markup=False, classes="decided"))
