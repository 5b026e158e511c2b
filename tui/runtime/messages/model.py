"""What the assistant's model connection says when a request fails (`tui.runtime.chat.client.ModelError`).

The chat shows a line of what to do (the app's table) and under it this sentence; the server's own words
(`body`, an exception's text) stay as they came: they are data, not the app's sentence.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "model_dropped_empty": {
        "zh": "服务器在发送任何内容之前关闭了连接（llama.cpp 在请求超出它的上下文窗口时会这样："
        "到「设置 → 模型」把上下文窗口改成服务器的 -c / n_ctx）",
        "en": "the server closed the stream before sending anything (llama.cpp does this when a request exceeds its "
        "context window: set the context window in Settings → Model to the server's -c / n_ctx)",
    },
    "model_timeout": {"zh": "{seconds} 秒内没有回答", "en": "no answer after {seconds} s"},
    "model_connect": {"zh": "连接 {url} 失败：{cause}", "en": "connection to {url} failed: {cause}"},
    "model_stream_broke": {"zh": "回答的数据流中断：{cause}", "en": "the stream broke: {cause}"},
    "model_auth": {
        "zh": "服务器拒绝了 API 密钥（HTTP {status}）：{body}",
        "en": "the server refused the API key (HTTP {status}): {body}",
    },
    "model_balance": {
        "zh": "账户余额不足（HTTP 402）：{body}",
        "en": "the account has no balance left (HTTP 402): {body}",
    },
    "model_unknown": {
        "zh": "服务器不认识这个模型或路径（HTTP 404）：{body}",
        "en": "the server does not know this model or path (HTTP 404): {body}",
    },
    "model_busy": {"zh": "服务器繁忙（HTTP {status}）：{body}", "en": "the server is busy (HTTP {status}): {body}"},
    "model_failed": {"zh": "服务器出错（HTTP {status}）：{body}", "en": "the server failed (HTTP {status}): {body}"},
    "model_refused": {
        "zh": "服务器拒绝了这个请求（HTTP {status}）：{body}",
        "en": "the server refused the request (HTTP {status}): {body}",
    },
    "model_unknown_provider": {
        "zh": "没有叫 {provider!r} 的模型服务；可选：{known}",
        "en": "unknown provider {provider!r}; one of: {known}",
    },
    "model_needs_url": {
        "zh": "{provider} 需要填写地址（--base-url，以 http:// 或 https:// 开头）",
        "en": "{provider} needs --base-url (http:// or https://)",
    },
    "model_window_small": {
        "zh": "上下文窗口 {tokens} 太小：至少 1024 个 token",
        "en": "a context window of {tokens} tokens is too small: at least 1,024",
    },
    "model_answer_tokens": {
        "zh": "回答上限 {tokens} 不合适：应在 16 到上下文窗口（{window}）的一半之间",
        "en": "an answer limit of {tokens} tokens does not work: between 16 and half the context window ({window})",
    },
    "model_needs_name": {
        "zh": "{provider} 需要填写模型名（--model：服务器加载了哪个模型就写哪个）",
        "en": "{provider} needs --model (the server serves whatever it loaded; name it)",
    },
    "model_no_keyring": {
        "zh": "没有可用的钥匙串（例如没有 Secret Service 的 Linux），API key 无法保存：请安装并解锁钥匙串"
        "（gnome-keyring、KeePassXC），或每次运行时用 --api-key-env VAR 提供。本应用从不以明文保存密钥。",
        "en": "no usable keyring backend (e.g. a headless Linux without Secret Service), so the API key cannot be "
        "saved; install and unlock a keyring (gnome-keyring, KeePassXC), or give the key for each run with "
        "--api-key-env VAR. The app never stores keys in plain text.",
    },
    "model_no_keyring_because": {"zh": "{sentence}（{error}）", "en": "{sentence} ({error})"},
    # -- a conversation exported as Markdown (history.export_markdown) -----------------------------------
    "export_you": {"zh": "你", "en": "You"},
    "export_assistant": {"zh": "助手", "en": "Assistant"},
    "export_call": {"zh": "工具 `{name}`，参数 `{arguments}`", "en": "tool `{name}` with `{arguments}`"},
    "export_status_ok": {"zh": "完成", "en": "done"},
    "export_status_error": {"zh": "失败", "en": "failed"},
    "export_status_refused": {"zh": "被拒绝", "en": "refused"},
    "export_status_declined": {"zh": "未同意", "en": "declined"},
    "model_rounds": {
        "zh": "连续 {rounds} 轮工具调用后停下了；再问一次可以继续",
        "en": "stopped after {rounds} rounds of tool calls; ask again to continue",
    },
}
