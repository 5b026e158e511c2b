"""Compiles a syntax tree to Python source (the Jinja2 technique), then to a code object, once per source.

The generated code is straight-line statements over temporaries: every operation has an inline fast path
(two floats, a dict lookup, a boolean test) and calls `ops` for the full JavaScript rule otherwise.
Short-circuiting (`&&`, `||`, `??`, `?:`, `?.`) becomes `if` blocks. The budget is charged once per run of
the expression and once per call of an arrow (language.md §8): the compiler counts the operations of each
body (all branches; names and literals are free) and charges one evaluation per OPS_PER_EVALUATION of them,
at least one, when the body starts. An arrow's caller pays the first (it charges one per call); the body adds
the rest itself, so a small arrow's code carries no budget statement at all.

Errors raised by helpers carry no position: the caller maps the generated line of the innermost generated
frame back to the node that emitted it (the module's `__linemap__`, which lives exactly as long as the code),
and that costs nothing while nothing fails.
"""

from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass, field
from typing import Any

from tui.lang.expr import ast, ops
from tui.lang.expr.errors import LangError, ParseError, UnboundNameError
from tui.lang.expr.inlining import Helpers, Inliner
from tui.lang.expr.limits import CALL_OPS, OPS_PER_EVALUATION, body_cost
from tui.lang.expr.loops import LoopWriter, small_arrow
from tui.lang.expr.stdlib import FUNCTIONS
from tui.lang.expr.values import Closure, num_to_str, truthy

#: The global of a generated module that holds (source text, {line number: source offset}); a line of an
#: inlined helper's body maps to (the body's text, offset in it) instead.
LINEMAP = "__linemap__"

Pos = int | tuple[str, int]
"""Where a generated line comes from: an offset in the source, or (a helper's body, an offset in it)."""

_counter = itertools.count()

#: The only names generated code can see besides its own locals: helpers and the standard library.
_RUNTIME: dict[str, Any] = {
    "__builtins__": {},
    "_Closure": Closure,
    "_eta": ops.call_through,
    "_member": ops.member,
    "_iterable": ops.iterable,
    "_add": ops.add,
    "_sub": ops.sub,
    "_mul": ops.mul,
    "_div": ops.div,
    "_mod": ops.mod,
    "_pow": ops.pow_,
    "_neg": ops.neg,
    "_pos": ops.pos,
    "_lt": ops.lt,
    "_gt": ops.gt,
    "_le": ops.le,
    "_ge": ops.ge,
    "_eq": ops.eq,
    "_truth": truthy,
    "_spread_into": ops.spread_into,
    "_spread_props": ops.spread_props,
    "_text_part": ops.text_part,
    "_prop_key": ops.prop_key,
    "_call_value": ops.call_value,
    "_float": float,
    "_num": num_to_str,
    "_fmod": math.fmod,
    "_dict": dict,
    "_list": list,
    "_KeyError": KeyError,
    "_TypeError": TypeError,
    "_str": str,
    "_len": len,
}

_ARITH_FN = {"-": "_sub", "*": "_mul", "/": "_div", "%": "_mod", "**": "_pow"}
_CMP_FN = {"<": "_lt", ">": "_gt", "<=": "_le", ">=": "_ge"}

NUM, STR, BOOL, NULL = "num", "str", "bool", "null"

#: Keys read mostly from lists and texts (`xs.length`, `m[0]` as written `m['0']`): the class test stays
#: first for them, as a subscript of a list with a text would raise and catch every time.
_SEQUENCE_KEYS = frozenset(["length", *map(str, range(10))])

#: Operations a node counts for in its body's size, where it is not one: a name or a literal is a local
#: variable or a constant in the generated code, a chain only marks where `?.` stops; creating an arrow
#: makes a Python function and a Closure, about a call's work. Calls count in gen_Call.
_OPS = {"Literal": 0, "Name": 0, "Chain": 0, "Call": 0, "Arrow": CALL_OPS}


