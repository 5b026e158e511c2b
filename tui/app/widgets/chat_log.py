"""The 助手 tab's log: only the latest turns are live widgets, the rest a button away; answers stream by frame.

A Markdown answer is many widgets (a paragraph, each list item, a table…), and Textual lays out every child of
a scroll container on each change: over 220 turns a chat held 1,214 widgets, a turn took 3.6× as long and the
process grew 679 KB a turn. So the log keeps the last `KEEP_TURNS` turns (a turn starts at the student's
message) and, when the student is following the bottom, drops older ones after each turn; the conversation
itself is in the store, and 更早的消息 at the top brings back `PAGE_TURNS` of them at a time.

Streaming: `Markdown.append` re-parses and re-mounts the tail per call and took ~40 ms a chunk, which capped a
stream (the agent awaits each event inside the read loop) at about 20 chunks a second. Text now goes through
`PacedStream`, which joins whatever arrived while the last append ran and appends at most once a frame
(Textual's own `MarkdownStream` appends again as soon as one append ends: each append lays the screen out
again, and that work starved the read loop — 484–698 chunks/s against 1,150–1,400 paced, bench_chat.py). The
reasoning block joins its chunks the same way (`StreamedText`, one repaint per frame).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from textual.widgets import Button, Collapsible, Static

from tui.app.i18n import t
from tui.app.navigation import ScrollStop
from tui.app.widgets.draft_write_line import draft_write_line, is_draft_write
from tui.runtime.message import Message, say
from widgets_render.js_text import json_text
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import plain

if TYPE_CHECKING:
    from textual.widget import Widget
    from textual.widgets import Markdown

    from tui.runtime.chat.agent import ToolView

#: Turns kept as live widgets (a turn: the student's message, the answer, its tool lines).
KEEP_TURNS = 20
#: Turns brought back per press of 更早的消息.
PAGE_TURNS = 10
#: How often streamed reasoning repaints (seconds).
FRAME_S = 1 / 30
#: The longest a stream read from a full buffer keeps the loop from the screen (seconds). Yielding per chunk
#: made 25 appends of 2,000 chunks (1,158 chunks/s); every 5 ms, 14 (1,376/s); once a frame, 3 — an answer that
#: seemed to arrive all at once.
YIELD_S = 1 / 200


def stored_widgets(messages: list[dict[str, Any]], locale: str) -> list[Widget]:
    """The widgets that show stored messages as the live chat showed them (the student's words, the answers,
    one line per tool call with its result)."""
    from textual.widgets import Markdown

    from tui.runtime.chat.agent import ToolView
    from tui.runtime.chat.context import tool_message

    out: list[Widget] = []
    for m in messages:
        role, raw = m.get("role"), m.get("_ui")
        ui: dict[str, Any] = raw if isinstance(raw, dict) else {}
        if role == "user":
            out.append(Static(plain(str(m.get("content") or "")), markup=False, classes="user"))
        elif role == "assistant" and m.get("content"):
            out.append(Markdown(clean(str(m["content"])), open_links=False, classes="answer"))
        elif role == "assistant" and ui.get("summary"):
            out.append(Static(plain(str(ui["summary"])), markup=False, classes="muted"))
        elif role == "tool":
            view = ToolView(str(m.get("tool_call_id")), "", str(ui.get("tool", "")), str(ui.get("title", "")),
                            "read", None, "", str(ui.get("status", "ok")), ui.get("result"),
                            tool_message(ui), int(ui.get("ms", 0)))  # fmt: skip
            out.append(tool_line(view, locale))
    return out


def tool_line(view: ToolView, locale: str) -> Collapsible:
    """One tool call: title, status and time; expands to arguments and result (failures start expanded). A
    draftWrite call says the file and the change, and expands to its diff (draft_write_line.py)."""
    if is_draft_write(view):
        return draft_write_line(view, locale, say(_for_student(view.message), locale) if view.message else "")
    status = t(f"status_{view.status}", locale)
    title = (
        f"{view.title} · {status}"
        if view.status in ("running", "stopped")
        else f"{view.title} · {status} · {view.duration_ms} ms"
    )
    args = view.arguments if view.arguments is not None else (view.arguments_text or {})
    body = [Static(plain(f"{t('arguments', locale)}: {json_text(args)}"), markup=False)]
    if view.result is not None:
        shown = json_text(view.result, indent=2)
        body.append(Static(plain(shown), markup=False, classes="result"))
    if view.message:
        body.append(Static(plain(say(_for_student(view.message), locale)), markup=False, classes="tone-bad"))
    failed = view.status in ("error", "refused", "declined")
    return Collapsible(*body, title=plain(title), collapsed=not failed, classes=f"tool tool-{view.status}")  # type: ignore[arg-type]


def _for_student(message: Any) -> Any:
    """What the student reads of the gate's words to the model: a denial with the student's reason, without
    what the model is told ("do not try this call again") or why the card asked (the card showed both)."""
    if isinstance(message, Message) and message.key == "not_run":
        why = message.args.get("why")
        if isinstance(why, Message) and why.key == "not_run_because":
            return Message("declined_because", reason=why.args.get("reason", ""))
        return why if why is not None else message
    return message


class StreamedText(Static):
    """Plain text that grows by chunks and repaints at most once a frame (reasoning, which can be long)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self.parts: list[str] = []
        self._due = False

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def write(self, chunk: str) -> None:
        """Add a chunk; the repaint waits for the frame."""
        self.parts.append(chunk)
        if not self._due:
            self._due = True
            self.set_timer(FRAME_S, self._paint)

    def _paint(self) -> None:
        self._due = False
        if len(self.parts) > 1:  # joined once, so a long text is not re-joined from its pieces every frame
            self.parts = [self.text]
        self.update(plain(self.text))


