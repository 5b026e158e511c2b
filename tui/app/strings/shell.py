"""The app's own UI strings (Chinese and English): the shell, the assistant and the approval card: tabs, chat,
model errors, conversations."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "home": {"zh": "首页", "en": "Home"},
    "assistant": {"zh": "助手", "en": "Assistant"},
    "plugins": {"zh": "插件", "en": "Plugins"},
    "settings": {"zh": "设置", "en": "Settings"},
    "loading": {"zh": "加载中…", "en": "Loading…"},
    "refresh": {"zh": "刷新", "en": "Refresh"},
    "quit": {"zh": "退出", "en": "Quit"},
    "no_model_kept": {
        "zh": "还没有设置模型，消息留在输入框里：在「设置 → 模型」里选好模型后，按回车发送。",
        "en": "No model is set up yet, so your message stays in the box: choose one in Settings → Model, then "
        "press Enter.",
    },
    "no_model": {
        "zh": "还没有设置模型。在「设置 → 模型」里选择 DeepSeek、通义千问、OpenAI 或本地的 Ollama / vLLM / llama.cpp，"
        "或运行 pku-harness model set deepseek --api-key-stdin。没有模型也可以直接运行任何工具（Ctrl+T）。",
        "en": "No model is set up. Choose DeepSeek, Qwen, OpenAI or a local Ollama / vLLM / llama.cpp in Settings → "
        "Model, or run pku-harness model set deepseek --api-key-stdin. Without a model you can still run any tool "
        "(Ctrl+T).",
    },
    "run_tool": {"zh": "运行工具…", "en": "Run a tool…"},
    "chat_placeholder": {
        "zh": "问点什么，如：二教有空教室吗？（/ 快捷指令，Ctrl+J 换行）",
        "en": "Ask, e.g. free rooms in 二教? (/ commands, Ctrl+J new line)",
    },
    "send": {"zh": "发送", "en": "Send"},
    "approve_heading": {"zh": "助手想运行这个工具，需要你同意", "en": "The assistant wants to run this tool"},
    "why_ask": {"zh": "为什么问你", "en": "Why you are asked"},
    "allow_once": {"zh": "允许一次", "en": "Allow once"},
    "allow_always": {"zh": "总是允许（{effect}）", "en": "Always allow ({effect})"},
    "deny": {"zh": "拒绝", "en": "Deny"},
    "deny_reason": {"zh": "拒绝的理由（可选，会告诉助手）", "en": "Why not (optional; the assistant is told)"},
    "model_clear": {"zh": "移除", "en": "Remove"},
    "model_cleared": {
        "zh": "已移除模型（API key 仍在钥匙串里）",
        "en": "Model removed (its API key stays in the keyring)",
    },
    "preset_custom": {"zh": "其他 OpenAI 兼容服务", "en": "Other OpenAI-compatible"},
    "busy_kept": {
        "zh": "助手还在回答：这段话留在输入框里，回答完再发（Esc 停止回答）",
        "en": "The assistant is still answering: your text stays in the box (Esc stops the answer)",
    },
    "busy_card_kept": {
        "zh": "先回答上面的卡片：这段话留在输入框里，之后再发",
        "en": "Answer the card above first: your text stays in the box until then",
    },
    "card_keys": {
        "zh": "⏎ {choice}　←→ 换一个　打字会写进下面的输入框",
        "en": "⏎ {choice}   ←→ another answer   typing goes to the message box",
    },
    "card_keys_reason": {
        "zh": "⏎ 拒绝，并把理由告诉助手　Tab 回到按钮",
        "en": "⏎ Deny and tell the assistant why   Tab back to the buttons",
    },
    "decided_once": {"zh": "已允许一次", "en": "Allowed once"},
    "decided_always": {
        "zh": "已允许，并已在设置里把 {plugin} 的 {effect} 工具改为「允许」",
        "en": "Allowed; Settings now allow {plugin}'s {effect} tools",
    },
    "decided_always_tainted": {
        "zh": "；不过这段对话里有第三方的文字，之后的修改仍会先问你",
        "en": "; but while this conversation holds third-party text, changes still ask first",
    },
    "decided_deny": {"zh": "已拒绝", "en": "Denied"},
    "decided_stopped": {"zh": "已停止：没有运行", "en": "Stopped: not run"},
    "status_running": {"zh": "运行中", "en": "running"},
    "status_ok": {"zh": "完成", "en": "done"},
    "status_error": {"zh": "失败", "en": "failed"},
    "status_refused": {"zh": "被拒绝", "en": "refused"},
    "status_declined": {"zh": "未同意", "en": "declined"},
    "status_stopped": {"zh": "已停止", "en": "stopped"},
    "arguments": {"zh": "参数", "en": "Arguments"},
    "stopped": {"zh": "已停止", "en": "Stopped"},
    "reasoning": {"zh": "思考过程", "en": "Reasoning"},
    "waiting": {"zh": "服务器繁忙，{seconds} 秒后重试…", "en": "The server is busy; retrying in {seconds} s…"},
    "usage": {
        "zh": "tokens：输入 {prompt}，输出 {completion}，共 {total}",
        "en": "tokens: {prompt} in, {completion} out, {total} in all",
    },
    "answer_cut": {
        "zh": "回答到了长度上限（{tokens} tokens），没有说完：可以让它继续，或在「设置 → 模型」调高回答上限。",
        "en": "The answer hit the length limit ({tokens} tokens) and is not whole: ask it to go on, or raise the limit "
        "in Settings → Model.",
    },
    "usage_estimated": {
        "zh": "tokens（估算，服务器没有给出）：输入 ≈{prompt}，输出 ≈{completion}，共 ≈{total}",
        "en": "tokens (estimated: the server gave none): ≈{prompt} in, ≈{completion} out, ≈{total} in all",
    },
    "context_summary": {
        "zh": "较早的 {turns} 轮对话超出模型的上下文，只把摘要发给了模型",
        "en": "The {turns} earliest turns exceed the model's context: only a summary of them was sent",
    },
    "error_auth": {
        "zh": "API key 不对或没有权限：到「设置 → 模型」重新填写。",
        "en": "The API key was refused: fix it in Settings → Model.",
    },
    "error_balance": {
        "zh": "账户余额不足：请到服务商那里充值。",
        "en": "The account has no balance left: top it up with the provider.",
    },
    "error_model": {
        "zh": "服务器不认识这个模型：到「设置 → 模型」检查模型名和地址。",
        "en": "The server does not know this model: check the model name and URL in Settings → Model.",
    },
    "error_rate": {
        "zh": "服务器繁忙，请 {seconds} 秒后按 Ctrl+R 重试。",
        "en": "The server is busy; press Ctrl+R to retry in {seconds} s.",
    },
    "error_server": {
        "zh": "服务器出错了，稍后按 Ctrl+R 重试。",
        "en": "The server failed; press Ctrl+R to retry later.",
    },
    "error_timeout": {
        "zh": "服务器太久没有回答，按 Ctrl+R 重试。",
        "en": "The server took too long; press Ctrl+R to retry.",
    },
    "error_network": {
        "zh": "连不上服务器：检查网络和地址。",
        "en": "Cannot reach the server: check the network and the URL.",
    },
    "error_dropped": {"zh": "回答中途断了，按 Ctrl+R 重试。", "en": "The answer was cut off; press Ctrl+R to retry."},
    "error_request": {"zh": "请求没有完成。", "en": "The request did not complete."},
    "no_history": {"zh": "还没有对话记录", "en": "No conversations yet"},
    "history": {"zh": "对话记录", "en": "Conversations"},
    "chat_earlier": {"zh": "↑ 更早的消息（还有 {turns} 轮）", "en": "↑ Earlier messages ({turns} more turns)"},
    "history_search": {"zh": "搜索说过的话，如：空教室", "en": "Search what was said, e.g. free rooms"},
    "history_keys": {
        "zh": "输入文字查找 · ↓ 进入列表 · 回车打开 · Esc 关闭",
        "en": "Type to search · ↓ to the list · Enter opens · Esc closes",
    },
    "history_into_list": {"zh": "进入列表", "en": "To the list"},
    "history_all": {"zh": "共 {count} 段对话，最新的在前", "en": "{count} in all, newest first"},
    "history_newest": {
        "zh": "最新的 {count} 段对话；输入文字可找到更早的",
        "en": "The newest {count}; type to find older ones",
    },
    "history_hits": {"zh": "{count} 段对话提到「{query}」", "en": "{count} mention “{query}”"},
    "history_none": {"zh": "没有对话提到「{query}」", "en": "No conversation mentions “{query}”"},
    "retry_after_write": {
        "zh": "上一轮已经执行了会修改数据的工具，重试会再执行一次。确定重试？",
        "en": "The last turn already ran a tool that changes things; retrying runs it again. Retry?",
    },
    "retrying": {"zh": "重试…", "en": "Retrying…"},
    "exported": {"zh": "已导出到 {path}", "en": "Exported to {path}"},
    "exported_download": {
        "zh": "已把这段对话（{name}）交给浏览器下载",
        "en": "The conversation ({name}) went to the browser as a download",
    },
    "copied": {"zh": "已复制", "en": "Copied"},
    "copy_which": {"zh": "复制哪一条？", "en": "Copy which message?"},
    "editing": {
        "zh": "编辑后发送会替换这条消息和它之后的回答",
        "en": "Sending replaces this message and what followed",
    },
    "delete_question": {"zh": "删除这段对话？", "en": "Delete this conversation?"},
    "model": {"zh": "模型", "en": "Model"},
    "model_compatible": {
        "zh": "兼容 OpenAI 接口的服务都可以：DeepSeek、通义千问、OpenAI，或本机的 Ollama、vLLM、llama.cpp",
        "en": "Any OpenAI-compatible service: DeepSeek, Qwen, OpenAI, or a local Ollama, vLLM or llama.cpp",
    },
    "model_provider": {"zh": "服务商", "en": "Provider"},
    "model_url": {"zh": "地址", "en": "Base URL"},
    "api_key_hint": {
        "zh": "粘贴 API key，回车保存（本机服务不用填）",
        "en": "Paste the API key, Enter saves (none for a local server)",
    },
    "model_name": {"zh": "模型名", "en": "Model name"},
    "api_key": {"zh": "API key（保存在系统钥匙串里）", "en": "API key (kept in the system keyring)"},
    "save": {"zh": "保存", "en": "Save"},
    "model_none": {"zh": "还没有设置模型", "en": "No model set up yet"},
    "model_tokens": {
        "zh": "上下文窗口 / 回答上限（tokens，空着用预设值）",
        "en": "Context window / answer limit (tokens; empty: the preset's)",
    },
    "model_window": {"zh": "一次请求最多能装多少 tokens", "en": "The most tokens one request may hold"},
    "model_answer": {
        "zh": "一个回答最多多少 tokens（max_tokens）",
        "en": "The most tokens one answer may take (max_tokens)",
    },
    "model_tokens_state": {"zh": "窗口 {window}，回答上限 {answer}", "en": "window {window}, answers up to {answer}"},
    "demo_model_hint": {
        "zh": "演示模式：还没有设置模型，由离线的演示模型按规则回答，工具用插件录好的数据。试试：二教今天有哪些空教室？"
        "校园卡余额多少？给校园卡充值 50 元。看看最新通知，把第一条记下来。我的成绩。帮我写一个显示图书馆新书的插件。"
        "（真正的模型在「设置 → 模型」里设置。）",
        "en": "Demo: no model is set up, so the offline demo model answers by rules, with the plugins' recorded data. "
        "Try: Which classrooms are free in 二教 today? What is my card balance? Top up my card with 50 yuan. Read the "
        "latest notices and remember the first one. My grades. Write a plugin that shows new library books. (Set up "
        "a real model in Settings → Model.)",
    },
    "model_demo_in_use": {
        "zh": "还没有设置模型：演示模式下由离线的演示模型回答（按规则，只认得几类问题）",
        "en": "No model set up: in the demo the offline demo model answers (by rules, a few kinds of questions)",
    },
    "key_saved": {"zh": "API key 已保存", "en": "API key saved"},
    "key_missing": {"zh": "没有保存 API key", "en": "no API key saved"},
    "model_saved": {"zh": "模型设置已保存", "en": "Model saved"},
    "permissions": {
        "zh": "权限：助手用这些工具时 允许（直接执行）、先询问 或 不能执行（回车切换）",
        "en": "Permissions: when the assistant uses a tool: allow (it runs), ask first, or deny (Enter changes it)",
    },
    "plugin": {"zh": "插件", "en": "Plugin"},
    "time": {"zh": "时间", "en": "Time"},
    "campus_short": {"zh": "校园服务", "en": "Campus"},
    "tool": {"zh": "工具", "en": "Tool"},
    "effect": {"zh": "效果", "en": "Effect"},
    "mode": {"zh": "授权", "en": "Mode"},
    "demo": {"zh": "演示模式：数据来自录制，不联网", "en": "Demo mode: recorded data, no network"},
    # an author's PKU_HARNESS_DEV_ORIGINS (or a preview's --origin): "api.example.com → http://127.0.0.1:8000"
    "dev_mode": {"zh": "开发模式：{mappings}", "en": "Dev mode: {mappings}"},
    "audit_dev": {"zh": "开发模式", "en": "dev mode"},  # beside the outcome of a call made in dev mode
    # --- telling the student the app waits for them (attention.py; issue 19 item 6) ---
    # the window title: "● PKU harness — …"
    "attention_window": {"zh": "● PKU harness — {what}", "en": "● PKU harness — {what}"},
    "attention_window_approval": {"zh": "等待你的确认", "en": "waiting for your approval"},
    "attention_window_code": {"zh": "等待你输入验证码", "en": "waiting for a code"},
    "attention_window_answer": {"zh": "助手已回答", "en": "answered"},
    # the desktop notification's title
    "attention_approval": {"zh": "助手等你确认", "en": "The assistant waits for your approval"},
    "attention_code": {"zh": "需要你输入验证码", "en": "A verification code is needed"},
    "attention_answer": {"zh": "助手回答完了", "en": "The assistant has answered"},
    "attention_come_back": {"zh": "回到 PKU harness 查看", "en": "Back in PKU harness to see it"},
    "attention_took": {"zh": "用了 {seconds} 秒", "en": "It took {seconds} s"},
}
