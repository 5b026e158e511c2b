"""Small helpers of the validator's checks: walking an expression's tree, the names functions define, and a loop
in a graph of calls."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tui.lang.expr import ast as A
from tui.lang.steps.scope import parse_signature


def walk(tree: A.Node) -> Iterable[A.Node]:
    """Every node of an expression's tree."""
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, A.Node):
            yield node
            stack.extend(getattr(node, slot) for slot in type(node).__slots__ if slot not in ("pos", "end"))
        elif isinstance(node, list):
            stack.extend(node)


def sig_names(functions: dict[str, str]) -> set[str]:
    """The names functions define (`name(a, b)` → `name`). A signature that does not parse still names its
    function when a name comes before its `(` (`label(e, )`): it is reported where it is written, and a call of
    it elsewhere is no second problem (an outsider saw "unknown name 'label'" at every call as well)."""
    out = set()
    for sig in functions:
        try:
            out.add(parse_signature(sig)[0])
        except ValueError:
            name = sig.partition("(")[0].strip()
            if name.isidentifier():
                out.add(name)
    return out


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A loop in a graph of calls, as the path around it (`a → b → a`), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        path.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return [*path[path.index(m) :], m]
            if m in graph and state.get(m) is None:
                found = visit(m)
                if found:
                    return found
        path.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if state.get(n) is None:
            found = visit(n)
            if found:
                return found
    return None


def member_reads(tree: A.Node, roots: Iterable[str]) -> list[tuple[str, str]]:
    """`(root, key)` for each `root.key` (or `root?.key`, `root['key']`) the expression reads of one of `roots`
    (`settings.minFree`), leaving out a root that an arrow's parameter shadows (`input => input.x`)."""
    wanted = set(roots)
    nodes = list(walk(tree))
    for node in nodes:
        if isinstance(node, A.Param):
            wanted -= {node.name, *(node.fields or [])}
    out: list[tuple[str, str]] = []
    for node in nodes:
        if isinstance(node, A.Member) and isinstance(node.obj, A.Name) and node.obj.name in wanted:
            key = node.key.value if isinstance(node.key, A.Literal) else node.key
            if isinstance(key, str):
                out.append((node.obj.name, key))
    return out
