"""One remote MCP server: connecting, its state and tools, and calls that report failure instead of raising.

`McpServer` speaks streamable HTTP to `remote.mcp` through the official SDK and falls back to legacy SSE when the
server answers the first POST with a 4xx other than 401/403 (the spec's backwards-compatibility rule). Its state is
connecting, ready, needs login (a 401) or error with the reason; after a failure the next attempt waits a backoff
(1 s doubling to 60 s, reset by a success); `keep_connected` reconnects on that schedule for a screen that shows
the state. A call checks its arguments against the tool's input schema (RE2 for patterns) before it is sent, runs
for at most 60 s and can be cancelled (the SDK tells the server), refuses a result over 1 MB, and checks the
structured result against the output schema with RE2 — the SDK's own check, with Python's `re` on the event
loop, is switched off (`_Session`). Every failure, including a server that is down or goes away mid-call, comes
back as a `CallResult` with a clear message; nothing but cancellation leaves `call`. A server that answers 404 to
the session (it restarted) gets a new one — initialize without the old id, tools listed again — and the call is
sent once more, unless the tool changed in the new listing (the spec: the client starts a new session).

The SDK's contexts hold task groups, which must be entered and left in one task: each connection lives in a task
of its own (`_run`), and calls from any task send through its session.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

import httpx2
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

from tui.lang.netpolicy import PolicyError, check_public_url
from tui.runtime.dev_origins import DevOrigin, DevRoutes
from tui.runtime.pinned import Resolver, system_resolve
from tui.runtime.plugins.mcp.failures import challenge_error, connection_error, describe
from tui.runtime.plugins.mcp.http import MAX_RESPONSE, PolicyTransport, Seen, http_client
from tui.runtime.plugins.mcp.tools import MAX_RESULT, RemoteTool, check_list, content_text, remote_tool, result_size

# The SDK logs what it recovers from (a failed session DELETE, a broken event stream) at WARNING; with no handler
# Python would print those over the terminal UI. The app learns of them as states and call results instead.
logging.getLogger("mcp").addHandler(logging.NullHandler())

CALL_TIMEOUT = 60.0
"""Seconds a tool call may take."""
CONNECT_TIMEOUT = 30.0
"""Seconds connecting (handshake and tool list) may take."""
MAX_PAGES = 8
"""Pages of `tools/list` read before the list is called endless."""

StateKind = Literal["idle", "connecting", "ready", "needs_login", "error"]
ErrorKind = Literal["input", "output", "tool", "network", "timeout", "limit", "login"]


@dataclass(frozen=True)
class ServerState:
    """Where the connection stands, with the reason when it is not ready."""

    kind: StateKind
    reason: str = ""
    transport: str | None = None
    """`streamable-http` or `sse` once connected."""
    retry_at: float | None = None
    """`time.monotonic()` of the next attempt after a failure."""


@dataclass(frozen=True)
class CallResult:
    """A call's outcome: the text for the conversation (untrusted), or why it failed (`error` names the kind)."""

    ok: bool
    text: str
    structured: Any = None
    error: ErrorKind | None = None


def _fail(kind: ErrorKind, text: str) -> CallResult:
    return CallResult(False, text, None, kind)


class _Session(ClientSession):
    async def validate_tool_result(self, name: str, result: types.CallToolResult) -> None:
        """Not here: the SDK's check matches `pattern` with Python's `re` on the event loop, which a hostile
        schema turns into seconds per result; `McpServer.call` checks with RE2 instead (schema.py)."""


_EVENT = MAX_RESPONSE + 1
"""The SDK's cap on one event of a response stream: above the transport's, so the clearer message is the one seen."""


@asynccontextmanager
async def _owning(client: httpx2.AsyncClient, streams: Any) -> AsyncIterator[Any]:
    async with client, streams as pair:
        yield pair


class NeedsLogin(Exception):
    """The server answered 401: it wants a login (the `WWW-Authenticate` challenge is the message)."""