def _release_rendered() -> None:
    """Let removed widgets' rendered lines go. Textual 8.2.8 memoises `StylesCache.get_inner_outer` with
    `functools.lru_cache(1024)` on the method, so its keys hold each widget's `StylesCache` (and the lines in
    it) until 1,024 newer ones push them out: ~6 a turn, ~75 KB a turn of a long chat (bench_chat.py). Clearing
    the memo costs two `Style`s per colour pair on the next frame."""
    from textual._styles_cache import StylesCache

    clear = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if clear is not None:  # another Textual may not memoise it
        clear()


class PacedStream:
    """Streams Markdown into a widget: chunks are queued, never awaited one by one; what arrived meanwhile is
    appended at once, at most once a `FRAME_S` (module docstring)."""

    def __init__(self, markdown: Markdown) -> None:
        self.markdown = markdown
        self._pending: list[str] = []
        self._new = asyncio.Event()
        self._stopping = asyncio.Event()
        self._yielded = time.monotonic()
        self._task = asyncio.create_task(self._run())

    async def write(self, fragment: str) -> None:
        """Queue a fragment (drawn with the next append). Yields to the loop every `YIELD_S`: a stream read from a
        full buffer never waits on its own, and the screen (and this stream's appends) would wait for its end."""
        if fragment:
            self._pending.append(fragment)
            self._new.set()
        now = time.monotonic()
        if now - self._yielded >= YIELD_S:
            self._yielded = now
            await asyncio.sleep(0)

    async def stop(self) -> None:
        """Draw what is still queued and end the stream (the append under way finishes first: never two at
        once, never half a document)."""
        self._stopping.set()
        self._new.set()
        await self._task

    def cancel(self) -> None:
        """End the stream where it is (the turn was stopped): what was drawn stays, the queue is dropped."""
        self._task.cancel()

    async def _run(self) -> None:
        while not self._stopping.is_set():
            await self._new.wait()
            await self._append()
            with contextlib.suppress(TimeoutError):  # the frame's pause, cut short by stop()
                await asyncio.wait_for(self._stopping.wait(), FRAME_S)
        await self._append()

    async def _append(self) -> None:
        text = "".join(self._pending)
        self._pending.clear()
        self._new.clear()
        if text:
            await self.markdown.append(text)


class ChatLog(ScrollStop):
    """The scrolling log of one conversation; stays at the bottom while the student is there."""

    def __init__(self, locale: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.locale = locale
        self.hidden = 0
        """Turns of this conversation not shown (the oldest ones): 更早的消息 brings them back."""

    def follow(self) -> None:
        """Stay at the bottom as text arrives, until the student scrolls up (back at the bottom, it follows
        again). Only once the log overflows: Textual anchors a shorter log to the bottom of the pane, leaving
        the first question under an empty screen."""
        if not self.is_anchored and self.max_scroll_y > 0:
            self.anchor()

    def following(self) -> bool:
        """The student is at the bottom (not reading something further up)."""
        return self.max_scroll_y <= 0 or self.scroll_y >= self.max_scroll_y - 1

    def turn_starts(self) -> list[Widget]:
        return [w for w in self.children if w.has_class("user")]

    async def trim(self, keep: int | None = None) -> None:
        """Drop the oldest turns beyond `keep` (only while the student follows the bottom: what they read stays)."""
        keep = KEEP_TURNS if keep is None else keep
        starts = self.turn_starts()
        if len(starts) <= keep or not self.following():
            return
        first_kept = starts[len(starts) - keep]
        gone = []
        for w in self.children:
            if w is first_kept:
                break
            if w.id != "chat-earlier":
                gone.append(w)
        self.hidden += len(starts) - keep
        await self.remove_children(gone)
        _release_rendered()
        await self.show_earlier()

    async def show_earlier(self) -> None:
        """The 更早的消息 button at the top while turns are hidden (and gone when none are)."""
        button = self.query("#chat-earlier")
        if not self.hidden:
            await button.remove()
            return
        label = plain(t("chat_earlier", self.locale).format(turns=self.hidden))
        if button:
            button.first(Button).label = label
        else:
            first = self.children[0] if self.children else None
            new = Button(label, id="chat-earlier", classes="earlier", compact=True)
            await self.mount(new, before=first) if first is not None else await self.mount(new)

    async def show(self, turns: list[list[dict[str, Any]]], keep: int | None = None) -> str:
        """Show a stored conversation: its last `keep` turns, the others behind 更早的消息. Returns the last
        answer's text (Ctrl+Y copies it)."""
        keep = KEEP_TURNS if keep is None else keep
        self.hidden = max(0, len(turns) - keep)
        messages = [m for turn in turns[self.hidden :] for m in turn]
        widgets = stored_widgets(messages, self.locale)
        if widgets:
            await self.mount_all(widgets)  # one layout for the lot
        await self.show_earlier()
        self.scroll_end(animate=False)
        answers = [m for m in messages if m.get("role") == "assistant" and m.get("content")]
        return str(answers[-1]["content"]) if answers else ""

    async def bring_back(self, turns: list[list[dict[str, Any]]]) -> None:
        """更早的消息: the `PAGE_TURNS` turns before those shown, above them."""
        start = max(0, self.hidden - PAGE_TURNS)
        messages = [m for turn in turns[start : self.hidden] for m in turn]
        self.hidden = start
        widgets = stored_widgets(messages, self.locale)
        button = self.query("#chat-earlier")
        after = button.first() if button else None
        if widgets:
            if after is not None:
                await self.mount_all(widgets, after=after)
            elif self.children:
                await self.mount_all(widgets, before=self.children[0])
            else:
                await self.mount_all(widgets)
        await self.show_earlier()
