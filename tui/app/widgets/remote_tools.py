"""Remote plugins in the app: the review of a server's tools with an effect picked for each, and the table of
remote servers with their connection state (插件 and 设置).

A server's descriptions are a third party's words: shown plain (cleaned of control codes, no markup), never as
instructions. Each tool's picker starts at the effect the runtime preselects (a new tool `public`, a changed one the
student's earlier choice: a server's hint may only ever suggest a stronger one); the student lowers it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Static

from tui.app.dialogs.base import Dialog
from tui.app.i18n import t
from tui.app.keys import LocalBindings
from tui.app.navigation import ScrollStop
from tui.app.widgets.tables import Table
from tui.app.words import colon
from tui.lang.documents.common import Effect
from tui.runtime.permissions import EFFECTS
from tui.runtime.plugins import RemoteReview
from widgets_render.safe_text import clean
from widgets_render.simple_widgets import literal, plain
from widgets_render.steady_select import SteadySelect

if TYPE_CHECKING:
    from tui.runtime.runtime import Runtime

#: The picker's order: the strictest first (the preselected one is at the top).
PICK_ORDER: tuple[Effect, ...] = tuple(reversed(EFFECTS))


def _line(text: str, *classes: str) -> Static:
    return Static(plain(clean(text)), markup=False, classes=" ".join(classes))


def state_words(kind: str, reason: str, locale: str) -> str:
    """A connection state in the app's words (the reason is the client's sentence, kept as it is)."""
    key = f"remote_state_{kind}"
    return t(key, locale).format(reason=reason or kind) if key in _STATES else kind


_STATES = {f"remote_state_{k}" for k in ("idle", "connecting", "ready", "needs_login", "error")}


class RemoteToolsPanel(Vertical):
    """A remote server on a review page: URL, host, sign-in, and each tool with its description and effect picker
    (`only_waiting`: the new and changed tools only, a review after the install)."""

    DEFAULT_CSS = """
    RemoteToolsPanel { height: auto; }
    RemoteToolsPanel .remote-tool { margin-top: 1; text-style: bold; }
    RemoteToolsPanel .remote-desc { color: $text-muted; }
    RemoteToolsPanel SteadySelect { width: 40; }
    """

    def __init__(self, review: RemoteReview, locale: str, only_waiting: bool = False) -> None:
        super().__init__(id="remote-tools")
        self.review = review
        self.locale = locale
        self.tools = review.waiting if only_waiting else review.tools

    def compose(self) -> ComposeResult:
        r, loc = self.review, self.locale
        yield _line(t("remote_heading", loc), "heading")
        yield _line(f"{t('remote_url', loc)}{colon(loc)}{r.url}", "remote-url")
        yield _line(f"{t('remote_host', loc)}{colon(loc)}{r.host}", "remote-host")
        yield _line(f"{t('remote_auth', loc)}{colon(loc)}{t(f'remote_auth_{r.auth}', loc)}", "remote-auth")
        if not r.listed:
            yield _line(t("remote_not_listed", loc).format(reason=r.reason or r.state), "effect-money", "not-listed")
            return
        yield _line(t("remote_untrusted", loc), "effect-write")
        for i, tool in enumerate(self.tools):
            status = ""
            if tool.status == "new":
                status = f" · {t('remote_new', loc)}"
            elif tool.status == "changed":
                was = t(f"effect_{tool.approved_effect}", loc) if tool.approved_effect else "—"
                status = f" · {t('remote_changed', loc).format(effect=was)}"
            yield _line(f"{tool.title} ({tool.id}){status}", "remote-tool")
            for text in (tool.description.strip().splitlines() or [""])[:8]:
                yield _line(f"  {text[:300]}", "remote-desc")
            if tool.hints:
                yield _line(f"  {t('remote_claims', loc).format(hints=tool.hints)}", "muted")
            options = [(literal(t(f"effect_{e}", loc)), e) for e in PICK_ORDER]
            yield SteadySelect(options, value=tool.effect, allow_blank=False, id=f"remote-effect-{i}")
        if r.removed:
            yield _line(t("remote_gone", loc).format(tools=", ".join(r.removed)), "muted")

    def chosen(self) -> dict[str, Effect]:
        """Each listed tool's effect as picked now."""
        out: dict[str, Effect] = {}
        for i, tool in enumerate(self.tools):
            found = self.query(f"#remote-effect-{i}")
            value = found.first(SteadySelect).value if found else tool.effect
            out[tool.name] = value if value in EFFECTS else tool.effect
        return out


