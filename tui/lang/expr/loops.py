"""`list.filter(x => …)` and `list.map(x => …)` with a small arrow, compiled as a loop in place (issue 20).

A builtin calls its arrow once per item: a Python call costs about as much as the arrow's body, so the
classrooms filter-and-map ran at 4x a list comprehension. When the arrow is small — one plain parameter, at
most one evaluation of operations (language.md §8), no arrow inside — the compiler also writes
its body as the body of a `for` loop over the list, in the generated function itself, and takes that path
whenever the receiver is a list. Anything else (an object with its own `filter`, null, a string) takes the
library call, as before.

Nothing a user can see changes: the loop charges what filter() and map() charge (one evaluation per item,
before the first); a body of one evaluation charges nothing more itself, and what it calls charges and
checks as it would inside an arrow; errors are raised by the same generated lines (so they point at the same
place); and `filter` keeps the items whose value is truthy by the same test. An arrow inside is left alone:
a function made in a loop would see the loop's last item if it outlived its turn.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from typing import Any, Protocol

from tui.lang.expr import ast
from tui.lang.expr.limits import CALL_OPS, OPS_PER_EVALUATION
from tui.lang.expr.stdlib import FUNCTIONS

#: Methods written as a loop, and what the loop does with each item's value.
LOOPS = ("filter", "map")


def small_arrow(node: ast.Call, name: str) -> ast.Arrow | None:
    """The arrow of `recv.filter(arrow)` / `recv.map(arrow)` when it can be written as a loop, else None."""
    if name not in LOOPS or len(node.args) != 1 or node.optional:
        return None
    arrow = node.args[0]
    if not isinstance(arrow, ast.Arrow) or len(arrow.params) != 1 or arrow.params[0].name is None:
        return None
    body = arrow.body
    if (
        isinstance(body, ast.Call)
        and isinstance(body.callee, ast.Name)
        and body.callee.name not in FUNCTIONS
        and [a.name if isinstance(a, ast.Name) else None for a in body.args] == [arrow.params[0].name]
    ):
        return None  # `x => f(x)` is made as f itself (Compiler.passes_through): the builtin calls f directly
    ops = _ops(body)
    return arrow if ops is not None and ops <= OPS_PER_EVALUATION else None


def _ops(node: Any) -> int | None:
    """The operations of a body as the compiler counts them (never fewer), or None when it makes a function."""
    if isinstance(node, ast.Arrow):
        return None
    own = 0 if isinstance(node, (ast.Literal, ast.Name, ast.Chain)) else 1
    if isinstance(node, ast.Call):
        callee = node.callee
        name = callee.name if isinstance(callee, ast.Name) else callee.key if isinstance(callee, ast.Member) else None
        fixed = FUNCTIONS.get(name) if isinstance(name, str) else None
        own = CALL_OPS + (fixed.cost * OPS_PER_EVALUATION if fixed else 0)
    elif isinstance(node, ast.Template):
        own += len(node.exprs)
    elif isinstance(node, ast.ObjectLit):
        own += len(node.props)
    for f in fields(node):
        value = getattr(node, f.name)
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.Node):
                n = _ops(child) if not isinstance(child, (ast.Prop, ast.Spread)) else _inner(child)
                if n is None:
                    return None
                own += n
    return own


def _inner(node: ast.Prop | ast.Spread) -> int | None:
    """A property or a spread is no operation of its own (the literal counts its properties): its parts are."""
    total = 0
    parts = [node.value] if isinstance(node, ast.Spread) else [node.value, node.key]
    for part in parts:
        if isinstance(part, ast.Node):
            n = _ops(part)
            if n is None:
                return None
            total += n
    return total


class _Compiling(Protocol):
    """What write_loop uses of the Compiler it is mixed into."""

    block: Any
    scope: Any
    ops: int
    loop_depth: int
    versioned: bool
    no_inline: bool

    @property
    def temps(self) -> Iterator[int]: ...

    def emit(self, line: str, pos: int) -> None: ...
    def open(self, header: str, pos: int) -> Any: ...
    def gen(self, node: ast.Node) -> tuple[str, str | None]: ...
    def scoped(self, names: dict[str, str]) -> Any: ...
    def loop_guards(self, body: ast.Node) -> list[Any]: ...
    def write_items(self, name: str, arrow: ast.Arrow, recv: str, item: str, out: str, pos: int) -> None: ...


class LoopWriter:
    """Compiler methods that write a small arrow's filter or map as a loop (mixed into Compiler)."""

    def write_loop(self: _Compiling, name: str, arrow: ast.Arrow, recv: str, out: str, pos: int) -> None:
        """Emit the loop over `recv` (known to be a list) that leaves filter's or map's list in `out`."""
        item = f"a{next(self.temps)}"
        self.emit(f"_r.charge(_len({recv}))", pos)  # one evaluation per item, before the first, as the builtins
        self.emit(f"{out} = []", pos)
        saved_scope, saved_ops = self.scope, self.ops
        param = arrow.params[0].name
        assert param is not None
        self.scope = self.scoped({param: item})
        self.loop_depth += 1  # as the body will be generated: inside the loop
        guards = self.loop_guards(arrow.body)
        self.loop_depth -= 1
        if not guards:
            self.write_items(name, arrow, recv, item, out, pos)
        else:  # plugin helpers called in the body (inlining.py): the loop with their bodies, and the one without
            outer = self.open(f"if {' and '.join(g.flag for g in guards)}:", pos)
            self.versioned = True
            self.write_items(name, arrow, recv, item, out, pos)
            self.versioned = False
            self.block = outer
            self.open("else:", pos)
            self.no_inline = True
            self.write_items(name, arrow, recv, item, out, pos)
            self.no_inline = False
            self.block = outer
        self.scope, self.ops = saved_scope, saved_ops  # the body's operations are what the items are charged

    def write_items(self: _Compiling, name: str, arrow: ast.Arrow, recv: str, item: str, out: str, pos: int) -> None:
        """Emit the `for` statement itself."""
        outer = self.open(f"for {item} in {recv}:", pos)
        self.loop_depth += 1
        value, kind = self.gen(arrow.body)
        self.loop_depth -= 1
        if name == "filter":
            test = value if kind == "bool" else f"{value} is True or ({value} is not False and _truth({value}))"
            self.emit(f"if {test}: {out}.append({item})", arrow.body.pos)
        else:
            self.emit(f"{out}.append({value})", arrow.body.pos)
        self.block = outer
