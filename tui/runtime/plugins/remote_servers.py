"""The remote plugins' MCP servers in the running app: one connection per installed remote plugin, its tools in the
registry with the effects the student chose, and the tools that wait for approval (issue 22 items 3, 4, 6).

A plugin whose manifest has `remote: { mcp, auth }` gets one `McpServer` (`<server>` is the plugin's id), made
when first needed — the model's tool list, a form, `tools list`, a call — never at start-up: the client imports
the MCP SDK (over a second) and connecting takes a round trip. Authentication comes from an `AuthFactory` (the
app's: `keyring_auth`, the bearer token or OAuth tokens kept in keyring, mcp/auth.py; by default none); after a
login or logout, `login_changed` makes the connection again with the new one. The author's dev origins pass
through.

Each listing is compared with the pins the student approved (`RemoteApprovals`): an approved, unchanged tool
goes into the registry as `mcp-<server>.<tool>` (untrusted, sends, the student's effect); a new or changed one
stays off — not offered, and refused by name with a sentence saying it waits for review — until the student
approves it on a review; a tool the server no longer lists disappears, and its approval with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from tui.lang.documents.common import Effect
from tui.lang.documents.manifest import Remote
from tui.runtime.dev_origins import DevOrigin
from tui.runtime.message import Message
from tui.runtime.plugins.remote import (
    RemoteReview,
    RemoteToolReview,
    hint_text,
    remote_prefix,
    suggest_effect,
)
from tui.runtime.plugins.remote_approvals import Approved, RemoteApprovals
from tui.runtime.plugins.remote_fields import schema_fields
from tui.runtime.registry import Registry, ToolInfo
from tui.runtime.store import Store

if TYPE_CHECKING:
    import httpx2

    from tui.runtime.plugins.mcp.client import CallResult, McpServer
    from tui.runtime.plugins.mcp.tools import RemoteTool
    from tui.runtime.secrets import Secrets

AuthFactory = Callable[[str, Remote], "httpx2.Auth | None"]
"""What authenticates a remote plugin's requests (plugin id, its `remote`), or None for none."""

#: Seconds a listing waits for servers before it goes on without the slow ones (they keep connecting).
LIST_WAIT = 10.0


def no_auth(plugin_id: str, remote: Remote) -> None:
    """The default `AuthFactory`: no credentials (a server that wants some answers "needs login")."""
    return None


def keyring_auth(secrets: Secrets | None = None) -> AuthFactory:
    """The app's `AuthFactory`: the login keyring keeps for each server (`mcp.auth.auth_for`), with every token
    read added to `secrets`. The MCP SDK is imported when a connection is made, not here."""

    def factory(plugin_id: str, remote: Remote) -> httpx2.Auth | None:
        from tui.runtime.plugins.mcp.auth import auth_for

        return auth_for(plugin_id, remote, secrets=secrets)

    return factory