class McpServer:
    """The connection to the remote server of the plugin `server_id` at `url` (its `remote.mcp`).

    `auth` is what authenticates each request (a bearer token: `bearer(token)`; OAuth: the SDK's provider);
    `dev` the author's dev origins (only one for this URL's host applies); `resolve` the DNS used by the guard.
    """

    def __init__(
        self,
        server_id: str,
        url: str,
        *,
        auth: httpx2.Auth | None = None,
        dev: Iterable[DevOrigin] = (),
        resolve: Resolver = system_resolve,
        backoff: tuple[float, float] = (1.0, 60.0),
        on_change: Callable[[ServerState], None] | None = None,
    ) -> None:
        self.server_id = server_id
        self.url = url
        self.auth = auth
        self.resolve = resolve
        self.backoff = backoff
        self.on_change = on_change
        self.tools: tuple[RemoteTool, ...] = ()
        self._state = ServerState("idle")
        self._delay = backoff[0]
        self._lock = asyncio.Lock()
        self._session: ClientSession | None = None
        self._seen = Seen()
        self._stop: asyncio.Event | None = None
        self._runner: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self.host = ""
        self._bad_url: str | None = None
        try:
            self.host = httpx2.URL(url).host
            check_public_url(url, [self.host])
        except (PolicyError, httpx2.InvalidURL, ValueError) as e:
            self._bad_url = f"refused: {e}"
        self.routes = DevRoutes.for_plugin(dev, [self.host]) if self.host else None

    @property
    def state(self) -> ServerState:
        """The current state."""
        return self._state

    def tool(self, name: str) -> RemoteTool | None:
        """The listed tool called `name` on the server, or None."""
        return next((t for t in self.tools if t.name == name), None)

    def _set(self, state: ServerState) -> None:
        self._state = state
        self._changed.set()
        if self.on_change is not None:
            self.on_change(state)

    def _failed(self, kind: StateKind, reason: str) -> ServerState:
        self._session = None
        retry_at = time.monotonic() + self._delay if kind == "error" else None
        self._delay = min(self._delay * 2, self.backoff[1])
        self._set(ServerState(kind, reason, retry_at=retry_at))
        return self._state

    def _waiting(self) -> bool:
        s = self._state
        return s.kind == "error" and s.retry_at is not None and time.monotonic() < s.retry_at

    async def connect(self, *, force: bool = True) -> ServerState:
        """Connect unless already connected (without `force`: unless the backoff says to wait); the state it ends
        in."""
        async with self._lock:
            if self._state.kind == "ready" or (not force and self._waiting()):
                return self._state
            return await self._start()

    async def _renew(self, old: ClientSession) -> ServerState:
        """The server answered 404 to the session `old` (it restarted, or ended the session): a new session — an
        initialize without the old id, the tools listed again — unless another call has made one already."""
        async with self._lock:
            if self._state.kind == "ready" and self._session is not None and self._session is not old:
                return self._state
            return await self._start()

    async def _start(self) -> ServerState:
        """A new connection in a task of its own (the lock is held); the state it ends in."""
        if self._bad_url:
            return self._failed("error", self._bad_url)
        await self._shutdown()
        self._set(ServerState("connecting"))
        started: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        started.add_done_callback(lambda f: f.cancelled() or f.exception())  # read even if nobody waits now
        self._stop = asyncio.Event()
        self._runner = asyncio.create_task(self._run(started, self._stop))
        try:
            transport = await asyncio.wait_for(asyncio.shield(started), CONNECT_TIMEOUT)
        except NeedsLogin as e:
            return self._failed("needs_login", f"{self.host} asks to log in{challenge_error(str(e))}")
        except BaseException as e:
            await self._shutdown()
            if isinstance(e, asyncio.CancelledError):
                self._set(ServerState("idle"))
                raise
            return self._failed("error", f"cannot connect to {self.host}: {describe(e)}")
        self._delay = self.backoff[0]
        self._set(ServerState("ready", transport=transport))
        return self._state

    async def ensure(self) -> ServerState:
        """Ready, or one attempt to connect when the backoff allows it (else the failed state as it is; a server
        that needs a login waits for `connect` after it)."""
        session = self._session
        if self._state.kind == "ready" and session is not None and self._seen.lost_sessions:
            return await self._renew(session)  # the event stream already heard that the server lost the session
        if self._state.kind in ("ready", "needs_login") or self._waiting():
            return self._state
        return await self.connect(force=False)

    async def keep_connected(self) -> None:
        """Reconnect with backoff whenever the connection fails, until cancelled (a needs-login state waits for a
        `connect` after the login)."""
        while True:
            s = self._state
            if s.kind in ("idle", "error"):
                await asyncio.sleep(max(0.0, (s.retry_at or 0.0) - time.monotonic()))
                if self._state is s:
                    await self.connect()
                continue
            self._changed.clear()
            await self._changed.wait()

    async def close(self) -> None:
        """Close the connection (the session ends on the server too)."""
        async with self._lock:
            await self._shutdown()
            self._set(ServerState("idle"))

    async def _shutdown(self) -> None:
        self._session = None
        if self._stop is not None:
            self._stop.set()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            try:
                await asyncio.wait_for(runner, 5.0)
            except BaseException:  # a teardown that fails or hangs is cut short: the connection is gone either way
                runner.cancel()

    @asynccontextmanager
    async def _open(self, kind: str, transport: PolicyTransport) -> AsyncIterator[ClientSession]:
        client = http_client(transport, self.auth)
        streams: Any
        if kind == "sse":  # sse_client enters (and closes) the client its factory gives

            def factory(
                headers: dict[str, str] | None = None,
                timeout: httpx2.Timeout | None = None,
                auth: httpx2.Auth | None = None,
            ) -> httpx2.AsyncClient:
                return client  # configured already: its own headers, timeouts and auth

            streams = sse_client(self.url, httpx_client_factory=factory)
        else:
            streams = _owning(client, streamable_http_client(self.url, http_client=client, max_sse_event_size=_EVENT))
        async with streams as (read, write):
            info = types.Implementation(name="pku-harness", version="0.1.0")
            async with _Session(dispatcher=JSONRPCDispatcher(read, write), client_info=info) as session:
                yield session

    async def _run(self, started: asyncio.Future[str], stop: asyncio.Event) -> None:
        """The connection's own task: open it, publish the session and tools, hold it until `stop` or failure."""
        try:
            for kind in ("streamable-http", "sse"):
                transport = PolicyTransport(self.host, self.routes, self.resolve)
                self._seen = transport.seen
                try:
                    async with self._open(kind, transport) as session:
                        await session.initialize()
                        tools = await self._list(session)
                        self.tools, self._session = tools, session
                        started.set_result(kind)
                        await stop.wait()
                        return
                except Exception:
                    if started.done():
                        raise
                    if transport.seen.challenge is not None:
                        raise NeedsLogin(transport.seen.challenge or "401") from None
                    first = transport.seen.statuses[:1]
                    if kind == "sse" or not first or not 400 <= first[0] < 500 or first[0] == 403:
                        raise
        except BaseException as e:
            if not started.done():
                started.set_exception(e if isinstance(e, Exception) else ConnectionError("the connection was closed"))
            elif not stop.is_set():
                self._lost(describe(e))
            if not isinstance(e, Exception):
                raise

    async def _list(self, session: ClientSession) -> tuple[RemoteTool, ...]:
        found: list[RemoteTool] = []
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await session.list_tools(params=params)
            found += [remote_tool(self.server_id, t) for t in page.tools]
            if (problem := check_list(found)) is not None:
                raise ValueError(problem)
            cursor = page.next_cursor
            if not cursor:
                return tuple(found)
        raise ValueError(f"the tool list goes on past {MAX_PAGES} pages")

    async def call(
        self, name: str, arguments: dict[str, Any] | None = None, timeout: float = CALL_TIMEOUT
    ) -> CallResult:
        """Call the tool `name` (its name on the server). Never raises but for cancellation, which the server is
        told of."""
        state = await self.ensure()
        session = self._session
        if state.kind != "ready" or session is None:
            down = f"{self.server_id} is not connected: {state.reason or state.kind}"
            return _fail("login" if state.kind == "needs_login" else "network", down)
        tool = self.tool(name)
        if tool is None:
            return _fail("input", f"{self.server_id} has no tool {name!r}")
        if tool.problem:
            return _fail("input", f"{tool.id} cannot be called: {tool.problem}")
        args = arguments or {}
        if tool.inputs is not None and (why := tool.inputs.error(args)) is not None:
            return _fail("input", f"the arguments do not fit {tool.id}: {why}")
        result = await self._send(session, tool, args, timeout)
        if result is not None:
            return result
        # The server answered 404 to our session: it restarted or ended it. A new session (its listing may differ:
        # the caller compares pins again) and the call once more — the 404 means the server never ran it.
        state = await self._renew(session)
        session = self._session
        if state.kind != "ready" or session is None:
            kind: ErrorKind = "login" if state.kind == "needs_login" else "network"
            return _fail(kind, f"{tool.id}: {self.host} ended the session and a new one failed: {state.reason}")
        fresh = self.tool(name)
        if fresh is None or fresh.pin != tool.pin:
            return _fail("input", f"{tool.id} changed on {self.host} when it started a new session; it was not called")
        again = await self._send(session, fresh, args, timeout)
        if again is None:
            self._lost("it does not know the session it has just started")
            return _fail("network", f"{tool.id}: {self.host} does not keep its sessions")
        return again

    async def _send(
        self, session: ClientSession, tool: RemoteTool, args: dict[str, Any], timeout: float
    ) -> CallResult | None:
        """One call on `session`: its result, or None when the server answered that it does not know the session."""
        seen = self._seen
        refusals, lost = len(seen.refusals), seen.lost_sessions
        try:
            async with asyncio.timeout(timeout):
                result = await session.call_tool(tool.name, args)
        except TimeoutError:
            return _fail("timeout", f"{tool.id} did not answer within {timeout:g} s")
        except Exception as e:
            if seen.lost_sessions > lost and len(seen.refusals) == refusals:
                return None
            return self._call_failed(tool, e, seen, refusals)
        if (size := result_size(result)) > MAX_RESULT:
            return _fail("limit", f"the result of {tool.id} is {size:,} bytes; at most {MAX_RESULT // 1048576} MB")
        if not isinstance(result, types.CallToolResult):
            return _fail("tool", f"{tool.id} answered with something other than a tool result")
        text = content_text(result.content)
        if result.is_error:
            return _fail("tool", f"{tool.id} failed: {text or 'no reason given'}")
        structured = result.structured_content
        if tool.outputs is not None:
            if structured is None:
                return _fail("output", f"{tool.id} declares an output schema but sent no structured result")
            if (wrong := tool.outputs.error(structured)) is not None:
                return _fail("output", f"the result of {tool.id} does not fit its output schema: {wrong}")
        if not text and structured is not None:
            text = json.dumps(structured, ensure_ascii=False)
        return CallResult(True, text, structured)

    def _call_failed(self, tool: RemoteTool, e: Exception, seen: Seen, refusals: int) -> CallResult:
        if len(seen.refusals) > refusals:  # the transport's reason is clearer than the SDK's error built from it
            reason = seen.refusals[-1]
            if reason.startswith("an event"):  # a broken event stream ends a legacy SSE connection
                self._lost(reason)
            return _fail("limit" if "MB" in reason else "network", f"{tool.id}: {reason}")
        if seen.statuses and seen.statuses[-1] == 401:
            self._failed("needs_login", f"{self.host} asks to log in again")
            return _fail("login", f"{tool.id}: {self.host} asks to log in again")
        if isinstance(e, MCPError) and not connection_error(e):
            return _fail("tool", f"{tool.id} failed: {e.error.message}")
        self._lost(describe(e))
        return _fail("network", f"{tool.id}: {self.host} went away ({describe(e)})")

    def _lost(self, reason: str) -> None:
        """The connection is gone: the state says why, and its task is told to end."""
        if self._state.kind == "ready":
            self._failed("error", f"the connection to {self.host} was lost: {reason}")
        if self._stop is not None:
            self._stop.set()
