"""The plugin reference's expressions and library sections: the syntax, the operators (from the parser's table),
what is not in the language (from the lexer's and parser's refusals), templates, and every standard-library
function on one line with its first example (from the library's own declarations)."""

from __future__ import annotations

import json

from tui.lang.expr.parser import BINARY_POWER
from tui.lang.expr.reference import GROUPS, _signature
from tui.lang.expr.stdlib import FUNCTIONS
from tui.lang.expr.tokens import FORBIDDEN_PUNCT, RESERVED


def _operators() -> str:
    """Binary operators, loosest first, those that bind alike together."""
    levels: dict[int, list[str]] = {}
    for op, power in BINARY_POWER.items():
        levels.setdefault(power, []).append(f"`{op}`")
    return " < ".join(" ".join(ops) for _, ops in sorted(levels.items()))


def expressions_markdown() -> str:
    """Syntax, operators, names, templates: what an expression and a template may be."""
    refused = " ".join(f"`{p}`" for p in FORBIDDEN_PUNCT)
    words = " ".join(f"`{w}`" for w in RESERVED)
    return "\n".join(
        [
            "## Expressions and templates",
            "Expressions are a small JavaScript subset over JSON values: literals (`1`, `'a'`, `\"a\"`, "
            "`` `x ${y}` ``, `true false null`, `[1, ...xs]`, `{ a: 1, b, [k]: v, ...o }`), `a.b`, `a?.b`, `a[k]`, "
            "calls `f(x)` or as "
            "methods `x.f()` (every library function works both ways), arrows only as call arguments "
            "(`rows.map(r => r.room)`, `({ a, b }) => …`; to return an object `x => ({ a: x })`), `a ? b : c`, "
            f"`!a -a`. Binary operators, loosest first: {_operators()} (`**` right-associative; `==` is strict; "
            "`??` needs parentheses beside `&&`/`||`). Comparing or adding different types is an error, not a "
            "coercion. No assignment, statements, globals (`Math`, `JSON`, `Date`), regex literals or `sort()` "
            f"(use `sortBy`). Refused punctuation: {refused}. Refused words: {words}.",
            "Strings: `\\n \\t \\' \\\"` and `\\uXXXX` are escapes, every other backslash stays (`'\\d+'` is a "
            "regex as written). Regexes are RE2 strings (`test(s, '\\d+')`): no look-around, no back-references.",
            "Names: a tool's expressions see `input`, `settings`, `now` (Beijing ISO time), `constants` and each "
            "constant and function by name, and earlier `let` names; `item`, `index` in `each`; `res`, `cursor` in "
            "`paginate`; `error` in `catch`; `result` (and `previous`) in checks. An unbound name is an error.",
            "Templates: every string that is not an expression field is a template; `${expr}` is replaced by the "
            "value as text (arrays and objects as JSON). A template that is exactly one `${expr}` keeps the value's "
            "type. `$${` is a literal `${`.",
        ]
    )


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


#: The library's groups in two halves, each small enough for one answer to the model.
DATA_GROUPS = ("lists", "objects", "numbers", "json", "ui", "misc")
TEXT_GROUPS = tuple(key for key, _ in GROUPS if key not in DATA_GROUPS)


def library_markdown_compact(groups: tuple[str, ...]) -> str:
    """The standard-library functions of `groups`, one a line: signature, what it gives, an example's value."""
    out = ["## Standard library", "Each function: `f(x, a)` or `x.f(a)`. `?` = optional argument.\n"]
    for key, title in GROUPS:
        names = [n for n, b in FUNCTIONS.items() if b.group == key]
        if not names or key not in groups:
            continue
        out.append(f"### {title}")
        for name in names:
            b = FUNCTIONS[name]
            example = ""
            if b.examples:
                src, want = b.examples[0]
                value = "fails" if name == "error" else json.dumps(want, ensure_ascii=False)
                example = f" — `{_cell(src)}` → `{_cell(value)}`"
            out.append(f"- `{_signature(name)}` {_cell(b.doc)}{example}")
        out.append("")
    return "\n".join(out)
