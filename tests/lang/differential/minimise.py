"""Shrinking a disagreeing case to the smallest expression and context that still disagree the same way.

"The same way" means: the same verdict (a different value stays a different value), the same label (an
unknown disagreement does not become a documented one) and the same kind of engine error or crash.

The tree shrinks by greedy passes until nothing changes: put in place of a node one of its own
sub-expressions (whose parameters are still bound there) or a small literal, and drop items of lists,
objects, call arguments and template parts. Then the context: names the expression does not read go, and
each value read shrinks (a container to one of its items, or fewer items; a text to fewer characters).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from . import tree as T
from .lab import Finding, Lab

Path = tuple[int, ...]
LEAVES: list[T.Node] = [T.Const("null"), T.Num("0"), T.Num("1"), T.Str("''"), T.Str("'a'"), T.Arr(()), T.Obj(())]
#: Nodes that are not expressions on their own (they only make sense in their parent).
NOT_EXPR = (T.Arrow, T.Spread, T.Prop, T.Computed, T.Shorthand)


def free_params(n: T.Node) -> frozenset[str]:
    if isinstance(n, T.Param):
        return frozenset([n.name])
    inner = frozenset().union(*(free_params(c) for c in n.children()))
    if isinstance(n, T.Arrow):
        bound = {q for p in n.params for q in ((p,) if isinstance(p, str) else p[1:])}
        return inner - bound
    return inner


def paths(n: T.Node, here: Path = ()) -> Iterator[Path]:
    yield here
    for i, c in enumerate(n.children()):
        yield from paths(c, (*here, i))


def at(n: T.Node, path: Path) -> T.Node:
    for i in path:
        n = list(n.children())[i]
    return n


def put(n: T.Node, path: Path, new: T.Node) -> T.Node:
    if not path:
        return new
    kids = list(n.children())
    kids[path[0]] = put(kids[path[0]], path[1:], new)
    return n.with_children(kids)


def candidates(tree: T.Node) -> Iterator[T.Node]:
    """Smaller trees, most promising (smallest) first for each position."""
    for path in paths(tree):
        node = at(tree, path)
        if not isinstance(node, NOT_EXPR):
            free = free_params(node)
            subs = [s for s in T.walk(node) if s is not node and not isinstance(s, NOT_EXPR) and free_params(s) <= free]
            for s in sorted(subs, key=T.size):
                yield put(tree, path, s)
            if T.size(node) > 1:
                yield from (put(tree, path, leaf) for leaf in LEAVES)
        yield from (put(tree, path, smaller) for smaller in _fewer(node))


def _fewer(n: T.Node) -> Iterator[T.Node]:
    """`n` with one item of its list fewer (list items, object entries, arguments, template parts)."""
    for name in ("items", "entries", "args"):
        items = getattr(n, name, None)
        if isinstance(items, tuple):
            for i in range(len(items)):
                yield replace(n, **{name: items[:i] + items[i + 1 :]})  # type: ignore[type-var]
    if isinstance(n, T.Tpl):
        for i in range(len(n.exprs)):
            quasis = (*n.quasis[:i], n.quasis[i] + n.quasis[i + 1], *n.quasis[i + 2 :])
            yield T.Tpl(quasis, n.exprs[:i] + n.exprs[i + 1 :])


def smaller_values(v: Any) -> Iterator[Any]:
    if isinstance(v, list):
        yield from v
        for i in range(len(v)):
            yield v[:i] + v[i + 1 :]
    elif isinstance(v, dict):
        yield from v.values()
        for k in v:
            yield {kk: x for kk, x in v.items() if kk != k}
    elif isinstance(v, str) and len(v) > 0:
        yield ""
        for i in range(len(v)):
            yield v[:i] + v[i + 1 :]


def weight(v: Any) -> int:
    if isinstance(v, list):
        return 1 + sum(weight(x) for x in v)
    if isinstance(v, dict):
        return 1 + sum(weight(x) + 1 for x in v.values())
    return 1 + (len(v) if isinstance(v, str) else 0)


def minimise(f: Finding, lab: Lab, budget: int = 600) -> Finding:
    """The smallest case found within `budget` checks that disagrees the way `f` does."""
    from .harness import label

    def way(g: Finding) -> tuple[object, ...]:
        # The verdict, the label and the kind of the engine's error or crash (EvalError stays EvalError).
        return g.verdict, label(g, lab), g.project.error.split(":")[0]

    want = way(f)
    spent = 0

    def same(g: Finding) -> bool:
        return way(g) == want

    def attempt(tree: T.Node, ctx: dict[str, Any]) -> Finding | None:
        nonlocal spent
        spent += 1
        g = lab.check(tree, ctx)
        return g if same(g) else None

    best = f
    changed = True
    while changed and spent < budget:
        changed = False
        for cand in candidates(best.tree):
            if spent >= budget:
                break
            if T.size(cand) >= T.size(best.tree):
                continue
            g = attempt(cand, best.context)
            if g is not None:
                best, changed = g, True
                break
    ctx = {k: v for k, v in best.context.items() if k in best.used_context() or k == "now"}
    g = attempt(best.tree, ctx)
    if g is not None:
        best = g
    return _shrink_context(best, attempt, lambda: spent < budget)


def _shrink_context(
    best: Finding, attempt: Callable[[T.Node, dict[str, Any]], Finding | None], more: Callable[[], bool]
) -> Finding:
    changed = True
    while changed and more():
        changed = False
        for name, value in best.context.items():
            for smaller in sorted(smaller_values(value), key=weight):
                if not more():
                    return best
                g = attempt(best.tree, {**best.context, name: smaller})
                if g is not None:
                    best, changed = g, True
                    break
            if changed:
                break
    return best
