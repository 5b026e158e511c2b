"""One tree, two texts: the plugin language for the engine, JavaScript for the oracle (oracle.mjs).

The language text is printed with the fewest parentheses the precedence table of docs/PLUGIN-LANGUAGE.md §3
allows, so the engine's parser is tested too: the JavaScript side follows the tree, not the text. In the
JavaScript every operator and library call is a wrapper in `L`, context names are read from `C`, arrow
parameters are `$name`, and a chain with an optional link is wrapped in `L.chain` (where `?.` ends it).

String and template literals keep their raw text. In "raw" mode JavaScript reads that text itself (so a
documented escape difference such as `'\\d'` shows up); in "cooked" mode the oracle gets the value the
language gives the literal (cook()), which is how documented.py recognises that difference.
"""

from __future__ import annotations

import json
import re

from .tree import (
    AND,
    BINARY,
    COND,
    EQ,
    LOGICAL,
    NULLISH,
    OR,
    POSTFIX,
    POW,
    UNARY,
    Arr,
    Arrow,
    Bin,
    Call,
    Computed,
    Cond,
    Const,
    Global,
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
    prec,
)

JS_OP = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "**": "pow", "<": "lt", "<=": "le"}
JS_OP |= {">": "gt", ">=": "ge", "==": "eq", "===": "eq", "!=": "ne", "!==": "ne"}


# ---- the language ----


def lang(n: Node, most: int = COND) -> str:
    """The language text of `n`, in parentheses when its precedence is looser than `most` allows."""
    text = _lang(n)
    return f"({text})" if prec(n) > most else text


def _interleave(texts: tuple[str, ...] | list[str], between: list[str]) -> str:
    """texts[0] + between[0] + texts[1] + … (a template's parts around its expressions)."""
    return "".join(t + (between[i] if i < len(between) else "") for i, t in enumerate(texts))


def _receiver(obj: Node) -> str:
    # A number literal needs parentheses before '.', and an object literal reads better in them.
    return f"({lang(obj)})" if isinstance(obj, Num | Obj) else lang(obj, POSTFIX)


def _args(args: tuple[Node, ...]) -> str:
    return ", ".join(lang(a) for a in args)


def _lang(n: Node) -> str:
    match n:
        case Num(raw) | Str(raw) | Const(raw) | Name(raw) | Param(raw) | Global(raw):
            return raw
        case Tpl(quasis, exprs):
            return "`" + _interleave(quasis, [f"${{{lang(e)}}}" for e in exprs]) + "`"
        case Spread(expr):
            return "..." + lang(expr)
        case Arr(items):
            return "[" + _args(items) + "]"
        case Prop(key, value):
            return f"{key}: {lang(value)}"
        case Computed(key, value):
            return f"[{lang(key)}]: {lang(value)}"
        case Shorthand(ref):
            return lang(ref)
        case Obj(entries):
            return "{ " + ", ".join(lang(e) for e in entries) + " }" if entries else "{}"
        case Member(obj, prop, opt):
            return _receiver(obj) + ("?." if opt else ".") + prop
        case Index(obj, key, opt):
            return _receiver(obj) + ("?.[" if opt else "[") + lang(key) + "]"
        case Call(fname, args):
            return f"{fname}({_args(args)})"
        case MCall(obj, name, args, opt, optcall):
            return _receiver(obj) + ("?." if opt else ".") + name + ("?.(" if optcall else "(") + _args(args) + ")"
        case Arrow(params, body):
            ps = [
                p if isinstance(p, str) else (f"{{ {', '.join(p[1:])} }}" if p[0] == "{" else f"[{', '.join(p[1:])}]")
                for p in params
            ]
            head = ps[0] if len(ps) == 1 and isinstance(params[0], str) else f"({', '.join(ps)})"
            text = lang(body)
            # A body that starts with '{' would be read as a block (in JavaScript too): wrap it.
            return f"{head} => " + (f"({text})" if text.startswith("{") else text)
        case Unary(op, x):
            inner = lang(x, UNARY)
            # '- -1' not '--1' (a decrement); '-(-1)' keeps it readable.
            return op + (f"({inner})" if isinstance(x, Unary) and not inner.startswith("(") else inner)
        case Bin(op, a, b):
            return _lang_bin(op, a, b)
        case Cond(c, a, b):
            return f"{lang(c, NULLISH)} ? {lang(a)} : {lang(b)}"
    raise TypeError(f"not a node: {n!r}")


def _lang_bin(op: str, a: Node, b: Node) -> str:
    p = LOGICAL.get(op, BINARY.get(op))
    assert p is not None
    if op == "**":
        # '-2 ** 2' is a syntax error in both languages: the left side is a postfix expression at most.
        return f"{lang(a, POSTFIX)} ** {lang(b, POW)}"
    if op == "??":
        # '??' may not be mixed with '&&' / '||' without parentheses.
        left = lang(a, EQ) if prec(a) in (AND, OR) else lang(a, NULLISH)
        return f"{left} ?? {lang(b, EQ)}"
    if op in ("&&", "||"):
        return f"{lang(a, p)} {op} {lang(b, p - 1)}"
    return f"{lang(a, p)} {op} {lang(b, p - 1)}"


# ---- JavaScript ----


def js(n: Node, cooked: bool = False) -> str:
    """The JavaScript the oracle evaluates; `cooked` gives literals the language's values (see module doc)."""
    return _Js(cooked).render(n, False)


