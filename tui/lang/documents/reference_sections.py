"""The plugin reference's sections about documents — the manifest, tools with their inputs and steps, and recorded
tests — generated from the models the validator checks them with (`model_markdown`), with the constants the
checks use (campus services, ability groups, limits). `tui/runtime/plugin_reference.py` assembles them."""

from __future__ import annotations

from typing import get_args

from tui.lang.documents.common import EFFECT_ORDER, TOOL_NAME_RE
from tui.lang.documents.explain import EXPRESSION_FIELDS
from tui.lang.documents.loader import MANIFEST_FILE
from tui.lang.documents.manifest import ABILITIES, CAMPUS_SERVICES, MAX_TOOLS, RESERVED_IDS, Manifest
from tui.lang.documents.model_markdown import fields_inline, model_tables, referred_tables
from tui.lang.documents.source import MAX_PLUGIN_BYTES
from tui.lang.documents.tool import STEP_KINDS, InputType, StepBase, ToolDef
from tui.lang.steps import limits
from tui.lang.steps.extract import PIPES
from tui.lang.testing.fixtures import MAX_FIXTURE_BYTES
from tui.lang.testing.model import DEFAULT_NOW, TestFile


def _words(values: object) -> str:
    return " ".join(f"`{v}`" for v in values)  # type: ignore[attr-defined]


def manifest_markdown() -> str:
    """The folder, PLUGIN.md and every manifest field (tools and their inputs are the `tools` section)."""
    return "\n".join(
        [
            "## Manifest",
            f"A plugin is a folder: `{MANIFEST_FILE}` (YAML frontmatter between `---` lines = the manifest; the "
            "Markdown after it = instructions for the assistant), `tools/*.yaml` (one tool each, or inline in "
            "`tools`), optional `shared.yaml`, `widgets/*.json`, `screens/*.json`, `tests/*.yaml`, `fixtures/…`. "
            f"Only files the manifest names are read; relative `/` paths, no `..`; UTF-8; "
            f"{MAX_PLUGIN_BYTES // 1024} KB in all. Unknown keys are errors everywhere.",
            "YAML is data only: quote a string that holds `: `, `#`, or a `,` inside `{ }`/`[ ]`, or starts with "
            "`{ [ ' \" * & ! | >`; `1.2.0`, `12:30`, `no` stay text.\n",
            f"- `campus` values: {_words(sorted(CAMPUS_SERVICES))}",
            f"- `abilities` values: {_words(ABILITIES)} (the `abilities` section has each operation)",
            f"- reserved ids: {_words(sorted(RESERVED_IDS))}, and `mcp-…`",
            f"- tool names: `{TOOL_NAME_RE.pattern}`, no `__`, at most {MAX_TOOLS}; the model calls `<id>__<tool>`",
            "- a `dataSources` tool must be a read tool; `settings.<name>` is a setting's value in expressions\n",
            model_tables(Manifest, "Manifest (PLUGIN.md frontmatter)", leave_out=["ToolDef", "InputField"]),
        ]
    )


def _step_line(key: str, model: type[StepBase]) -> str:
    """`- **key** — fields — what it does`: one step kind, its fields and their types (`*` = required)."""
    doc = (model.__doc__ or "").split("`:", 1)[-1].strip() if "`:" in (model.__doc__ or "") else ""
    return f"- **{key}** — {fields_inline(model, skip=['let'])}" + (f" — {doc}" if doc else "")


def tools_markdown() -> str:
    """A tool's fields, input fields and their types, every step kind with its fields, requests, limits."""
    effects = " < ".join(f"`{e}`" for e in sorted(EFFECT_ORDER, key=EFFECT_ORDER.__getitem__))
    steps = [_step_line(key, model) for key, model in STEP_KINDS]
    limit_rows = [
        f"steps {limits.MAX_STEPS}, requests {limits.MAX_REQUESTS} ({limits.MAX_CONCURRENT_REQUESTS} at once), "
        f"{limits.DEADLINE_SECONDS:g} s, response {limits.MAX_RESPONSE_BYTES // 1048576} MB, result "
        f"{limits.MAX_RESULT_BYTES // 1048576} MB, `each` {limits.MAX_EACH_ITEMS} items, `paginate` "
        f"{limits.MAX_PAGES} pages, `call` {limits.MAX_CALL_DEPTH} deep"
    ]
    return "\n".join(
        [
            "## Tools",
            f"Effects, weakest first: {effects} — declared truthfully; a step or called tool may not be stronger "
            "than its tool. Input field `type`: "
            + _words(get_args(InputType))
            + " (or `enum` alone). The whole input is checked before any step runs.\n",
            model_tables(ToolDef, "Tool (tools/NAME.yaml)"),
            "### Steps",
            "A step is a mapping marked by one key (the first of these it has, in this order). Every step may "
            "have `let: name`, which binds its value for later steps and `return`; a block's value is its last "
            "step's. `*` = required. Expression "
            f"fields ({_words(sorted(EXPRESSION_FIELDS))}, function bodies) hold one expression; every other "
            "string is a template.\n",
            *steps,
            "",
            referred_tables([model for _, model in STEP_KINDS]),
            f"Extract field pipes: `'<css selector> | pipe | …'`, `.` = the matched element; pipes {_words(PIPES)} "
            "(`attr NAME`, `match REGEX`). A missing match is null.",
            "Requests: public `https://` on a `network` domain, or `campus: <service>` with a `/path`. `as: json` "
            "(default) fails on non-2xx with kind `http`; `response` gives `{ status, url, headers, text }`. "
            "Never set Cookie, Authorization or Host.",
            "`try`/`catch`: `error` = `{ message, kind, status? }`; kinds `http network timeout limit check "
            "expression ability input`.",
            f"Run limits: {limit_rows[0]}.",
        ]
    )


def tests_markdown() -> str:
    """The recorded-test file (`tests/*.yaml`) and fixtures."""
    return "\n".join(
        [
            "## Recorded tests",
            "`tests/NAME.yaml` runs one tool's cases against recorded HTTP exchanges and ability answers (nothing "
            "goes to the network). A request no recording answers fails the case, naming the closest one; "
            "recordings matched by method + URL (query parameters as a set). Each case needs `expect`, "
            f"`expectError`, `check` or another `expect…`. `now` defaults to `{DEFAULT_NOW}`. "
            f"`response.file` reads a fixture from the folder (≤ {MAX_FIXTURE_BYTES // 1048576} MB; not part of "
            "the plugin's size). Run them with `plugin test` (or `plugins__draftTest`).\n",
            model_tables(TestFile, "Test file (tests/NAME.yaml)"),
        ]
    )
