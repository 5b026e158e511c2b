"""A Pratt parser for the expression language (binding powers as in JavaScript), with depth limits."""

from __future__ import annotations

from tui.lang.expr import ast
from tui.lang.expr.errors import LimitError, ParseError
from tui.lang.expr.lexer import Lexer
from tui.lang.expr.tokens import FORBIDDEN_PUNCT, RESERVED, Kind, Token

#: Deepest nesting of an expression (language.md §7); deeper is an error, never a RecursionError.
MAX_NESTING = 64

#: Binding power of each binary operator (higher binds tighter), from JavaScript's precedence table.
BINARY_POWER = {
    "??": 1,
    "||": 2,
    "&&": 3,
    "==": 6, "!=": 6, "===": 6, "!==": 6,
    "<": 7, ">": 7, "<=": 7, ">=": 7,
    "+": 9, "-": 9,
    "*": 10, "/": 10, "%": 10,
    "**": 11,
}  # fmt: skip
_CONDITIONAL_POWER = 0
_UNARY_POWER = 12
_LOGICAL = {"&&", "||", "??"}
_KEYWORD_LITERALS = {"true": True, "false": False, "null": None}


def parse(src: str) -> ast.Node:
    """Parse one expression; raises ParseError/LimitError with the offset of the fault."""
    tokens = Lexer(src).tokenize()
    return Parser(tokens, src).parse_all()


def parse_tokens(tokens: list[Token], src: str) -> ast.Node:
    """Parse an expression already lexed (the inside of a `${…}`)."""
    return Parser(tokens, src).parse_all()


#: What a token inside a destructuring pattern starts, for constructs the language leaves out.
_PATTERN_EXTRAS = {
    "=": "default values in a pattern are",
    ":": "renaming in a pattern is",
    "{": "nested patterns are",
    "[": "nested patterns are",
    ",": "holes in a pattern are",
    "...": "rest elements in a pattern are",
}


