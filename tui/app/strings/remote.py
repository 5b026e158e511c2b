"""The app's own UI strings (Chinese and English): remote plugins — their MCP servers, connection states, and the
review of their tools with an effect picked for each."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "remote_heading": {"zh": "远程服务器（MCP）", "en": "Remote server (MCP)"},
    "remote_servers": {"zh": "远程服务器", "en": "Remote servers"},
    "remote_url": {"zh": "地址", "en": "URL"},
    "remote_host": {"zh": "主机", "en": "Host"},
    "remote_auth": {"zh": "登录方式", "en": "Sign-in"},
    "remote_auth_none": {"zh": "不需要", "en": "none"},
    "remote_auth_bearer": {"zh": "令牌（bearer）", "en": "token (bearer)"},
    "remote_auth_oauth": {"zh": "OAuth 登录", "en": "OAuth"},
    "remote_untrusted": {
        "zh": "服务器的说明和结果都是第三方写的，只当作数据；每个工具的效果由你决定，默认「公开」（最严）。",
        "en": "The server's descriptions and results are a third party's words, taken as data; you decide each "
        "tool's effect, public (the strictest) unless you choose.",
    },
    "remote_not_listed": {
        "zh": "没能列出它的工具：{reason}。装好后，服务器能连上时在「插件」里审核它的工具。",
        "en": "Could not list its tools: {reason}. Once installed, review its tools in Plugins when the server "
        "answers.",
    },
    "remote_claims": {"zh": "服务器自称：{hints}", "en": "The server claims: {hints}"},
    "remote_new": {"zh": "新工具", "en": "new"},
    "remote_changed": {"zh": "有变化（原为{effect}）", "en": "changed (was {effect})"},
    "remote_gone": {"zh": "不再提供：{tools}", "en": "No longer offered: {tools}"},
    "remote_effect_of": {"zh": "{tool} 的效果", "en": "Effect of {tool}"},
    "remote_review_title": {"zh": "审核远程工具", "en": "Review remote tools"},
    "remote_approve": {"zh": "启用", "en": "Turn on"},
    "remote_later": {"zh": "以后再说", "en": "Later"},
    "remote_approved": {"zh": "{name}：已启用 {count} 个工具", "en": "{name}: {count} tools turned on"},
    "remote_nothing_waits": {"zh": "{name}：没有等待审核的工具", "en": "{name}: no tools wait for review"},
    "remote_col_state": {"zh": "连接", "en": "Connection"},
    "remote_col_tools": {"zh": "已启用", "en": "On"},
    "remote_col_waiting": {"zh": "待审核", "en": "Waiting"},
    "remote_waiting": {"zh": "{count} 个工具有变化——审核", "en": "{count} tools changed — review"},
    "remote_state_idle": {"zh": "未连接（用到时再连）", "en": "not connected (connects when needed)"},
    "remote_state_connecting": {"zh": "连接中…", "en": "connecting…"},
    "remote_state_ready": {"zh": "已连接", "en": "connected"},
    "remote_state_needs_login": {"zh": "需要登录：{reason}", "en": "needs login: {reason}"},
    "remote_state_error": {"zh": "出错：{reason}", "en": "error: {reason}"},
}
