"""Texts measured before they are built: replacement texts of replace()/replaceAll(), and join().

Both can build far more than they are given, so both work out the output's length from what they know
(match positions, item lengths) and charge or refuse it before any of it exists.

Replacement texts. JavaScript's GetSubstitution lets a short replacement copy a lot: `$&` the match, `` $` ``
everything before it, `$'` everything after it, `$1`…`$99` a group, `$<name>` a named group.
`'a'.repeat(60000).replaceAll('a', '$`')` would be 1.8 billion characters. The length of every piece is known
from the positions alone.

join(). JavaScript writes a nested list as its items with ',' between, recursively, so `[l, l, l].join()`
of a list that holds many texts would build each nested text first. Nested items are charged as they are
visited (a list that holds itself many times stops at the budget) and measured before anything is joined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tui.lang.expr.errors import EvalError, LimitError
from tui.lang.expr.limits import MAX_STRING, Run, cap_text
from tui.lang.expr.values import MAX_DEPTH, to_str

#: Codes in a parsed replacement for the parts of the text it copies (group numbers are 1…99).
MATCH, BEFORE, AFTER = -1, -2, -3

Span = tuple[int, int]


class Replacement:
    """A replacement text split into literal pieces and codes, with what one use of it costs."""

    __slots__ = ("after", "before", "fixed", "groups", "literal", "matches", "pieces")

    def __init__(self, text: str, ngroups: int, names: dict[str, int] | None = None) -> None:
        """Parse `text` as JavaScript's GetSubstitution reads it for a pattern of `ngroups` groups; `names`
        maps the pattern's group names to numbers (None or empty: no named groups, so `$<` is text)."""
        pieces: list[str | int] = []
        buf: list[str] = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch == "$" and i + 1 < n:
                nxt = text[i + 1]
                code: int | None = None
                if nxt == "$":
                    buf.append("$")
                    i += 2
                    continue
                if nxt == "&":
                    code, i = MATCH, i + 2
                elif nxt == "`":
                    code, i = BEFORE, i + 2
                elif nxt == "'":
                    code, i = AFTER, i + 2
                elif "0" <= nxt <= "9":  # ASCII digits only, as JavaScript ('$²' is text)
                    # Two digits when they name an existing group (or are 00), else one digit and the
                    # second is text: '$012' is group 1 then '2', '$10' of one group is group 1 then '0'.
                    width = 2 if i + 2 < n and "0" <= text[i + 2] <= "9" else 1
                    if width == 2 and int(text[i + 1 : i + 3]) > ngroups:
                        width = 1
                    k = int(text[i + 1 : i + 1 + width])
                    if not 1 <= k <= ngroups:  # '$0', '$00', a group the pattern does not have: text
                        buf.append(text[i : i + 1 + width])
                        i += 1 + width
                        continue
                    code, i = k, i + 1 + width
                elif nxt == "<" and names:
                    close = text.find(">", i + 2)
                    if close >= 0:  # a name that is not a group gives '' (JavaScript reads an absent key)
                        k = names.get(text[i + 2 : close], 0)
                        i = close + 1
                        if not k:
                            continue
                        code = k
                    # else no '>': '$<' is text, as in JavaScript
                if code is not None:
                    if buf:
                        pieces.append("".join(buf))
                        buf = []
                    pieces.append(code)
                    continue
            buf.append(ch)
            i += 1
        if buf:
            pieces.append("".join(buf))
        self.pieces = pieces
        """Literal text and codes (MATCH, BEFORE, AFTER, or a group number), in order."""
        self.literal = not pieces or (len(pieces) == 1 and isinstance(pieces[0], str))
        """True when the replacement copies nothing of the text."""
        self.fixed = sum(len(p) for p in pieces if isinstance(p, str))
        self.matches = pieces.count(MATCH)
        self.before = pieces.count(BEFORE)
        self.after = pieces.count(AFTER)
        self.groups = [p for p in pieces if isinstance(p, int) and p > 0]

    def length(self, size: int, start: int, end: int, spans: Sequence[Span] = ()) -> int:
        """Characters one use builds for a match at [start, end) of a text of `size` characters.

        `spans` holds the (start, end) of every group, (-1, -1) for one that did not take part.
        """
        n = self.fixed + self.matches * (end - start) + self.before * start + self.after * (size - end)
        for k in self.groups:
            a, b = spans[k]
            n += b - a
        return n

    def build(self, text: str, start: int, end: int, groups: Sequence[str | None] = ()) -> str:
        """The replacement for the match at [start, end) of `text`; `groups[k - 1]` is group k's text."""
        if self.literal:
            return self.pieces[0] if self.pieces else ""  # type: ignore[return-value]
        out: list[str] = []
        for p in self.pieces:
            if isinstance(p, str):
                out.append(p)
            elif p == MATCH:
                out.append(text[start:end])
            elif p == BEFORE:
                out.append(text[:start])
            elif p == AFTER:
                out.append(text[end:])
            else:
                out.append(groups[p - 1] or "")
        return "".join(out)

    def total(self, size: int, found: int, match_len: int, starts: int) -> int:
        """Length of a text of `size` characters after replacing `found` matches of a plain text pattern
        (each `match_len` long, their start positions adding up to `starts`) — all from counts."""
        return (
            size
            - found * match_len
            + found * (self.fixed + self.matches * match_len)
            + self.before * starts
            + self.after * (found * (size - match_len) - starts)
        )


def join_text(run: Run, lst: list[Any], sep: str) -> str:
    """The items of `lst` as text with `sep` between; null items give ''."""
    run.charge(len(lst))  # each item made text in Python
    parts = [_join_item(x) for x in lst]
    total = len(sep) * max(0, len(parts) - 1)
    nested = False
    for p in parts:
        if p.__class__ is list:
            total += _nested_length(run, p, 0, MAX_STRING - total)
            nested = True
        else:
            total += len(p)
    run.charge_text(total)
    if nested:
        parts = [_nested_text(p) if p.__class__ is list else p for p in parts]
    return sep.join(parts)


def _join_item(x: Any) -> Any:
    """A top-level item as text; a nested list is kept as it is, to be measured before it is built."""
    if x is None:
        return ""
    c = x.__class__
    if c is str or c is list:
        return x
    if c is dict:
        raise EvalError("join() cannot put an object into text; map it to text first")
    return to_str(x)


def _nested_length(run: Run, lst: list[Any], depth: int, room: int) -> int:
    """The length of a nested list as join() writes it (items with ',' between, as JavaScript's String
    does), charging one evaluation per item visited and failing as soon as it passes `room` characters."""
    if depth > MAX_DEPTH:
        raise LimitError(f"nesting depth {MAX_DEPTH} exceeded")
    run.charge(len(lst))
    n = max(0, len(lst) - 1)
    for x in lst:
        c = x.__class__
        if c is list:
            n += _nested_length(run, x, depth + 1, room - n)
        elif c is str:
            n += len(x)
        elif c is dict:
            raise EvalError("join() cannot put an object into text; map it to text first")
        elif x is not None:
            n += len(to_str(x))
        if n > room:
            cap_text(MAX_STRING - room + n)  # the text so far is already over the limit
    return n


def _nested_text(x: Any) -> str:
    if x.__class__ is list:
        return ",".join(_nested_text(y) for y in x)
    return "" if x is None else to_str(x)
