"""The demo model's rules: which official tool a question needs, and how to say what the tool returned.

Questions are matched by keywords (Chinese and English) in the order of `INTENTS`; a result is said by the
tool's own sayer, any other one shortly as data. A tool that is not offered (its plugin removed, or set to
deny) is named instead of called. Two flows take a second tool: grades that need a verification send the SMS
first (a write: the approval card), and "read the notices and remember …" keeps a notice's title (a write
after untrusted text: the approval card says the conversation is tainted). Every answer says it is the demo.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tui.runtime.chat.demo_sayers import say_result

ZH_MARK = "【演示模型】"
EN_MARK = "[demo model] "
AMOUNTS = (10, 50, 100, 200, 500, 800)
CAMPUSES = {"昌平": "昌平校区", "医学部": "医学部", "万柳": "万柳", "燕园": "燕园"}
_BUILDING = re.compile(r"(一教|二教|三教|四教|理教|文史楼?|地学楼?|电教|光华楼?)")
_CODE = re.compile(r"(?<!\d)(\d{6})(?!\d)")

ASK_AMOUNT = {
    "zh": "校园卡只能充 10、50、100、200、500 或 800 元。要充多少？",
    "en": "The campus card takes 10, 50, 100, 200, 500 or 800 yuan. How much?",
}
HELP = {
    "zh": "我是离线的演示模型：不联网，按规则回答下面几类问题，用的是插件录好的数据。真正的模型在「设置 → 模型」里"
    "设置。可以试试：\n\n- 二教今天有哪些空教室？\n- 校园卡余额多少？\n- 给校园卡充值 50 元\n- 下一班去昌平的校车\n"
    "- 食堂现在人多吗？\n- 看看最新通知，把第一条记下来\n- 我的成绩\n- 帮我写一个显示图书馆新书的插件",
    "en": "I am the offline demo model: no network, a few kinds of questions answered by rules from the plugins' "
    "recorded data. Set up a real model in Settings → Model (设置 → 模型). Try:\n\n"
    "- Which classrooms are free in 二教 today?\n"
    "- What is my card balance?\n- Top up my card with 50 yuan\n- Next shuttle to 昌平\n- Are the canteens busy?\n"
    "- Read the latest notices and remember the first one\n- My grades\n- Write a plugin that shows new library books",
}


@dataclass
class Plan:
    """The demo model's next step: tool calls (model names with arguments) and/or text."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    text: str = ""


def language(messages: list[dict[str, Any]], default: str = "zh") -> str:
    """The student's language: their last message's (Chinese characters: zh; Latin letters: en), or for one with
    neither (a verification code) the message before's, else the app's."""
    for m in reversed(messages):
        if m.get("role") != "user":
            continue
        text = str(m.get("content") or "")
        if re.search(r"[\u4e00-\u9fff]", text):
            return "zh"
        if re.search(r"[A-Za-z]", text):
            return "en"
    return default


def said(zh: str, en: str, lang: str) -> str:
    return (ZH_MARK + zh) if lang == "zh" else (EN_MARK + en)


def last_user(messages: list[dict[str, Any]]) -> str:
    return next((str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "user"), "")


def _has(text: str, *words: str) -> bool:
    """Any of `words` in `text`: Chinese ones anywhere, English ones as whole words ("bus" is not in "busy")."""
    low = text.lower()
    for w in words:
        if re.search(r"[\u4e00-\u9fff]", w) or "\\" in w:
            if re.search(w, low):
                return True
        elif re.search(rf"\b{re.escape(w)}(s|es)?\b", low):
            return True
    return False


def _rooms_args(q: str) -> dict[str, Any]:
    args: dict[str, Any] = {}
    building = _BUILDING.search(q)
    if building:
        args["building"] = building.group(1).rstrip("楼")
    if _has(q, "明天", "tomorrow"):
        args["day"] = "tomorrow"
    elif _has(q, "后天"):
        args["day"] = "dayAfter"
    return args


def _shuttle_args(q: str) -> dict[str, Any]:
    named = [full for key, full in CAMPUSES.items() if key in q]
    origin = next((full for key, full in CAMPUSES.items() if f"从{key}" in q), "燕园")
    to = next((c for c in named if c != origin), "燕园" if origin != "燕园" else "昌平校区")
    return {"from": origin, "to": to}


def _amount(q: str) -> int | None:
    """The amount asked for; None when none is given; 0 when it is not one the card takes."""
    numbers = [int(n) for n in re.findall(r"\d+", q)]
    if not numbers:
        return None
    return next((n for n in numbers if n in AMOUNTS), 0)


def _remember_text(q: str) -> str:
    for key in ("记住", "remember"):
        i = q.lower().find(key)
        if i >= 0:
            return q[i + len(key) :].strip(" ：:，,。.") or q
    return q


#: (keywords, tool, arguments from the question), tried in order: the first that matches is the intent.
INTENTS: list[tuple[tuple[str, ...], str, Callable[[str], dict[str, Any]]]] = [
    (("成绩", "绩点", "gpa", "grade", "score"), "grades__scores", lambda q: {}),
    ((r"充值|充钱|充\s*\d", "recharge", "top up", "top-up"), "wallet__recharge", lambda q: {"amountYuan": _amount(q)}),
    (("余额", "校园卡", "饭卡", "balance"), "wallet__cardBalance", lambda q: {}),
    (("空教室", "空闲教室", "教室", "自习", "classroom", "room"), "classrooms__free", _rooms_args),
    (("校车", "班车", "shuttle", "bus"), "shuttle__next", _shuttle_args),
    (("食堂", "吃饭", "人多", "canteen", "dining", "crowd"), "canteen__crowd", lambda q: {}),
    (("通知", "公告", "notice", "news"), "notices__latest", lambda q: {"limit": 5}),
    (("记住", "remember"), "memory__remember", lambda q: {"text": _remember_text(q)}),
]


