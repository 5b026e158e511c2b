"""The assistant's draft tools, part of the `plugins` host plugin (`plugins__draftWrite` …): writing a plugin with
the student, checking it, testing it, trying one read tool, and installing it through the normal review.

Every tool goes through the gate like any other: `draftWrite` and `draftInstall` are write tools (they ask by
default), the others read. All of them are `attended` — for a conversation with the student only: the scheduler
is refused them at the gate (permissions.decide). The services they call are the same ones the command line's
`pku-harness plugins draft …` calls (plugins/drafts.py, plugins/report.py, draft_run.py).
"""

from __future__ import annotations

import asyncio
import difflib
from pathlib import Path
from typing import Any, Protocol

from tui.lang.documents.tool import InputField
from tui.lang.host import HostError
from tui.runtime.abilities import Abilities, PersonUi
from tui.runtime.dev_origins import DevOrigin
from tui.runtime.draft_run import run_draft_tool
from tui.runtime.message import Message, message_of
from tui.runtime.plugins.drafts import DraftError, Drafts
from tui.runtime.plugins.installs import Installs
from tui.runtime.plugins.report import recorded_test_files, validation_report
from tui.runtime.registry import HostPlugin, NativeTool, Registry

#: Most characters of the diff a `draftWrite` result carries (the chat shows it as the tool's line).
DIFF_CHARS = 4096

INSTRUCTIONS = (
    "To write a plugin with the user: plugins__reference gives the plugin language (manifest, tools, steps, "
    "widgets, recorded tests). Then plugins__draftWrite each file of the draft (PLUGIN.md first; one file per "
    "call, the whole file) → plugins__draftValidate → fix what it reports with draftWrite → plugins__draftTest "
    "(recorded tests in tests/*.yaml) → optionally plugins__draftRun to try one read tool against the real site → "
    "plugins__draftInstall, which shows the user the install review. Never claim a plugin works before "
    "draftValidate says ok. A draft cannot use campus services or write until it is installed."
)


class DraftRuntime(Protocol):
    """What the draft tools need of the runtime (`tui.runtime.runtime.Runtime` is one)."""

    @property
    def drafts(self) -> Drafts: ...
    @property
    def abilities(self) -> Abilities: ...
    @property
    def dev_origins(self) -> tuple[DevOrigin, ...]: ...
    @property
    def registry(self) -> Registry: ...
    @property
    def ui(self) -> PersonUi | None: ...
    @property
    def installs(self) -> Installs: ...
    async def install_reviewed(self, link: str) -> dict[str, Any]: ...


def _field(description: str, **kw: Any) -> InputField:
    return InputField(type="string", description=description, **kw)


DRAFT = _field("the draft's id: the plugin id it will have (lower-case letters, digits, '-')", min=1, max=40)


def diff_text(path: str, before: str | None, after: str, limit: int = DIFF_CHARS) -> str:
    """A compact unified diff of one file (against nothing for a new file), cut at `limit` characters with
    "… N more lines" after the last whole line kept."""
    lines = list(
        difflib.unified_diff(
            (before or "").splitlines(),
            after.splitlines(),
            "/dev/null" if before is None else f"a/{path}",
            f"b/{path}",
            n=1,
            lineterm="",
        )
    )
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > limit:
            break
        kept.append(line)
        used += len(line) + 1
    if len(kept) < len(lines):
        kept.append(Message("draft_diff_more", count=len(lines) - len(kept)))
    return "\n".join(kept)


def _refused(e: DraftError) -> HostError:
    return HostError("ability", message_of(e))


class DraftTools:
    """The six tools, over one runtime."""

    def __init__(self, runtime: DraftRuntime) -> None:
        self.rt = runtime

    def _folder(self, draft: Any) -> Path:
        try:
            return self.rt.drafts.folder(draft)
        except DraftError as e:
            raise _refused(e) from None

    async def write(self, args: dict[str, Any]) -> dict[str, Any]:
        draft, path, content = args["draft"], args["path"], args["content"]
        try:
            done = self.rt.drafts.write(draft, path, content)
        except DraftError as e:
            raise _refused(e) from None
        return {
            "draft": draft,
            "path": done.path,
            "created": done.previous is None,
            "bytes": done.bytes,
            "draftBytes": done.total,
            "diff": diff_text(done.path, done.previous, content),
        }

    async def read(self, args: dict[str, Any]) -> dict[str, Any]:
        draft, path = args["draft"], args.get("path")
        try:
            if path:
                return {"draft": draft, "path": path, "content": self.rt.drafts.read(draft, path)}
            files = self.rt.drafts.files(draft)
        except DraftError as e:
            raise _refused(e) from None
        return {"draft": draft, "files": [{"path": f.path, "bytes": f.bytes} for f in files]}

    async def validate(self, args: dict[str, Any]) -> dict[str, Any]:
        folder = self._folder(args["draft"])
        report = await asyncio.to_thread(validation_report, folder)
        return {"draft": args["draft"], **report.to_json()}

    async def test(self, args: dict[str, Any]) -> dict[str, Any]:
        draft = args["draft"]
        folder = self._folder(draft)
        return await asyncio.to_thread(_run_tests, draft, folder)

    async def run(self, args: dict[str, Any]) -> dict[str, Any]:
        draft = args["draft"]
        folder = self._folder(draft)
        report = await asyncio.to_thread(validation_report, folder)
        if report.plugin is None:
            raise HostError("ability", Message("draft_invalid", draft=draft, count=report.errors))
        out = await run_draft_tool(
            draft,
            report.plugin,
            args["tool"],
            args.get("input") or {},
            self.rt.abilities,
            self.rt.dev_origins,
            self.rt.registry.locale,
        )
        return {"draft": draft, "tool": args["tool"], **out}

    async def install(self, args: dict[str, Any]) -> dict[str, Any]:
        draft = args["draft"]
        folder = self._folder(draft)
        if self.rt.ui is None:
            raise HostError("ability", Message("draft_needs_person"))
        report = await asyncio.to_thread(validation_report, folder)
        if not report.ok:
            raise HostError("ability", Message("draft_invalid", draft=draft, count=report.errors))
        record = self.rt.installs.get(report.plugin.manifest.id) if report.plugin is not None else None
        if record is not None and record.source == str(folder):
            return await self._update(record.id)
        outcome = await self.rt.install_reviewed(str(folder))
        return {**outcome, "draftKept": str(Message("draft_kept"))}

    async def _update(self, plugin_id: str) -> dict[str, Any]:
        """Installed from this draft before: take the edits as its update — applied when they keep the plugin's
        scope, else waiting for the student's approval in 插件 (as every update that asks for more)."""
        from tui.runtime.plugins import Installer

        outcome = await asyncio.to_thread(Installer(self.rt).check, plugin_id)  # type: ignore[arg-type]
        updated = outcome.status == "applied"
        said = {"installed": True, "updated": updated, "id": plugin_id, "status": outcome.status}
        return {**said, "message": str(outcome.message), "version": outcome.version}


