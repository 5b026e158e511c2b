"""What each host ability takes and gives back, declared once: the arguments are checked against it before the
ability runs, and docs/PLUGIN-LANGUAGE.md §16 is generated from it (a test keeps the two equal).

A plugin's arguments are checked strictly: a key the ability does not take is refused (a misspelt `dueDate`
was dropped silently and the todo saved without its date), and so is a value of the wrong kind (`due: 'tomorrow'`
was stored as the text "tomorrow"; `due: 3` became null). The checks say which ability, which argument and what
it takes, in the words a plugin author reads in the docs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from tui.lang.documents.manifest import ABILITIES
from tui.lang.host import HostError

Kind = Literal["text", "number", "boolean", "date", "time", "list", "object", "request"]

#: How each kind is written in the docs and in a refusal.
KIND_WORDS: dict[str, str] = {
    "text": "text",
    "number": "a number",
    "boolean": "true or false",
    "date": "a date, 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM' (Beijing time)",
    "time": "a time, 'HH:MM'",
    "list": "a list",
    "object": "an object",
    "request": "a request object { url, method?, query?, json? } to treehole",
}


@dataclass(frozen=True)
class Arg:
    """One argument of an ability."""

    name: str
    kind: Kind
    required: bool = False
    note: str = ""


@dataclass(frozen=True)
class Signature:
    """An ability's arguments and the shape of its result."""

    args: tuple[Arg, ...]
    result: str
    note: str = ""


def _a(name: str, kind: Kind, note: str = "") -> Arg:
    return Arg(name, kind, True, note)


def _o(name: str, kind: Kind, note: str = "") -> Arg:
    return Arg(name, kind, False, note)


TODO = "{ id, title, due, done, source }"
SIGNATURES: dict[str, Signature] = {
    "verify.treehole": Signature(
        (
            _a("request", "request"),
            _o("code", "text", "the code the student gave"),
            _o("via", "text", "'sms' (default) or 'otp'"),
            _o("kind", "text", "'login' or 'course', when no verification is waiting"),
        ),
        "treehole's JSON answer, or { status: 'verification_required', kind, methods, message, next }",
    ),
    "verify.treeholeSendCode": Signature(
        (_o("kind", "text", "'login' or 'course', when no verification is waiting"),), "{ sent: true, kind, message }"
    ),
    "otp.code": Signature((), "the mobile token's current code as a secret (§1), or null when no token is bound"),
    "todos.list": Signature(
        (_o("includeDone", "boolean", "default false"), _o("limit", "number", "1–200, default 200")),
        f"[{TODO}], due first (soonest first), then undated",
        "only the todos this plugin added",
    ),
    "todos.add": Signature(
        (_a("title", "text", "1–200 characters"), _o("due", "date")),
        TODO,
        "the todo is the student's, marked as this plugin's",
    ),
    "todos.update": Signature(
        (_a("id", "text"), _o("title", "text", "1–200 characters"), _o("due", "date")),
        TODO,
        "one of this plugin's todos",
    ),
    "todos.setDone": Signature(
        (_a("id", "text"), _o("done", "boolean", "default true")), "{ id, done }", "one of this plugin's todos"
    ),
    "todos.remove": Signature((_a("id", "text"),), "{ id, removed }", "one of this plugin's todos"),
    "timetable.get": Signature((), "[{ id, title, weekday, start, end, place, weeks, source }]"),
    "timetable.upsert": Signature(
        (
            _o("id", "text", "to replace an entry"),
            _a("title", "text"),
            _a("weekday", "number", "1 (Monday) to 7"),
            _a("start", "time"),
            _a("end", "time"),
            _o("place", "text"),
            _o("weeks", "list", "of week numbers"),
        ),
        "{ id, title, weekday, start, end }",
    ),
    "timetable.remove": Signature((_a("id", "text"),), "{ id, removed }"),
    "scheduler.list": Signature(
        (),
        "[{ id, title, schedule, kind, tool?, args?, condition?, message?, prompt?, enabled, nextMs, lastMs, source, "
        "lastError?, awaitingApproval? }]",
    ),
    "scheduler.create": Signature(
        (
            _a("title", "text"),
            _o("schedule", "text", "cron like '30 7 * * 1-5' or 'every 30m'"),
            _o("cron", "text", "the same as schedule"),
            _o("tool", "text", "a read tool, `plugin.tool`"),
            _o("args", "object", "the tool's input"),
            _o("check", "text", "an expression over `result`"),
            _o("condition", "text", "the same as check"),
            _o("message", "text"),
            _o("prompt", "text", "for the assistant; the student approves it first"),
        ),
        "the check, as scheduler.list gives it",
    ),
    "scheduler.update": Signature((_a("id", "text"), _o("enabled", "boolean", "default true")), "{ id, enabled }"),
    "scheduler.remove": Signature((_a("id", "text"),), "{ id, removed }"),
    "browser.open": Signature((_a("url", "text", "https:// only"),), "{ opened }"),
    "campusPage.open": Signature((_a("service", "text", "a campus service id"),), "{ opened }"),
    "sms.awaitCode": Signature((), "{ code } (null when the student gave none)"),
    "files.pick": Signature(
        (_o("types", "list", "of extensions"), _o("multiple", "boolean", "default false")),
        "[{ name, size, path }], or null when the student chose none",
    ),
    "crypto.sha256": Signature((_a("text", "text"),), "{ hex }"),
    "cloud.call": Signature(
        (_a("fn", "text", "a server function of the plugin"), _o("args", "object")),
        "not open yet: fails with a message",
    ),
}

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?")
_TIME = re.compile(r"\d{2}:\d{2}")