class RemoteServers:
    """The MCP servers of the installed remote plugins (module docstring)."""

    def __init__(
        self,
        registry: Registry,
        store: Store,
        auth: AuthFactory = no_auth,
        dev: tuple[DevOrigin, ...] = (),
        resolve: Any = None,
    ) -> None:
        self.registry = registry
        self.approvals = RemoteApprovals(store)
        self.auth = auth
        self.dev = dev
        """The author's dev origins (set again by `Runtime.map_origins`); a server made later uses them."""
        self.resolve = resolve
        """The DNS the SSRF guard uses (None: the system's); tests give their own."""
        self.listeners: list[Callable[[str], None]] = []
        """Called with a plugin's id when its server's state or tools change (the UI repaints)."""
        self._servers: dict[str, McpServer] = {}
        self._held: dict[str, tuple[RemoteTool, ...]] = {}
        self._pending: set[asyncio.Task[Any]] = set()

    # ---- which plugins ----------------------------------------------------------------------------------------

    def remote_of(self, plugin_id: str) -> Remote | None:
        """The plugin's `remote`, or None (not installed, or not a remote plugin)."""
        installed = self.registry.plugins.get(plugin_id)
        return installed.plugin.manifest.remote if installed is not None else None

    def plugin_ids(self) -> list[str]:
        """The ids of the loaded plugins that have a remote server, in order."""
        return [pid for pid in sorted(self.registry.plugins) if self.remote_of(pid) is not None]

    def host_of(self, plugin_id: str) -> str:
        """The host of the plugin's server (from its manifest; nothing connects), or ''."""
        from urllib.parse import urlsplit

        remote = self.remote_of(plugin_id)
        return (urlsplit(remote.mcp).hostname or "") if remote is not None else ""

    def server(self, plugin_id: str) -> McpServer:
        """The plugin's server connection (made now if it was not; nothing connects yet).

        Raises:
            KeyError: not a loaded remote plugin.
        """
        found = self._servers.get(plugin_id)
        remote = self.remote_of(plugin_id)
        if remote is None:
            raise KeyError(plugin_id)
        if found is not None:
            if found.url == remote.mcp:
                return found
            self._close_later(found)  # an update moved the plugin to another server (the student approved it)
        from tui.runtime.pinned import system_resolve
        from tui.runtime.plugins.mcp.client import McpServer

        server = McpServer(
            plugin_id,
            remote.mcp,
            auth=self.auth(plugin_id, remote),
            dev=self.dev,
            resolve=self.resolve or system_resolve,
            on_change=lambda state: self._changed(plugin_id, server, state.kind),
        )
        self._servers[plugin_id] = server
        return server

    def _changed(self, plugin_id: str, server: McpServer, kind: str) -> None:
        """A server's state changed: once it is ready its listing (perhaps a new one, after a new session) is
        compared with the pins at once, so the registry and every page follow; else the pages repaint."""
        if kind == "ready" and self._servers.get(plugin_id) is server:
            self.refresh(plugin_id)
        else:
            self._tell(plugin_id)

    def login_changed(self, plugin_id: str) -> None:
        """The student logged in to the plugin's server or out of it: a connection made already is closed, and
        one is made with the auth kept now — at once, in the background, when an event loop runs (logged out:
        it then says it needs a login)."""
        server = self._servers.pop(plugin_id, None)
        if server is None:
            return
        self._close_later(server)
        self._tell(plugin_id)
        try:
            task = asyncio.get_running_loop().create_task(self.ensure(plugin_id))
        except RuntimeError:
            return
        self._pending.add(task)
        task.add_done_callback(self._done)

    def _tell(self, plugin_id: str) -> None:
        for listener in list(self.listeners):
            listener(plugin_id)

    # ---- state ------------------------------------------------------------------------------------------------

    def state(self, plugin_id: str) -> tuple[str, str]:
        """(kind, reason) of the plugin's connection: idle (not needed yet), connecting, ready, needs_login, error."""
        server = self._servers.get(plugin_id)
        if server is None:
            return "idle", ""
        return server.state.kind, server.state.reason

    def held(self, plugin_id: str) -> tuple[RemoteTool, ...]:
        """The server's new and changed tools that wait for the student's approval (as of the last listing)."""
        return self._held.get(plugin_id, ())

    # ---- connecting -------------------------------------------------------------------------------------------

    async def ensure(self, plugin_id: str) -> tuple[str, str]:
        """Connect the plugin's server if it is not (within its backoff), and bring its tools up to date; the
        state it ends in. A server that is down is a state, never an exception."""
        server = self.server(plugin_id)
        state = await server.ensure()
        if state.kind == "ready":
            self.refresh(plugin_id)
        return state.kind, state.reason

    async def ensure_all(self, wait: float = LIST_WAIT) -> None:
        """Connect every remote plugin's server at once, waiting at most `wait` seconds: a slow one goes on
        connecting in the background and its tools appear when it is ready."""
        ids = self.plugin_ids()
        if not ids:
            return
        tasks = [asyncio.ensure_future(self.ensure(pid)) for pid in ids]
        for task in tasks:
            self._pending.add(task)
            task.add_done_callback(self._done)
        await asyncio.wait(tasks, timeout=wait)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._pending.discard(task)
        if not task.cancelled():
            task.exception()  # read, so it is never reported as lost; states say what went wrong

    def refresh(self, plugin_id: str) -> None:
        """Compare the server's listing with the approved pins: approved, unchanged tools on (in the registry),
        new and changed ones held, approvals of tools no longer listed forgotten."""
        server = self._servers.get(plugin_id)
        if server is None:
            return
        approved = self.approvals.of(plugin_id)
        on, held = [], []
        for tool in server.tools:
            given = approved.get(tool.name)
            if given is not None and given.pin == tool.pin:
                on.append(self._info(tool, given.effect))
            else:
                held.append(tool)
        gone = [name for name in approved if server.tool(name) is None]
        if gone:
            self.approvals.drop(plugin_id, gone)
        self._held[plugin_id] = tuple(held)
        self.registry.set_remote(plugin_id, remote_prefix(plugin_id), on)
        self._tell(plugin_id)

    def _info(self, tool: RemoteTool, effect: Effect) -> ToolInfo:
        schema = tool.input_schema or {"type": "object", "properties": {}}
        fields = schema_fields(schema)
        return ToolInfo(
            id=tool.id,
            model_name=tool.model_name,
            plugin_id=tool.server,
            name=tool.name,
            title=tool.title or tool.name,
            summary=None,
            description=tool.description,
            effect=effect,
            untrusted=True,  # a third party's server: its results are data, never instructions
            user_only=False,
            official=False,
            input_schema=schema,
            input=fields,
            labels={name: field.title or name for name, field in fields.items()},
            sends=True,
            remote=tool.name,
        )

    # ---- the gate's side (tui.runtime.gate.RemoteRunner) ---------------------------------------------------------

    async def lookup(self, name: str) -> ToolInfo | str | None:
        """A remote tool by id or model name, its server connected first; or why it is off; None: no such tool."""
        plugin_id = self._plugin_for(name)
        if plugin_id is None:
            return None
        kind, reason = await self.ensure(plugin_id)
        found = self.registry.find(name)
        if found is not None:
            return found
        waiting = next((t for t in self.held(plugin_id) if name in (t.id, t.model_name)), None)
        if waiting is not None:
            changed = waiting.name in self.approvals.of(plugin_id)
            return Message("remote_held" if changed else "remote_new", tool=waiting.id, plugin=plugin_id)
        if kind == "needs_login":
            return Message("remote_login", plugin=plugin_id, reason=reason)
        if kind != "ready":
            return Message("remote_down", plugin=plugin_id, reason=reason or kind)
        return None

    def _plugin_for(self, name: str) -> str | None:
        head = name.partition(".")[0] if "." in name else name.partition("__")[0]
        return next((pid for pid in self.plugin_ids() if remote_prefix(pid) == head), None)

    async def run(self, tool: ToolInfo, arguments: Any) -> CallResult:
        """Call an approved remote tool on its server. Before it is sent, the tool must still be the one approved:
        a reconnection may have brought a changed listing."""
        from tui.runtime.plugins.mcp.client import CallResult

        server = self.server(tool.plugin_id)
        kind, _ = await self.ensure(tool.plugin_id)
        # a Message, not its English text: the app says it in the student's language (a str is a Message's English)
        if kind == "ready" and self.registry.find(tool.id) is None:
            return CallResult(False, Message("remote_held", tool=tool.id, plugin=tool.plugin_id), None, "input")
        if not isinstance(arguments, dict):
            return CallResult(False, f"the arguments of {tool.id} must be a JSON object", None, "input")
        name = tool.remote or tool.name
        result = await server.call(name, arguments)
        if not result.ok and self.registry.find(tool.id) is None:  # a new session listed it changed: held now
            return CallResult(False, Message("remote_held", tool=tool.id, plugin=tool.plugin_id), None, "input")
        listed = server.tool(name)
        wrapped = listed is not None and (listed.output_schema or {}).get("x-fastmcp-wrap-result") is True
        if result.ok and wrapped and isinstance(result.structured, dict) and set(result.structured) == {"result"}:
            # a server that returns a bare value wraps it as {"result": …} and says so in its output schema
            return replace(result, structured=result.structured["result"])
        return result

    # ---- reviewing --------------------------------------------------------------------------------------------

    def review(self, plugin_id: str) -> RemoteReview:
        """The review of the plugin's server as last listed: every tool, the waiting ones marked new or changed."""
        remote = self.remote_of(plugin_id)
        if remote is None:
            raise KeyError(plugin_id)
        server = self.server(plugin_id)
        return review_of(plugin_id, remote, server, self.approvals.of(plugin_id))

    async def preview(self, plugin_id: str, remote: Remote) -> RemoteReview:
        """Connect to a server not installed yet (a review before installing) and list its tools; the connection
        is closed again. A server that cannot be reached gives a review that says why."""
        from tui.runtime.pinned import system_resolve
        from tui.runtime.plugins.mcp.client import McpServer

        server = McpServer(
            plugin_id,
            remote.mcp,
            auth=self.auth(plugin_id, remote),
            dev=self.dev,
            resolve=self.resolve or system_resolve,
        )
        try:
            await server.connect()
            return review_of(plugin_id, remote, server, self.approvals.of(plugin_id))
        finally:
            await server.close()

    def preview_blocking(self, plugin_id: str, remote: Remote) -> RemoteReview:
        """`preview` from code that is not in an event loop (the installer's thread, the command line)."""
        return asyncio.run(self.preview(plugin_id, remote))

    def approve(self, review: RemoteReview, effects: Mapping[str, Effect] | None = None) -> list[str]:
        """Approve the tools of `review` as the student saw them (their pins), each with its chosen effect (else
        the preselected one); the names approved. Tools not in the review are not touched.

        Raises:
            ValueError: an effect that is not one.
        """
        chosen = dict(effects or {})
        tools = {
            t.name: (t.pin, chosen.get(t.name, t.effect))
            for t in review.tools
            if t.status != "approved" or t.name in chosen
        }
        self.approvals.approve(review.plugin_id, tools)
        if review.removed:
            self.approvals.drop(review.plugin_id, review.removed)
        self.refresh(review.plugin_id)
        return sorted(tools)

    def set_effect(self, plugin_id: str, tool: str, effect: Effect) -> None:
        """Change an approved tool's effect (the plugin's page): used from the next call on.

        Raises:
            KeyError: not an approved tool.
            ValueError: not an effect.
        """
        self.approvals.set_effect(plugin_id, tool, effect)
        self.refresh(plugin_id)

    # ---- ending -----------------------------------------------------------------------------------------------

    def forget(self, plugin_id: str) -> None:
        """The plugin was removed: forget its approvals and close its connection (in the background when an
        event loop runs; a connection exists only while one does)."""
        server = self._servers.pop(plugin_id, None)
        self._held.pop(plugin_id, None)
        self.approvals.forget(plugin_id)
        if server is not None:
            self._close_later(server)

    def _close_later(self, server: McpServer) -> None:
        """Close a connection in the background when an event loop runs (one exists only while a loop does)."""
        try:
            task = asyncio.get_running_loop().create_task(server.close())
        except RuntimeError:
            return
        self._pending.add(task)
        task.add_done_callback(self._done)

    async def close(self) -> None:
        """Close every connection (the app or the command is ending)."""
        for task in list(self._pending):
            task.cancel()
        servers, self._servers = list(self._servers.values()), {}
        await asyncio.gather(*(s.close() for s in servers), return_exceptions=True)


def review_of(plugin_id: str, remote: Remote, server: McpServer, approved: Mapping[str, Approved]) -> RemoteReview:
    """The review data of a server's listing against what was approved (`approved`: name → `Approved`)."""
    state = server.state
    tools = []
    for t in server.tools:
        given = approved.get(t.name)
        status: Literal["new", "changed", "approved"] = (
            "new" if given is None else "approved" if given.pin == t.pin else "changed"
        )
        tools.append(
            RemoteToolReview(
                name=t.name,
                id=t.id,
                title=t.title or t.name,
                description=t.description,
                pin=t.pin,
                effect=given.effect
                if given is not None and status == "approved"
                else suggest_effect(t.annotations, given.effect if given is not None else None),
                hints=hint_text(t.annotations),
                status=status,
                approved_effect=given.effect if given is not None else None,
                input_schema=dict(t.input_schema),
            )
        )
    listed = state.kind == "ready"
    removed = tuple(sorted(n for n in approved if server.tool(n) is None)) if listed else ()
    return RemoteReview(
        plugin_id=plugin_id,
        url=remote.mcp,
        host=server.host,
        auth=remote.auth,
        state=state.kind,
        reason=state.reason,
        tools=tuple(tools),
        removed=removed,
    )
