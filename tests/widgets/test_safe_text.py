"""The one cleaner for terminal text (threats.md T1): escape sequences, C0/C1 controls, bidi controls and invisible
format characters go; every printable character of any script, emoji and the QR code's half blocks stay."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.content import Content

from widgets_render.safe_text import BIDI, INVISIBLE, clean, escape_json, one_line
from widgets_render.simple_widgets import as_markup, plain

#: Every character the cleaner must remove: C0 but tab and newline, DEL, C1, bidi and invisible ones.
REMOVED = (
    [chr(c) for c in range(0x20) if chr(c) not in "\t\n"]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + list("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    + list("\u200b\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\U000e0001\U000e0041\U000e007f")
)


@pytest.mark.parametrize("ch", REMOVED, ids=lambda c: f"U+{ord(c):04X}")
def test_each_unsafe_character_is_removed(ch: str) -> None:
    assert clean(f"a{ch}") == "a"  # (with text after it, ESC and the C1 introducers take a sequence with them)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\x1b]52;c;cHduZWQ=\x07b", "ab"),  # OSC 52 clipboard write, BEL-terminated
        ("a\x1b]0;title\x1b\\b", "ab"),  # OSC window title, ST-terminated
        ("a\x9d8;;http://x\x9cb", "ab"),  # C1 OSC hyperlink, C1 ST
        ("a\x1b[2Jb\x1b[31mc", "abc"),  # CSI clear screen, SGR
        ("a\x9b2Jb", "ab"),  # C1 CSI
        ("a\x1bPq#0;2;0;0;0\x1b\\b", "ab"),  # DCS (sixel)
        ("a\x1b7b\x1b8c", "abc"),  # two-byte ESC
        ("exe.\u202etxt", "exe.txt"),  # the filename trick
    ],
)
def test_whole_sequences_go_not_only_their_escape_byte(raw: str, shown: str) -> None:
    assert clean(raw) == shown


def test_text_of_every_script_stays() -> None:
    kept = "北大 Ünïcødé عربى עברית 🎓👍🏽 ▀▄█ ░▒▓ ─│╭ ✓ ⚠ ⟳ \t tab\nline 2"
    assert clean(kept) == kept


def test_the_qr_codes_half_blocks_stay() -> None:
    """The CLI's QR login prints half blocks through the same cleaner: every block survives it."""
    from tui.runtime.campus.qr_image import half_blocks

    grid = [[(x * y + x) % 3 == 0 for x in range(21)] for y in range(21)]
    for light in (True, False):
        lines = half_blocks(grid, light_as_block=light)
        assert set("".join(lines)) <= set(" ▀▄█") and "\n".join(clean(line) for line in lines) == "\n".join(lines)


def test_one_line_never_starts_a_line_of_its_own() -> None:
    assert one_line("ok\n2026-01-01  wallet.pay\r\n\tallow\u2028x") == "ok 2026-01-01  wallet.pay allow x"


@given(st.text())
def test_clean_leaves_nothing_a_terminal_acts_on(text: str) -> None:
    out = clean(text)
    assert not any(unicodedata.category(c) == "Cc" and c not in "\t\n" for c in out)
    assert not (set(out) & set(REMOVED))
    assert clean(out) == out  # idempotent: cleaning twice changes nothing


@given(st.text())
def test_escaped_json_is_the_same_data_and_terminal_safe(text: str) -> None:
    value = {"a": text, "b": [text]}
    escaped = escape_json(json.dumps(value, ensure_ascii=False, indent=2))
    assert json.loads(escaped) == value
    assert clean(escaped) == escaped


@given(st.text())
def test_as_markup_shows_any_text_as_written(text: str) -> None:
    """The command palette reads titles as markup: escaped text parses back to itself, with no style or action."""
    content = Content.from_markup(as_markup(text))
    assert content.plain == clean(text) and not content.spans


def test_plain_is_cleaned_content() -> None:
    content = plain("[@click=app.quit]x[/]\x1b[2J\u202e")
    assert content.plain == "[@click=app.quit]x[/]" and not content.spans


def test_the_character_sets_are_ranges_a_regex_reads() -> None:
    assert "\u202a-\u202e" in BIDI and "\U000e0000-\U000e007f" in INVISIBLE
