"""Plugin `functions:` helpers inlined at their call sites (issue 20).

A helper is compiled as an arrow and called once per use (engine.compile_function): a Python frame, an
argument check and a class test per call, which inside a filter written as a loop (loops.py) cost as much as
the rest of the row. When the compiler is told a plugin's helpers, a call `f(a, b)` of one of them — `f` not
bound by an arrow around it, as many arguments as parameters, no spread, no `?.` — also gets the body's code
in place, behind a guard read once per evaluation, where the expression reads `f`:

    the value of `f` is a plugin function (a Closure) made from these very parameters and body text.

The guard holds whatever the scope holds at run time: a step's `let` named like the helper, a function made
lazily, another plugin's helper of the same name all fail it, and the call takes the general path, as before.
The body's own names (constants, settings, `now`, other helpers) are read from the values the function was
made with (Closure.bound), never from the caller's scope, so a caller's names cannot change what it sees.

Nothing else changes: the call charges what it charged (one evaluation and the stop check at the call, the
body's cost - 1 as the body starts); arguments are evaluated once, left to right, before the body; a helper
called inside an inlined body is called (one level is inlined); the generated lines of the body map to
positions in the body's own text, so an error reads as the function's error did (engine.locate). A body that
makes arrows is not inlined inside a loop (a function made in a loop would see the loop's last values).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol

from tui.lang.expr import ast
from tui.lang.expr.errors import LangError
from tui.lang.expr.limits import body_cost
from tui.lang.expr.parser import parse
from tui.lang.expr.stdlib import FUNCTIONS


@dataclass(frozen=True)
class Inlinable:
    """A helper as the compiler inlines it."""

    params: tuple[str, ...]
    body: str
    """The body's text (positions of its errors are in it)."""
    tree: ast.Node
    free_names: tuple[str, ...]
    """The names the body reads from its scope, in the order of its own compiled form's free_names (that of
    Closure.bound)."""
    makes_functions: bool
    """The body has an arrow of its own."""

    @property
    def origin(self) -> tuple[tuple[str, ...], str]:
        """What a Closure made from this helper carries as its origin."""
        return self.params, self.body


class Helpers:
    """A plugin's functions as the compiler may inline them: hashable and compared by content, so that two
    plugins with the same expression text and different helpers never share compiled code."""

    __slots__ = ("_hash", "_specs", "by_name", "key")

    def __init__(self, functions: Iterable[tuple[str, Sequence[str], str]]) -> None:
        by_name: dict[str, tuple[tuple[str, ...], str]] = {}
        for name, params, body in functions:
            by_name[name] = (tuple(params), body)  # the last of one name wins, as in make_functions
        self.by_name = by_name
        """Name → (parameters, body text)."""
        self.key = tuple(sorted(by_name.items()))
        self._hash = hash(self.key)
        self._specs: dict[str, Inlinable | None] = {}

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Helpers) and self._hash == other._hash and self.key == other.key)

    def __repr__(self) -> str:
        return f"Helpers({', '.join(self.by_name)})"

    def spec(self, name: str, compiler: Any) -> Inlinable | None:
        """The helper `name` ready to inline, or None when its body does not compile (its calls then fail as
        they always did). `compiler` makes a Compiler(source, filename) for a trial compilation of the body."""
        if name in self._specs:
            return self._specs[name]
        params, body = self.by_name[name]
        found: Inlinable | None = None
        try:
            tree = parse(body)
            trial = compiler(body, "<inline-trial>")
            # the arrow engine.compile_function compiles: its free names are the bound values' order
            trial.gen(ast.Arrow(0, len(body), [ast.Param(0, len(body), p) for p in params], tree))
        except (LangError, RecursionError):
            pass
        else:
            found = Inlinable(params, body, tree, tuple(trial.free), next(trial.fns) > 1)  # f0 is the arrow
        self._specs[name] = found
        return found


@dataclass
class Guard:
    """The once-per-evaluation check of one helper in one generated function."""

    flag: str
    """The local that says the name's value is the helper."""
    var: str
    """The local holding the name's value (set where the expression reads the name)."""
    origin: str
    """The constant holding the helper's origin."""
    bound: list[str]
    """Locals for the body's names, in Inlinable.free_names order."""


class _Compiling(Protocol):
    """What Inliner uses of the Compiler it is mixed into."""

    block: Any
    scope: Any
    ops: int
    source: str
    helpers: Helpers | None
    guards: dict[str, Guard]
    loop_depth: int
    versioned: bool
    no_inline: bool
    inline_source: str | None
    inline_calls: set[str]
    calls: set[str]

    @property
    def temps(self) -> Any: ...

    def at(self, pos: int) -> Any: ...
    def emit(self, line: str, pos: int) -> None: ...
    def open(self, header: str, pos: int) -> Any: ...
    def gen(self, node: ast.Node) -> tuple[str, str | None]: ...
    def lookup(self, name: str) -> str | None: ...
    def const(self, value: Any) -> str: ...
    def scoped(self, names: dict[str, str]) -> Any: ...
    def guard(self, name: str, spec: Inlinable) -> Guard: ...
    def inlinable(self, node: ast.Call) -> Inlinable | None: ...
    def inline_body(self, spec: Inlinable, g: Guard, args: list[str], pos: int) -> tuple[str, str | None]: ...