def _fits(kind: Kind, value: Any) -> bool:
    if kind == "text":
        return isinstance(value, str)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "list":
        return isinstance(value, list)
    if kind in ("object", "request"):
        return isinstance(value, dict)
    if kind == "time":
        return isinstance(value, str) and bool(_TIME.fullmatch(value)) and value[:2] < "24" and value[3:] < "60"
    if not isinstance(value, str) or not _DATE.fullmatch(value):  # a date
        return False
    try:
        (datetime.strptime(value, "%Y-%m-%d %H:%M") if " " in value else date.fromisoformat(value))
    except ValueError:
        return False  # 2026-02-30
    return True


def check_args(name: str, args: Any) -> dict[str, Any]:
    """`args` if they are what `name` takes; else a HostError naming the ability, the argument and what it takes.
    A null value counts as left out."""
    signature = SIGNATURES.get(name)
    if signature is None:
        return args if isinstance(args, dict) else {}
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise HostError("ability", f"{name} takes an object of arguments, not {type(args).__name__}")
    known = {a.name: a for a in signature.args}
    unknown = sorted(set(args) - set(known))
    if unknown:
        takes = ", ".join(known) or "no arguments"
        raise HostError("ability", f"{name} does not take {', '.join(unknown)} (it takes: {takes})")
    for arg in signature.args:
        value = args.get(arg.name)
        if value is None:
            if arg.required:
                raise HostError("ability", f"{name} needs {arg.name}: {KIND_WORDS[arg.kind]}")
            continue
        if not _fits(arg.kind, value):
            raise HostError("ability", f"{name}: {arg.name} must be {KIND_WORDS[arg.kind]}, not {value!r}"[:300])
    return {k: v for k, v in args.items() if v is not None}


def reference_markdown() -> str:
    """docs/PLUGIN-LANGUAGE.md §16's table: each ability, its effect, its arguments and its result."""
    rows = ["| ability | effect | arguments | result |", "|---|---|---|---|"]
    for group, ops in ABILITIES.items():
        for op, effect in ops.items():
            signature = SIGNATURES[f"{group}.{op}"]
            args = "; ".join(
                f"`{a.name}`{'' if a.required else '?'}: {KIND_WORDS[a.kind]}" + (f" ({a.note})" if a.note else "")
                for a in signature.args
            )
            result = signature.result + (f" — {signature.note}" if signature.note else "")
            rows.append(f"| `{group}.{op}` | {effect} | {args or '—'} | {result} |")
    return "\n".join(rows) + "\n"


MARK = "<!-- generated from tui/runtime/ability_signatures.py"
END = "<!-- end of the generated table -->"


def write_docs(path: str) -> None:
    """Put the generated table into the docs, between its markers (the start marker's line is kept)."""
    from pathlib import Path

    doc = Path(path)
    text = doc.read_text(encoding="utf-8")
    if MARK not in text or END not in text:
        raise SystemExit(f"{path} has no generated abilities table")
    start = text.index("\n", text.index(MARK)) + 1
    doc.write_text(text[:start] + reference_markdown() + text[text.index(END) :], encoding="utf-8")


if __name__ == "__main__":
    import sys

    write_docs(sys.argv[1] if len(sys.argv) > 1 else "docs/PLUGIN-LANGUAGE.md")
