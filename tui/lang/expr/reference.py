"""Generates the parts of docs/PLUGIN-LANGUAGE.md that must never drift: the library and the error catalogue.

`python -m tui.lang.expr.reference --write docs/PLUGIN-LANGUAGE.md` rewrites the marked sections; the test
suite fails when the file differs from what this module produces.
"""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

from tui.lang.expr.engine import compile_expression
from tui.lang.expr.errors import LangError
from tui.lang.expr.limits import Run
from tui.lang.expr.stdlib import FUNCTIONS
from tui.lang.expr.values import from_json

#: The clock every generated example sees.
EXAMPLE_NOW = "2026-11-30T17:05:00+08:00"

GROUPS = [
    ("lists", "Lists"),
    ("objects", "Objects"),
    ("strings", "Strings"),
    ("text", "Text"),
    ("regex", "Regular expressions"),
    ("numbers", "Numbers"),
    ("dates", "Dates (Beijing time)"),
    ("url", "URLs"),
    ("json", "JSON"),
    ("html", "HTML"),
    ("ui", "For widgets"),
    ("misc", "Other"),
]

#: Representative failures, one per kind of error an author meets; messages are produced by the engine.
ERROR_EXAMPLES: list[tuple[str, dict[str, object]]] = [
    ("x = 1", {}),
    ("typeof n", {}),
    ("list.map(x => { return x })", {"list": []}),
    ("x => x", {}),
    ("a || b ?? c", {"a": 1, "b": 2, "c": 3}),
    ("-2 ** 2", {}),
    ("1 +", {}),
    ("'unterminated", {}),
    ("Math.max(1, 2)", {}),
    ("map", {}),
    ("page.data.rows", {"page": {"data": None}}),
    ("rows.map(r => r.cap * 2)", {"rows": [{"cap": "221"}]}),
    ("'a' - 1", {}),
    ("1 < 'a'", {}),
    ("[1] == [1]", {}),
    ("[1] + 'a'", {}),
    ("list.sort()", {"list": [1]}),
    ("obj.nope()", {"obj": {}}),
    ("trim(s, 1)", {"s": ""}),
    ("sum(['1'])", {}),
    ("json('{bad')", {}),
    ("date('yesterday')", {}),
    ("test(s, '(?<=a)b')", {"s": ""}),
    ("test(s, '(a)\\\\1')", {"s": ""}),
    ("test(s, '(?U)a')", {"s": ""}),
    ("range(1000000000)", {}),
    ("'x'.repeat(10000000)", {}),
    ("range(100).map(i => range(100).map(j => range(100).map(k => i)))", {}),
    ("(" * 70 + "1" + ")" * 70, {}),
    ("error('教室数据格式变了')", {}),
]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "\\n")


def _signature(name: str) -> str:
    b = FUNCTIONS[name]
    params = list(inspect.signature(b.impl).parameters.values())[1:]
    parts = []
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            # bounded varargs are one optional argument (reduce's init); unbounded ones repeat
            parts.append(f"{p.name}?" if b.max_args is not None else f"…{p.name}")
        elif p.default is inspect.Parameter.empty:
            parts.append(p.name.rstrip("_"))
        else:
            parts.append(f"{p.name.rstrip('_')}?")
    return f"{name}({', '.join(parts)})"


def library_markdown() -> str:
    """The standard-library tables: signature, what it does, examples with their values."""
    out: list[str] = []
    for key, title in GROUPS:
        names = [n for n, b in FUNCTIONS.items() if b.group == key]
        if not names:
            continue
        out.append(f"### {title}\n")
        out.append("| function | what it gives | example → value |")
        out.append("|---|---|---|")
        for name in names:
            b = FUNCTIONS[name]
            examples = "<br>".join(
                f"`{_cell(src)}` → `{_cell(json.dumps(want, ensure_ascii=False))}`"
                if name != "error"
                else f"`{_cell(src)}` → fails with `boom`"
                for src, want in b.examples
            )
            out.append(f"| `{_signature(name)}` | {_cell(b.doc)} | {examples} |")
        out.append("")
    return "\n".join(out)


def errors_markdown() -> str:
    """The error catalogue: each example expression with the exact message the engine gives."""
    out = ["| expression | error | message |", "|---|---|---|"]
    for src, names in ERROR_EXAMPLES:
        try:
            compile_expression(src).evaluate(from_json(names), Run(EXAMPLE_NOW))
        except LangError as e:
            where = e.line_col
            msg = e.msg + (f" (column {where[1]})" if where else "")
            out.append(f"| `{_cell(src)}` | {e.title} | {_cell(msg)} |")
            continue
        raise AssertionError(f"error example did not fail: {src}")
    return "\n".join(out) + "\n"


SECTIONS = {"library": library_markdown, "errors": errors_markdown}


def rewrite(text: str) -> str:
    """`text` with every `<!-- generated:NAME -->` … `<!-- end:NAME -->` section regenerated."""
    for name, make in SECTIONS.items():
        begin, end = f"<!-- generated:{name} -->", f"<!-- end:{name} -->"
        i, j = text.index(begin) + len(begin), text.index(end)
        text = text[:i] + "\n" + make() + text[j:]
    return text


def main(argv: list[str]) -> int:
    """`--write FILE` regenerates the sections in place; `--check FILE` exits 1 when they are stale."""
    if len(argv) != 2 or argv[0] not in ("--write", "--check"):
        print("usage: python -m tui.lang.expr.reference --write|--check docs/PLUGIN-LANGUAGE.md", file=sys.stderr)
        return 2
    path = Path(argv[1])
    text = path.read_text(encoding="utf-8")
    new = rewrite(text)
    if argv[0] == "--write":
        path.write_text(new, encoding="utf-8")
        return 0
    return 0 if new == text else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
