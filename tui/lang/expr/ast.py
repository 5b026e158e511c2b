"""Syntax tree nodes. Every node keeps `pos`/`end`, the span of its text, for messages and carets."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True, eq=False)
class Node:
    """Base of all syntax nodes."""

    pos: int
    end: int


@dataclass(slots=True, eq=False)
class Literal(Node):
    """A number, string, `true`, `false` or `null`."""

    value: object


@dataclass(slots=True, eq=False)
class Name(Node):
    """A bound name: an input, a `let`, a constant, an arrow parameter, `now`."""

    name: str


@dataclass(slots=True, eq=False)
class Template(Node):
    """A template: text pieces around `${…}` expressions; `strict` is JavaScript's backtick form."""

    quasis: list[str]
    exprs: list[Node]
    strict: bool
    """Backtick literals follow String() (arrays are an error); plugin-file templates write JSON for them."""


@dataclass(slots=True, eq=False)
class ArrayLit(Node):
    """`[a, ...b, c]`."""

    items: list[Node]


@dataclass(slots=True, eq=False)
class Spread(Node):
    """`...x` inside an array, object or call."""

    value: Node


@dataclass(slots=True, eq=False)
class Prop(Node):
    """`key: value` in an object literal; `key` is a str or, when computed, a Node."""

    key: str | Node
    value: Node


@dataclass(slots=True, eq=False)
class ObjectLit(Node):
    """`{ a: 1, b, [k]: v, ...o }`."""

    props: list[Prop | Spread]


@dataclass(slots=True, eq=False)
class Member(Node):
    """`obj.name`, `obj[expr]` (computed), and their `?.` forms."""

    obj: Node
    key: str | Node
    optional: bool


@dataclass(slots=True, eq=False)
class Call(Node):
    """`f(args)` or `obj.f(args)` (a method call when `callee` is a Member), and `?.()`."""

    callee: Node
    args: list[Node]
    optional: bool


@dataclass(slots=True, eq=False)
class Chain(Node):
    """The extent of an optional chain: a `?.` anywhere inside short-circuits to null here."""

    expr: Node


@dataclass(slots=True, eq=False)
class Unary(Node):
    """`!x`, `-x`, `+x`."""

    op: str
    operand: Node


@dataclass(slots=True, eq=False)
class Binary(Node):
    """Arithmetic and comparison operators."""

    op: str
    left: Node
    right: Node


@dataclass(slots=True, eq=False)
class Logical(Node):
    """`&&`, `||`, `??`: they return an operand and may skip the right side."""

    op: str
    left: Node
    right: Node


@dataclass(slots=True, eq=False)
class Conditional(Node):
    """`test ? then : other`."""

    test: Node
    then: Node
    other: Node


@dataclass(slots=True, eq=False)
class Param(Node):
    """An arrow parameter: a name, or a destructuring pattern of names (`{ room, cap }`, `[a, b]`)."""

    name: str | None
    fields: list[str] | None = None
    array: bool = False


@dataclass(slots=True, eq=False)
class Arrow(Node):
    """`x => body`, `(a, b) => body`; only allowed as a call argument."""

    params: list[Param]
    body: Node