class Inliner:
    """Compiler methods that inline a plugin helper's body at a call (mixed into Compiler)."""

    def start_inlining(self, helpers: Helpers | None) -> None:
        """Set up the compiler's inlining state (from its __init__)."""
        self.helpers = helpers
        """The plugin's functions calls may inline; None: every call is a call."""
        self.guards: dict[str, Guard] = {}
        """The guard of each helper inlined somewhere, by name."""
        self.loop_depth = 0
        """How many loops (loops.py) the code being generated is inside."""
        self.inline_source: str | None = None
        """While an inlined body is generated: its text (its lines map to positions in it)."""
        self.inline_calls: set[str] = set()
        """Library functions inlined bodies call (Compiler.calls are the expression's own)."""
        self.versioned = False
        """Inside a loop that runs only when its helpers' guards hold (loop_guards): bodies go in unguarded."""
        self.no_inline = False
        """Inside the other version of such a loop: every call is a call."""

    def inlinable(self: _Compiling, node: ast.Call) -> Inlinable | None:
        """The helper `node` calls when the call can take its body in place, else None."""
        callee = node.callee
        if self.helpers is None or self.inline_source is not None or self.no_inline or node.optional:
            return None  # no helpers told, or inside an inlined body (one level), or `f?.()`
        if not isinstance(callee, ast.Name) or callee.name not in self.helpers.by_name or callee.name in FUNCTIONS:
            return None  # a library function's name calls the library function
        if self.lookup(callee.name) is not None or any(isinstance(a, ast.Spread) for a in node.args):
            return None
        spec = self.helpers.spec(callee.name, type(self))
        if spec is None or len(spec.params) != len(node.args) or (spec.makes_functions and self.loop_depth):
            return None
        return spec

    def inline_call(
        self: _Compiling, node: ast.Call, spec: Inlinable, fcode: str, args: list[str], out: str
    ) -> tuple[str, str | None] | str:
        """Inline the call `node` of the helper read into `fcode`, with the argument values `args`: in a
        versioned loop, the body alone (its value and kind); else `if <guard>: <the body, its value in out>`
        and the keyword that goes on with the general call ('elif')."""
        assert isinstance(node.callee, ast.Name)
        g = self.guard(node.callee.name, spec)
        g.var = fcode
        if self.versioned:
            return self.inline_body(spec, g, args, node.pos)
        saved = self.open(f"if {g.flag}:", node.pos)
        self.emit(f"{out} = {self.inline_body(spec, g, args, node.pos)[0]}", node.pos)
        self.block = saved
        return "elif"

    def loop_guards(self: _Compiling, body: ast.Node) -> list[Guard]:
        """The guards of the helpers whose calls in `body` (a small arrow's, made a loop: no arrow inside) will
        be inlined, so that the loop can be written twice, under them all and under none: inside the first,
        no guard is tested per item and the bodies' values keep their kinds."""
        found: list[Guard] = []
        if self.helpers is None or self.no_inline or self.versioned or self.inline_source is not None:
            return found
        todo = [body]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Call) and isinstance(node.callee, ast.Name):
                spec = self.inlinable(node)
                g = self.guard(node.callee.name, spec) if spec is not None else None
                if g is not None and all(g is not f for f in found):
                    found.append(g)
            for value in _fields(node):
                todo.extend(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, ast.Node))
        return found

    def guard(self: _Compiling, name: str, spec: Inlinable) -> Guard:
        """The guard of helper `name`, made once per generated function."""
        g = self.guards.get(name)
        if g is None:
            n = len(self.guards)
            g = Guard(f"g{n}", "", self.const(spec.origin), [f"g{n}_{i}" for i in range(len(spec.free_names))])
            self.guards[name] = g
        return g

    def inline_body(self: _Compiling, spec: Inlinable, g: Guard, args: list[str], pos: int) -> tuple[str, str | None]:
        """Emit the call's charge and the body with its parameters bound to `args`; the body's value and kind."""
        self.emit("_r.used += 1", pos)
        self.emit("if _r.used > _r.stop: _r.over()", pos)
        params: dict[str, str] = {}
        for p, code in zip(spec.params, args, strict=True):
            if code.isidentifier() and code not in ("True", "False", "None"):
                params[p] = code  # a variable: assigned once in its turn, the body only reads it
            else:
                params[p] = f"a{next(self.temps)}"
                self.emit(f"{params[p]} = {code}", pos)
        outer, start = self.block, len(self.block.items)
        saved = (self.scope, self.ops, self.source, self.calls)
        # a fresh scope (the body sees its parameters and the values it was made with, nothing of the caller's)
        self.scope = None
        self.scope = self.scoped(dict(zip(spec.free_names, g.bound, strict=True)))
        self.scope = self.scoped(params)
        self.ops, self.source, self.inline_source, self.calls = 0, spec.body, spec.body, set()
        try:
            value, kind = self.gen(spec.tree)
            cost = body_cost(self.ops)  # as gen_Arrow counts the function's body
        finally:
            self.inline_calls |= self.calls
            self.block, self.inline_source = outer, None
            self.scope, self.ops, self.source, self.calls = saved
        if cost > 1:  # as the function's first line charges it: before the body, with no check
            outer.items.insert(start, (f"_r.used += {cost - 1}", self.at(pos), None))
        return value, kind

    def guard_lines(self: _Compiling, name: str) -> list[str]:
        """The guard's statements for the helper `name`, at the start of the generated function, right after
        the name is read (none when no call of it was inlined)."""
        g = self.guards.get(name)
        if g is None:
            return []
        if not g.var:  # never the case (every call loop_guards finds is generated), but never a NameError
            return [f"{g.flag} = False"]
        lines = [f"{g.flag} = {g.var}.__class__ is _Closure and {g.var}.origin == {g.origin}"]
        if g.bound:
            lines.append(f"if {g.flag}: {', '.join(g.bound)}, = {g.var}.bound")
        return lines


def _fields(node: ast.Node) -> list[Any]:
    """The values of a syntax node's fields (the nodes are slotted dataclasses)."""
    return [getattr(node, f.name) for f in fields(node)]
