"""The gate's words: its decisions (permissions.decide), its outcomes, and what an unattended run may not send
(flows)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # -- the gate's decisions (permissions.decide) ---------------------------------------------------
    "effect_read": {"zh": "读取", "en": "read"},
    "effect_write": {"zh": "修改", "en": "write"},
    "effect_money": {"zh": "花钱", "en": "money"},
    "effect_public": {"zh": "公开", "en": "public"},
    "mode_allow": {"zh": "「允许」", "en": "allow"},
    "mode_ask": {"zh": "「先询问」", "en": "ask"},
    "mode_deny": {"zh": "「不能执行」", "en": "deny"},
    "why_user": {"zh": "是你自己启动的", "en": "you started it"},
    "why_user_only": {"zh": "这个工具只能由你自己点击运行", "en": "only you can run this tool, by your own click"},
    "why_scheduled_write": {
        "zh": "定时运行只能读取；这个工具的效果是「{effect}」",
        "en": "scheduled runs may only read; this tool's effect is {effect}",
    },
    "why_scheduled_attended": {
        "zh": "这个工具只在你和助手对话时可用，定时运行不能使用",
        "en": "this tool is only for a conversation with the student; scheduled runs may not use it",
    },
    "why_scheduled_mode": {
        "zh": "这个插件的读取工具设为{mode}；定时运行没法询问你",
        "en": "read tools of this plugin are set to {mode}; scheduled runs cannot ask",
    },
    "why_scheduled_read": {"zh": "这个插件允许的读取工具", "en": "a read tool allowed for this plugin"},
    "why_denied": {
        "zh": "这个插件的{effect}工具设为「不能执行」",
        "en": "{effect} tools of this plugin are set to deny",
    },
    "why_tainted": {
        "zh": "这段对话里有第三方的文字，所以每个修改都要你同意",
        "en": "this conversation contains third-party text, so every change needs your approval",
    },
    "why_ask": {
        "zh": "这个插件的{effect}工具设为「先询问」",
        "en": "{effect} tools of this plugin are set to ask",
    },
    "why_allowed": {
        "zh": "这个插件的{effect}工具设为「允许」",
        "en": "{effect} tools of this plugin are set to allow",
    },
    "why_tainted_by": {"zh": "{reason}（文字来自 {sources}）", "en": "{reason} (text from {sources})"},
    # -- the gate's outcomes ----------------------------------------------------------------------------
    "no_such_tool": {"zh": "没有工具 {name}", "en": "there is no tool {name!r}"},
    "not_run": {"zh": "没有运行：{why}（{reason}）", "en": "not run: {why} ({reason})"},
    "not_run_why": {"zh": "你拒绝了", "en": "you declined"},
    "no_approver": {"zh": "没有人在场可以同意", "en": "no one is there to approve it"},
    "not_run_because": {
        "zh": "你拒绝了：{reason}（不要再试这个调用）",
        "en": "you declined: {reason} (do not try this call again)",
    },
    "declined_because": {"zh": "你拒绝了：{reason}", "en": "you declined: {reason}"},
    "stopped_early": {"zh": "结束前被停止了", "en": "stopped before it ended"},
    # -- what an unattended run may send where (flows) --------------------------------------------------
    "flow_cross_plugin": {
        "zh": "定时任务不能把模型写的文字（{shown}）放进另一个插件的网络请求：这个任务里已经有 {others} 的结果，"
        "而 {tool}（{plugin}）会发送请求",
        "en": "a scheduled task may not pass text the model wrote ({shown}) into a network request of another "
        "plugin: results of {others} are in this task, and {tool} ({plugin}) sends requests",
    },
}