@dataclass
class Block:
    """A straight-line run of statements, some of them headers (`if …:`) of nested blocks."""

    items: list[tuple[str, Pos, Block | None]] = field(default_factory=list)


@dataclass
class Scope:
    """Names visible in a function being generated: arrow parameters shadow the outer names."""

    names: dict[str, str]
    parent: Scope | None


@dataclass
class Compiled:
    """What compile_tree returns: the Python function and facts about the expression."""

    fn: Any
    free_names: tuple[str, ...]
    calls: tuple[str, ...]
    python_source: str
    cost: int
    """The evaluations one run of the expression charges by itself (arrow calls and library work excluded)."""


class Compiler(LoopWriter, Inliner):
    """Generates one Python module (a single `_expr(_ctx, _r)` function) for one syntax tree."""

    def __init__(self, source: str, filename: str, helpers: Helpers | None = None) -> None:
        self.source = source
        self.filename = filename
        self.temps = itertools.count()
        self.fns = itertools.count()
        self.block = Block()
        self.scope = Scope({}, None)
        self.free: dict[str, str] = {}
        self.free_pos: dict[str, int] = {}
        self.calls: set[str] = set()
        self.methods: set[str] = set()
        """Library functions called as methods (`x.trim()`), each also tried directly."""
        self.consts: dict[str, Any] = {}
        self.ops = 0
        """Operations of the body being generated (the expression's, or the arrow's while inside one)."""
        self.start_inlining(helpers)

    # -- emission ------------------------------------------------------------------------------------
    def at(self, pos: int) -> Pos:
        """Where a line emitted now for `pos` comes from."""
        return pos if self.inline_source is None else (self.inline_source, pos)

    def emit(self, line: str, pos: int) -> None:
        self.block.items.append((line, self.at(pos), None))

    def open(self, header: str, pos: int) -> Block:
        """Append `header:` with a new nested block, make it current, and return the outer block."""
        inner = Block()
        outer = self.block
        outer.items.append((header, self.at(pos), inner))
        self.block = inner
        return outer

    def temp(self) -> str:
        return f"t{next(self.temps)}"

    def const(self, value: Any) -> str:
        name = f"k{len(self.consts)}"
        self.consts[name] = value
        return name

    def text_of(self, node: ast.Node) -> str:
        text = self.source[node.pos : node.end]
        return text if len(text) <= 60 else text[:57] + "..."

    # -- entry ---------------------------------------------------------------------------------------
    def compile(self, tree: ast.Node) -> Compiled:
        result, _ = self.gen(tree)
        self.emit(f"return {result}", tree.end)
        body = self.block
        lines: list[str] = ["def _expr(_ctx, _r):"]
        linemap: dict[int, Pos] = {}
        for name, var in self.free.items():
            pos = self.free_pos[name]
            lines.append(f"    {var} = _ctx.get({name!r}, _ctx)")
            linemap[len(lines)] = pos
            lines.append(f"    if {var} is _ctx: _unbound({name!r})")
            linemap[len(lines)] = pos
            for line in self.guard_lines(name):
                lines.append(f"    {line}")
                linemap[len(lines)] = pos
        cost = body_cost(self.ops + len(self.free))  # each bound name is looked up once per run
        lines.append(f"    _r.used += {cost}")
        self.render(body, 1, lines, linemap)
        src = "\n".join(lines) + "\n"
        namespace = dict(_RUNTIME)
        namespace.update(self.consts)
        namespace["_unbound"] = _unbound
        for fname in self.calls | self.methods | self.inline_calls:
            namespace[f"F_{fname}"] = FUNCTIONS[fname].impl
        with warnings.catch_warnings():
            # `0.0 is not None` (a literal before `?.`) is correct but warns; nothing may print over the TUI.
            warnings.simplefilter("ignore")
            code = compile(src, self.filename, "exec")
        namespace[LINEMAP] = (self.source, linemap)
        exec(code, namespace)  # our own generated code, over a namespace of our helpers only
        return Compiled(namespace["_expr"], tuple(self.free), tuple(sorted(self.calls)), src, cost)

    def render(self, block: Block, depth: int, lines: list[str], linemap: dict[int, Pos]) -> None:
        pad = "    " * depth
        if not block.items:
            lines.append(f"{pad}pass")
        for text, pos, inner in block.items:
            lines.append(pad + text)
            linemap[len(lines)] = pos
            if inner is not None:
                self.render(inner, depth + 1, lines, linemap)

    # -- names ---------------------------------------------------------------------------------------
    def lookup(self, name: str) -> str | None:
        s: Scope | None = self.scope
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def name_ref(self, node: ast.Name) -> str:
        local = self.lookup(node.name)
        if local is not None:
            return local
        if node.name not in self.free:
            self.free[node.name] = f"v{len(self.free)}"
            self.free_pos[node.name] = node.pos
        return self.free[node.name]

    # -- generation: returns (python expression, static kind or None) ---------------------------------
    def gen(self, node: ast.Node) -> tuple[str, str | None]:
        kind = type(node).__name__
        self.ops += _OPS.get(kind, 1)
        method = getattr(self, "gen_" + kind)
        return method(node)

    def gen_Literal(self, node: ast.Literal) -> tuple[str, str | None]:
        v = node.value
        if v is None:
            return "None", NULL
        if v is True or v is False:
            return repr(v), BOOL
        if isinstance(v, float):
            if v != v or v in (float("inf"), float("-inf")):
                return self.const(v), NUM
            return repr(v), NUM
        return repr(v), STR

    def gen_Name(self, node: ast.Name) -> tuple[str, str | None]:
        # A bare library name (`first`, `date`) may still be a plugin's own `let`: it is looked up like any
        # other name, and only the message for an unbound one says it is a function.
        return self.name_ref(node), None

    def gen_Template(self, node: ast.Template) -> tuple[str, str | None]:
        self.ops += len(node.exprs)  # each part is turned into text
        temps: list[str] = []
        for e in node.exprs:
            code, kind = self.gen(e)
            t = self.temp()
            temps.append(t)
            if kind == STR:
                self.emit(f"{t} = {code}", e.pos)
                continue
            # numbers, the usual non-text part, straight to JavaScript's text; the rest by the template rule
            other = f"_to_str({code})" if node.strict else f"_text_part({code}, _r)"
            number = f"_num({code}) if {code}.__class__ is _float else {other}"
            self.emit(f"{t} = {code} if {code}.__class__ is _str else {number}", e.pos)
        if not temps:
            return repr(node.quasis[0]), STR
        fixed = sum(len(q) for q in node.quasis)
        out = self.temp()
        self.emit(f"{out} = {fixed} + {' + '.join(f'_len({t})' for t in temps)}", node.pos)
        self.emit(f"if {out} >= 64: _r.charge_text({out})", node.pos)  # below 64 characters it charges nothing
        # An f-string of texts is the texts joined, without a tuple and a join() call.
        text = "".join(_braced(q) + "{" + t + "}" for q, t in zip(node.quasis, temps, strict=False))
        self.emit(f"{out} = f{text + _braced(node.quasis[-1])!r}", node.pos)
        return out, STR

    def gen_ArrayLit(self, node: ast.ArrayLit) -> tuple[str, str | None]:
        out = self.temp()
        if not any(isinstance(i, ast.Spread) for i in node.items):
            codes = [self.gen(i)[0] for i in node.items]
            self.emit(f"{out} = [{', '.join(codes)}]", node.pos)
            return out, None
        self.emit(f"{out} = []", node.pos)
        for item in node.items:
            if isinstance(item, ast.Spread):
                code, _ = self.gen(item.value)
                self.emit(f"_spread_into({out}, {code}, {self.text_of(item.value)!r})", item.pos)
            else:
                code, _ = self.gen(item)
                self.emit(f"{out}.append({code})", item.pos)
        self.emit(f"_r.charge_items(_len({out}))", node.pos)
        return out, None

    def gen_ObjectLit(self, node: ast.ObjectLit) -> tuple[str, str | None]:
        self.ops += len(node.props)  # one store per property
        out = self.temp()
        self.emit(f"{out} = {{}}", node.pos)
        for p in node.props:
            if isinstance(p, ast.Spread):
                code, _ = self.gen(p.value)
                self.emit(f"_spread_props({out}, {code}, {self.text_of(p.value)!r}, _r)", p.pos)
                continue
            if isinstance(p.key, str):
                key = repr(p.key)
            else:
                kcode, _ = self.gen(p.key)
                key = self.temp()
                self.emit(f"{key} = {kcode} if {kcode}.__class__ is _str else _prop_key({kcode})", p.key.pos)
            vcode, _ = self.gen(p.value)
            # JavaScript keeps a key's first position when it is set again; dicts do the same.
            self.emit(f"{out}[{key}] = {vcode}", p.pos)
        return out, None

    def gen_Member(self, node: ast.Member) -> tuple[str, str | None]:
        obj, _ = self.gen(node.obj)
        if node.optional:
            self.open(f"if {obj} is not None:", node.pos)
        out = self.temp()
        desc = repr(self.text_of(node))
        if isinstance(node.key, str) and node.key in _SEQUENCE_KEYS:
            key = repr(node.key)
            self.emit(
                f"{out} = {obj}.get({key}) if {obj}.__class__ is _dict else _member({obj}, {key}, {desc})",
                node.end - len(node.key),
            )
        elif isinstance(node.key, str):
            # A field of an object, most of the time: subscripting a dict is half the time of testing its
            # class and calling get() (try costs nothing until something is raised). A dict without the key
            # raises KeyError (null, as get() gives); anything else, TypeError (a list, a text, null, a
            # number, a node: none of them takes a text subscript), and the full rule.
            pos, key = node.end - len(node.key), repr(node.key)
            saved = self.open("try:", pos)
            self.emit(f"{out} = {obj}[{key}]", pos)
            self.block = saved
            self.open("except _KeyError:", pos)
            self.emit(f"{out} = None", pos)
            self.block = saved
            self.open("except _TypeError:", pos)
            self.emit(f"{out} = _member({obj}, {key}, {desc})", pos)
            self.block = saved
        elif _whole_index(node.key):
            # `m[0]`, `span[1]`: an item of a list, when it has one, without a call; the rest as _member
            key, _ = self.gen(node.key)
            i = int(float(key))
            fast = f"{obj}[{i}] if {obj}.__class__ is _list and _len({obj}) > {i}"
            self.emit(f"{out} = {fast} else _member({obj}, {key}, {desc})", node.key.pos)
        else:
            key, kind = self.gen(node.key)
            if kind == STR:
                fast = f"{obj}.get({key}) if {obj}.__class__ is _dict"
            else:
                fast = f"{obj}.get({key}) if {obj}.__class__ is _dict and {key}.__class__ is _str"
            self.emit(f"{out} = {fast} else _member({obj}, {key}, {desc})", node.key.pos)
        return out, None

    def gen_Chain(self, node: ast.Chain) -> tuple[str, str | None]:
        out = self.temp()
        self.emit(f"{out} = None", node.pos)
        saved = self.block
        code, _ = self.gen(node.expr)
        self.emit(f"{out} = {code}", node.pos)
        self.block = saved
        return out, None

    def gen_Unary(self, node: ast.Unary) -> tuple[str, str | None]:
        code, kind = self.gen(node.operand)
        out = self.temp()
        if node.op == "!":
            test = code if kind == BOOL else f"_truth({code})"
            self.emit(f"{out} = not {test}", node.pos)
            return out, BOOL
        fn = "_neg" if node.op == "-" else "_pos"
        if kind == NUM:
            self.emit(f"{out} = {'-' if node.op == '-' else ''}{code}", node.pos)
        else:
            sign = "-" if node.op == "-" else ""
            self.emit(f"{out} = {sign}{code} if {code}.__class__ is _float else {fn}({code})", node.pos)
        return out, NUM

    def gen_Binary(self, node: ast.Binary) -> tuple[str, str | None]:
        left, lk = self.gen(node.left)
        right, rk = self.gen(node.right)
        out = self.temp()
        op = node.op
        both_num = f"{left}.__class__ is _float and {right}.__class__ is _float"
        if lk == NUM and rk == NUM:
            both_num = "True"
        elif lk == NUM:
            both_num = f"{right}.__class__ is _float"
        elif rk == NUM:
            both_num = f"{left}.__class__ is _float"
        if op == "+":
            self.emit(f"{out} = {left} + {right} if {both_num} else _add({left}, {right}, _r)", node.pos)
            return out, (NUM if lk == rk == NUM else STR if STR in (lk, rk) else None)
        if op in ("-", "*"):
            self.emit(f"{out} = {left} {op} {right} if {both_num} else {_ARITH_FN[op]}({left}, {right})", node.pos)
            return out, NUM
        if op == "/":
            self.emit(f"{out} = {left} / {right} if {both_num} and {right} else _div({left}, {right})", node.pos)
            return out, NUM
        if op == "%":
            # JavaScript's % is C's fmod for finite numbers and a non-zero divisor (a finite x - x is 0);
            # the rest (NaN, Infinity, 0, not numbers) is ops.mod's.
            self.emit(
                f"{out} = _fmod({left}, {right}) if {both_num} and {right} and {left} - {left} == 0.0 "
                f"else _mod({left}, {right})",
                node.pos,
            )
            return out, NUM
        if op == "**":
            self.emit(f"{out} = _pow({left}, {right})", node.pos)
            return out, NUM
        if op in _CMP_FN:
            if lk == STR and rk == STR:
                self.emit(f"{out} = {left} {op} {right}", node.pos)
            else:
                if lk is None and rk is None and _is_var(left) and _is_var(right):
                    # two texts compare in Python as in JavaScript (by code point here, as ops._compare)
                    same = f"{left}.__class__ is {right}.__class__ and {left}.__class__ is _str"
                    both_num = f"{both_num} or {same}"
                fast = f"{left} {op} {right} if {both_num} else {_CMP_FN[op]}({left}, {right})"
                self.emit(f"{out} = {fast}", node.pos)
            return out, BOOL
        # == != === !==: strict equality
        negate = op in ("!=", "!==")
        self.emit(f"{out} = {self.equality(left, lk, right, rk)}", node.pos)
        if negate:
            self.emit(f"{out} = not {out}", node.pos)
        return out, BOOL

    @staticmethod
    def equality(left: str, lk: str | None, right: str, rk: str | None) -> str:
        # Identity tests only against a variable: `1.0 is True` would be a SyntaxWarning, and two literals
        # are rare enough to take the general path.
        lvar, rvar = _is_var(left), _is_var(right)
        if lk == NULL and rvar:
            return f"{right} is None"
        if rk == NULL and lvar:
            return f"{left} is None"
        if rk == BOOL and lvar:
            return f"{left} is {right}"
        if lk == BOOL and rvar:
            return f"{right} is {left}"
        if rk == STR and lvar:
            return f"{left} == {right} if {left}.__class__ is _str else _eq({left}, {right})"
        if lk == STR and rvar:
            return f"{left} == {right} if {right}.__class__ is _str else _eq({left}, {right})"
        if rk == NUM and lvar:
            return f"{left} == {right} if {left}.__class__ is _float else _eq({left}, {right})"
        if lk == NUM and rvar:
            return f"{left} == {right} if {right}.__class__ is _float else _eq({left}, {right})"
        if lvar and rvar:  # two numbers or two texts: Python's == is JavaScript's === (NaN, -0 included)
            same = f"{left}.__class__ is {right}.__class__ and ({left}.__class__ is _float or {left}.__class__ is _str)"
            return f"{left} == {right} if {same} else _eq({left}, {right})"
        return f"_eq({left}, {right})"

    def truth_test(self, code: str, kind: str | None) -> str:
        if kind == BOOL:
            return code
        return f"{code} is True or ({code} is not False and _truth({code}))"

    def gen_Logical(self, node: ast.Logical) -> tuple[str, str | None]:
        left, lk = self.gen(node.left)
        out = self.temp()
        self.emit(f"{out} = {left}", node.pos)
        if node.op == "&&":
            header = f"if {self.truth_test(out, lk)}:"
        elif node.op == "||":
            header = f"if not ({self.truth_test(out, lk)}):"
        else:
            header = f"if {out} is None:"
        saved = self.open(header, node.pos)
        right, rk = self.gen(node.right)
        self.emit(f"{out} = {right}", node.right.pos)
        self.block = saved
        return out, (lk if lk == rk else None)

    def gen_Conditional(self, node: ast.Conditional) -> tuple[str, str | None]:
        test, tk = self.gen(node.test)
        out = self.temp()
        saved = self.open(f"if {self.truth_test(test, tk)}:", node.pos)
        then, k1 = self.gen(node.then)
        self.emit(f"{out} = {then}", node.then.pos)
        self.block = saved
        self.open("else:", node.pos)
        other, k2 = self.gen(node.other)
        self.emit(f"{out} = {other}", node.other.pos)
        self.block = saved
        return out, (k1 if k1 == k2 else None)

    def gen_Spread(self, node: ast.Spread) -> tuple[str, str | None]:
        raise ParseError("'...' may only spread into an array, an object or a call", node.pos)

    def gen_Arrow(self, node: ast.Arrow) -> tuple[str, str | None]:
        fname = f"f{next(self.fns)}"
        params: list[str] = []
        names: dict[str, str] = {}
        unpack: list[tuple[str, ast.Param]] = []
        for p in node.params:
            var = f"a{next(self.temps)}"
            params.append(f"{var}=None")
            if p.name is not None:
                names[p.name] = var
            else:
                unpack.append((var, p))
                for f in p.fields or []:
                    names[f] = f"a{next(self.temps)}"
        saved_block, saved_scope, saved_ops = self.block, self.scope, self.ops
        self.block = Block()
        self.scope = Scope(names, saved_scope)
        self.ops = 0
        for var, p in unpack:
            desc = repr(self.text_of(p))
            if p.array:
                self.emit(f"{var} = _iterable({var}, {desc})", p.pos)
            for i, f in enumerate(p.fields or []):
                key = repr(float(i)) if p.array else repr(f)
                self.emit(
                    f"{names[f]} = {var}.get({key}) if {var}.__class__ is _dict else _member({var}, {key}, {desc})",
                    p.pos,
                )
        body, _ = self.gen(node.body)
        self.emit(f"return {body}", node.body.pos)
        fn_block = self.block
        cost = body_cost(self.ops + sum(len(p.fields or []) for _, p in unpack))  # a read per field
        if cost > 1:  # the caller charges the first evaluation of each call; a big body charges the rest
            fn_block.items.insert(0, (f"_r.used += {cost - 1}", self.at(node.pos), None))
        self.block, self.scope, self.ops = saved_block, saved_scope, saved_ops
        self.block.items.append((f"def {fname}({''.join(p + ', ' for p in params)}*_):", self.at(node.pos), fn_block))
        out = self.temp()
        target = self.passes_through(node)
        make = f"_eta({target}, " if target else "_Closure("
        self.emit(f"{out} = {make}{fname}, {len(node.params)}, {cost}, {self.text_of(node)!r})", node.pos)
        return out, None

    def passes_through(self, node: ast.Arrow) -> str | None:
        """For `x => f(x)` (`(a, b) => f(a, b)`: the same names, in order) where `f` is not a library
        function, the code of `f`: such an arrow is made as `f` itself when `f` is a function value, so a
        builtin calls the plugin's function directly (one Python frame and one evaluation per call)."""
        body = node.body
        if not (isinstance(body, ast.Call) and isinstance(body.callee, ast.Name) and not body.optional):
            return None
        names = [p.name for p in node.params]
        callee = body.callee.name
        if callee in names or None in names or (self.lookup(callee) is None and callee in FUNCTIONS):
            return None
        if [a.name if isinstance(a, ast.Name) else None for a in body.args] != names:
            return None
        return self.lookup(callee) or self.free[callee]  # already generated: the body read it

    def gen_Call(self, node: ast.Call) -> tuple[str, str | None]:
        callee = node.callee
        self.ops += CALL_OPS
        if isinstance(callee, ast.Name) and self.lookup(callee.name) is None and callee.name in FUNCTIONS:
            self.ops += FUNCTIONS[callee.name].cost * OPS_PER_EVALUATION
            return self.call_builtin(node, callee.name)
        if isinstance(callee, ast.Member) and isinstance(callee.key, str):
            # Most likely the library function of that name (an object's own function costs less).
            fixed = FUNCTIONS.get(callee.key)
            self.ops += fixed.cost * OPS_PER_EVALUATION if fixed else 0
            return self.call_method(node, callee)
        spec = self.inlinable(node)
        fcode, _ = self.gen(callee)
        if node.optional:
            self.open(f"if {fcode} is not None:", node.pos)
        codes = [self.gen(a)[0] for a in node.args] if spec is not None else None
        args = "[" + ", ".join(codes) + "]" if codes is not None else self.gen_args(node.args)
        out = self.temp()
        # a plugin helper: its body in place when the name holds that helper, and the call otherwise
        test = "if" if spec is None or codes is None else self.inline_call(node, spec, fcode, codes, out)
        if isinstance(test, tuple):
            return test  # in a loop written for when the helper is the helper: the body alone
        # A plugin function or an arrow from a list: called right here, one Python frame (as an inline
        # arrow's body would be), charged one evaluation; anything else gets call_value's error.
        spread = not args.startswith("[")
        saved = self.open(f"{test} {fcode}.__class__ is _Closure:", node.pos)
        self.emit("_r.used += 1", node.pos)
        self.emit("if _r.used > _r.stop: _r.over()", node.pos)
        self.emit(f"{out} = {fcode}.fn({'*' + args if spread else args[1:-1]})", node.pos)
        self.block = saved
        self.open("else:", node.pos)
        self.emit(f"{out} = _call_value(_r, {fcode}, {args}, {self.text_of(callee)!r})", node.pos)
        self.block = saved
        return out, None

    def gen_args(self, args: list[ast.Node]) -> str:
        """A Python list expression of the argument values (spreads expanded at run time)."""
        if not any(isinstance(a, ast.Spread) for a in args):
            return "[" + ", ".join(self.gen(a)[0] for a in args) + "]"
        out = self.temp()
        self.emit(f"{out} = []", args[0].pos)
        for a in args:
            if isinstance(a, ast.Spread):
                code, _ = self.gen(a.value)
                self.emit(f"_spread_into({out}, {code}, {self.text_of(a.value)!r})", a.pos)
            else:
                code, _ = self.gen(a)
                self.emit(f"{out}.append({code})", a.pos)
        self.emit(f"_r.charge_items(_len({out}))", args[0].pos)  # an argument list is a list built, too
        return out

    def call_builtin(self, node: ast.Call, name: str) -> tuple[str, str | None]:
        b = FUNCTIONS[name]
        self.calls.add(name)
        has_spread = any(isinstance(a, ast.Spread) for a in node.args)
        if not has_spread:
            try:
                b.check_arity(len(node.args))
            except LangError as e:
                raise ParseError(e.msg, node.pos) from None
        args = self.gen_args(node.args)
        out = self.temp()
        if has_spread:
            self.emit(f"{out} = _apply(_r, {name!r}, {args})", node.pos)
        else:
            self.emit(f"{out} = F_{name}(_r, {args[1:-1]})" if node.args else f"{out} = F_{name}(_r)", node.pos)
        return out, None

    def call_method(self, node: ast.Call, callee: ast.Member) -> tuple[str, str | None]:
        recv, _ = self.gen(callee.obj)
        if callee.optional:
            self.open(f"if {recv} is not None:", callee.pos)
        name = callee.key
        assert isinstance(name, str)
        if node.optional:  # `recv.name?.(…)`: no such method skips the arguments and the rest of the chain
            self.open(f"if _has_method({recv}, {name!r}):", node.pos)
            args = self.gen_args(node.args)
            out = self.temp()
            call = f"_method(_r, {recv}, {name!r}, {args}, {self.text_of(callee)!r}, True)"
            self.emit(f"{out} = {call}", callee.end - len(name))
            return out, None
        arrow = small_arrow(node, name)
        args = self.gen_args(node.args)
        out = self.temp()
        call = f"_method(_r, {recv}, {name!r}, {args}, {self.text_of(callee)!r}, {node.optional})"
        b = FUNCTIONS.get(name)
        if b is not None and args.startswith("[") and _fits(b, len(node.args) + 1):
            # What call_method does for anything but an object (its own function first) or null (an error):
            # the library function, called here (one Python frame less, no lookup, no arity check).
            self.methods.add(name)
            direct = f"F_{name}(_r, {recv}{', ' + args[1:-1] if node.args else ''})"
            call = f"{direct} if {recv}.__class__ is not _dict and {recv} is not None else {call}"
        if arrow is None:
            self.emit(f"{out} = {call}", callee.end - len(name))
            return out, None
        saved = self.open(f"if {recv}.__class__ is _list:", callee.end - len(name))
        self.write_loop(name, arrow, recv, out, callee.end - len(name))
        self.block = saved
        self.open("else:", callee.end - len(name))
        self.emit(f"{out} = {call}", callee.end - len(name))
        self.block = saved
        return out, None

    def scoped(self, names: dict[str, str]) -> Scope:
        """A scope of `names` (parameter → generated variable) inside the current one."""
        return Scope(names, self.scope)


def _whole_index(node: Any) -> bool:
    """True for a literal index such as the 0 of `m[0]`: a whole number from 0 up (not -0)."""
    v = node.value if isinstance(node, ast.Literal) else None
    return isinstance(v, float) and v.is_integer() and 0 <= v < 2**31 and math.copysign(1, v) > 0


def _braced(text: str) -> str:
    """Literal text for an f-string: braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def _fits(b: Any, n: int) -> bool:
    """True when the library function `b` takes `n` arguments."""
    return b.min_args <= n and (b.max_args is None or n <= b.max_args)


def _is_var(code: str) -> bool:
    """True when generated `code` is a local variable (not a literal or a keyword constant)."""
    return code.isidentifier() and code not in ("True", "False", "None")


def _unbound(name: str) -> None:
    if name in FUNCTIONS:
        raise UnboundNameError(f"'{name}' is a function: call it, like {name}(…)")
    raise UnboundNameError(f"unknown name '{name}'")


def new_filename() -> str:
    """A unique pseudo file name for one generated module."""
    return f"<expr-{next(_counter)}>"


def install_runtime(**helpers: Any) -> None:
    """Add helpers that live above this module (method dispatch, text conversion) to generated code."""
    _RUNTIME.update(helpers)
