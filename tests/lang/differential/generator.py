"""A seeded, typed generator of expressions over the documented subset of the language.

Each call asks for an expression of a type (number, text, boolean, null, a list of something, an object, or
anything) and picks a production that gives that type, so most generated expressions run without a type
error and reach deep into the library; a small share is deliberately mistyped, so the refusals of §2 and §5
are exercised too. Arrow parameters are typed by what the library passes them (`xs.map(x => …)`: x is a
number), and a context name that an arrow parameter shadows is never used inside that arrow.

The library calls themselves live in productions.py; this module holds the core: leaves, operators,
member access, literals of lists, objects and templates, and arrows.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from . import pools
from .tree import (
    Arr,
    Arrow,
    Bin,
    Computed,
    Cond,
    Const,
    Index,
    MCall,
    Member,
    Name,
    Node,
    Num,
    Obj,
    Param,
    Prop,
    Shorthand,
    Spread,
    Str,
    Tpl,
    Unary,
)

#: Types the generator asks for. 'list:row' is a list of row objects {id, n, s, tag}; 'list:pair' a list of
#: two-item lists (what entries() and zip() give).
TYPES = ["num", "str", "bool", "null", "list:num", "list:str", "list:row", "list:pair", "list:any", "obj", "row", "any"]
TOP = ["num", "num", "str", "str", "str", "bool", "list:num", "list:str", "list:row", "obj", "obj", "any"]
#: Context names by type (pools.Contexts binds them).
CONTEXT = {
    "num": ["n", "m"],
    "str": ["s", "t", "d", "u", "date", "now"],
    "bool": ["b"],
    "null": ["nil"],
    "list:num": ["xs"],
    "list:str": ["ss"],
    "list:row": ["rows"],
    "obj": ["o"],
    "any": ["j", "o", "xs"],
}
CONTEXT_NAMES = sorted({n for names in CONTEXT.values() for n in names})
ROW_FIELDS = {"id": "str", "n": "num", "s": "str", "tag": "str"}
PARAM_NAMES = ["x", "y", "i", "k", "v", "acc", "r", "p", "q", "a", "b", "n", "s"]
OBJ_KEYS = [
    "a",
    "b",
    "n",
    "s",
    "id",
    "length",
    "__proto__",
    "constructor",
    "'x y'",
    "'1'",
    "1",
    "10",
    "1e3",
    "0x10",
    ".5",
    "'01'",
    "'二'",
    "toString",
    "'😀'",
]
MISTYPE = 0.06

Production = Callable[[int], Node]


class Generator:
    """Expressions of a requested type; `rng` decides everything, so a seed replays a case."""

    def __init__(self, rng: random.Random, max_depth: int = 4) -> None:
        self.rng = rng
        self.max_depth = max_depth
        self.env: list[tuple[str, str]] = []  # arrow parameters in scope, innermost last
        from .productions import library_productions

        self.library = library_productions(self)

    # ---- entry points ----

    def case(self) -> Node:
        self.env = []
        return self.expr(self.rng.choice(TOP), self.max_depth)

    def expr(self, ty: str, depth: int) -> Node:
        rng = self.rng
        if depth <= 0 or (depth < self.max_depth and rng.random() < 0.18):
            return self.leaf(ty)
        if rng.random() < MISTYPE:
            ty = rng.choice(TYPES)
        options = self.core(ty) + self.library.get(ty if ty in self.library else "any", [])
        weights = [w for w, _ in options]
        make = rng.choices([m for _, m in options], weights)[0]
        return make(depth - 1)

    # ---- leaves ----

    def params_of(self, ty: str) -> list[str]:
        return [n for n, t in self.env if t == ty or ty == "any"]

    def names_of(self, ty: str) -> list[str]:
        shadowed = {n for n, _ in self.env}
        return [n for n in CONTEXT.get(ty, []) if n not in shadowed]

    def leaf(self, ty: str) -> Node:
        rng = self.rng
        params = self.params_of(ty)
        if params and rng.random() < 0.7:
            return Param(rng.choice(params))
        names = self.names_of(ty)
        if names and rng.random() < 0.5:
            return Name(rng.choice(names))
        kind = ty.split(":")[0]
        if ty == "num" or (kind == "any" and rng.random() < 0.3):
            return Num(rng.choice(pools.NUMBER_LITERALS))
        if ty == "str" or kind == "any":
            return Str(rng.choice(pools.STRING_LITERALS))
        if ty == "bool":
            return Const(rng.choice(["true", "false"]))
        if ty == "null":
            return Const("null")
        if kind == "list":
            inner = ty.split(":")[1]
            if inner == "pair":
                return Arr(tuple(Arr((self.leaf("str"), self.leaf("num"))) for _ in range(rng.randint(0, 3))))
            item = {"num": "num", "str": "str", "row": "row"}.get(inner, "any")
            return Arr(tuple(self.leaf(item) for _ in range(rng.randint(0, 4))))
        if ty == "row":
            keys = rng.sample(list(ROW_FIELDS), rng.randint(1, 4))
            return Obj(tuple(Prop(k, self.leaf(ROW_FIELDS[k])) for k in keys))
        if ty == "obj":
            keys = rng.sample(OBJ_KEYS, rng.randint(0, 3))
            return Obj(tuple(Prop(k, self.leaf("any")) for k in keys))
        return Const("null")

    # ---- arrows ----

    def arrow(self, params: list[str], body: str, depth: int) -> Arrow:
        """An arrow whose parameters have the given types; a 'row' or 'list:pair' parameter is sometimes
        destructured (`({ n, s }) =>`, `([a, b]) =>`)."""
        rng = self.rng
        taken = {n for n, _ in self.env}
        free = [n for n in PARAM_NAMES if n not in taken]
        rng.shuffle(free)
        heads: list[str | tuple[str, ...]] = []
        bound: list[tuple[str, str]] = []
        for ty in params:
            if ty == "row" and rng.random() < 0.3:
                fields = [f for f in rng.sample(list(ROW_FIELDS), rng.randint(1, 2)) if f not in taken]
                heads.append(("{", *fields))
                bound += [(f, ROW_FIELDS[f]) for f in fields]
            elif ty == "pair" and rng.random() < 0.5:
                a, b = free.pop(), free.pop()
                heads.append(("[", a, b))
                bound += [(a, "str"), (b, "num")]
            else:
                name = free.pop()
                heads.append(name)
                bound.append((name, "list:any" if ty == "pair" else ty))
        self.env += bound
        try:
            return Arrow(tuple(heads), self.expr(body, depth))
        finally:
            del self.env[len(self.env) - len(bound) :]

    def item_fn(self, item: str, body: str, depth: int) -> Arrow:
        """An arrow for map/filter/…: `(item) =>`, `(item, index) =>`, now and then `() =>`."""
        r = self.rng.random()
        params = [item, "num"] if r < 0.2 else ([] if r < 0.23 else [item])
        return self.arrow(params, body, depth)

    def key(self, item: str, depth: int) -> Node:
        """A key for sortBy/groupBy/…: a field name of a row, or an arrow."""
        if item == "row" and self.rng.random() < 0.5:
            return Str(self.rng.choice(["'n'", "'s'", "'id'", "'tag'", "'missing'"]))
        return self.arrow([item], self.rng.choice(["num", "str", "num", "bool", "any"]), depth)

    # ---- the core language ----

    def core(self, ty: str) -> list[tuple[float, Production]]:
        e, rng = self.expr, self.rng
        out: list[tuple[float, Production]] = [
            (1.0, lambda d: Cond(e("bool", d), e(ty, d), e(ty, d))),
            (0.6, lambda d: Bin(rng.choice(["&&", "||"]), e(rng.choice(["bool", ty]), d), e(ty, d))),
            (0.6, lambda d: Bin("??", e(rng.choice(["null", ty, "any"]), d), e(ty, d))),
            (0.8, lambda d: self.member(ty, d)),
        ]
        if ty == "num":
            out += [
                (4.0, lambda d: Bin(rng.choice(["+", "-", "*", "/", "%", "**"]), e("num", d), e("num", d))),
                (0.8, lambda d: Unary(rng.choice(["-", "-", "+"]), e("num", d))),
                (1.0, lambda d: Member(e(rng.choice(["str", "list:any"]), d), "length")),
                (1.0, lambda d: Index(e("list:num", d), e("num", d))),
            ]
        elif ty == "str":
            out += [
                (2.5, lambda d: Bin("+", e("str", d), e(rng.choice(["str", "num", "null", "bool"]), d))),
                (0.6, lambda d: Bin("+", e(rng.choice(["num", "bool"]), d), e("str", d))),
                (1.5, lambda d: self.template(d)),
                (1.0, lambda d: Index(e("str", d), e("num", d), rng.random() < 0.1)),
            ]
        elif ty == "bool":
            cmp_ty = rng.choice(["num", "num", "str", "any"])
            out += [
                (3.0, lambda d: Bin(rng.choice(["<", "<=", ">", ">="]), e(cmp_ty, d), e(cmp_ty, d))),
                (
                    3.0,
                    lambda d: Bin(
                        rng.choice(["==", "!=", "===", "!=="]), e(cmp_ty, d), e(rng.choice([cmp_ty, "any"]), d)
                    ),
                ),
                (1.5, lambda d: Unary("!", e(rng.choice(["bool", "any", "num", "str"]), d))),
            ]
        elif ty.startswith("list:"):
            item = ty[5:]
            out += [(2.0, lambda d: Arr(tuple(self.list_item(item, d) for _ in range(rng.randint(0, 4)))))]
        elif ty in ("obj", "row"):
            out += [(2.0, lambda d: self.object(ty, d))]
        elif ty == "any":
            out += [(2.0, lambda d: e(rng.choice(TYPES[:-1]), d)), (1.0, lambda d: self.chain(d))]
        return out

    def list_item(self, item: str, depth: int) -> Node:
        if self.rng.random() < 0.12:
            return Spread(self.expr(self.rng.choice([f"list:{item}", "str", "list:any"]), depth))
        return self.expr({"pair": "list:any"}.get(item, item), depth)

    def object(self, ty: str, depth: int) -> Obj:
        rng = self.rng
        entries: list[Node] = []
        for _ in range(rng.randint(0, 4)):
            r = rng.random()
            if ty == "row" or r < 0.5:
                key = rng.choice(list(ROW_FIELDS) if ty == "row" else OBJ_KEYS)
                entries.append(Prop(key, self.expr(ROW_FIELDS.get(key, "any"), depth)))
            elif r < 0.65:
                entries.append(Computed(self.expr(rng.choice(["str", "num", "any"]), depth), self.expr("any", depth)))
            elif r < 0.8:
                shadowed = {n for n, _ in self.env}
                names = [(n, True) for n, _ in self.env] + [(n, False) for n in CONTEXT_NAMES if n not in shadowed]
                name, is_param = rng.choice(names)
                entries.append(Shorthand(Param(name) if is_param else Name(name)))
            else:
                entries.append(Spread(self.expr(rng.choice(["obj", "row", "null", "str", "list:num"]), depth)))
        return Obj(tuple(entries))

    def template(self, depth: int) -> Tpl:
        rng = self.rng
        n = rng.randint(0, 3)
        quasis = tuple(rng.choice(pools.TEMPLATE_QUASIS) for _ in range(n + 1))
        exprs = tuple(self.expr(rng.choice(["num", "str", "str", "null", "bool", "any"]), depth) for _ in range(n))
        return Tpl(quasis, exprs)

    def member(self, ty: str, depth: int) -> Node:
        """A property read whose value should be of type `ty`: a row's field, or anything's key."""
        rng = self.rng
        field = [f for f, t in ROW_FIELDS.items() if t == ty]
        if field and rng.random() < 0.7:
            return Member(self.expr("row", depth), rng.choice(field), rng.random() < 0.1)
        return self.chain(depth)

    def chain(self, depth: int) -> Node:
        """A chain of reads into unknown data, optional links and calls included: `j?.a[0].b`, `o.f?.()`."""
        rng = self.rng
        node: Node = self.expr(rng.choice(["any", "obj", "null", "list:any"]), depth)
        for _ in range(rng.randint(1, 3)):
            r = rng.random()
            opt = rng.random() < 0.35
            if r < 0.45:
                node = Member(node, rng.choice(["a", "b", "n", "s", "length", "__proto__", "constructor"]), opt)
            elif r < 0.85:
                node = Index(
                    node,
                    self.expr(rng.choice(["num", "str"]), depth - 1) if depth > 1 else Num(rng.choice(["0", "1"])),
                    opt,
                )
            else:
                name = rng.choice(["f", "keys", "toUpperCase", "nope", "map", "at"])
                args = (Num("0"),) if name == "at" else ()
                node = MCall(node, name, args, opt, rng.random() < 0.5)
        return node
