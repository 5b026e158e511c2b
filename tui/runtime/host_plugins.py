"""The app's own host plugins: memory, scheduler, dashboard and plugins (their ids are reserved)."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

from tui.lang.documents.tool import InputField
from tui.runtime.abilities import Abilities
from tui.runtime.registry import HostPlugin, NativeRun, NativeTool
from tui.runtime.store import Store


def _text(description: str, **kw: Any) -> InputField:
    return InputField(type="string", description=description, **kw)


def memory_plugin(store: Store) -> HostPlugin:
    """Facts the user asked the assistant to keep."""

    async def list_(args: dict[str, Any]) -> list[dict[str, Any]]:
        with store.lock:
            rows = store.db.execute("SELECT id, text, created_ms FROM memory ORDER BY created_ms").fetchall()
        return [{"id": r[0], "text": r[1]} for r in rows]

    async def remember(args: dict[str, Any]) -> dict[str, Any]:
        memory_id = "m-" + uuid.uuid4().hex[:10]
        with store.lock:
            store.db.execute(
                "INSERT INTO memory (id, text, created_ms) VALUES (?, ?, ?)",
                (memory_id, args["text"], int(time.time() * 1000)),
            )
        return {"id": memory_id, "text": args["text"]}

    async def forget(args: dict[str, Any]) -> dict[str, Any]:
        with store.lock:
            removed = store.db.execute("DELETE FROM memory WHERE id = ?", (args["id"],)).rowcount
        return {"id": args["id"], "removed": bool(removed)}

    return HostPlugin(
        "memory",
        "记忆",
        name_en="Memory",
        instructions="Use memory__remember only when the user asks you to remember something; "
        "memory__list before answering questions about the user's preferences.",
        tools={
            "list": NativeTool("记住的事", "Memories", "Facts the user asked to keep.", "read", list_),
            "remember": NativeTool(
                "记住一件事",
                "Remember",
                "Keep a fact the user asked you to remember.",
                "write",
                remember,
                {"text": _text("the fact, in the user's words", min=1, max=500, trim=True)},
            ),
            "forget": NativeTool(
                "忘掉一件事",
                "Forget",
                "Remove a kept fact by id.",
                "write",
                forget,
                {"id": _text("the memory's id, from memory__list")},
            ),
        },
    )


def scheduler_plugin(abilities: Abilities) -> HostPlugin:
    """Scheduled checks (they run with the scheduler; here they are created and listed)."""

    def via(op: str) -> Any:
        async def run(args: dict[str, Any]) -> Any:
            return await abilities.call("scheduler", f"scheduler.{op}", args)

        return run

    return HostPlugin(
        "scheduler",
        "定时检查",
        name_en="Scheduled checks",
        instructions="Create a scheduled check only when the user asks for a reminder or a regular check. Checks "
        "run read tools only, nobody watching; `check` is a condition over `result` and `previous` (the last run's "
        "result), e.g. `result.balanceYuan < 20` or `len(result) > len(previous ?? [])`; `message` is the "
        "notification text and may use ${result.x}. Or give `prompt` for a question the assistant answers on "
        "that schedule (read tools only).",
        tools={
            "list": NativeTool("定时检查", "Scheduled checks", "The user's scheduled checks.", "read", via("list")),
            "create": NativeTool(
                "新建定时检查",
                "New scheduled check",
                "Create a check that runs a read tool (or asks the assistant) on a schedule and notifies the user.",
                "write",
                via("create"),
                {
                    "title": _text("what the check is for", min=1, max=60),
                    "cron": _text("cron in Beijing time like '30 7 * * 1-5', or an interval like 'every 30m'"),
                    "tool": _text("the read tool to run, as plugin.tool", optional=True),
                    "args": InputField(type="object", optional=True, description="the tool's input"),
                    "check": _text("notify only when this is true, e.g. 'result.balanceYuan < 20'", optional=True),
                    "message": _text("the notification text; may use ${result.x}", optional=True),
                    "prompt": _text("or: a question for the assistant", optional=True),
                },
            ),
            "update": NativeTool(
                "开关定时检查",
                "Pause or resume a check",
                "Enable or disable a check.",
                "write",
                via("update"),
                {"id": _text("the check's id"), "enabled": InputField(type="boolean", description="run it or not")},
            ),
            "remove": NativeTool(
                "删除定时检查",
                "Remove a check",
                "Delete a scheduled check.",
                "write",
                via("remove"),
                {"id": _text("the check's id")},
            ),
        },
    )


def dashboard_plugin(sources: Any) -> HostPlugin:
    """What the dashboard can show: the data sources of every plugin."""

    async def list_sources(args: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"id": s.id, "title": s.title, "tool": f"{s.plugin}.{s.tool}", "args": s.args, "ttlMs": s.ttl_ms}
            for s in sources.list()
        ]

    return HostPlugin(
        "dashboard",
        "看板",
        name_en="Dashboard",
        instructions="dashboard__sources lists the live data widgets can show.",
        tools={
            "sources": NativeTool(
                "数据源", "Data sources", "The data sources of all installed plugins.", "read", list_sources
            ),
        },
    )


def plugins_plugin(install_link: NativeRun, find_tools: NativeRun) -> HostPlugin:
    """The plugin language for the assistant that writes plugins, starting an install from a link, and finding
    a tool among all installed ones (a request offers only the relevant ones when there are many:
    `chat/tool_selection.py`).

    `install_link` is the runtime's: it fetches and validates, then always shows the student the install review;
    the assistant only learns whether the student installed it.
    """

    async def reference(args: dict[str, Any]) -> dict[str, Any]:
        from tui.runtime.plugin_reference import reference as markdown  # built on first use: the app starts without

        section = args.get("section") or None
        # the first call builds the models' schemas (about a second of CPU): off the loop, so the app stays live
        text = await asyncio.to_thread(markdown, section)
        return {"spec": 1, "section": section or "index", "markdown": text}

    return HostPlugin(
        "plugins",
        "插件",
        name_en="Plugins",
        instructions=(
            "Before writing or changing a plugin, read plugins__reference (no section: the index, the essentials and "
            "a worked example; then the sections you need, e.g. manifest, tools, widgets, tests) and follow it "
            "exactly: the validator refuses anything it does not list. "
            "plugins__tools finds tools by what they do when none of the tools offered fits; the ones it finds "
            "can be called from then on."
        ),
        tools={
            "tools": NativeTool(
                "查找工具",
                "Find tools",
                "Search every installed plugin's tools by what they do (words in Chinese or English); "
                "returns their names to call.",
                "read",
                find_tools,
                {"query": _text("what the tool should do, e.g. 空教室 or card balance", optional=True)},
            ),
            "reference": NativeTool(
                "插件语言参考",
                "Plugin language reference",
                "The whole plugin language, for writing plugins: without a section the index (each section and its "
                "size), the essentials and a worked example; with one, that section.",
                "read",
                reference,
                {
                    "section": _text(
                        "one section: manifest, tools, expressions, library, library-text, widgets, screens, "
                        "abilities, tests or example; omit for the index",
                        optional=True,
                    )
                },
            ),
            "install": NativeTool(
                "安装插件",
                "Install a plugin",
                "Install a plugin from a link the user gave.",
                "write",
                install_link,
                {"link": _text("the plugin's link")},
                sends=True,
            ),
        },
    )
