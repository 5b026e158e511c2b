"""Running one case on both sides, and re-running it changed: the tools the tables and the minimiser use.

A `Finding` is a case with both answers and their verdict. The `Lab` runs cases (the engine in-process, the
oracle in its node process) and re-runs them with `Change`s, which is how the tables recognise a known
difference: take its cause away and see the disagreement go. The changes:

* COOKED: the oracle gets literals as the language reads them (`'\\d'` is `\\d`), §10 row 1;
* BMP: every character outside the Basic Multilingual Plane (emoji) becomes a BMP one, in the text and the
  context, so UTF-16 units and characters coincide, §10 row "strings index by character";
* ASCII_SPACE: the white space JavaScript's `\\s` has and RE2's lacks (U+3000, U+00A0, \\v …) becomes `_`,
  §6 and §10 row "RE2";
* alt(…): the oracle takes another reading of an ambiguous sentence of the docs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from . import render as R
from . import tree as T
from .node import Oracle
from .outcomes import Js, Project, Verdict, run_project, show, utf16, verdict

#: Characters JavaScript's \s matches and RE2's does not (RE2: [\t\n\f\r ]).
JS_ONLY_SPACE = "\v\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
JS_ONLY_SPACE += "\u202f\u205f\u3000\ufeff"
#: Line terminators of JavaScript's regexes that RE2 does not treat as line ends (for ^ $ in (?m), and .).
JS_LINE_ENDS = "\r\u2028\u2029"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_PAIR_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")


@dataclass(frozen=True)
class Finding:
    """One case and what both sides made of it."""

    tree: T.Node
    context: dict[str, Any]
    project: Project
    js: Js
    verdict: Verdict

    @property
    def source(self) -> str:
        return R.lang(self.tree)

    def used_context(self) -> dict[str, Any]:
        """The context names the expression reads (the rest is noise in a report)."""
        names = {n.name for n in T.walk(self.tree) if isinstance(n, T.Name)}
        return {k: v for k, v in self.context.items() if k in names}

    def describe(self) -> str:
        """The case as the failure message and the report show it."""
        p = self.project.error or show(self.project.value)  # type: ignore[arg-type]
        j = self.js.error or show(self.js.value)  # type: ignore[arg-type]
        if self.js.lenient is not None and self.js.lenient.kind == "value":
            j += f"  (with JavaScript's coercion: {show(self.js.lenient.value)})"  # type: ignore[arg-type]
        return f"{self.source}\n    context: {self.used_context()!r}\n    project: {p}\n    JS:      {j}"


@dataclass(frozen=True)
class Change:
    """A way to take one cause of difference out of a case: rewrite its text or context, give the oracle the
    language's reading of literals (`cooked`), or another reading of the docs (`alt`, values.mjs)."""

    tree: Callable[[T.Node], T.Node] | None = None
    context: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    cooked: bool = False
    alt: tuple[str, ...] = ()


class Lab:
    """Runs cases on both sides, as they are or with changes (the tables and the minimiser use both)."""

    def __init__(self, oracle: Oracle, limit: int = 100_000) -> None:
        self.oracle = oracle
        self.limit = limit
        self.evaluations = 0

    def check(self, tree: T.Node, context: dict[str, Any], cooked: bool = False, alt: tuple[str, ...] = ()) -> Finding:
        self.evaluations += 1
        p = run_project(R.lang(tree), context, self.limit)
        j = self.oracle.run(R.js(tree, cooked), context, alt)
        return Finding(tree, context, p, j, verdict(p, j))

    def check_many(self, cases: list[tuple[T.Node, dict[str, Any]]]) -> list[Finding]:
        self.evaluations += len(cases)
        projects = [run_project(R.lang(t), c, self.limit) for t, c in cases]
        answers = self.oracle.run_many([(R.js(t), c) for t, c in cases])
        return [Finding(t, c, p, j, verdict(p, j)) for (t, c), p, j in zip(cases, projects, answers, strict=True)]

    def apply(self, f: Finding, changes: list[Change]) -> Finding:
        """The case again with every change made (the engine is rerun only when its text or context changed)."""
        tree, ctx = f.tree, f.context
        for c in changes:
            tree = c.tree(tree) if c.tree else tree
            ctx = c.context(ctx) if c.context else ctx
        cooked = any(c.cooked for c in changes)
        alt = tuple(sorted({a for c in changes for a in c.alt}))
        if tree == f.tree and ctx == f.context:
            j = self.oracle.run(R.js(tree, cooked), ctx, alt)
            return replace(f, js=j, verdict=verdict(f.project, j))
        return self.check(tree, ctx, cooked, alt)


def _texts(fix: Callable[[str], str]) -> Change:
    return Change(lambda t: _map_text(t, fix), lambda c: _map_json(c, fix))


#: The oracle reads literals as the language does (`'\\d'` is `\\d`).
COOKED = Change(cooked=True)
#: Every astral character (emoji) replaced by U+E000, in literals and context alike.
BMP = _texts(lambda s: _ASTRAL.sub("\ue000", _PAIR_ESCAPE.sub("\\\\ue000", s)))
#: The white space only JavaScript's \s matches replaced by '_'.
ASCII_SPACE = _texts(lambda s: s.translate({ord(c): "_" for c in JS_ONLY_SPACE}))
#: Lone surrogates replaced by U+FFFD (what stringify() does with them is a PENDING difference).
NO_SURROGATES = _texts(lambda s: re.sub("[\ud800-\udfff]", "\ufffd", utf16(s)))
#: JavaScript's extra line terminators (\r, U+2028, U+2029) replaced by '_'.
NO_LINE_ENDS = _texts(
    lambda s: re.sub(r"(?<!\\)\\(r|u2028|u2029)", "_", s.translate({ord(c): "_" for c in JS_LINE_ENDS}))
)


def alt(*readings: str) -> Change:
    """The oracle takes another reading of an ambiguous sentence of the docs (values.mjs `mode.alt`)."""
    return Change(alt=readings)


def _map_json(v: Any, fix: Callable[[str], str]) -> Any:
    if isinstance(v, str):
        return fix(v)
    if isinstance(v, list):
        return [_map_json(x, fix) for x in v]
    if isinstance(v, dict):
        return {fix(k): _map_json(x, fix) for k, x in v.items()}
    return v


def _map_text(n: T.Node, fix: Callable[[str], str]) -> T.Node:
    """The tree with `fix` applied to the text of every literal (strings, templates, quoted keys)."""
    if isinstance(n, T.Str):
        return T.Str(fix(n.raw))
    if isinstance(n, T.Tpl):
        return T.Tpl(tuple(fix(q) for q in n.quasis), tuple(_map_text(e, fix) for e in n.exprs))
    if isinstance(n, T.Prop):
        return T.Prop(fix(n.key), _map_text(n.value, fix))
    if isinstance(n, T.Global):
        return n
    return n.with_children([_map_text(c, fix) for c in n.children()])
