"""Sample reviews for the dialogs' tests, the screenshots and `--demo` (a community plugin, a paused update)."""

from __future__ import annotations

from tui.runtime.plugins import (
    EffectChange,
    GuardChange,
    InstallReview,
    ModeChange,
    TextChange,
    ToolReview,
    UpdateReview,
)

SAMPLE_INSTALL = InstallReview(
    plugin_id="library-seats",
    name="图书馆座位",
    version="0.3.1",
    author="someone@pku",
    description="查询和预约图书馆座位，到时间提醒签到。",
    official=False,
    source="https://github.com/someone/pku-plugins/tree/main/library-seats",
    campus=["library-space"],
    network=["seats.example.edu.cn"],
    abilities=["scheduler", "todos"],
    tools=[
        ToolReview("free", "空闲座位", "按楼层看现在空着的座位", "read"),
        ToolReview("book", "预约座位", "预约一个座位，默认两小时", "write"),
        ToolReview("pay", "支付违约金", None, "money", user_only=True),
    ],
    instructions="Use `library-seats__free` for free seats. **Never** book without the user saying which seat.\n",
)

SAMPLE_UPDATE = UpdateReview(
    plugin_id="library-seats",
    name="图书馆座位",
    old_version="0.3.1",
    new_version="0.4.0",
    added_network=["api.example.com"],
    added_abilities=["sms"],
    stronger=[EffectChange("book", "write", "money"), EffectChange("share", None, "public")],
    added_tools=["share"],
    removed_tools=["pay"],
    texts=[TextChange("free", "description", "Free seats per floor.", "Free seats per floor, and the user's phone.")],
    loosened=[ModeChange("read", "ask", "allow")],
    lost_guards=[GuardChange("book", "userOnly")],
)