def plan_for(messages: list[dict[str, Any]], offered: set[str], locale: str = "zh") -> Plan:
    """The next step for the conversation as it stands (module docstring)."""
    q = last_user(messages)
    lang = language(messages, locale)
    if messages and messages[-1].get("role") == "tool":
        return _after_results(messages, offered, q, lang)
    code = _CODE.search(q)
    if code and any("grades__" in json.dumps(m.get("tool_calls") or "") for m in messages):
        return _call("grades__scores", {"code": code.group(1), "method": "sms"}, offered, lang)
    earlier = _notice(messages, q)
    if earlier is not None:  # "把第一条记下来" after the notices were read
        return _call("memory__remember", {"text": f"通知：{earlier}"}, offered, lang)
    for words, tool, make in INTENTS:
        if _has(q, *words):
            args = make(q)
            if tool == "wallet__recharge" and not args["amountYuan"]:
                return Plan(text=said(ASK_AMOUNT["zh"], ASK_AMOUNT["en"], lang))  # never a guessed amount
            return _call(tool, args, offered, lang)
    return Plan(text=said(HELP["zh"], HELP["en"], lang))


_NTH = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "first": 1, "second": 2, "third": 3}


def _notice(messages: list[dict[str, Any]], q: str) -> str | None:
    """The title of the notice a follow-up means ("记住第一条", "remember the second one"), when the notices were
    read earlier in this conversation; None otherwise."""
    if not _has(q, "记", "remember", "note"):
        return None
    which = re.search(r"第\s*([一二两三四五\d])\s*条|(first|second|third)", q.lower())
    if which is None:
        return None
    word = which.group(1) or which.group(2)
    n = int(word) if word.isdigit() else _NTH.get(word, 1)
    for name, _args, data in reversed(_results(messages, since_user=False)):
        if name == "notices__latest" and isinstance(data, list) and 0 < n <= len(data):
            item = data[n - 1]
            return str(item.get("title", "")) if isinstance(item, dict) else None
    return None


def _call(tool: str, args: dict[str, Any], offered: set[str], lang: str) -> Plan:
    if tool in offered:
        return Plan(calls=[(tool, args)])
    plugin = tool.split("__")[0]
    return Plan(text=said(f"这要用「{plugin}」插件的工具，但它现在没有提供给助手（没装，或被设为禁止）。",
                          f"That needs the {plugin} plugin's tool, which is not offered now (not installed, or "
                          "set to deny).", lang))  # fmt: skip


def answer_for(messages: list[dict[str, Any]], locale: str = "zh") -> str:
    """The help text (what the demo model understands)."""
    lang = language(messages, locale)
    return said(HELP["zh"], HELP["en"], lang)


def _results(messages: list[dict[str, Any]], since_user: bool = True) -> list[tuple[str, dict[str, Any], Any]]:
    """The calls since the student's last message (or in the whole conversation), in order: (tool name,
    arguments, the result as data, or the raw text)."""
    last = next((i for i, m in enumerate(reversed(messages)) if m.get("role") == "user"), 0)
    since = len(messages) - last if since_user else 0
    replies = {str(m.get("tool_call_id")): m.get("content") for m in messages[since:] if m.get("role") == "tool"}
    out = []
    for m in messages[since:]:
        for c in m.get("tool_calls") or [] if m.get("role") == "assistant" else []:
            fn = c.get("function") or {}
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except ValueError:
                args = {}
            out.append((str(fn.get("name")), args, _data(str(replies.get(str(c.get("id")), "")))))
    return out


def _data(content: str) -> Any:
    """A tool message's content as data (the untrusted-data notice line dropped), or the text itself."""
    if content.startswith("[untrusted data"):
        content = content.split("\n", 1)[-1]
    try:
        return json.loads(content)
    except ValueError:
        return content


def _called(messages: list[dict[str, Any]], tool: str) -> bool:
    """`tool` was called since the student's last message."""
    for m in reversed(messages):
        if m.get("role") == "user":
            return False
        if any((c.get("function") or {}).get("name") == tool for c in m.get("tool_calls") or []):
            return True
    return False


def _after_results(messages: list[dict[str, Any]], offered: set[str], q: str, lang: str) -> Plan:
    results = _results(messages)
    for name, _args, data in results:
        if (
            name == "grades__scores"
            and isinstance(data, dict)
            and data.get("status") == "verification_required"
            and not _called(messages, "grades__sendCode")
        ):
            return _call("grades__sendCode", {}, offered, lang)
        wants_note = _has(q, "记", "提醒", "remember", "note")
        first_time = not _called(messages, "memory__remember")
        if name == "notices__latest" and isinstance(data, list) and data and wants_note and first_time:
            first = data[0] if isinstance(data[0], dict) else {}
            return _call("memory__remember", {"text": f"通知：{first.get('title', '')}"}, offered, lang)
    parts = [say_result(name, args, data, lang) for name, args, data in results]
    return Plan(text=said("\n\n".join(parts), "\n\n".join(parts), lang))
