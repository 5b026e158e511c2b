"""The app's own UI strings in Chinese (default) and English."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "home": {"zh": "首页", "en": "Home"},
    "assistant": {"zh": "助手", "en": "Assistant"},
    "plugins": {"zh": "插件", "en": "Plugins"},
    "settings": {"zh": "设置", "en": "Settings"},
    "loading": {"zh": "加载中…", "en": "Loading…"},
    "refresh": {"zh": "刷新", "en": "Refresh"},
    "quit": {"zh": "退出", "en": "Quit"},
    "assistant_soon": {
        "zh": "助手对话在下一个版本里提供。现在可以在「插件」里直接运行工具。",
        "en": "The assistant chat arrives in the next version. Tools can be run from Plugins.",
    },
    "permissions": {
        "zh": "权限：助手可以直接执行 (allow)、先询问 (ask) 或不能执行 (deny)",
        "en": "Permissions: the assistant may run (allow), must ask (ask) or may not run (deny)",
    },
    "plugin": {"zh": "插件", "en": "Plugin"},
    "tool": {"zh": "工具", "en": "Tool"},
    "effect": {"zh": "效果", "en": "Effect"},
    "mode": {"zh": "授权", "en": "Mode"},
    "demo": {"zh": "演示模式：数据来自录制，不联网", "en": "Demo mode: recorded data, no network"},
    "load_failed": {"zh": "数据没有取到", "en": "Could not load data"},
    "bad_url": {"zh": "只能打开 https 链接", "en": "Only https links can be opened"},
    "cancelled": {"zh": "已取消", "en": "Cancelled"},
    "needs_input": {"zh": "请补全标出的字段", "en": "Please fill in the marked fields"},
    "done": {"zh": "完成", "en": "Done"},
    "no_screen": {"zh": "没有这个页面", "en": "has no screen"},
    "yes": {"zh": "确定", "en": "Yes"},
    "no": {"zh": "取消", "en": "No"},
    "code_title": {"zh": "需要验证码", "en": "Verification code needed"},
    "code_placeholder": {"zh": "输入短信或动态口令验证码", "en": "SMS or one-time code"},
    "asked": {"zh": "已放进助手的输入框", "en": "Put into the assistant's input"},
    "run": {"zh": "运行", "en": "Run"},
    "running": {"zh": "运行中…", "en": "Running…"},
    "result": {"zh": "结果", "en": "Result"},
    "host_tool": {"zh": "这是应用自带的工具，由助手调用", "en": "This is a built-in tool; the assistant calls it"},
    "install_title": {"zh": "安装插件", "en": "Install plugin"},
    "official": {"zh": "官方插件", "en": "Official plugin"},
    "community": {"zh": "社区插件", "en": "Community plugin"},
    "reach": {"zh": "它能访问", "en": "What it can reach"},
    "campus": {
        "zh": "校园服务（用你的登录状态，插件看不到密码）",
        "en": "Campus services (as you; it never sees your password)",
    },
    "network": {"zh": "网站", "en": "Websites"},
    "abilities": {"zh": "App 功能", "en": "App abilities"},
    "none": {"zh": "无", "en": "none"},
    "tools": {"zh": "它能做", "en": "What it can do"},
    "user_only": {"zh": "仅限你自己操作", "en": "only you can run it"},
    "asks_first": {
        "zh": "社区插件的修改、金钱、公开工具一开始都是「先询问」；它的结果作为不可信数据交给助手。",
        "en": "A community plugin's write, money and public tools start as 'ask first'; its results reach the "
        "assistant as untrusted data.",
    },
    "instructions": {"zh": "给助手的说明", "en": "Instructions for the assistant"},
    "install": {"zh": "安装", "en": "Install"},
    "cancel": {"zh": "取消", "en": "Cancel"},
    "update_title": {"zh": "更新需要你同意", "en": "This update needs your approval"},
    "added": {"zh": "新增的访问范围", "en": "New reach"},
    "stronger": {"zh": "效果变强的工具", "en": "Tools with stronger effects"},
    "new_tool": {"zh": "新工具", "en": "new tool"},
    "removed": {"zh": "移除的工具", "en": "Removed tools"},
    "texts": {"zh": "说明有变化", "en": "Changed descriptions"},
    "accept": {"zh": "同意并更新", "en": "Accept update"},
    "title": {"zh": "名称", "en": "title"},
    "summary": {"zh": "简介", "en": "summary"},
    "description": {"zh": "给助手的说明", "en": "description for the assistant"},
    "keep": {"zh": "保留旧版本", "en": "Keep the old version"},
    "appearance": {"zh": "语言和主题", "en": "Language and theme"},
    "dark": {"zh": "深色", "en": "Dark"},
    "light": {"zh": "浅色", "en": "Light"},
    "audit": {"zh": "最近的工具调用（审计日志）", "en": "Recent tool calls (audit log)"},
    "go_to": {"zh": "切换到这个标签页", "en": "Go to this tab"},
    "switch_language": {"zh": "切换语言", "en": "Switch language"},
    "refresh_all": {"zh": "刷新全部小组件", "en": "Refresh all widgets"},
    "refresh_all_help": {"zh": "忽略缓存，重新取数据", "en": "Refetch, ignoring the cache"},
    "open_screen": {"zh": "打开插件页面", "en": "Open the plugin screen"},
    "load_timeout": {
        "zh": "{seconds} 秒内没有取到数据，按 r 重试",
        "en": "No data within {seconds} s; press r to retry",
    },
    "add_widget": {"zh": "添加小组件", "en": "Add a widget"},
    "nothing_to_add": {"zh": "所有小组件都在首页上了", "en": "Every widget is already on the dashboard"},
}


def t(key: str, locale: str) -> str:
    """A UI string in the locale (Chinese when English is missing)."""
    entry = STRINGS.get(key, {})
    return entry.get(locale) or entry.get("zh") or key
