"""The words of the page `pku-harness serve` shows around the app (Chinese and English): while it starts, once its
session has ended, and the button that starts another."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "web_title": {"zh": "PKU harness", "en": "PKU harness"},
    "web_starting": {"zh": "PKU harness 正在启动……", "en": "PKU harness is starting…"},
    "web_start": {"zh": "开始", "en": "Start"},
    "web_ended": {
        "zh": "这个会话已经结束（数据都已保存）。",
        "en": "This session has ended (everything is saved).",
    },
    "web_restart": {"zh": "重新打开", "en": "Open again"},
}
