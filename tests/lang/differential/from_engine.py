"""Language text into the differential tree, for hand-written examples (the tables' and the docs').

Only the engine's parser is used, to read the text (its syntax tree, tui/lang/expr/ast.py, keeps the span of
every node); nothing of its evaluation. Literals keep their raw text from those spans, so they reach the
oracle exactly as written.
"""

from __future__ import annotations

import json

from tui.lang.expr import ast as A
from tui.lang.expr.parser import parse as engine_parse

from . import tree as T

#: JavaScript globals an example may use to show that the language has none (§10).
GLOBALS = {"Math", "JSON", "Number", "String", "Object", "Array", "Date"}


def parse(source: str) -> T.Node:
    """The tree of `source` (raises the engine's ParseError for text that is not an expression)."""
    return _Convert(source).node(engine_parse(source), frozenset())


class _Convert:
    def __init__(self, source: str) -> None:
        self.source = source

    def raw(self, n: A.Node) -> str:
        return self.source[n.pos : n.end]

    def node(self, n: A.Node, params: frozenset[str]) -> T.Node:
        f = self.node
        match n:
            case A.Literal(value=bool() | None):
                return T.Const(json.dumps(n.value))
            case A.Literal(value=str()):
                return T.Str(self.raw(n))
            case A.Literal():
                return T.Num(self.raw(n).lstrip("(").rstrip(")"))
            case A.Name(name=name):
                return T.Param(name) if name in params else T.Name(name)
            case A.Template(quasis=quasis, exprs=exprs):
                raws = tuple(q.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${") for q in quasis)
                return T.Tpl(raws, tuple(f(e, params) for e in exprs))
            case A.ArrayLit(items=items):
                return T.Arr(tuple(f(x, params) for x in items))
            case A.Spread(value=value):
                return T.Spread(f(value, params))
            case A.ObjectLit(props=props):
                return T.Obj(tuple(self.prop(p, params) for p in props))
            case A.Member(obj=obj, key=str() as key, optional=opt):
                return T.Member(f(obj, params), key, opt)
            case A.Member(obj=obj, key=key, optional=opt):
                return T.Index(f(obj, params), f(key, params), opt)  # type: ignore[arg-type]
            case A.Call(callee=A.Member(obj=A.Name(name=name))) if name in GLOBALS and name not in params:
                return T.Global(self.raw(n))  # the language has no globals: JavaScript reads it natively
            case A.Call(callee=A.Name(name=name), args=args):
                return T.Call(name, tuple(f(a, params) for a in args))
            case A.Call(callee=A.Member(obj=obj, key=str() as key, optional=opt), args=args, optional=optcall):
                return T.MCall(f(obj, params), key, tuple(f(a, params) for a in args), opt, optcall)
            case A.Chain(expr=expr):
                return f(expr, params)
            case A.Unary(op=op, operand=x):
                return T.Unary(op, f(x, params))
            case A.Binary(op=op, left=a, right=b) | A.Logical(op=op, left=a, right=b):
                return T.Bin(op, f(a, params), f(b, params))
            case A.Conditional(test=c, then=a, other=b):
                return T.Cond(f(c, params), f(a, params), f(b, params))
            case A.Arrow(params=ps, body=body):
                heads: list[str | tuple[str, ...]] = []
                for p in ps:
                    heads.append(p.name if p.name is not None else ("[" if p.array else "{", *(p.fields or [])))
                names = {q for h in heads for q in ((h,) if isinstance(h, str) else h[1:])}
                return T.Arrow(tuple(heads), f(body, params | names))
        raise ValueError(f"not supported in the differential tree: {self.raw(n)!r}")

    def prop(self, p: A.Prop | A.Spread, params: frozenset[str]) -> T.Node:
        if isinstance(p, A.Spread):
            return T.Spread(self.node(p.value, params))
        if not isinstance(p.key, str):
            return T.Computed(self.node(p.key, params), self.node(p.value, params))
        if isinstance(p.value, A.Name) and p.value.name == p.key and self.raw(p).strip() == p.key:
            return T.Shorthand(self.node(p.value, params))
        return T.Prop(json.dumps(p.key, ensure_ascii=False), self.node(p.value, params))
