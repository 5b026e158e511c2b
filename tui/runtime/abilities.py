"""Host abilities (seed page, 宿主能力): the app's own operations that plugins may call, with fixed effects.

Data abilities (todos, timetable, scheduler) live in the store: they are the user's own lists, and the plugin
that wrote an entry is kept as its `source`; a plugin reads and changes only the todos it added. Every ability's
arguments are checked against its declaration first (`ability_signatures.py`: unknown keys and wrong kinds are
refused). Abilities that need a person (a file, an SMS, opening a browser) go through `PersonUi`, which the
Textual app implements and the CLI implements with prompts; without one they fail with a clear message.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tui.lang.expr.secret import SecretValue
from tui.lang.host import HostError
from tui.runtime.ability_signatures import check_args
from tui.runtime.campus.session import CampusSession
from tui.runtime.campus.treehole import Treehole
from tui.runtime.campus.vault import KEYRING_SERVICE
from tui.runtime.outgoing import SecretGuard
from tui.runtime.scheduler.checks import Checks, read_tool
from tui.runtime.scheduler.notices import Notices
from tui.runtime.secrets import Secrets
from tui.runtime.store import Store

if TYPE_CHECKING:
    from tui.runtime.plugins import InstallChoice, InstallReview

__all__ = ["KEYRING_SERVICE", "Abilities", "PersonUi"]


class PersonUi(Protocol):
    """What only a person at the app can do."""

    async def open_url(self, url: str) -> bool: ...

    async def open_campus_page(self, service: str) -> bool: ...

    async def pick_files(self, types: list[str], multiple: bool) -> list[dict[str, Any]] | None: ...

    async def await_sms_code(self) -> str | None: ...

    async def review_install(self, review: InstallReview) -> bool | InstallChoice:
        """Show the install review; false when the student did not press 安装, else True or what they chose
        (a remote server's tools' effects)."""
        ...


def _ms() -> int:
    return int(time.time() * 1000)


def _need(args: Any, key: str, kind: type | tuple[type, ...], ability: str) -> Any:
    value = args.get(key) if isinstance(args, dict) else None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise HostError("ability", f"{ability} needs {key} ({names.replace('str', 'text')})")
    return value


class Abilities:
    """Runs host abilities for plugins."""

    def __init__(
        self, store: Store, secrets: Secrets, ui: PersonUi | None = None, campus: CampusSession | None = None
    ) -> None:
        self.store = store
        self.secrets = secrets
        self.ui = ui
        self.campus = campus or CampusSession(store, secrets)
        self.find_tool: Callable[[str], Any] | None = None
        """The registry's lookup (set by the runtime), so a scheduled check names an existing read tool."""
        self.notices: Notices | None = None
        """The notification centre (set by the runtime): a plugin's assistant task tells the student it waits."""
        self.treehole = Treehole(self.campus)
        self.guard = SecretGuard(secrets)
        """The app session's outgoing-request check: plugin hosts and verify.treehole's request use it."""

    async def call(self, plugin_id: str, name: str, args: Any) -> Any:
        """Run `group.op` for a plugin (the interpreter has already checked the declaration and the effect)."""
        handler = getattr(self, "_" + name.replace(".", "_"), None)
        if handler is None:
            raise HostError("ability", f"there is no host ability {name}")
        return await handler(plugin_id, check_args(name, args))  # what it takes: ability_signatures.py

    # -- todos ----------------------------------------------------------------------------------------
    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self.store.lock:
            return self.store.db.execute(sql, params).fetchall()

    def _exec(self, sql: str, params: tuple[Any, ...]) -> int:
        with self.store.lock:
            return self.store.db.execute(sql, params).rowcount

    @staticmethod
    def _todo(row: Any) -> dict[str, Any]:
        return {"id": row[0], "title": row[1], "due": row[2], "done": bool(row[3]), "source": row[4]}

    async def _todos_list(self, plugin: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        # A plugin sees the todos it added, not the student's whole list (another plugin's are not its business).
        include_done = bool(args.get("includeDone", False))
        limit = max(1, min(200, int(args.get("limit", 200))))
        rows = self._rows(
            "SELECT id, title, due, done, source FROM todos WHERE source = ?"
            + ("" if include_done else " AND done = 0")
            + " ORDER BY due IS NULL, due, created_ms LIMIT ?",
            (plugin, limit),
        )
        return [self._todo(r) for r in rows]

    def _own_todo(self, plugin: str, args: dict[str, Any], ability: str) -> str:
        """The id of one of the plugin's own todos (another plugin's is "no todo", as a missing one)."""
        todo_id = _need(args, "id", str, ability)
        if not self._rows("SELECT 1 FROM todos WHERE id = ? AND source = ?", (todo_id, plugin)):
            raise HostError("ability", f"{ability}: no todo {todo_id} of this plugin")
        return str(todo_id)

    async def _todos_add(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        title = _need(args, "title", str, "todos.add").strip()
        if not title or len(title) > 200:
            raise HostError("ability", "todos.add needs a title of 1-200 characters")
        due = args.get("due")
        todo_id = "t-" + uuid.uuid4().hex[:10]
        self._exec(
            "INSERT INTO todos (id, title, due, done, source, created_ms, updated_ms) VALUES (?, ?, ?, 0, ?, ?, ?)",
            (todo_id, title, due if isinstance(due, str) else None, plugin, _ms(), _ms()),
        )
        return {
            "id": todo_id,
            "title": title,
            "due": due if isinstance(due, str) else None,
            "done": False,
            "source": plugin,
        }

    async def _todos_update(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        todo_id = self._own_todo(plugin, args, "todos.update")
        fields = {k: args[k] for k in ("title", "due") if isinstance(args.get(k), str)}
        if not fields:
            raise HostError("ability", "todos.update needs a title or a due date to change")
        sets = ", ".join(f"{k} = ?" for k in fields)
        if not self._exec(f"UPDATE todos SET {sets}, updated_ms = ? WHERE id = ?", (*fields.values(), _ms(), todo_id)):
            raise HostError("ability", f"no todo {todo_id}")
        return self._todo(self._rows("SELECT id, title, due, done, source FROM todos WHERE id = ?", (todo_id,))[0])

    async def _todos_setDone(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        todo_id = self._own_todo(plugin, args, "todos.setDone")
        done = bool(args.get("done", True))
        if not self._exec("UPDATE todos SET done = ?, updated_ms = ? WHERE id = ?", (int(done), _ms(), todo_id)):
            raise HostError("ability", f"no todo {todo_id}")
        return {"id": todo_id, "done": done}

    async def _todos_remove(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        todo_id = self._own_todo(plugin, args, "todos.remove")
        return {"id": todo_id, "removed": bool(self._exec("DELETE FROM todos WHERE id = ?", (todo_id,)))}

    # -- timetable ------------------------------------------------------------------------------------
    async def _timetable_get(self, plugin: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT id, title, weekday, start, end, place, weeks, source FROM timetable ORDER BY weekday, start"
        )
        keys = ("id", "title", "weekday", "start", "end", "place", "weeks", "source")
        return [{**dict(zip(keys, r, strict=True)), "weeks": json.loads(r[6]) if r[6] else None} for r in rows]

    async def _timetable_upsert(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        title = _need(args, "title", str, "timetable.upsert")
        weekday = _need(args, "weekday", (int, float), "timetable.upsert")
        start = _need(args, "start", str, "timetable.upsert")
        end = _need(args, "end", str, "timetable.upsert")
        if not 1 <= weekday <= 7:
            raise HostError("ability", "timetable.upsert: weekday is 1 (Monday) to 7")
        entry_id = args.get("id") if isinstance(args.get("id"), str) else "c-" + uuid.uuid4().hex[:10]
        weeks = args.get("weeks")
        self._exec(
            "INSERT INTO timetable (id, title, weekday, start, end, place, weeks, source, updated_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title, "
            "weekday = excluded.weekday, start = excluded.start, end = excluded.end, place = excluded.place, "
            "weeks = excluded.weeks, updated_ms = excluded.updated_ms",
            (
                entry_id,
                title,
                int(weekday),
                start,
                end,
                args.get("place") if isinstance(args.get("place"), str) else None,
                json.dumps(weeks) if isinstance(weeks, list) else None,
                plugin,
                _ms(),
            ),
        )
        return {"id": entry_id, "title": title, "weekday": int(weekday), "start": start, "end": end}

    async def _timetable_remove(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        entry_id = _need(args, "id", str, "timetable.remove")
        return {"id": entry_id, "removed": bool(self._exec("DELETE FROM timetable WHERE id = ?", (entry_id,)))}

    # -- scheduler: checks run by tui.runtime.scheduler; here they are listed and changed --------------
    async def _scheduler_list(self, plugin: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        return [c.to_json() for c in Checks(self.store).all()]

    async def _scheduler_create(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        title = _need(args, "title", str, "scheduler.create")
        timing = args.get("schedule") if isinstance(args.get("schedule"), str) else args.get("cron")
        if not isinstance(timing, str):
            raise HostError("ability", "scheduler.create needs a schedule: cron like '30 7 * * 1-5' or 'every 30m'")
        tool = args.get("tool") if isinstance(args.get("tool"), str) else None
        condition = args.get("check") if isinstance(args.get("check"), str) else args.get("condition")
        tool_args = args.get("args")
        try:
            if tool and self.find_tool is not None:
                tool = read_tool(self.find_tool, tool, tool_args)
            check = Checks(self.store).add(
                title,
                timing,
                tool=tool,
                args=tool_args if isinstance(tool_args, dict) else None,
                condition=condition if isinstance(condition, str) else None,
                message=args.get("message") if isinstance(args.get("message"), str) else None,
                prompt=args.get("prompt") if isinstance(args.get("prompt"), str) else None,
                source=plugin,
                # A plugin's prompt runs the assistant with nobody watching: the student approves it first. The
                # `scheduler` host plugin is the assistant's tool, which the student allowed or approved.
                needs_approval=plugin != "scheduler",
            )
        except ValueError as e:
            raise HostError("ability", f"scheduler.create: {e}") from None
        if check.awaiting_approval and self.notices is not None:
            self.notices.add(
                check.id,
                check.title,
                f"插件 {plugin} 新建了定时助手任务「{check.title}」，等你批准后才会运行：设置 → 定时检查，"
                f"或 pku-harness scheduler approve {check.id}",
            )
        return check.to_json()

    async def _scheduler_update(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        schedule_id = _need(args, "id", str, "scheduler.update")
        enabled = bool(args.get("enabled", True))
        if not Checks(self.store).set_enabled(schedule_id, enabled):
            raise HostError("ability", f"no schedule {schedule_id}")
        return {"id": schedule_id, "enabled": enabled}

    async def _scheduler_remove(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        schedule_id = _need(args, "id", str, "scheduler.remove")
        return {"id": schedule_id, "removed": Checks(self.store).remove(schedule_id)}

    # -- secrets and crypto ---------------------------------------------------------------------------
    async def _otp_code(self, plugin: str, args: dict[str, Any]) -> SecretValue | None:
        """The mobile token's current code (SHA-1, 6 digits, 30 s) as a secret value, or null when none is bound.

        The plugin can pass it to verify.treehole and do nothing else with it (threats.md S2).
        """
        code = self.campus.otp_code()
        return None if code is None else SecretValue("otp.code", code)

    async def _crypto_sha256(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        text = _need(args, "text", str, "crypto.sha256")
        return {"hex": hashlib.sha256(text.encode()).hexdigest()}

    # -- a person's hands ----------------------------------------------------------------------------
    def _person(self, ability: str) -> PersonUi:
        if self.ui is None:
            raise HostError("ability", f"{ability} needs a person at the app, and nobody is there")
        return self.ui

    async def _browser_open(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        url = _need(args, "url", str, "browser.open")
        if not url.startswith("https://"):
            raise HostError("ability", "browser.open opens https:// URLs only")
        return {"opened": await self._person("browser.open").open_url(url)}

    async def _campusPage_open(self, plugin: str, args: dict[str, Any]) -> dict[str, Any]:
        service = _need(args, "service", str, "campusPage.open")
        return {"opened": await self._person("campusPage.open").open_campus_page(service)}

    async def _files_pick(self, plugin: str, args: dict[str, Any]) -> Any:
        types = [t for t in args.get("types", []) if isinstance(t, str)] if isinstance(args.get("types"), list) else []
        return await self._person("files.pick").pick_files(types, bool(args.get("multiple", False)))

    async def _sms_awaitCode(self, plugin: str, args: dict[str, Any]) -> Any:
        code = await self._person("sms.awaitCode").await_sms_code()
        return {"code": code}

    # -- treehole's second factor ---------------------------------------------------------------------
    async def _verify_treehole(self, plugin: str, args: dict[str, Any]) -> Any:
        check = self.guard.for_plugin(plugin)
        # The plugin wrote the request inside (url, query, json): checked like any of its requests; the code
        # argument is the secret this ability exists to receive, and goes only to treehole's check endpoint.
        return await self.treehole.verify(args, lambda r: check(r.method, r.url, r.headers, r.body))

    async def _verify_treeholeSendCode(self, plugin: str, args: dict[str, Any]) -> Any:
        return await self.treehole.send_code(args)

    # -- not here yet ---------------------------------------------------------------------------------
    async def _cloud_call(self, plugin: str, args: dict[str, Any]) -> Any:
        raise HostError("ability", "server functions are not open on the official PKU harness Cloud server yet")
