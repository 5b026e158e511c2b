"""The words of the page `pku-harness serve` shows around the app (Chinese and English): while it starts, once its
session has ended (the demo's keeps nothing), once the server has stopped, the button that starts another, and the
server's refusals (403), which are said in both languages: the page's language is not known to a refused client."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "web_title": {"zh": "PKU harness", "en": "PKU harness"},
    "web_starting": {"zh": "PKU harness 正在启动……", "en": "PKU harness is starting…"},
    "web_start": {"zh": "开始", "en": "Start"},
    "web_ended": {
        "zh": "这个会话已经结束（数据都已保存）。",
        "en": "This session has ended (everything is saved).",
    },
    "web_ended_demo": {
        "zh": "这个演示会话已经结束（演示不保存任何数据，下次打开是新的演示）。",
        "en": "This demo session has ended (the demo keeps nothing: the next one starts afresh).",
    },
    "web_stopped": {
        "zh": "PKU harness 的服务已经停止，这个页面连不上它了。在电脑上重新运行 pku-harness serve，再点下面的按钮。",
        "en": "The PKU harness server has stopped: this page cannot reach it. Run pku-harness serve on the computer "
        "again, then press the button below.",
    },
    "web_restart": {"zh": "重新打开", "en": "Open again"},
    "web_refused_host": {
        "zh": "这个页面只在这台电脑自己的地址上打开",
        "en": "this page answers on this machine's own address only",
    },
    "web_refused_origin": {
        "zh": "应用的连接只给这里提供的页面用",
        "en": "the app's connection is only for the page served here",
    },
    "web_refused_token": {
        "zh": "打开这个页面需要带令牌的链接（在运行 pku-harness serve 的地方打印出来）",
        "en": "this page needs the link with its token (printed where `pku-harness serve` runs)",
    },
}
