"""The 助手 tab: the assistant chat over the headless agent loop.

Streamed text is rendered as Markdown as it arrives; reasoning goes into a collapsed block; each tool call is
one line (title, status, time) that expands to its arguments and full result, failures expanded; an approval
card (`approval_card.py`) stays in the log showing exactly what is approved and what was decided; errors become a
banner saying what to do. Without a model the pane says how to set one up and still offers every tool through its
form. Every text from the model, a plugin or a server is cleaned of terminal control codes and shown without markup.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal
from textual.widgets import Button, Collapsible, Static

from tui.app.dialogs.prompts import ChooseDialog
from tui.app.draft_state import draft_in
from tui.app.i18n import t
from tui.app.widgets.approval_card import ApprovalCard
from tui.app.widgets.chat_events import ChatEvents
from tui.app.widgets.chat_input import ChatInput, WorkingLine
from tui.app.widgets.chat_log import ChatLog, PacedStream, StreamedText
from tui.app.widgets.draft_panel import WIDE, DraftPanel
from tui.app.widgets.quick_command_list import QuickCommandList
from tui.runtime.chat.context_window import split_turns
from tui.runtime.gate import Approval, ApprovalRequest
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain

if TYPE_CHECKING:
    from textual.widgets import Markdown

    from tui.app.harness import HarnessApp
    from tui.runtime.chat.agent import ToolView


class ChatApprover:
    """The gate's approver while the app runs: a card in the chat, a bell (attention.py), the student's answer."""

    def __init__(self, pane: ChatPane) -> None:
        self.pane = pane

    async def approve(self, request: ApprovalRequest) -> Approval:
        plugin = self.pane.runtime.registry.plugin_name(request.tool.plugin_id)
        card = ApprovalCard(request, self.pane.locale, plugin)
        working = self.pane.query_one(WorkingLine)
        working.hide()  # the student is asked: the assistant waits, it does not work
        # before the card: whoever sees the card has been told (a bell; from another window, the title too)
        self.pane.shell.attention.waiting("approval", f"{plugin} · {request.tool.title}")
        await self.pane.add(card)
        card.focus_default()
        # the focus scrolled to the answer before the card had its size (and let go of the log's bottom): once
        # laid out, the answer is shown again (a stacked card at 80×24 left it under the log's edge)
        card.call_after_refresh(lambda: card.call_after_refresh(card.show_focused))
        try:
            answer = await card.answer
        except asyncio.CancelledError:
            # The focus leaves the card's buttons before they go: a removed focused button made Textual focus
            # and scroll to another widget, which unanchored the log above what the stop said (80×24).
            for box in self.pane.query(ChatInput):  # none when the app is closing
                box.focus()  # typing goes to the box, not to the tabs' keys
            card.decide(Approval(False), stopped=True)  # Esc stopped the reply: what was asked is not run
            raise
        working.show(working.doing)
        # The card is decided: back to writing, and the log follows what comes next again. A tall card (a whole
        # draft file) had the log scrolled to its buttons, which let go of the bottom, and the answer then
        # arrived out of sight (80×24, an outsider); the scroll a focus change asks for comes after a refresh,
        # so the log is anchored once that is done.
        self.pane.query_one(ChatInput).focus(scroll_visible=False)
        log = self.pane.log_view
        log.call_after_refresh(lambda: log.call_after_refresh(log.anchor))
        return answer


#: Below this width (a phone's) the send button is only as wide as its word: at 16 it took 40% of the row.
NARROW_BELOW = 60


class ChatPane(ChatEvents):
    """The chat: log, input, and the conversation's controls."""

    DEFAULT_CSS = """
    ChatPane { height: 1fr; }
    ChatPane #chat-main { height: 1fr; }
    ChatPane.-side #chat-main { layout: horizontal; }
    ChatPane #chat-log { height: 1fr; padding: 0 1; }
    ChatPane.-side #draft-panel { width: 45%; max-width: 72; height: 1fr; max-height: 100%; border-top: none;
        border-left: solid $primary 50%; }
    ChatPane.-side #draft-body { height: 1fr; max-height: 100%; }
    ChatPane .user { background: $boost; padding: 0 1; margin-top: 1; }
    ChatPane .answer { margin: 0; padding: 0; }
    ChatPane .banner { background: $error 25%; padding: 0 1; margin-top: 1; }
    ChatPane .wait { color: $warning; }
    ChatPane .usage, ChatPane .muted { color: $text-muted; }
    ChatPane .setup { padding: 1 1; }
    ChatPane #chat-bar { height: auto; }
    ChatPane #chat-input { width: 1fr; }
    ChatPane.-narrow #send { min-width: 8; }
    ChatPane Collapsible { padding: 0; margin: 0; border: none; }
    ChatPane Collapsible .result { background: $boost; max-height: 20; }
    """
    # Enter (send), Shift+Enter / Ctrl+J (new line) and ↑ (edit the last message) are the box's own (ChatInput),
    # which leaves Ctrl+D and Ctrl+Y to these. Export is Ctrl+S: the box keeps Ctrl+E (end of line).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "key_stop"),
        Binding("ctrl+n", "new", "key_new"),
        Binding("ctrl+o", "open_conversation", "history"),
        Binding("ctrl+r", "retry", "key_retry"),
        Binding("ctrl+s", "export", "key_export", show=False),
        Binding("ctrl+y", "copy_answer", "key_copy", show=False),
        Binding("ctrl+t", "run_tool", "run_tool"),
        Binding("ctrl+d", "delete_conversation", "key_delete", show=False),
        Binding("pageup", "page_log(-1)", show=False),
        Binding("pagedown", "page_log(1)", show=False),
    ]

    def __init__(self, app: HarnessApp) -> None:
        super().__init__(id="chat")
        self.shell = app
        self.runtime = app.runtime
        self.locale = app.locale
        from tui.runtime.chat.history import ChatHistory

        self.history = ChatHistory(self.runtime.store)
        self.running = False
        self.last_answer = ""
        self.last_wrote = False
        self._answer: Markdown | None = None
        self._stream: PacedStream | None = None
        self._reasoning: StreamedText | None = None
        self._wait: Static | None = None
        self._lines: dict[str, Collapsible] = {}
        self._views: dict[str, ToolView] = {}
        """The running calls' lines and what they show (a stopped turn marks them 已停止)."""
        self._log = ChatLog(self.locale, id="chat-log")
        self.commands = QuickCommandList(self.runtime.registry, self.locale, id="chat-commands")
        """The quick commands offered under `/` (quick_command_list.py)."""
        self.said_left_out = 0
        """Earlier turns the model gets only a summary of, as last said in the log."""
        self.editing: int | None = None
        """The row of the user message being edited: sending replaces it and everything after it."""

    @property
    def cid(self) -> str | None:
        """The conversation in view. Kept by the shell: a pane rebuilt (another language, a plugin installed)
        shows it again instead of an empty chat."""
        return self.shell.chat_cid

    @cid.setter
    def cid(self, value: str | None) -> None:
        self.shell.chat_cid = value

    async def on_mount(self) -> None:
        draft = self.shell.chat_draft  # a rebuilt pane shows the draft shown before (also one chosen in 插件)
        if self.cid is not None:
            if self.history.find(self.cid) is None:  # deleted meanwhile (a CLI run)
                self.cid = None
            else:
                await self.resume(self.cid)
        self.show_draft(draft)

    async def resume(self, cid: str) -> None:
        """Show a stored conversation, and the draft it worked on last (none: the panel goes)."""
        await super().resume(cid)
        self.show_draft(draft_in(self.history.messages(cid)))

    def show_draft(self, draft_id: str | None) -> None:
        """The draft panel shows `draft_id` (read anew), or goes (None)."""
        self.shell.chat_draft = draft_id
        if draft_id is None:
            if self.draft_panel.draft_id is not None:
                self.draft_panel.hide()
        else:
            self.draft_panel.show(draft_id)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < NARROW_BELOW, "-narrow")  # a phone's width: a compact 发送
        self.draft_panel.set_wide(self.size.width >= WIDE)
        self.place_draft_panel()

    def place_draft_panel(self) -> None:
        """The open draft panel is a column beside the log at wide terminals, else a block above the input."""
        panel = self.draft_panel
        side = panel.has_class("-shown") and panel.open and self.size.width >= WIDE
        self.set_class(side, "-side")
        if side:
            for box in panel.query("#draft-body"):
                box.styles.max_height = None  # the column's own rule (its whole height)
        else:
            # Above the input the panel takes at most 70% of the chat's height: its body scrolls within what is
            # left under its line (a fixed 14 rows overflowed at 80×24, and its check and preview could not be
            # reached).
            main = self.query("#chat-main")
            if main:
                body = max(3, int(main.first().size.height * 0.7) - 2)  # its line and its top border
                for box in panel.query("#draft-body"):
                    box.styles.max_height = body

    def compose(self) -> ComposeResult:
        self._log = ChatLog(self.locale, id="chat-log")  # kept: looked up per streamed chunk otherwise
        self.draft_panel = DraftPanel(self.shell, self.place_draft_panel)
        with Container(id="chat-main"):
            with self._log:
                yield from self._intro()
            yield self.draft_panel
        yield WorkingLine(self.locale, id="chat-working")
        box = ChatInput(t("chat_placeholder", self.locale), id="chat-input")
        # linked here, not on mount: a shell rebuilt in a burst of keys unmounted the pane before its mount ran
        box.commands = self.commands
        yield self.commands
        with Horizontal(id="chat-bar"):
            yield box
            yield Button(t("send", self.locale), id="send", variant="primary")

    def _intro(self) -> list[Any]:
        """What an empty chat says: how to set up a model, or in the demo what its offline model answers."""
        config = self.config()
        if config is None:
            return [Static(t("no_model", self.locale), markup=False, classes="setup", id="setup"),
                    Button(t("run_tool", self.locale), id="run-tool")]  # fmt: skip
        if config.provider == "demo":
            return [Static(t("demo_model_hint", self.locale), markup=False, classes="setup muted", id="setup")]
        return []

    @on(ChatInput.Changed, "#chat-input")
    def follow_commands(self, event: ChatInput.Changed) -> None:
        """Typing `/` lists the plugins' quick commands (quick_command_list.py)."""
        self.commands.follow(event.text_area.text)

    @on(QuickCommandList.Chosen)
    def command_chosen(self, event: QuickCommandList.Chosen) -> None:
        """A quick command from the `/` list: its `/…` leaves the box, then the app carries it out (a prompt is
        sent from this box, as if typed)."""
        box = self.query_one("#chat-input", ChatInput)
        box.clear()
        self.commands.close()
        self.shell.run_command(event.command)

    def config(self) -> Any:
        """The model that answers: the configured one, else in demo mode the offline demo model, else None."""
        from tui.runtime.chat.demo_model import DEMO_CONFIG
        from tui.runtime.chat.providers import load_config

        config = load_config(self.runtime.store)
        return config if config is not None else (DEMO_CONFIG if self.shell.demo else None)

    @property
    def log_view(self) -> ChatLog:
        return self._log

    async def add(self, widget: Any) -> None:
        log = self.log_view
        await log.mount(widget)
        log.follow()
        if widget.has_class("user"):
            log.scroll_end(animate=False)  # the student sent it: the log follows again (the anchor does the rest)

    @on(Button.Pressed, "#chat-earlier")
    async def earlier(self, event: Button.Pressed) -> None:
        """更早的消息: the turns before those shown, from the store."""
        event.stop()
        if self.cid is not None:
            await self.log_view.bring_back(split_turns(self.history.messages(self.cid)))

    # -- sending ---------------------------------------------------------------------------------------------

    @on(ChatInput.Submitted, "#chat-input")
    @on(Button.Pressed, "#send")
    def submit(self) -> None:
        box = self.query_one("#chat-input", ChatInput)
        text = box.text.strip()
        if not text:
            return
        if self.running:  # said, not silently ignored: the text waits in the box
            waiting = any(not c.decided for c in self.query(ApprovalCard).results(ApprovalCard))
            said = t("busy_card_kept", self.locale) if waiting else t("busy_kept", self.locale)
            self.app.notify(said, severity="warning", timeout=6, markup=False)
            return
        if self.config() is None:  # nothing could answer: the message stays in the box, not lost
            self.app.notify(t("no_model_kept", self.locale), severity="warning", timeout=8, markup=False)
            return
        box.clear()
        if self.editing is not None and self.cid is not None:
            self.history.truncate_from(self.cid, self.editing)
            self.editing = None
            self.reload_after_edit(text)
            return
        self.send(text)

    @work(group="chat", exclusive=True, exit_on_error=False)
    async def reload_after_edit(self, text: str) -> None:
        """Show the conversation as it is now (the edited message and what followed it are gone), then send."""
        assert self.cid is not None
        await self.resume(self.cid)
        await self.add(Static(plain(text), markup=False, classes="user"))
        await self._turn(lambda agent: agent.send(self.cid, text))

    @on(ChatInput.EditLast, "#chat-input")
    def action_edit_last(self) -> None:
        """Up in an empty box: bring back the last message to edit and send again."""
        box = self.query_one("#chat-input", ChatInput)
        if box.text or self.running or self.cid is None:
            return
        last = next((m for m in reversed(self.history.messages(self.cid)) if m.get("role") == "user"), None)
        if last is not None:
            box.load_text(clean(str(last.get("content") or "")))
            box.move_cursor(box.document.end)
            self.editing = int(last["_id"])
            self.app.notify(t("editing", self.locale), timeout=3)

    @on(Button.Pressed, "#run-tool")
    def run_tool_pressed(self) -> None:
        self.action_run_tool()

    @work(group="chat", exclusive=True, exit_on_error=False)
    async def send(self, text: str) -> None:
        """One user turn, streamed into the log."""
        config = self.config()
        if config is None:
            await self.add(Static(t("no_model", self.locale), markup=False, classes="banner"))
            return
        first = self.cid is None
        if self.cid is None:
            self.cid = self.history.start(text)
        await self.add(Static(plain(text), markup=False, classes="user"))
        await self._turn(lambda agent: agent.send(self.cid, text))
        if first:
            self.name_conversation(self.cid)

    async def _turn(self, start: Any) -> None:
        from tui.runtime.chat.agent import Agent
        from tui.runtime.chat.demo_model import open_client

        client = open_client(self.runtime.store, self.shell.demo, locale=self.locale)
        if client is None:  # the model was removed meanwhile (the pane said there was one)
            await self.add(Static(t("no_model", self.locale), markup=False, classes="banner"))
            return
        agent = Agent(self.runtime, client, self.history, self.show_event)
        agent.now = self.shell.now
        self.runtime.gate.approver = ChatApprover(self)
        self.running = True
        self.refresh_bindings()  # Esc now stops something
        working = self.query_one(WorkingLine)
        working.begin()
        self._answer = self._reasoning = self._wait = None
        started = time.monotonic()
        plugins = dict(self.runtime.registry.plugins)  # what was loaded: an install or an update replaces it
        try:
            result = await start(agent)
            self.last_answer = result.answer or self.last_answer
            self.last_wrote = result.wrote
            self.shell.attention.answered(time.monotonic() - started)  # a long one, to a student gone elsewhere
        except asyncio.CancelledError:
            # Not awaited: when the app is quitting, waiting for a mount would wait for a loop that has stopped.
            # What the stop did is shown, not left under the bottom edge (at 80×24 the log was scrolled to the
            # card's buttons, above it): the student just stopped this turn, its end is what they look for.
            log = self.log_view
            log.call_after_refresh(log.anchor)
            for call_id in list(self._lines):  # a tool line still running says it was stopped
                self._stopped_line(call_id)
            self.log_view.mount(Static(t("stopped", self.locale), markup=False, classes="muted"))
            if self._stream is not None:
                self._stream.cancel()  # what arrived stays drawn; nothing more is awaited while stopping
            self._stream = self._answer = None
            raise
        finally:
            self.running = False
            working.end()
            self.refresh_bindings()
            await client.close()
        await self._end_answer()
        await self.log_view.trim()
        now = self.runtime.registry.plugins
        if now.keys() != plugins.keys() or any(now[k] is not v for k, v in plugins.items()):
            # A plugin was installed or updated in this turn (draftInstall, install): the dashboard, the tables and the
            # palette show it once the shell is built again — on the app, not this pane, which the rebuild replaces.
            self.app.run_worker(self.shell.rebuild(None), group="rebuild")

    # -- controls --------------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Esc stops a reply, or leaves the text box (then 1–4 switch tabs); dimmed when it would do neither."""
        if action == "cancel":
            return True if self.running or isinstance(self.app.focused, ChatInput) else None
        return True

    def action_page_log(self, step: int) -> None:
        """PageUp/PageDown from the message box (or anywhere in the pane): a page of the chat."""
        log = self.log_view
        log.scroll_page_up(animate=False) if step < 0 else log.scroll_page_down(animate=False)

    def action_cancel(self) -> None:
        """Esc stops a running reply (what was asked is answered no); otherwise it leaves the text box for the
        tab bar, so that 1–4 switch tabs again (in the box they type)."""
        if self.running:
            self.workers.cancel_group(self, "chat")
        elif isinstance(self.app.focused, ChatInput):
            self.screen.set_focus(self.screen.query("ContentTabs").first())

    async def action_new(self) -> None:
        """Ctrl+N: an empty chat, saying what an empty chat says (the demo's hint included), no draft beside it."""
        await self.clear_log(intro=True)
        self.show_draft(None)

    async def clear_log(self, intro: bool) -> None:
        self.cid = None
        self.last_answer = ""
        log = self.log_view
        log.hidden = 0
        self.said_left_out = 0
        log.anchor(False)
        await log.remove_children()
        widgets = self._intro() if intro else []
        if widgets:
            await log.mount_all(widgets)

    def action_retry(self) -> None:
        """Run the last turn again (asking first when a change was already made in it)."""
        if self.running or self.cid is None:
            return
        self.retry()

    @work(group="chat", exclusive=True, exit_on_error=False)
    async def retry(self) -> None:
        from tui.app.dialogs.prompts import ConfirmDialog

        assert self.cid is not None
        messages = self.history.messages(self.cid)
        last_user = next((m for m in reversed(messages) if m.get("role") == "user"), None)
        if last_user is None:
            return
        if self.last_wrote and not await self.app.push_screen_wait(
            ConfirmDialog(t("retry_after_write", self.locale), self.locale)
        ):
            return
        after = [m for m in messages if m["_id"] > last_user["_id"]]
        if after:
            self.history.truncate_from(self.cid, after[0]["_id"])
        await self.add(Static(t("retrying", self.locale), markup=False, classes="muted"))
        await self._turn(lambda agent: agent.run_turn(self.cid))

    @work(group="chat-dialog", exclusive=True)
    async def action_run_tool(self) -> None:
        """Without a model (or any time): pick a plugin tool and run it from its form, as the student."""
        from tui.app.screens.tool_form import ToolFormScreen

        tools = [tl for tl in self.runtime.registry.tools() if tl.plugin_id in self.runtime.registry.plugins]
        labels = [clean(f"{self.runtime.registry.plugin_name(tl.plugin_id)} · {tl.title} ({tl.id})") for tl in tools]
        choice = await self.app.push_screen_wait(ChooseDialog(t("run_tool", self.locale), labels))
        if choice is not None:
            tool = tools[labels.index(choice)]
            await self.app.push_screen(ToolFormScreen(self.runtime, tool, self.locale, self.shell.now))
