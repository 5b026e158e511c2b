"""A real MCP server for the client's tests: fastmcp over streamable HTTP (or legacy SSE) on 127.0.0.1, behind a
static bearer token, or (`oauth`) behind fastmcp's in-memory OAuth server (dynamic registration, PKCE, refresh;
`ttl=N`: access tokens live N seconds; `offhost`: naming auth.example.net as its authorization server; `json`:
answers as JSON, once a call is done). Run as
`python -m tests.runtime.mcp.server PORT TOKEN [http|sse] [many] [oauth|offhost] [ttl=N] [json]`; the tests start
it in a process of its own, so "the server goes away" is a real process exit.

Tools: `echo` (text back), `fail` (a tool error), `sleep` (answers after N seconds), `redos` (a result whose
`outputSchema` has a catastrophic pattern for Python's `re`), `big` (N bytes of text), `shout` (an input pattern);
with `many`, 65 tools in all.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated, Any

import uvicorn
from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.auth.auth import ClientRegistrationOptions
from fastmcp.server.auth.providers import in_memory
from fastmcp.server.auth.providers.in_memory import InMemoryOAuthProvider
from fastmcp.server.auth.providers.jwt import StaticTokenVerifier
from pydantic import Field

#: The pattern that takes Python's `re` seconds on a near-miss of a few dozen characters (0.58 s at 24).
REDOS = "^(a+)+$"


def build(token: str, many: bool, oauth: str = "") -> FastMCP:
    """The server, its tools registered (`oauth`: "" for the static token, "here" or "offhost" for an OAuth server
    on the MCP server's host or naming another host as its authorization server)."""
    auth = (
        InMemoryOAuthProvider(
            base_url="https://auth.example.net" if oauth == "offhost" else "https://mcp.example.com",
            resource_base_url="https://mcp.example.com",  # the URL its clients see (a dev origin maps it here)
            client_registration_options=ClientRegistrationOptions(enabled=True),
        )
        if oauth
        else StaticTokenVerifier(tokens={token: {"client_id": "tests", "scopes": []}})
    )
    server = FastMCP("pku-test", auth=auth)

    @server.tool(annotations={"readOnlyHint": True})
    def echo(text: str) -> str:
        """Say the text back."""
        return f"echo: {text}"

    @server.tool
    def fail(why: str) -> str:
        """Always fails with the reason given."""
        raise ToolError(f"failed on purpose: {why}")

    @server.tool
    async def sleep(seconds: float) -> str:
        """Answer after some seconds."""
        await asyncio.sleep(seconds)
        return "awake"

    @server.tool(
        output_schema={
            "type": "object",
            "properties": {"word": {"type": "string", "pattern": REDOS}},
            "required": ["word"],
        }
    )
    def redos(n: int) -> dict[str, Any]:
        """A word of n a's and a '!': a near-miss of the output pattern."""
        return {"word": "a" * n + "!"}

    @server.tool
    def big(size: int) -> str:
        """`size` characters of text."""
        return "x" * size

    @server.tool
    def shout(word: Annotated[str, Field(pattern="^[a-z]+$")]) -> str:
        """Upper-case a word of letters (the input schema's pattern says so)."""
        return word.upper()

    if many:
        for i in range(65 - 6):

            def extra(i: int = i) -> str:
                return str(i)

            server.tool(extra, name=f"extra_{i}", description=f"Extra tool {i}.")
    return server


def main() -> None:
    port, token = int(sys.argv[1]), sys.argv[2]
    transport = sys.argv[3] if len(sys.argv) > 3 else "http"
    many = "many" in sys.argv[4:]
    for arg in sys.argv[4:]:
        if arg.startswith("ttl="):  # the provider reads its lifetime from the module when it issues a token
            in_memory.DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS = int(arg.removeprefix("ttl="))
    oauth = "offhost" if "offhost" in sys.argv[4:] else "here" if "oauth" in sys.argv[4:] else ""
    path, json_response = ("/mcp" if transport == "http" else "/sse"), "json" in sys.argv[4:]
    app = build(token, many, oauth).http_app(path=path, transport=transport, json_response=json_response or None)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
