"""The whole plugin language for a model (or an author) writing a plugin: `plugins__reference { section? }` and
`pku-harness plugin reference [SECTION]`.

Every section is generated from the declarations the validator and the runtime check plugins with — the manifest,
tool, step, test and genui models, the standard library, the ability signatures — so it cannot drift from them
(tests/runtime/test_plugin_reference.py checks that nothing declared is missing). A model's copy of a tool result
is cut at `gate.MODEL_RESULT_CHARS`, so the reference comes in sections that each fit one answer, and without a
section it is an index: each section with its size, the essentials, and the worked example.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from tui.lang.documents.common import Effect
from tui.lang.documents.genui_reference import screens_markdown, widgets_markdown
from tui.lang.documents.manifest import ABILITIES, Manifest
from tui.lang.documents.model_markdown import model_schema
from tui.lang.documents.reference_example import example_markdown
from tui.lang.documents.reference_sections import manifest_markdown, tests_markdown, tools_markdown
from tui.lang.documents.tool import STEP_KINDS, ToolDef
from tui.lang.expr.language_reference import DATA_GROUPS, TEXT_GROUPS, expressions_markdown, library_markdown_compact
from tui.lang.host import HostError
from tui.runtime.ability_signatures import reference_markdown
from tui.runtime.message import Message


def abilities_markdown() -> str:
    """Every host ability operation with its effect, arguments and result, and how a plugin may use it."""
    groups = " ".join(f"`{g}`" for g in ABILITIES)
    return "\n".join(
        [
            "## Host abilities",
            f"Groups: {groups}. A plugin lists the groups it uses in the manifest's `abilities` (the install review "
            "shows them) and calls an operation with the step `{ let?, ability: group.op, args: expr }`. The "
            "operation's effect may not be stronger than its tool's (a read tool cannot call a write operation). "
            "Arguments are checked before it runs: an unknown key, a missing required one (no `?`) or a wrong kind "
            "fails the step. Recorded tests answer abilities from `abilities:` in call order.\n",
            reference_markdown(),
        ]
    )


#: Section name → what makes it, in the order an author needs them.
SECTIONS: dict[str, Callable[[], str]] = {
    "manifest": manifest_markdown,
    "tools": tools_markdown,
    "expressions": expressions_markdown,
    "library": lambda: library_markdown_compact(DATA_GROUPS),
    "library-text": lambda: library_markdown_compact(TEXT_GROUPS),
    "widgets": widgets_markdown,
    "screens": screens_markdown,
    "abilities": abilities_markdown,
    "tests": tests_markdown,
    "example": example_markdown,
}

#: What each section holds, for the index.
SECTION_TOPICS = {
    "manifest": "PLUGIN.md frontmatter: every field, settings, commands, i18n, data sources",
    "tools": "tool fields, input fields and types, every step kind with its fields, requests, limits",
    "expressions": "syntax, operators, names, templates (${…})",
    "library": "standard library: lists, objects, numbers, JSON, widgets, other",
    "library-text": "standard library: strings, text, regex, dates, URLs, HTML",
    "widgets": "widget files, names in templates, every component with its props, actions",
    "screens": "screen files: params, state, sources, toolbar",
    "abilities": "host abilities: arguments, results, effects, manifest `abilities`",
    "tests": "recorded tests (tests/*.yaml): cases, HTTP recordings, ability answers, expectations",
    "example": "a whole small plugin that validates and passes its test",
}


@cache
def section_markdown(name: str) -> str:
    """One section's Markdown (generated once per process: the declarations do not change while it runs)."""
    return SECTIONS[name]()


def _required(model: type[ToolDef] | type[Manifest]) -> str:
    return " ".join(f"`{f}`" for f in model_schema(model).get("required", []))


def index_markdown() -> str:
    """The reference without a section: each section with its size, the essentials, and the worked example."""
    rows = [f"| `{name}` | {SECTION_TOPICS[name]} | {len(section_markdown(name)):,} |" for name in SECTIONS]
    effects = " ".join(f"`{e}`" for e in Effect.__args__)  # type: ignore[attr-defined]
    return "\n".join(
        [
            "# Plugin language reference (spec 1)",
            "Read the sections you need before writing a plugin: `plugins__reference { section }` "
            "(command line: `pku-harness plugin reference SECTION`).\n",
            "| section | what | characters |",
            "|---|---|---|",
            *rows,
            "",
            "## Essentials",
            f"- Manifest (PLUGIN.md frontmatter) requires {_required(Manifest)}; `spec: 1`.",
            f"- A tool (tools/NAME.yaml) requires {_required(ToolDef)}; effect is one of {effects}.",
            "- Step kinds: " + " ".join(f"`{key}`" for key, _ in STEP_KINDS) + " (`tools` section).",
            "- Strings are templates (`${expr}`); expression fields (`value`, `if`, `check`, `return`, …) are "
            "expressions. Public requests need the domain in `network`; campus ones a `campus` service.",
            "- Widgets read a `dataSources` entry (a read tool) as `data`; test every tool with tests/*.yaml.\n",
            section_markdown("example"),
        ]
    )


def reference(section: str | None = None) -> str:
    """The reference's Markdown: `section`, or the index when it is None or empty.

    Raises:
        HostError: there is no such section (the message lists them).
    """
    if not section:
        return index_markdown()
    if section not in SECTIONS:
        raise HostError("ability", Message("reference_no_section", section=section, sections=", ".join(SECTIONS)))
    return section_markdown(section)


def whole_markdown() -> str:
    """Every section, one after the other (for measuring, and for an author who wants it all)."""
    return "\n\n".join(section_markdown(name) for name in SECTIONS)
