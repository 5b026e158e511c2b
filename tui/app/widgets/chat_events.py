"""How the chat pane shows a running turn: each event of the agent (streamed text and reasoning, tool lines,
waits, usage, the summary of left-out turns, a cut answer, errors with what to do). `ChatPane` (chat_pane.py)
is the pane; this is its half that draws what the agent says, kept apart from sending and the pane's keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Collapsible, Static

from tui.app.draft_state import draft_of_call
from tui.app.i18n import t
from tui.app.widgets.chat_conversations import ChatConversations
from tui.app.widgets.chat_input import WorkingLine
from tui.app.widgets.chat_log import ChatLog, PacedStream, StreamedText, tool_line
from tui.runtime.message import say_error
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain

if TYPE_CHECKING:
    from textual.widgets import Markdown

    from tui.runtime.chat.agent import AgentEvent, ToolView
    from tui.runtime.chat.client import ModelError


ERROR_ACTIONS = {
    "auth": "error_auth",
    "balance": "error_balance",
    "model": "error_model",
    "rate": "error_rate",
    "server": "error_server",
    "timeout": "error_timeout",
    "network": "error_network",
    "dropped": "error_dropped",
    "bad_request": "error_request",
}


class ChatEvents(ChatConversations):
    """The drawing half of the chat pane (module docstring)."""

    _answer: Markdown | None
    _stream: PacedStream | None
    _reasoning: StreamedText | None
    _wait: Static | None
    _lines: dict[str, Collapsible]
    _views: dict[str, ToolView]
    said_left_out: int

    @property
    def log_view(self) -> ChatLog:
        raise NotImplementedError

    def _stopped_line(self, call_id: str) -> None:
        """The line of a call the student stopped: 已停止 instead of 运行中 (not awaited: the app may be quitting)."""
        from dataclasses import replace

        old, view = self._lines.pop(call_id, None), self._views.pop(call_id, None)
        if old is None or view is None or old.parent is not self.log_view:
            return
        self.log_view.mount(tool_line(replace(view, status="stopped"), self.locale), after=old)
        old.remove()

    async def _end_answer(self) -> None:
        """The streamed answer block is complete: what is still pending is drawn, and new text starts a block."""
        stream, self._stream, self._answer = self._stream, None, None
        if stream is not None:
            await stream.stop()
            self.log_view.call_after_refresh(self.log_view.follow)  # the last piece may be what overflows

    async def show_event(self, event: AgentEvent) -> None:
        """Show one event of the running turn."""
        loc = self.locale
        if event.kind == "text":
            if self._stream is None:
                from textual.widgets import Markdown  # markdown-it costs ~30 ms: not on the start path

                self._answer = Markdown("", open_links=False, classes="answer")
                await self.add(self._answer)
                self._stream = PacedStream(self._answer)
            # Queued, never awaited per chunk: the stream joins what arrives while it draws (chat_log.py).
            await self._stream.write(clean(event.text))
            self.log_view.follow()
        elif event.kind == "reasoning":
            if self._reasoning is None:
                self._reasoning = StreamedText(classes="muted")
                await self.add(Collapsible(self._reasoning, title=t("reasoning", loc), collapsed=True))
            self._reasoning.write(event.text)
        elif event.kind == "wait":
            if self._wait is None:
                self._wait = Static("", markup=False, classes="wait")
                await self.add(self._wait)
            self._wait.update(plain(t("waiting", loc).format(seconds=round(event.seconds))) if event.seconds else "")
        elif event.kind == "tool_start" and event.call is not None:
            self._follow_draft(event.call, False)
            await self._end_answer()  # text after a tool call starts a new block
            line = tool_line(event.call, loc)
            self._lines[event.call.call_id] = line
            self._views[event.call.call_id] = event.call
            await self.add(line)
            self.query_one(WorkingLine).show(clean(event.call.title))
        elif event.kind == "tool_end" and event.call is not None:
            self.query_one(WorkingLine).show("")  # the model reads the result next
            old = self._lines.pop(event.call.call_id, None)
            self._views.pop(event.call.call_id, None)
            new = tool_line(event.call, loc)
            log = self.log_view
            if old is not None and old.parent is log:
                try:
                    await log.mount(new, after=old)
                finally:  # also when Esc lands between the two: never a 运行中 line beside its result
                    old.remove()
            else:
                await self.add(new)
            self._follow_draft(event.call, True)
        elif event.kind == "usage" and event.usage is not None:
            usage = event.usage
            said = "usage_estimated" if usage.estimated else "usage"
            text = t(said, loc).format(prompt=usage.prompt, completion=usage.completion, total=usage.total)
            shown = self.query(".usage").results(Static)
            last = next(iter(reversed(list(shown))), None)
            if last is not None and last is self.log_view.children[-1]:
                last.update(plain(text))
            else:  # the turn's one usage line stays under what the turn showed last
                if last is not None:
                    await last.remove()
                await self.add(Static(plain(text), markup=False, classes="usage"))
        elif event.kind == "context":
            # Said when more turns are left out than ever before in this chat: not once a turn.
            if event.turns > self.said_left_out:
                self.said_left_out = event.turns
                body = Static(plain(event.text), markup=False, classes="muted")
                title = plain(t("context_summary", loc).format(turns=event.turns))
                await self.add(Collapsible(body, title=title, collapsed=True, classes="context"))  # type: ignore[arg-type]
        elif event.kind == "cut":
            await self._end_answer()
            await self.add(Static(plain(t("answer_cut", loc).format(tokens=event.text)), markup=False, classes="wait"))
        elif event.kind == "error" and event.error is not None:
            await self._end_answer()
            await self.add(Static(plain(self.banner(event.error)), markup=False, classes="banner"))
        elif event.kind == "done":
            await self._end_answer()
            self.query(".usage").remove_class("usage")  # the next turn gets its own usage line

    def _follow_draft(self, call: ToolView, finished: bool) -> None:
        """A draft tool call: the draft panel shows its draft (from the call's start, so a write waiting for the
        student's yes already has the draft beside it), read again when the call finished; the 草稿 list too."""
        draft = draft_of_call(call)
        if draft is None:
            return
        self.show_draft(draft)
        if finished:
            self.shell.drafts_changed()

    def show_draft(self, draft_id: str | None) -> None:
        raise NotImplementedError

    def banner(self, error: ModelError) -> str:
        """The error and what to do about it."""
        action = t(ERROR_ACTIONS.get(error.kind, "error_request"), self.locale)
        if error.kind == "rate" and error.retry_after:
            action = action.format(seconds=round(error.retry_after))
        return clean(f"{action}\n{say_error(error, self.locale)}")[:1000]
