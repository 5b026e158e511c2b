"""Scheduled checks and assistant tasks: refusing a check as it is made (checks.py, timing.py) and what a run
says in its log, its state and its notification (runner.py, tasks.py)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # -- making a check (checks.py, timing.py) ------------------------------------------------------------------
    "check_reads_only": {
        "zh": "定时检查只能运行读取工具；{tool} 的效果是「{effect}」",
        "en": "checks run read tools only; {tool} is {effect}",
    },
    "check_what_condition": {"zh": "条件", "en": "condition"},
    "check_what_message": {"zh": "消息模板", "en": "message"},
    "check_not_compiling": {"zh": "{what}写得不对：{error}", "en": "the {what} does not compile: {error}"},
    "check_unknown_name": {
        "zh": "{what}用了 {name!r}，定时检查里没有它：只有 result、previous 和 now",
        "en": "the {what} uses {name!r}, which a check does not have: it has result, previous and now",
    },
    "check_tool_or_prompt": {
        "zh": "定时检查要么运行一个读取工具（tool），要么运行一段助手提示（prompt）",
        "en": "a check runs either a read tool (tool) or an assistant prompt (prompt)",
    },
    "check_needs_title": {"zh": "定时检查需要一个标题", "en": "a check needs a title"},
    "timing_every_minutes": {"zh": "每 {n} 分钟", "en": "every {n} min"},
    "timing_every_hour": {"zh": "每小时", "en": "every hour"},
    "timing_every_hours": {"zh": "每 {n} 小时", "en": "every {n} h"},
    "timing_every_day": {"zh": "每天", "en": "every day"},
    "timing_every_days": {"zh": "每 {n} 天", "en": "every {n} days"},
    "timing_daily": {"zh": "每天 {at}", "en": "daily at {at}"},
    "timing_weekdays": {"zh": "工作日 {at}", "en": "weekdays at {at}"},
    "timing_weekends": {"zh": "周末 {at}", "en": "weekends at {at}"},
    "timing_weekly": {"zh": "每{day} {at}", "en": "{day}s at {at}"},
    "timing_cron": {"zh": "cron {text}（北京时间）", "en": "cron {text} (Beijing time)"},
    "weekday_0": {"zh": "周日", "en": "Sunday"},
    "weekday_1": {"zh": "周一", "en": "Monday"},
    "weekday_2": {"zh": "周二", "en": "Tuesday"},
    "weekday_3": {"zh": "周三", "en": "Wednesday"},
    "weekday_4": {"zh": "周四", "en": "Thursday"},
    "weekday_5": {"zh": "周五", "en": "Friday"},
    "weekday_6": {"zh": "周六", "en": "Saturday"},
    "timing_too_often": {"zh": "定时检查最多每分钟运行一次", "en": "a check runs at most once a minute"},
    "timing_bad": {
        "zh": "{text!r} 不是有效的时间：请写北京时间的 cron 表达式，如 '30 7 * * 1-5'（工作日 07:30），"
        "或间隔，如 'every 30m'、'every 2h'、'every 1d'",
        "en": "{text!r} is not a schedule: write a cron expression in Beijing time like '30 7 * * 1-5' "
        "(07:30 on weekdays) or an interval like 'every 30m', 'every 2h', 'every 1d'",
    },
    # -- a run (runner.py, tasks.py) ----------------------------------------------------------------------------
    "run_no_tool": {
        "zh": "没有工具 {tool!r}（它的插件被删除了吗？）",
        "en": "there is no tool {tool!r} (was its plugin removed?)",
    },
    "run_refresh_failed": {"zh": "刷新失败", "en": "the refresh failed"},
    "run_condition_failed": {"zh": "条件算不出来：{error}", "en": "the condition failed: {error}"},
    "run_condition_not_met": {"zh": "条件不满足", "en": "condition not met"},
    "run_template_failed": {
        "zh": "{title}（消息模板出错：{error}）",
        "en": "{title} (the message template failed: {error})",
    },
    "run_met": {"zh": "{title}：条件满足", "en": "{title}: condition met"},
    "run_updated": {"zh": "{title}：已更新", "en": "{title}: updated"},
    "run_no_model": {
        "zh": "还没有为助手任务设置模型（设置 → 模型）",
        "en": "no model is set up for assistant tasks (Settings → Model)",
    },
    "task_no_answer": {"zh": "（没有回答）", "en": "(no answer)"},
    "task_refused": {
        "zh": "{answer}\n\n（定时任务拒绝了这些调用）\n{calls}",
        "en": "{answer}\n\n(the scheduled task refused these calls)\n{calls}",
    },
    "task_refused_call": {"zh": "- {tool}：{reason}", "en": "- {tool}: {reason}"},
}
