"""The app's own UI strings (Chinese and English): logging in to remote plugins' servers (设置 → 远程登录). The
login kinds' names (`remote_auth_*`) and the column's (`remote_auth`) are remote.py's, shared with the review."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "section_remote": {"zh": "远程登录", "en": "Remote logins"},
    "remote_logins_heading": {"zh": "远程插件的服务器登录", "en": "Logins to remote plugins' servers"},
    "remote_explain": {
        "zh": "远程插件的工具在别人的服务器上运行。登录信息只保存在系统钥匙串里，不写进 App 的数据和日志。",
        "en": "A remote plugin's tools run on someone else's server. Its login is kept in the system keyring only, "
        "never in the app's data or logs.",
    },
    "no_remote_plugins": {"zh": "还没有安装远程插件", "en": "No remote plugin is installed"},
    "remote_server": {"zh": "服务器", "en": "Server"},
    "remote_logged_in": {"zh": "已登录", "en": "logged in"},
    "remote_logged_out": {"zh": "未登录", "en": "not logged in"},
    "remote_pick": {"zh": "先在表格里选一个需要登录的远程插件", "en": "Choose a remote plugin that has a login first"},
    "remote_login_title": {"zh": "登录 {server}（{host}）", "en": "Log in to {server} ({host})"},
    "remote_token_explain": {
        "zh": "粘贴这个服务器给你的访问令牌。它只保存在系统钥匙串里；App 会先连一次服务器，确认它接受这个令牌。",
        "en": "Paste the access token this server gave you. It is kept in the system keyring only; the app first "
        "connects once to check that the server takes it.",
    },
    "remote_token_placeholder": {"zh": "访问令牌（不会显示）", "en": "Access token (hidden)"},
    "remote_oauth_explain": {
        "zh": "按「在浏览器中登录」会打开浏览器里的授权页面；在那里同意后，浏览器会回到这台电脑，App 自动完成登录。",
        "en": "Log in in the browser opens the server's consent page; once you agree there, the browser comes back "
        "to this computer and the app finishes the login.",
    },
    "remote_oauth_start": {"zh": "在浏览器中登录", "en": "Log in in the browser"},
    "remote_oauth_waiting": {
        "zh": "正在等浏览器（最多 {minutes} 分钟）。如果浏览器没有打开，请手动打开这个地址：",
        "en": "Waiting for the browser (at most {minutes} min). If it did not open, open this address yourself:",
    },
    "remote_checking": {"zh": "正在连接服务器确认…", "en": "Connecting to the server to check…"},
    "remote_done": {"zh": "已登录 {server}（{tools} 个工具）", "en": "Logged in to {server} ({tools} tools)"},
    "remote_done_unchecked": {
        "zh": "登录信息已保存，但暂时连不上服务器：{reason}",
        "en": "The login is kept, but the server cannot be reached now: {reason}",
    },
    "remote_fail_refused": {
        "zh": "服务器没有接受这次登录（{detail}）",
        "en": "The server did not take the login ({detail})",
    },
    "remote_fail_denied": {
        "zh": "授权页面上没有同意（{detail}）",
        "en": "Access was not granted on the consent page ({detail})",
    },
    "remote_fail_timeout": {"zh": "浏览器一直没有回来（{detail}）", "en": "The browser never came back ({detail})"},
    "remote_fail_network": {"zh": "连不上服务器（{detail}）", "en": "The server cannot be reached ({detail})"},
    "remote_fail_none": {"zh": "这个服务器不需要登录（{detail}）", "en": "This server needs no login ({detail})"},
    "remote_bad_token": {"zh": "这不像一个访问令牌：{detail}", "en": "That is not a token: {detail}"},
    "remote_no_keyring": {
        "zh": "这台电脑没有可用的钥匙串，远程服务器的登录无法保存（{detail}）",
        "en": "No usable keyring here, so a remote server's login cannot be kept ({detail})",
    },
    "remote_logout_confirm": {
        "zh": "退出 {server} 的登录？钥匙串里它的令牌和注册信息都会删除，之后要重新登录才能用它的工具。",
        "en": "Log out of {server}? Its tokens and client registration leave the keyring; its tools need a new login.",
    },
    "remote_logged_out_of": {"zh": "已退出 {server} 的登录", "en": "Logged out of {server}"},
}
