"""The one cleaner for text that came from somewhere else (a plugin, a campus or model server, a tool result) and is
about to reach a terminal, in the app or on the command line (threats.md T1).

A terminal acts on some characters instead of showing them: ESC, CSI and OSC sequences move the cursor, clear the
screen, set the window title or write the clipboard (OSC 52); the C1 controls (U+0080–U+009F) do the same in one
byte on terminals that read them. Others show nothing while changing what the reader sees: bidi overrides and
isolates reorder a line (`U+202E` turns `exe.txt` into `txt.exe`), zero-width and tag characters hide text the
reader cannot see but a model reads. Textual passes all of them through to the terminal unchanged, so every such
text goes through `clean()` (or `one_line()`) first. `escape_json()` is the lossless form for JSON output.

Textual-free on purpose: the runtime (desktop notifications) and the command line use it too.
"""

from __future__ import annotations

import re

#: Whole escape sequences, so that no `[31m` remnant is left once the ESC byte itself is gone: CSI (`ESC [` or
#: C1 `CSI` … final byte), OSC/DCS/SOS/PM/APC strings up to BEL or ST (ESC or C1 introducer), two-byte `ESC x`.
_ESCAPES = re.compile(
    "\x1b\\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]"
    "|[\x1b][\\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\\\|\x9c)?|[\x9d\x90\x98\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\\\|\x9c)?"
    "|\x1b[ -/]*[0-~]"
)
#: Bidi controls: the Arabic letter mark, LRM/RLM, the embeddings and overrides (LRE…RLO) and the isolates.
BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
#: Invisible format characters: zero-width space/joiners, word joiner and invisible operators, the BOM, the
#: Mongolian vowel separator, and the tag characters (U+E0000–U+E007F, "ASCII smuggling": text the student cannot
#: see but a model reads).
INVISIBLE = "\u200b-\u200d\u2060-\u2064\ufeff\u180e\U000e0000-\U000e007f"
#: Everything removed one character at a time: C0 controls except tab and newline, DEL, C1, bidi, invisible.
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI}{INVISIBLE}]")
_LINE_BREAKS = re.compile("[\n\t\u2028\u2029]+")


def clean(text: str) -> str:
    """The text with escape sequences, control characters (except newline and tab), bidi controls and invisible
    format characters removed. Printable text of any script, emoji and the QR code's half blocks stay as they are.

    >>> clean("a\\x1b]52;c;aGk=\\x07b\\x1b[2J\\u202ec")
    'abc'
    """
    return _UNSAFE.sub("", _ESCAPES.sub("", text))


def one_line(text: str) -> str:
    """`clean()` for a value shown inside one line (a table row, a title): line breaks and tabs become one space,
    so a value can never start a line of its own that looks like another row.

    >>> one_line("ok\\n2026-01-01  wallet.pay  allow")
    'ok 2026-01-01  wallet.pay  allow'
    """
    return _LINE_BREAKS.sub(" ", clean(text))


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # JSON writes a character beyond the BMP as its UTF-16 surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def escape_json(text: str) -> str:
    """JSON text with every character `clean()` would remove written as a `\\uXXXX` escape instead: the same data
    for a program that parses it, nothing for a terminal to act on. Such characters can only stand inside JSON
    strings, where an escape means the same character.

    >>> escape_json('{"a": "x\\u202ey"}')
    '{"a": "x\\\\u202ey"}'
    """
    return _UNSAFE.sub(_escaped, text)


__all__ = ["BIDI", "INVISIBLE", "clean", "escape_json", "one_line"]
