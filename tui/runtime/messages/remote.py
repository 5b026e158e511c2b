"""Remote plugins' MCP servers (`tui.runtime.plugins.remote_servers`): tools that are off, servers that are down."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "remote_held": {
        "zh": "{tool} 的说明或参数在你批准之后变了，等你在「插件 → {plugin}」里重新审核后才能用",
        "en": "{tool} changed (its description or input) since you approved it; it stays off until you review it "
        "in Plugins → {plugin}",
    },
    "remote_new": {
        "zh": "{tool} 是服务器新加的工具，等你在「插件 → {plugin}」里审核后才能用",
        "en": "{tool} is a new tool of the server; it stays off until you review it in Plugins → {plugin}",
    },
    "remote_down": {
        "zh": "{plugin} 的服务器现在连不上：{reason}",
        "en": "the server of {plugin} cannot be reached now: {reason}",
    },
    "remote_login": {
        "zh": "{plugin} 的服务器要求登录：在「设置 → 远程登录」里登录，或运行 pku-harness login mcp-{plugin}",
        "en": "the server of {plugin} asks to log in: log in under Settings → Remote logins, or run "
        "`pku-harness login mcp-{plugin}`",
    },
}
