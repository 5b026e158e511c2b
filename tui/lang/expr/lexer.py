"""The lexer: expression text to tokens, with the language's string-escape rule (language.md §3)."""

from __future__ import annotations

from tui.lang.expr.errors import LimitError, ParseError
from tui.lang.expr.tokens import PUNCTUATORS, Kind, Token
from tui.lang.expr.values import int_to_float

#: Longest expression text accepted (threats.md E11): longer text is an error, not a slow parse.
MAX_SOURCE = 10_000

#: ASCII digits only: str.isdigit() is also true for '²' and '٣', which JavaScript does not read as numbers.
DIGITS = frozenset("0123456789")
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r"}
_HEX = "0123456789abcdefABCDEF"


def is_ident_start(ch: str) -> bool:
    """True when `ch` may start a name (JavaScript rules: letters, `$`, `_`)."""
    return ch.isalpha() or ch in "$_"


def is_ident_part(ch: str) -> bool:
    """True when `ch` may continue a name."""
    return ch.isalnum() or ch in "$_\u200c\u200d"


class Lexer:
    """Turns expression text into tokens; `tokenize()` reads to the end, `until_brace()` to a closing `}`."""

    def __init__(self, src: str, pos: int = 0) -> None:
        self.src = src
        self.pos = pos

    def tokenize(self) -> list[Token]:
        """All tokens of the source, ending with an EOF token."""
        if len(self.src) > MAX_SOURCE:
            raise LimitError(f"expression longer than {MAX_SOURCE:,} characters", 0)
        tokens = self._scan(stop_at_brace=False)
        return tokens

    def until_brace(self) -> tuple[list[Token], int]:
        """Tokens up to the `}` that closes a `${`; returns them (ending in EOF) and the offset after `}`."""
        tokens = self._scan(stop_at_brace=True)
        return tokens, self.pos

    def _scan(self, stop_at_brace: bool) -> list[Token]:
        src = self.src
        n = len(src)
        out: list[Token] = []
        depth = 0
        start = self.pos
        while True:
            self._skip_space_and_comments()
            i = self.pos
            if i >= n:
                if stop_at_brace:
                    raise ParseError("'${' is never closed with '}'", start - 2)
                out.append(Token(Kind.EOF, None, i, i))
                return out
            ch = src[i]
            if ch in DIGITS or (ch == "." and i + 1 < n and src[i + 1] in DIGITS):
                out.append(self._number())
            elif ch in "'\"":
                out.append(self._string(ch))
            elif ch == "`":
                out.append(self._template())
            elif is_ident_start(ch):
                j = i + 1
                while j < n and is_ident_part(src[j]):
                    j += 1
                out.append(Token(Kind.IDENT, src[i:j], i, j))
                self.pos = j
            elif ch == "\\":
                raise ParseError("unexpected '\\' outside a string", i)
            else:
                for p in PUNCTUATORS:
                    if src.startswith(p, i):
                        # `a?.5:1` is a conditional, not optional chaining (JavaScript's rule).
                        if p == "?." and i + 2 < n and src[i + 2] in DIGITS:
                            p = "?"
                        break
                else:
                    raise ParseError(f"unexpected character {ch!r}", i)
                if stop_at_brace:
                    if p == "{":
                        depth += 1
                    elif p == "}":
                        if depth == 0:
                            self.pos = i + 1
                            out.append(Token(Kind.EOF, None, i, i))
                            return out
                        depth -= 1
                out.append(Token(Kind.PUNCT, p, i, i + len(p)))
                self.pos = i + len(p)

    def _skip_space_and_comments(self) -> None:
        src, n = self.src, len(self.src)
        i = self.pos
        while i < n:
            ch = src[i]
            if ch.isspace() or ch == "\ufeff":
                i += 1
            elif src.startswith("//", i):
                j = src.find("\n", i)
                i = n if j < 0 else j + 1
            elif src.startswith("/*", i):
                j = src.find("*/", i + 2)
                if j < 0:
                    raise ParseError("comment '/*' is never closed with '*/'", i)
                i = j + 2
            else:
                break
        self.pos = i

    def _digits(self, j: int) -> int:
        """The end of a run of digits from `j`, with JavaScript's numeric separators: `1_000`, one `_` at a
        time and only between two digits (`1__0`, `1_` and `1_.5` are errors)."""
        src, n = self.src, len(self.src)
        while j < n:
            if src[j] == "_":
                if not (src[j - 1] in DIGITS and j + 1 < n and src[j + 1] in DIGITS):
                    raise ParseError("a '_' in a number goes between two digits, like 1_000", j)
            elif src[j] not in DIGITS:
                break
            j += 1
        return j

    def _number(self) -> Token:
        src, n, i = self.src, len(self.src), self.pos
        if src[i] == "0" and i + 1 < n and src[i + 1] in "xXoObB":
            base = {"x": 16, "o": 8, "b": 2}[src[i + 1].lower()]
            j = i + 2
            while j < n and src[j].isascii() and (src[j].isalnum() or src[j] == "_"):
                j += 1
            digits = src[i + 2 : j]
            if not digits or digits[0] == "_" or digits[-1] == "_" or "__" in digits:
                raise ParseError(f"invalid number {src[i:j]!r}", i)
            try:
                value = int_to_float(int(digits, base))  # 0x and 300 F's is Infinity, as in JavaScript
            except ValueError:
                raise ParseError(f"invalid number {src[i:j]!r}", i) from None
        else:
            j = self._digits(i)
            if j < n and src[j] == ".":
                j = self._digits(j + 1)
            if j < n and src[j] in "eE":
                k = j + 1
                if k < n and src[k] in "+-":
                    k += 1
                if k < n and src[k] in DIGITS:
                    j = self._digits(k)
                else:
                    raise ParseError("invalid number: exponent has no digits", i)
            text = src[i:j]
            if len(text) > 1 and text[0] == "0" and (text[1] in DIGITS or text[1] == "_"):
                raise ParseError(f"numbers may not start with 0 ({text!r}); legacy octal is not supported", i)
            value = float(text.replace("_", ""))  # never int(): numbers are IEEE doubles (threats.md E9)
        if j < n and (is_ident_start(src[j]) or src[j].isdigit()):
            raise ParseError(f"unexpected {src[j]!r} right after a number", j)
        self.pos = j
        return Token(Kind.NUMBER, value, i, j)

    def _escape(self, i: int) -> tuple[str, int]:
        """Cook the escape at src[i] == '\\'; returns the text and the offset after it."""
        src = self.src
        nxt = src[i + 1] if i + 1 < len(src) else ""
        if nxt in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[nxt], i + 2
        if nxt == "u" and len(src) >= i + 6 and all(c in _HEX for c in src[i + 2 : i + 6]):
            code = int(src[i + 2 : i + 6], 16)
            end = i + 6
            if 0xD800 <= code <= 0xDBFF:
                # A surrogate pair written as two escapes is one character; a lone half is refused (E14).
                if src.startswith("\\u", end) and all(c in _HEX for c in src[end + 2 : end + 6]):
                    low = int(src[end + 2 : end + 6], 16)
                    if 0xDC00 <= low <= 0xDFFF and len(src[end + 2 : end + 6]) == 4:
                        return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)), end + 6
                raise ParseError("lone surrogate escape: a \\uD800-\\uDBFF must be followed by \\uDC00-\\uDFFF", i)
            if 0xDC00 <= code <= 0xDFFF:
                raise ParseError("lone surrogate escape (\\uDC00-\\uDFFF without its high half)", i)
            return chr(code), end
        # Every other backslash stays, so '\d+' is the three characters \d+ (the one deliberate difference).
        return "\\", i + 1

    def _string(self, quote: str) -> Token:
        src, n, start = self.src, len(self.src), self.pos
        i = start + 1
        buf: list[str] = []
        while True:
            if i >= n:
                raise ParseError("string is never closed", start)
            ch = src[i]
            if ch == quote:
                break
            if ch == "\n":
                raise ParseError("string is never closed on its line", start)
            if ch == "\\":
                text, i = self._escape(i)
                buf.append(text)
                continue
            buf.append(ch)
            i += 1
        self.pos = i + 1
        return Token(Kind.STRING, "".join(buf), start, i + 1)

    def _template(self) -> Token:
        src, n, start = self.src, len(self.src), self.pos
        i = start + 1
        buf: list[str] = []
        parts: list[tuple[str, list[Token], int]] = []
        while True:
            if i >= n:
                raise ParseError("template literal is never closed with '`'", start)
            ch = src[i]
            if ch == "`":
                break
            if ch == "\\":
                if i + 1 < n and src[i + 1] in "`$":
                    buf.append(src[i + 1])
                    i += 2
                    continue
                text, i = self._escape(i)
                buf.append(text)
                continue
            if ch == "$" and src.startswith("${", i):
                inner = Lexer(src, i + 2)
                tokens, after = inner.until_brace()
                parts.append(("".join(buf), tokens, i + 2))
                buf = []
                i = after
                continue
            buf.append(ch)
            i += 1
        self.pos = i + 1
        return Token(Kind.TEMPLATE, None, start, i + 1, parts, "".join(buf))
