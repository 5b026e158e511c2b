"""Remote plugins' MCP servers (issue 22): the client core, as a library for the app's layers above.

- `client.McpServer`: one server (a remote plugin's `remote.mcp`): `connect`/`ensure`/`keep_connected`, `state`
  (connecting, ready, needs_login, error with the reason and the next attempt), `tools`, and `call`, which returns
  a `CallResult` for every failure instead of raising; a 404 to its session starts a new one and the call is sent
  once more. `failures`: one line for the SDK's errors.
- `tools`: `RemoteTool` (ids `mcp-<server>.<tool>` and `mcp-<server>__<tool>`, schemas, annotations), the pins
  (`tool_pin`, `list_pin`, `compare_pins`) the review compares, and the limits (64 tools, 1 MB results).
- `schema.SchemaCheck`: JSON Schema with RE2 patterns, for arguments and results.
- `http.PolicyTransport`: the SSRF guard and size limits on `httpx2`, the HTTP library the SDK uses;
  `http.bearer(token)` authenticates with a static token.

The package imports the MCP SDK (over a second of start-up), so nothing imports it until a remote plugin is used.
"""
