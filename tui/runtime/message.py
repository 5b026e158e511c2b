"""Sentences the runtime says to a person, as a key and arguments the app and the CLI translate.

The runtime cannot import the app's i18n table (layers: cli > app > runtime > lang), yet its refusals, login
states and notices reach the app's screens. So it says them as a `Message`: an i18n key with arguments, looked
up in `MESSAGES` (this module: the one table both tui.app and tui.cli can reach; the app's `t()` reads it too).

A `Message` is a `str` whose value is the English sentence, so every place that logs, audits, stores or hands
it to the model keeps working and stays readable (`str(exc)` in English). Only a screen translates:
`say(value, locale)` renders a `Message` in the locale and leaves any other string (a plugin's or a server's
words) as it is. An argument may be a message too, or a name in both languages (`{"zh": …, "en": …}`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MESSAGES: dict[str, dict[str, str]] = {
    # -- the gate's decisions (permissions.decide) ---------------------------------------------------
    "effect_read": {"zh": "读取", "en": "read"},
    "effect_write": {"zh": "修改", "en": "write"},
    "effect_money": {"zh": "金钱", "en": "money"},
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
    "stopped_early": {"zh": "结束前被停止了", "en": "stopped before it ended"},
    # -- the campus login -------------------------------------------------------------------------------
    "campus_not_logged_in": {
        "zh": "还没有登录{title}：请先登录（设置 → 校园账号，或 pku-harness login {name}）",
        "en": "not logged in to {title} ({name}): log in first (Settings → Campus account, or pku-harness login "
        "{name})",
    },
    "campus_needs_otp": {
        "zh": "登录{title}需要手机令牌验证码：请重新登录并填写，或绑定令牌",
        "en": "logging in to {title} needs the mobile-token code: log in again and enter it, or bind the token",
    },
    "campus_relogin_failed": {
        "zh": "重新登录{title}失败：{error}",
        "en": "logging in to {title} again failed: {error}",
    },
}


class Message(str):
    """A sentence for a person: an i18n key and its arguments; its `str` value is the English sentence."""

    key: str
    args: Mapping[str, Any]

    def __new__(cls, key: str, /, **args: Any) -> Message:
        """The message `key` with `args`; arguments that are themselves messages are translated with it."""
        self = super().__new__(cls, _render(key, args, "en"))
        self.key = key
        self.args = args
        return self

    def text(self, locale: str) -> str:
        """The sentence in `locale` ("zh" or "en")."""
        return _render(self.key, self.args, locale)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.key, dict(self.args)))


def _rebuild(key: str, args: dict[str, Any]) -> Message:
    return Message(key, **args)


def _render(key: str, args: Mapping[str, Any], locale: str) -> str:
    entry = MESSAGES.get(key)
    if entry is None:
        return key
    shown = {name: say(value, locale) for name, value in args.items()}
    try:
        return (entry.get(locale) or entry["en"]).format(**shown)
    except (KeyError, IndexError, ValueError):
        return entry["en"]


def say(value: object, locale: str) -> str:
    """`value` for a person reading `locale`: a `Message` translated, anything else as its own words."""
    if isinstance(value, Message):
        return value.text(locale)
    if isinstance(value, Mapping) and "zh" in value:  # a name in both languages (a campus service's title)
        return str(value.get(locale) or value["zh"])
    return value if isinstance(value, str) else str(value)