class RemoteToolsDialog(LocalBindings, Dialog[dict[str, Effect] | None]):
    """A remote plugin's new and changed tools: turn them on with the effects picked (a dict), or later (None)."""

    DEFAULT_CSS = """
    RemoteToolsDialog { align: center middle; }
    RemoteToolsDialog > Vertical { width: 90; max-width: 100%; height: 90%; border: thick $primary;
                                   background: $surface; }
    RemoteToolsDialog VerticalScroll { padding: 0 2; }
    RemoteToolsDialog .heading { text-style: bold; margin-top: 1; color: $accent; }
    RemoteToolsDialog .muted { color: $text-muted; }
    RemoteToolsDialog .effect-money { color: $error; }
    RemoteToolsDialog .effect-write { color: $warning; }
    RemoteToolsDialog #buttons { height: auto; dock: bottom; align: right middle; padding: 0 2; }
    RemoteToolsDialog Button { margin-left: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "later", "remote_later")]

    def __init__(self, review: RemoteReview, name: str, locale: str) -> None:
        super().__init__()
        self.review = review
        self.plugin_name = name
        self.locale = locale

    def compose(self) -> ComposeResult:
        loc = self.locale
        with Vertical():
            with ScrollStop():
                yield _line(f"{t('remote_review_title', loc)} · {self.plugin_name}", "heading")
                yield RemoteToolsPanel(self.review, loc, only_waiting=True)
            with Horizontal(id="buttons"):
                yield Button(t("remote_later", loc), id="later")
                yield Button(t("remote_approve", loc), id="approve", variant="warning")

    def action_later(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.query_one(RemoteToolsPanel).chosen() if event.button.id == "approve" else None)


class RemoteServersTable(Vertical):
    """The remote plugins' servers: host, connection state, tools on, tools waiting; Enter reviews the waiting
    ones. Showing it connects them (in the background): what the student sees is the state as it is now."""

    DEFAULT_CSS = "RemoteServersTable { height: auto; }"

    def __init__(self, runtime: Runtime, locale: str, table_id: str) -> None:
        super().__init__()
        self.runtime = runtime
        self.locale = locale
        self.table_id = table_id

    def compose(self) -> ComposeResult:
        loc = self.locale
        table = Table(empty="—", id=self.table_id, cursor_type="row")
        table.add_columns(t("plugin", loc), t("remote_host", loc), t("remote_col_state", loc),
                          t("remote_col_tools", loc), t("remote_col_waiting", loc))  # fmt: skip
        yield table

    def on_mount(self) -> None:
        self.fill()
        self.runtime.remote.listeners.append(self._changed)
        self.connect()

    def on_unmount(self) -> None:
        if self._changed in self.runtime.remote.listeners:
            self.runtime.remote.listeners.remove(self._changed)

    def _changed(self, _plugin_id: str) -> None:
        if self.is_attached:
            self.fill()

    @work(group="remote-connect", exclusive=True)
    async def connect(self) -> None:
        await self.runtime.remote.ensure_all()

    def fill(self) -> None:
        """The rows as the servers stand now."""
        rt, loc = self.runtime, self.locale
        table = self.query_one(DataTable)
        table.clear()
        for pid in rt.remote.plugin_ids():
            kind, reason = rt.remote.state(pid)
            host = clean(rt.remote.host_of(pid))
            waiting = len(rt.remote.held(pid))
            cells = (
                rt.registry.plugin_name(pid),
                host,
                state_words(kind, clean(reason), loc),
                str(len(rt.registry.remote.get(pid, []))),
                t("remote_waiting", loc).format(count=waiting) if waiting else "—",
            )
            table.add_row(*map(literal, cells), key=pid)

    @on(DataTable.RowSelected)
    def review(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.app.run_worker(review_remote(self.app, self.runtime, str(event.row_key.value), self.locale))


async def review_remote(app: Any, runtime: Runtime, plugin_id: str, locale: str) -> bool:
    """Connect a remote plugin's server and, when tools wait, show them; turn on those the student approves with
    the effects picked. True when something was approved."""
    name = runtime.registry.plugin_name(plugin_id)
    await runtime.remote.ensure(plugin_id)
    review = runtime.remote.review(plugin_id)
    if review.listed and not review.waiting and not review.removed:
        app.notify(clean(t("remote_nothing_waits", locale).format(name=name)), timeout=4, markup=False)
        return False
    if not review.listed:
        words = state_words(review.state, clean(review.reason), locale)
        app.notify(clean(f"{name}: {words}"), severity="warning", timeout=6, markup=False)
        return False
    effects = await app.push_screen_wait(RemoteToolsDialog(review, name, locale))
    if effects is None:
        return False
    approved = runtime.remote.approve(review, effects)
    app.notify(clean(t("remote_approved", locale).format(name=name, count=len(approved))), timeout=4, markup=False)
    rebuild = getattr(app, "rebuild", None)
    if rebuild is not None:
        await rebuild("plugins")  # the tools table and the model's list have the tools now
    return True