class Parser:
    """Parses a token list; one instance per expression."""

    def __init__(self, tokens: list[Token], src: str) -> None:
        self.tokens = tokens
        self.src = src
        self.i = 0
        self.depth = 0
        self.parenthesized: dict[int, int] = {}
        """id() of each parenthesized node → where its outermost '(' is (its text in messages starts there)."""
        """ids of nodes written inside ( ): `(-2) ** 2` and `(a || b) ?? c` are allowed, bare forms are not."""

    # -- token helpers -------------------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def at(self, value: str) -> bool:
        t = self.tokens[self.i]
        return t.kind is Kind.PUNCT and t.value == value

    def at_end(self) -> bool:
        return self.tokens[self.i].kind is Kind.EOF

    def advance(self) -> Token:
        t = self.tokens[self.i]
        if t.kind is not Kind.EOF:
            self.i += 1
        return t

    def expect(self, value: str, what: str = "") -> Token:
        if not self.at(value):
            self.fail_here(f"expected '{value}'{what}")
        return self.advance()

    def fail_here(self, msg: str) -> None:
        t = self.tok
        if t.kind is Kind.PUNCT and t.value in FORBIDDEN_PUNCT:
            raise ParseError(FORBIDDEN_PUNCT[t.value], t.pos)
        if t.kind is Kind.IDENT and t.value in RESERVED:
            raise ParseError(RESERVED[t.value], t.pos)
        raise ParseError(f"{msg}, found {t.describe()}", t.pos)

    # -- entry ---------------------------------------------------------------------------------------
    def parse_all(self) -> ast.Node:
        if self.tok.kind is Kind.EOF:
            raise ParseError("empty expression", self.tok.pos)
        node = self.expression()
        if not self.at_end():
            if self.at(","):
                raise ParseError("one expression only: the comma operator is not part of the language", self.tok.pos)
            if self.at("=>"):
                raise ParseError("arrow functions may only be passed to a call, like list.map(x => x.a)", self.tok.pos)
            first = self.tokens[0]
            if first.kind is Kind.IDENT and first.value == "$" and self.i == 1 and self.at("{"):
                raise ParseError(
                    "this field takes an expression itself, like a.b, not a template like ${a.b}: "
                    "${…} is written in text fields",
                    first.pos,
                )
            self.fail_here("expected an operator or the end of the expression")
        return node

    def expression(self, min_power: int = -1) -> ast.Node:
        """Parse an expression whose operators bind tighter than `min_power`."""
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise LimitError(f"expression nested deeper than {MAX_NESTING} levels", self.tok.pos)
        try:
            left = self.unary()
            return self.infix(left, min_power)
        finally:
            self.depth -= 1

    def infix(self, left: ast.Node, min_power: int) -> ast.Node:
        # Left-associative chains (a + b + c …) grow the tree without recursing; count their depth too.
        chain = 0
        while True:
            t = self.tok
            if t.kind is not Kind.PUNCT:
                return left
            op = t.value
            if op == "?" and min_power < _CONDITIONAL_POWER:
                self.advance()
                then = self.expression(-1)
                self.expect(":", " in a ? b : c")
                other = self.expression(_CONDITIONAL_POWER - 1)
                left = ast.Conditional(self.start_of(left), other.end, left, then, other)
                continue
            power = BINARY_POWER.get(op)
            if power is None or power <= min_power:
                return left
            self.advance()
            chain += 1
            if self.depth + chain > MAX_NESTING:
                raise LimitError(f"expression nested deeper than {MAX_NESTING} levels", t.pos)
            if op == "**":
                if isinstance(left, ast.Unary) and id(left) not in self.parenthesized:
                    raise ParseError("put the unary expression in parentheses before '**', like (-2) ** 2", t.pos)
                right = self.expression(power - 1)  # right-associative
            else:
                right = self.expression(power)
            if op in _LOGICAL:
                self._check_mixing(op, left, right, t)
                left = ast.Logical(self.start_of(left), right.end, op, left, right)
            else:
                left = ast.Binary(self.start_of(left), right.end, op, left, right)

    def _check_mixing(self, op: str, left: ast.Node, right: ast.Node, t: Token) -> None:
        # JavaScript refuses `a || b ?? c` without parentheses; so do we.
        for side in (left, right):
            mixed = isinstance(side, ast.Logical) and (op == "??") != (side.op == "??")
            if mixed and id(side) not in self.parenthesized:
                raise ParseError("'??' cannot be mixed with '&&' or '||' without parentheses", t.pos)

    # -- prefix forms --------------------------------------------------------------------------------
    def unary(self) -> ast.Node:
        t = self.tok
        if t.kind is Kind.PUNCT and t.value in ("!", "-", "+"):
            self.advance()
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise LimitError(f"expression nested deeper than {MAX_NESTING} levels", t.pos)
            try:
                operand = self.unary()
            finally:
                self.depth -= 1
            return ast.Unary(t.pos, operand.end, t.value, operand)
        return self.postfix(self.primary())

    def start_of(self, node: ast.Node) -> int:
        """Where `node`'s text starts: at its '(' when it is parenthesized, so `(a?.b).c` is echoed whole."""
        return self.parenthesized.get(id(node), node.pos)

    def postfix(self, node: ast.Node) -> ast.Node:
        optional_seen = False
        start = self.start_of(node)
        links = 0
        while True:
            t = self.tok
            if t.kind is Kind.TEMPLATE:
                raise ParseError("tagged templates are not part of the plugin language", t.pos)
            if t.kind is not Kind.PUNCT:
                break
            if t.value == ".":
                self.advance()
                node = ast.Member(start, self.tok.end, node, self.property_name(), False)
            elif t.value == "?.":
                self.advance()
                optional_seen = True
                if self.at("("):
                    args, end = self.arguments()
                    node = ast.Call(start, end, node, args, True)
                elif self.at("["):
                    self.advance()
                    key = self.expression()
                    end = self.expect("]").end
                    node = ast.Member(start, end, node, key, True)
                else:
                    node = ast.Member(start, self.tok.end, node, self.property_name(), True)
            elif t.value == "[":
                self.advance()
                key = self.expression()
                end = self.expect("]").end
                node = ast.Member(start, end, node, key, False)
            elif t.value == "(":
                args, end = self.arguments()
                node = ast.Call(start, end, node, args, False)
            else:
                break
            links += 1
            if self.depth + links > MAX_NESTING:
                raise LimitError(f"expression nested deeper than {MAX_NESTING} levels", t.pos)
        if optional_seen:
            node = ast.Chain(node.pos, node.end, node)
        return node

    def property_name(self) -> str:
        t = self.tok
        if t.kind is not Kind.IDENT:
            self.fail_here("expected a property name after '.'")
        self.advance()
        return t.value

    def arguments(self) -> tuple[list[ast.Node], int]:
        self.expect("(")
        args: list[ast.Node] = []
        while not self.at(")"):
            if self.at("..."):
                t = self.advance()
                value = self.expression()
                args.append(ast.Spread(t.pos, value.end, value))
            elif self._arrow_ahead():
                args.append(self.arrow())
            else:
                args.append(self.expression())
            if not self.at(")"):
                self.expect(",", " between arguments")
        end = self.advance().end
        return args, end

    def primary(self) -> ast.Node:
        t = self.tok
        k = t.kind
        if k is Kind.NUMBER or k is Kind.STRING:
            self.advance()
            return ast.Literal(t.pos, t.end, t.value)
        if k is Kind.TEMPLATE:
            self.advance()
            return self.template(t)
        if k is Kind.IDENT:
            name: str = t.value
            if name in _KEYWORD_LITERALS:
                self.advance()
                return ast.Literal(t.pos, t.end, _KEYWORD_LITERALS[name])
            if name in RESERVED:
                raise ParseError(RESERVED[name], t.pos)
            if self.peek().kind is Kind.PUNCT and self.peek().value == "=>":
                raise ParseError("arrow functions may only be passed to a call, like list.map(x => x.a)", t.pos)
            self.advance()
            return ast.Name(t.pos, t.end, name)
        if k is Kind.PUNCT:
            if t.value == "(":
                if self._arrow_ahead():
                    raise ParseError("arrow functions may only be passed to a call, like list.map(x => x.a)", t.pos)
                self.advance()
                if self.at(")"):
                    self.fail_here("expected an expression inside '( )'")
                inner = self.expression()
                self.expect(")", " to close '('")
                self.parenthesized[id(inner)] = t.pos
                return inner
            if t.value == "[":
                return self.array()
            if t.value == "{":
                return self.object()
            if t.value == "/":
                raise ParseError(
                    "regex literals are not part of the language: write the pattern as a string, "
                    "like test(s, '\\\\d+')",
                    t.pos,
                )
            if t.value == "...":
                raise ParseError("'...' may only spread into an array, an object or a call", t.pos)
        if k is Kind.EOF:
            raise ParseError("the expression ends too early", t.pos)
        self.fail_here("expected a value")
        raise AssertionError("unreachable")

    def template(self, t: Token) -> ast.Node:
        quasis: list[str] = []
        exprs: list[ast.Node] = []
        for text, tokens, _offset in t.parts:
            quasis.append(text)
            sub = Parser(tokens, self.src)
            sub.depth = self.depth + 1
            sub.parenthesized = self.parenthesized
            if sub.tok.kind is Kind.EOF:
                raise ParseError("empty '${}' in a template literal", sub.tok.pos)
            exprs.append(sub.parse_all())
        quasis.append(t.tail)
        return ast.Template(t.pos, t.end, quasis, exprs, True)

    def array(self) -> ast.Node:
        start = self.expect("[").pos
        items: list[ast.Node] = []
        while not self.at("]"):
            if self.at(","):
                raise ParseError("holes in array literals are not supported", self.tok.pos)
            if self.at("..."):
                t = self.advance()
                value = self.expression()
                items.append(ast.Spread(t.pos, value.end, value))
            else:
                items.append(self.expression())
            if not self.at("]"):
                self.expect(",", " between array items")
        end = self.advance().end
        return ast.ArrayLit(start, end, items)

    def object(self) -> ast.Node:
        start = self.expect("{").pos
        props: list[ast.Prop | ast.Spread] = []
        while not self.at("}"):
            t = self.tok
            if self.at("..."):
                self.advance()
                value = self.expression()
                props.append(ast.Spread(t.pos, value.end, value))
            else:
                key: str | ast.Node
                if self.at("["):
                    self.advance()
                    key = self.expression()
                    self.expect("]")
                elif t.kind is Kind.IDENT:
                    key = t.value
                    self.advance()
                    if not self.at(":"):
                        if self.at("("):
                            raise ParseError("methods in object literals are not part of the language", t.pos)
                        if key in RESERVED or key in _KEYWORD_LITERALS:
                            raise ParseError(f"'{key}' cannot be used as a shorthand property", t.pos)
                        if key in ("get", "set") and self.tok.kind is Kind.IDENT:
                            raise ParseError("getters and setters are not part of the language", t.pos)
                        props.append(ast.Prop(t.pos, t.end, t.value, ast.Name(t.pos, t.end, t.value)))
                        if not self.at("}"):
                            self.expect(",", " between properties")
                        continue
                elif t.kind is Kind.STRING:
                    key = t.value
                    self.advance()
                elif t.kind is Kind.NUMBER:
                    from tui.lang.expr.values import num_to_str

                    key = num_to_str(t.value)
                    self.advance()
                else:
                    self.fail_here("expected a property name")
                    raise AssertionError("unreachable")
                self.expect(":", " after a property name")
                if self._arrow_ahead():
                    raise ParseError(
                        "arrow functions may only be passed to a call, like list.map(x => x.a)", self.tok.pos
                    )
                value = self.expression()
                props.append(ast.Prop(t.pos, value.end, key, value))
            if not self.at("}"):
                self.expect(",", " between properties")
        end = self.advance().end
        return ast.ObjectLit(start, end, props)

    # -- arrows --------------------------------------------------------------------------------------
    def _arrow_ahead(self) -> bool:
        """True when the tokens from here form `x =>` or `( … ) =>`."""
        t = self.tok
        if t.kind is Kind.IDENT:
            nxt = self.peek()
            return nxt.kind is Kind.PUNCT and nxt.value == "=>"
        if not self.at("("):
            return False
        depth = 0
        j = self.i
        while j < len(self.tokens):
            tk = self.tokens[j]
            if tk.kind is Kind.EOF:
                return False
            if tk.kind is Kind.PUNCT:
                if tk.value in ("(", "[", "{"):
                    depth += 1
                elif tk.value in (")", "]", "}"):
                    depth -= 1
                    if depth == 0:
                        nxt = self.tokens[j + 1] if j + 1 < len(self.tokens) else tk
                        return nxt.kind is Kind.PUNCT and nxt.value == "=>"
            j += 1
        return False

    def arrow(self) -> ast.Arrow:
        start = self.tok.pos
        params: list[ast.Param] = []
        if self.tok.kind is Kind.IDENT:
            params.append(self.param())
        else:
            self.expect("(")
            while not self.at(")"):
                params.append(self.param())
                if not self.at(")"):
                    self.expect(",", " between parameters")
            self.advance()
        names = [n for p in params for n in ([p.name] if p.name else p.fields or [])]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ParseError(f"parameter {sorted(dup)[0]!r} is declared twice", start)
        self.expect("=>")
        if self.at("{"):  # JavaScript reads a block there (`x => { a: x }` gives undefined), which we do not have
            raise ParseError("arrow bodies are one expression; to return an object write x => ({ … })", self.tok.pos)
        self.depth += 1
        try:
            body = self.expression()
        finally:
            self.depth -= 1
        return ast.Arrow(start, body.end, params, body)

    def _not_plain_pattern(self, fallback: str) -> None:
        """Fail at a destructuring construct beyond plain names (JavaScript has them; the language does not),
        saying which one and what to write instead."""
        t = self.tok
        what = _PATTERN_EXTRAS.get(t.value) if t.kind is Kind.PUNCT else None
        if t.value == ":" and self.peek().value in ("{", "["):  # `{a: {b}}`: a nested pattern, not a new name
            what = _PATTERN_EXTRAS["{"]
        if what is None:
            self.fail_here(fallback)
        raise ParseError(
            f"{what} not supported: destructuring takes plain names only ({{a, b}} or [a, b]); "
            "read the others inside the body, like r => r.cap ?? 5",
            t.pos,
        )

    def param(self) -> ast.Param:
        t = self.tok
        if t.kind is Kind.IDENT:
            if t.value in RESERVED or t.value in _KEYWORD_LITERALS:
                raise ParseError(f"'{t.value}' cannot be a parameter name", t.pos)
            self.advance()
            if self.at("="):
                raise ParseError("default parameter values are not part of the language", self.tok.pos)
            return ast.Param(t.pos, t.end, t.value)
        if self.at("{") or self.at("["):
            close = "}" if self.at("{") else "]"
            self.advance()
            fields: list[str] = []
            while not self.at(close):
                f = self.tok
                if f.kind is not Kind.IDENT or f.value in RESERVED:
                    self._not_plain_pattern("expected a name in the destructuring pattern")
                fields.append(f.value)
                self.advance()
                if not self.at(close):
                    if not self.at(","):
                        self._not_plain_pattern(f"expected ',' or '{close}' after a name")
                    self.advance()
            end = self.advance().end
            return ast.Param(t.pos, end, None, fields, close == "]")
        if self.at("..."):
            raise ParseError("rest parameters are not part of the language", t.pos)
        self.fail_here("expected a parameter name")
        raise AssertionError("unreachable")