def _run_tests(draft: str, folder: Path) -> dict[str, Any]:
    """The draft's recorded tests, run (on a worker thread: the runner runs its own event loop per case)."""
    from tui.lang.documents.source import DirectorySource
    from tui.lang.testing.runner import run_tests

    report = validation_report(folder)
    if report.plugin is None:
        found = [p.to_json() for p in report.problems]
        return {"draft": draft, "ok": False, "message": str(Message("draft_invalid", draft=draft, count=report.errors)),
                "cases": [], "problems": found}  # fmt: skip
    files = recorded_test_files(folder)
    if not files:
        return {"draft": draft, "ok": False, "message": str(Message("draft_no_tests", draft=draft)), "cases": []}
    results, problems = run_tests(report.plugin, DirectorySource(folder), files)
    cases = [{"file": r.file, "name": r.name, "passed": r.passed, "message": r.reason} for r in results]
    passed = sum(r.passed for r in results)
    return {
        "draft": draft,
        "ok": bool(results) and passed == len(results) and not problems,
        "passed": passed,
        "failed": len(results) - passed,
        "cases": cases,
        "problems": [p.to_json() for p in problems],
    }


def add_draft_tools(host: HostPlugin, runtime: DraftRuntime) -> None:
    """Add the draft tools to the `plugins` host plugin, and the workflow to its instructions."""
    t = DraftTools(runtime)
    path = _field("a file path inside the draft, like PLUGIN.md or tools/list.yaml", min=1, max=200)
    host.instructions = f"{host.instructions} {INSTRUCTIONS}"
    host.tools.update(
        {
            "draftWrite": NativeTool(
                "写插件草稿文件",
                "Write a draft file",
                "Create or replace one file of a plugin draft (the draft is created when new): the whole file's "
                "text. Returns the size and a diff against the previous content. Then run plugins__draftValidate.",
                "write",
                t.write,
                {"draft": DRAFT, "path": path, "content": _field("the file's whole text (UTF-8)", max=512 * 1024)},
                attended=True,
            ),
            "draftRead": NativeTool(
                "读插件草稿",
                "Read a draft",
                "One file of a plugin draft, or (without path) the list of its files with their sizes.",
                "read",
                t.read,
                {"draft": DRAFT, "path": _field("the file to read; leave out for the list", optional=True)},
                attended=True,
            ),
            "draftValidate": NativeTool(
                "检查插件草稿",
                "Validate a draft",
                "Check a draft as installing would: {ok, plugin, problems: [{file, line, column, code, severity, "
                "message, hint}]}. Fix every error with plugins__draftWrite and validate again.",
                "read",
                t.validate,
                {"draft": DRAFT},
                attended=True,
            ),
            "draftTest": NativeTool(
                "测试插件草稿",
                "Test a draft",
                "Run the draft's recorded tests (tests/*.yaml): each case's name, passed and message.",
                "read",
                t.test,
                {"draft": DRAFT},
                attended=True,
            ),
            "draftRun": NativeTool(
                "试运行插件草稿",
                "Try a draft's tool",
                "Run one read tool of a valid draft for real, against the domains its manifest declares (no "
                "campus services, no writes, a scratch KV). Returns the result and every request it sent.",
                "read",
                t.run,
                {
                    "draft": DRAFT,
                    "tool": _field("the tool's name in the draft", min=1, max=64),
                    "input": InputField(type="object", optional=True, description="the tool's input"),
                },
                attended=True,
                untrusted=True,
                sends=True,
            ),
            "draftInstall": NativeTool(
                "安装插件草稿",
                "Install a draft",
                "Validate the draft, then show the user the normal install review; returns whether they "
                "installed it. The draft stays after installing.",
                "write",
                t.install,
                {"draft": DRAFT},
                attended=True,
            ),
        }
    )
