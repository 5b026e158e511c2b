"""The expression tree the generator builds (render.py prints it in the language and as JavaScript).

Nodes are frozen dataclasses; their children are the fields that hold nodes, so the minimiser can walk and
rebuild any tree generically (`children`, `with_children`). `prec` gives a node's precedence level of
docs/PLUGIN-LANGUAGE.md §3, which the language renderer uses to print the fewest parentheses.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from typing import Any

# Precedence levels of §3, tightest first (0 is a primary: literal, name, list, object, parentheses).
PRIMARY, POSTFIX, UNARY, POW, MUL, ADD, REL, EQ, AND, OR, NULLISH, COND = range(12)
BINARY = {"**": POW, "*": MUL, "/": MUL, "%": MUL, "+": ADD, "-": ADD}
BINARY |= {"<": REL, "<=": REL, ">": REL, ">=": REL, "==": EQ, "!=": EQ, "===": EQ, "!==": EQ}
LOGICAL = {"&&": AND, "||": OR, "??": NULLISH}


class Node:
    """Base of the tree. Children are the fields holding nodes (or tuples of nodes)."""

    def children(self) -> Iterator[Node]:
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if isinstance(v, Node):
                yield v
            elif isinstance(v, tuple):
                yield from (x for x in v if isinstance(x, Node))

    def with_children(self, new: list[Node]) -> Node:
        """A copy with the children replaced in order (the minimiser rebuilds trees with this)."""
        it = iter(new)
        changes: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if isinstance(v, Node):
                changes[f.name] = next(it)
            elif isinstance(v, tuple):
                changes[f.name] = tuple(next(it) if isinstance(x, Node) else x for x in v)
        return replace(self, **changes)  # type: ignore[type-var]


@dataclass(frozen=True)
class Num(Node):
    raw: str  # as written: '0x1F', '.5', '1e21'


@dataclass(frozen=True)
class Str(Node):
    raw: str  # with its quotes, escapes as written


@dataclass(frozen=True)
class Const(Node):
    word: str  # true, false, null


@dataclass(frozen=True)
class Name(Node):
    name: str  # a name of the context


@dataclass(frozen=True)
class Param(Node):
    name: str  # a parameter of an enclosing arrow


@dataclass(frozen=True)
class Global(Node):
    text: str  # JavaScript that reads a global (Math.max(1, 2)): the language has none


@dataclass(frozen=True)
class Tpl(Node):
    quasis: tuple[str, ...]  # raw text between the ${}
    exprs: tuple[Node, ...]


@dataclass(frozen=True)
class Spread(Node):
    expr: Node


@dataclass(frozen=True)
class Arr(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Prop(Node):
    key: str  # as written: an identifier, a quoted string or a number
    value: Node


@dataclass(frozen=True)
class Computed(Node):
    key: Node
    value: Node


@dataclass(frozen=True)
class Shorthand(Node):
    ref: Node  # a Name or Param


@dataclass(frozen=True)
class Obj(Node):
    entries: tuple[Node, ...]  # Prop, Computed, Shorthand or Spread


@dataclass(frozen=True)
class Member(Node):
    obj: Node
    prop: str
    opt: bool = False


@dataclass(frozen=True)
class Index(Node):
    obj: Node
    key: Node
    opt: bool = False


@dataclass(frozen=True)
class Call(Node):
    fname: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class MCall(Node):
    obj: Node
    name: str
    args: tuple[Node, ...]
    opt: bool = False  # a?.f()
    optcall: bool = False  # a.f?.()


@dataclass(frozen=True)
class Arrow(Node):
    params: tuple[str | tuple[str, ...], ...]  # 'x', or ('{', 'a', 'b') / ('[', 'a', 'b') for patterns
    body: Node


@dataclass(frozen=True)
class Unary(Node):
    op: str
    x: Node


@dataclass(frozen=True)
class Bin(Node):
    op: str
    a: Node
    b: Node


@dataclass(frozen=True)
class Cond(Node):
    c: Node
    a: Node
    b: Node


def prec(n: Node) -> int:
    if isinstance(n, Member | Index | Call | MCall):
        return POSTFIX
    if isinstance(n, Unary):
        return UNARY
    if isinstance(n, Bin):
        return LOGICAL.get(n.op, BINARY.get(n.op, COND))
    if isinstance(n, Cond | Arrow):
        return COND
    return PRIMARY


def size(n: Node) -> int:
    """Number of nodes: the minimiser keeps the smaller of two disagreeing cases."""
    return 1 + sum(size(c) for c in n.children())


def walk(n: Node) -> Iterator[Node]:
    yield n
    for c in n.children():
        yield from walk(c)