class _Js:
    def __init__(self, cooked: bool) -> None:
        self.cooked = cooked

    def render(self, n: Node, in_chain: bool) -> str:
        if isinstance(n, Member | Index | MCall) and not in_chain and _optional_in_chain(n):
            return f"L.chain(() => {self.render(n, True)})"
        r = self.render
        match n:
            case Num(raw):
                return f"({raw})"
            case Str(raw):
                return json.dumps(cook(raw)) if self.cooked else raw
            case Const(word):
                return word
            case Name(name):
                return f"C[{json.dumps(name)}]"
            case Param(name):
                return "$" + name
            case Global(text):
                return text
            case Tpl(quasis, exprs):
                if self.cooked:
                    parts = [json.dumps(cook(q, template=True)) for q in quasis]
                    return "(" + _interleave(parts, [f" + L.ts({r(e, False)}) + " for e in exprs]) + ")"
                return "`" + _interleave(quasis, [f"${{L.ts({r(e, False)})}}" for e in exprs]) + "`"
            case Arr(items):
                return f"L.arr([{self.list(items)}])"
            case Obj(entries):
                return f"L.obj([{', '.join(self.entry(e) for e in entries)}])"
            case Member(obj, prop, opt):
                return f"L.get({self.link(obj, opt)}, {json.dumps(prop)})"
            case Index(obj, key, opt):
                return f"L.index({self.link(obj, opt)}, {r(key, False)})"
            case Call(fname, args):
                return f"L.call({json.dumps(fname)}, [{self.list(args)}])"
            case MCall(obj, name, args, opt, optcall):
                optc = "true" if optcall else "false"
                return f"L.mcall({self.link(obj, opt)}, {json.dumps(name)}, [{self.list(args)}], {optc})"
            case Arrow(params, body):
                return self.arrow(params, body)
            case Unary("!", x):
                return f"(!{r(x, False)})"
            case Unary(op, x):
                return f"L.{'neg' if op == '-' else 'pos'}({r(x, False)})"
            case Bin(op, a, b) if op in LOGICAL:
                return f"({r(a, False)} {op} {r(b, False)})"
            case Bin(op, a, b):
                return f"L.{JS_OP[op]}({r(a, False)}, {r(b, False)})"
            case Cond(c, a, b):
                return f"({r(c, False)} ? {r(a, False)} : {r(b, False)})"
        raise TypeError(f"not renderable here: {n!r}")

    def link(self, obj: Node, opt: bool) -> str:
        inner = self.render(obj, True)
        return f"L.opt({inner})" if opt else inner

    def list(self, items: tuple[Node, ...]) -> str:
        return ", ".join(
            f"L.sp({self.render(x.expr, False)})" if isinstance(x, Spread) else self.render(x, False) for x in items
        )

    def entry(self, e: Node) -> str:
        match e:
            case Prop(key, value) if key[0] in "'\"":
                k = json.dumps(cook(key)) if self.cooked else key
                return f"[{k}, {self.render(value, False)}]"
            case Prop(key, value) if key[0].isdigit() or key[0] == ".":
                return f"[L.key({key}), {self.render(value, False)}]"
            case Prop(key, value):
                return f"[{json.dumps(key)}, {self.render(value, False)}]"
            case Computed(key, value):
                return f"[L.key({self.render(key, False)}), {self.render(value, False)}]"
            case Shorthand(ref):
                return f"[{json.dumps(_lang(ref))}, {self.render(ref, False)}]"
            case Spread(expr):
                return f"L.sp({self.render(expr, False)})"
        raise TypeError(f"not an object entry: {e!r}")

    def arrow(self, params: tuple[str | tuple[str, ...], ...], body: Node) -> str:
        heads: list[str] = []
        binds: list[str] = []
        for i, p in enumerate(params):
            if isinstance(p, str):
                heads.append("$" + p)
                continue
            heads.append(f"$arg{i}")
            if p[0] == "{":
                binds += [f"const ${k} = L.dobj($arg{i}, {json.dumps(k)});" for k in p[1:]]
            else:
                binds.append(f"const $it{i} = L.dit($arg{i});")
                binds += [f"const ${k} = L.at($it{i}, {j});" for j, k in enumerate(p[1:])]
        return f"(({', '.join(heads)}) => {{ {' '.join(binds)} return {self.render(body, False)}; }})"


def _optional_in_chain(n: Node) -> bool:
    """True when some link of the chain ending at `n` is optional (so the chain needs L.chain)."""
    while isinstance(n, Member | Index | MCall):
        if n.opt or (isinstance(n, MCall) and n.optcall):
            return True
        n = n.obj
    return False


# ---- literals as the language reads them (§3) ----

_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r"}


def cook(raw: str, template: bool = False) -> str:
    """The value of a literal as docs §3 defines it: JavaScript's escapes `\\\\ \\' \\" \\n \\t \\r \\uXXXX`
    (and `` \\` `` `\\$` in templates); every other backslash stays as written. `raw` is a string literal with
    its quotes, or (template=True) the raw text of a template part."""
    body = raw if template else raw[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        nxt = body[i + 1] if i + 1 < len(body) else ""
        if c == "\\" and nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif c == "\\" and template and nxt in "`$":
            out.append(nxt)
            i += 2
        elif c == "\\" and nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", body[i + 2 : i + 6]):
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        else:
            out.append(c)
            i += 1
    # Two \u escapes of a surrogate pair are one character.
    return "".join(out).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
