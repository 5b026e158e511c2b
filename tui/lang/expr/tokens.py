"""Token kinds and the token record the lexer produces."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Kind(Enum):
    """What a token is."""

    NUMBER = "number"
    STRING = "string"
    TEMPLATE = "template"
    IDENT = "identifier"
    PUNCT = "punctuator"
    EOF = "end of expression"


@dataclass(slots=True)
class Token:
    """One token: its kind, its value (the text of a punctuator or name, the cooked value of a literal)."""

    kind: Kind
    value: Any
    pos: int
    """Offset of the first character in the source."""
    end: int
    """Offset just past the last character."""
    parts: list[tuple[str, list[Token], int]] = field(default_factory=list)
    """For a template literal: (cooked text before it, tokens of the `${…}` expression, its offset)."""
    tail: str = ""
    """For a template literal: the cooked text after the last `${…}`."""

    def describe(self) -> str:
        """How a message names this token."""
        if self.kind is Kind.EOF:
            return "the end of the expression"
        if self.kind is Kind.PUNCT:
            return f"'{self.value}'"
        if self.kind is Kind.IDENT:
            return f"'{self.value}'"
        return f"a {self.kind.value}"


#: Punctuators of the language, longest first so the lexer can match greedily.
PUNCTUATORS = (
    "...", "===", "!==", "**=", "??=", "||=", "&&=", ">>>", "<<=", ">>=",
    "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "**", "++", "--", "+=", "-=", "*=", "/=", "%=",
    "<<", ">>", "&=", "|=", "^=",
    "(", ")", "[", "]", "{", "}", ",", ":", "?", ".", "+", "-", "*", "/", "%", "<", ">", "!", "=",
    ";", "&", "|", "^", "~", "@", "#",
)  # fmt: skip

#: Punctuators that lex (so the error can name them) but that the language does not have, and why.
FORBIDDEN_PUNCT = {
    "=": "assignment is not part of the plugin language (use == to compare)",
    "+=": "assignment is not part of the plugin language",
    "-=": "assignment is not part of the plugin language",
    "*=": "assignment is not part of the plugin language",
    "/=": "assignment is not part of the plugin language",
    "%=": "assignment is not part of the plugin language",
    "**=": "assignment is not part of the plugin language",
    "??=": "assignment is not part of the plugin language",
    "||=": "assignment is not part of the plugin language",
    "&&=": "assignment is not part of the plugin language",
    "<<=": "assignment is not part of the plugin language",
    ">>=": "assignment is not part of the plugin language",
    "&=": "assignment is not part of the plugin language",
    "|=": "assignment is not part of the plugin language",
    "^=": "assignment is not part of the plugin language",
    "++": "'++' is not part of the plugin language (nothing can be changed)",
    "--": "'--' is not part of the plugin language (nothing can be changed)",
    ";": "statements are not part of the plugin language: write one expression",
    "&": "bitwise operators are not part of the plugin language",
    "|": "bitwise operators are not part of the plugin language",
    "^": "bitwise operators are not part of the plugin language",
    "~": "bitwise operators are not part of the plugin language",
    "<<": "bitwise operators are not part of the plugin language",
    ">>": "bitwise operators are not part of the plugin language",
    ">>>": "bitwise operators are not part of the plugin language",
    "@": "decorators are not part of the plugin language",
    "#": "private names are not part of the plugin language",
}

#: JavaScript words that are not part of the language; using one is a parse error with this reason.
RESERVED = {
    "new": "'new' is not part of the plugin language",
    "this": "'this' is not part of the plugin language",
    "function": "'function' is not part of the plugin language: pass an arrow function (x => …) to a call",
    "class": "'class' is not part of the plugin language",
    "typeof": "'typeof' is not part of the plugin language: use type(x)",
    "instanceof": "'instanceof' is not part of the plugin language: use type(x)",
    "in": "'in' is not part of the plugin language: use has(obj, key) or includes()",
    "delete": "'delete' is not part of the plugin language: use omit(obj, keys)",
    "void": "'void' is not part of the plugin language",
    "yield": "'yield' is not part of the plugin language",
    "async": "'async' is not part of the plugin language",
    "await": "'await' is not part of the plugin language",
    "let": "'let' is a step key, not part of an expression",
    "var": "declarations are not part of the plugin language",
    "const": "declarations are not part of the plugin language",
    "return": "'return' is a step key, not part of an expression",
    "if": "'if' is a step, not part of an expression: use a ? b : c",
    "else": "'else' is not part of an expression: use a ? b : c",
    "for": "loops are not part of the plugin language: use map/filter/reduce",
    "while": "loops are not part of the plugin language: use map/filter/reduce",
    "do": "loops are not part of the plugin language: use map/filter/reduce",
    "switch": "'switch' is not part of the plugin language: use a ? b : c",
    "case": "'case' is not part of the plugin language",
    "break": "statements are not part of the plugin language",
    "continue": "statements are not part of the plugin language",
    "throw": "'throw' is not part of the plugin language: use error(message)",
    "try": "'try' is a step, not part of an expression",
    "catch": "'catch' is a step, not part of an expression",
    "finally": "'finally' is not part of the plugin language",
    "import": "'import' is not part of the plugin language",
    "export": "'export' is not part of the plugin language",
    "super": "'super' is not part of the plugin language",
    "with": "'with' is not part of the plugin language",
    "debugger": "'debugger' is not part of the plugin language",
    "undefined": "'undefined' is not part of the plugin language: use null",
}
