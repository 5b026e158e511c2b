"""The 助手 tab's conversations: earlier ones found and opened again (Ctrl+O) and shown as they were, the one in
view deleted (Ctrl+D, asked first), exported as Markdown (Ctrl+S) or one of its messages copied (Ctrl+Y).
`ChatPane` (chat_pane.py) is the pane these act on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.containers import Vertical

from tui.app.dialogs.prompts import ChooseDialog
from tui.app.i18n import t
from tui.app.widgets.chat_log import ChatLog
from tui.runtime.chat.context_window import split_turns
from widgets_render.safe_text import clean

if TYPE_CHECKING:
    from tui.app.harness import HarnessApp
    from tui.runtime.chat.history import ChatHistory
    from tui.runtime.runtime import Runtime


class ChatConversations(Vertical):
    """The conversation actions of the chat pane; the pane itself (sending, streaming) is `ChatPane`'s."""

    shell: HarnessApp
    runtime: Runtime
    locale: str
    history: ChatHistory
    cid: str | None
    running: bool
    last_answer: str

    async def add(self, widget: Any) -> None:
        raise NotImplementedError

    async def action_new(self) -> None:
        raise NotImplementedError

    async def clear_log(self, intro: bool) -> None:
        raise NotImplementedError

    @work(group="chat-dialog", exclusive=True)
    async def action_open_conversation(self) -> None:
        """Find an earlier conversation (a search box over the list: conversation_search.py) and show it."""
        from tui.app.dialogs.conversation_search import ConversationSearch

        if not self.history.conversations():
            self.app.notify(t("no_history", self.locale), timeout=3)
            return
        cid = await self.app.push_screen_wait(ConversationSearch(self.history, self.locale))
        if cid is not None:
            await self.resume(cid)

    async def resume(self, cid: str) -> None:
        """Show a stored conversation (its latest turns; older ones behind 更早的消息) and continue it."""
        await self.clear_log(intro=False)
        self.cid = cid
        answer = await self.query_one("#chat-log", ChatLog).show(split_turns(self.history.messages(cid)))
        self.last_answer = answer or self.last_answer

    @work(group="chat-dialog", exclusive=True)
    async def action_delete_conversation(self) -> None:
        """Delete the conversation in view (asked first)."""
        from tui.app.dialogs.prompts import ConfirmDialog

        if self.cid is None or self.running:
            return
        if await self.app.push_screen_wait(ConfirmDialog(t("delete_question", self.locale), self.locale)):
            self.history.delete(self.cid)
            await self.action_new()

    @work(group="title", exit_on_error=False)
    async def name_conversation(self, cid: str) -> None:
        """The model names the conversation after its first answer (titles.py); Ctrl+O shows it then."""
        from tui.runtime.chat.demo_model import open_client
        from tui.runtime.chat.titles import retitle

        client = open_client(self.runtime.store, self.shell.demo, locale=self.locale)
        if client is not None:
            try:
                await retitle(self.history, client, cid)
            finally:
                await client.close()

    def action_export(self) -> None:
        """Write the conversation as Markdown beside the database (in the demo, whose data folder goes when the
        app quits, in the folder the app was started from) and say where. In a web page (`pku-harness serve`)
        the file goes to the browser as a download instead: the server's folder may be on another machine than
        the student's phone."""
        if self.cid is None:
            return
        from pathlib import Path

        if self.app.is_web:
            import io

            name = f"{self.cid}.md"
            text = self.history.export_markdown(self.cid, self.locale)
            self.app.deliver_text(io.StringIO(text), save_filename=name, mime_type="text/markdown", name="export")
            self.app.notify(clean(t("exported_download", self.locale).format(name=name)), timeout=6, markup=False)
            return
        stored = self.runtime.store.path
        folder = Path.cwd() if self.shell.throwaway or stored == ":memory:" else Path(stored).parent
        path = folder / f"{self.cid}.md"
        try:
            path.write_text(self.history.export_markdown(self.cid, self.locale), encoding="utf-8")
        except OSError as e:  # a read-only folder, a full disk: said, the app goes on
            self.app.notify(clean(f"{path}: {e.strerror or e}"), severity="error", timeout=10, markup=False)
            return
        self.app.notify(clean(t("exported", self.locale).format(path=path)), timeout=6, markup=False)

    @work(group="chat-dialog", exclusive=True)
    async def action_copy_answer(self) -> None:
        """Copy a message of this conversation (newest first) to the clipboard."""
        if self.cid is None:
            return
        texts = [str(m["content"]) for m in reversed(self.history.messages(self.cid))
                 if m.get("role") in ("user", "assistant") and m.get("content")]  # fmt: skip
        if not texts:
            return
        labels = [f"{i + 1}. {clean(' '.join(x.split()))[:70]}" for i, x in enumerate(texts[:30])]
        choice = await self.app.push_screen_wait(ChooseDialog(t("copy_which", self.locale), labels))
        if choice is not None:
            self.app.copy_to_clipboard(texts[labels.index(choice)])
            self.app.notify(t("copied", self.locale), timeout=2)
