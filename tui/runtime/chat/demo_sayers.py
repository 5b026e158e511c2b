"""How the demo model says each official tool's result (Markdown, in the student's language).

A sayer takes the result as the model received it (data when it was JSON) and never trusts its shape: a field
missing or of another type is left out, not an error. A refusal, a decline or an error is said for any tool.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Sayer = Callable[[dict[str, Any], Any, str], str]
LEVEL = {"high": ("很挤", "busy"), "medium": ("人不少", "fairly busy"), "low": ("人少", "quiet")}


def _t(zh: str, en: str, lang: str) -> str:
    return zh if lang == "zh" else en


def _items(data: Any, limit: int = 6) -> list[dict[str, Any]]:
    return [x for x in data if isinstance(x, dict)][:limit] if isinstance(data, list) else []


def rooms(args: dict[str, Any], data: Any, lang: str) -> str:
    if not isinstance(data, dict):
        return _raw(data, lang)
    lines = []
    for b in _items(data.get("buildings"), 4):
        free = [
            f"{r.get('room')}（{r.get('seats')} 座，第 {'、'.join(map(str, r.get('free') or []))} 节）"
            if lang == "zh"
            else f"{r.get('room')} ({r.get('seats')} seats, periods {', '.join(map(str, r.get('free') or []))})"
            for r in _items(b.get("rooms"), 8)
        ]
        lines.append(f"- **{b.get('building')}**：{'；'.join(free)}" if lang == "zh" else
                     f"- **{b.get('building')}**: {'; '.join(free)}")  # fmt: skip
    day = data.get("day", "")
    if not lines:
        return _t(f"{day}没有查到空闲教室。", "No free classrooms found.", lang)
    return _t(f"{day}的空闲教室：", "Free classrooms:", lang) + "\n\n" + "\n".join(lines)


def balance(args: dict[str, Any], data: Any, lang: str) -> str:
    if not isinstance(data, dict) or "balanceYuan" not in data:
        return _raw(data, lang)
    return _t(
        f"校园卡余额 **{data['balanceYuan']} 元**，今天已花 {data.get('todaySpentYuan', '?')} 元。",
        f"Your campus card has **{data['balanceYuan']} yuan**; {data.get('todaySpentYuan', '?')} spent today.",
        lang,
    )


def recharge(args: dict[str, Any], data: Any, lang: str) -> str:
    if not isinstance(data, dict):
        return _raw(data, lang)
    message = str(data.get("message") or "")
    return _t(f"充值 {data.get('amountYuan')} 元：{message}。现在余额 {data.get('balanceYuan')} 元。",
              f"Top-up of {data.get('amountYuan')} yuan: {message}. Balance now {data.get('balanceYuan')} yuan.",
              lang)  # fmt: skip


def shuttle(args: dict[str, Any], data: Any, lang: str) -> str:
    if not isinstance(data, dict):
        return _raw(data, lang)
    rows = []
    for d in _items(data.get("departures"), 4):
        later = _t("（明天）", " (tomorrow)", lang) if d.get("tomorrow") else ""
        rows.append(f"- {d.get('time')}{later}")
    head = _t(f"{data.get('from')} → {data.get('to')} 接下来的校车：", f"Next shuttles {data.get('from')} → "
              f"{data.get('to')}:", lang)  # fmt: skip
    return head + "\n\n" + "\n".join(rows) if rows else _t("今天没有校车了。", "No more shuttles.", lang)


def crowd(args: dict[str, Any], data: Any, lang: str) -> str:
    rows = []
    for c in _items(data):
        level = LEVEL.get(str(c.get("level")), ("", ""))
        rows.append(f"- {c.get('canteen')}：{c.get('people')}/{c.get('seats')} 人，{level[0]}" if lang == "zh" else
                    f"- {c.get('canteen')}: {c.get('people')}/{c.get('seats')}, {level[1]}")  # fmt: skip
    quiet = min(_items(data), key=lambda c: _ratio(c), default=None)
    tip = _t(f"\n\n人最少的是 **{quiet.get('canteen')}**。", f"\n\n**{quiet.get('canteen')}** is the quietest.",
             lang) if quiet else ""  # fmt: skip
    return _t("各食堂现在：", "The canteens now:", lang) + "\n\n" + "\n".join(rows) + tip if rows else _raw(data, lang)


def _ratio(c: dict[str, Any]) -> float:
    try:
        return float(c.get("people") or 0) / float(c.get("seats") or 1)
    except (TypeError, ValueError):
        return 1.0


def notices(args: dict[str, Any], data: Any, lang: str) -> str:
    rows = [f"- {n.get('date', '')} {n.get('source', '')}：{n.get('title', '')}" for n in _items(data, 5)]
    if not rows:
        return _raw(data, lang)
    note = _t("（通知来自学校网站，是第三方内容：之后助手要做修改时会先问你。）",
              "(From the university's sites: third-party text, so changes ask you first.)", lang)  # fmt: skip
    return _t("最新通知：", "Latest notices:", lang) + "\n\n" + "\n".join(rows) + "\n\n" + note


def grades(args: dict[str, Any], data: Any, lang: str) -> str:
    if isinstance(data, dict) and data.get("status") == "verification_required":
        return _t("查看成绩需要验证。", "Grades need a verification first.", lang)
    if not isinstance(data, dict) or "gpa" not in data:
        return _raw(data, lang)
    rows = [f"- {c.get('name')}：{c.get('grade')}（{c.get('credits')} 学分）" for c in _items(data.get("courses"))]
    return _t(f"总绩点 **{data['gpa']}**，{data.get('credits')} 学分：", f"GPA **{data['gpa']}**, "
              f"{data.get('credits')} credits:", lang) + "\n\n" + "\n".join(rows)  # fmt: skip


def send_code(args: dict[str, Any], data: Any, lang: str) -> str:
    return _t("验证码已发到你的手机。把收到的 6 位验证码发给我（演示里随便写 6 位数字就行）。",
              "The code was sent to your phone. Send me the 6 digits (in the demo any 6 digits do).", lang)  # fmt: skip


def remembered(args: dict[str, Any], data: Any, lang: str) -> str:
    return _t(f"记住了：{args.get('text', '')}", f"Remembered: {args.get('text', '')}", lang)


SAYERS: dict[str, Sayer] = {
    "classrooms__free": rooms,
    "wallet__cardBalance": balance,
    "wallet__recharge": recharge,
    "shuttle__next": shuttle,
    "canteen__crowd": crowd,
    "notices__latest": notices,
    "grades__scores": grades,
    "grades__sendCode": send_code,
    "memory__remember": remembered,
}


def failure(data: Any, lang: str) -> str | None:
    """A refusal, a decline or an error, said; None when the tool ran."""
    if not isinstance(data, dict) or len(data) != 1:
        return None
    ((kind, message),) = data.items()
    if kind == "declined" and "no one is there to approve" in str(message):  # `chat --once`: nobody could say yes
        return _t("这一步要你同意，命令行里没法问你，所以没有运行：在 App 的「助手」里再问我一次。",
                  "This step needs your approval, which the command line cannot ask for, so it did not run: ask me "
                  "again in the app's 助手 tab.", lang)  # fmt: skip
    if kind == "declined":  # the gate's sentence is for a model, in English: the student knows they said no
        return _t("你没有同意，所以没有运行。", "You said no, so it did not run.", lang)
    if kind in ("refused", "error"):
        return _t(f"没有成功：{message}", f"It did not work: {message}", lang)
    return None


def say_result(name: str, args: dict[str, Any], data: Any, lang: str) -> str:
    """One tool's result as the demo model says it."""
    failed = failure(data, lang)
    if failed is not None:
        return failed
    sayer = SAYERS.get(name)
    return sayer(args, data, lang) if sayer else _raw(data, lang)


def _raw(data: Any, lang: str) -> str:
    shown = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return _t("结果：", "Result: ", lang) + (shown[:400] + ("…" if len(shown) > 400 else ""))
