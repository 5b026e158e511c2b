"""Literals and random contexts for the generator: ordinary values, and the nasty ones that find bugs.

Every literal is kept as the language writes it (raw text with quotes and escapes), so the same text reaches
the engine and, in the oracle's raw mode, JavaScript. Contexts are JSON data bound as names; their values
lean on the edges the brief lists: lone surrogates, -0, 1e21, 2**53 + 1, 1e-7, integer-like object keys,
emoji, Chinese text, deep-ish nesting.
"""

from __future__ import annotations

import random
from typing import Any

NOW = "2026-11-30T17:05:00+08:00"

# Data tables: one long list reads better than one item a line.
# fmt: off
NUMBER_LITERALS = [
    '0', '1', '2', '3', '7', '10', '100', '0.1', '0.2', '2.5', '1.005', '1e3', '1e21', '1e-7', '.5', '0x1F', '0o17',
    '0b101', '9007199254740993', '1e308', '5e-324', '123.456', '4294967295', '0.5', '1.5', '36',
]
# Raw string literals (quotes included). Most patterns double their backslashes, as JavaScript authors write
# them, so both sides read the same pattern; a few use the language's own '\d' (the documented difference).
STRING_LITERALS = [
    "''", "'a'", "'abc'", "'Hello'", "'北京大学'", "'二 教'", "'a😀b'", "'😀'", "'x y'", "'a,b,,c'", "','", "'-'",
    "'  pad  '", "'\\n'", "'\\t'", "'\\\\'", "'it\\'s'", '"say \\"hi\\""', "'\\u4e2d'", "'\\ud83d\\ude00'", "'\\d'",
    "'\\x41'", "'\\u{41}'", "'\\`'", "'$&'", "'$1'", "'$$'", "'0'", "'1,234.5'", "'12元'", "'45%'", "' 42 '", "'1e3'",
    "'-0'", "'2026-11-30'", "'2026-11-30 08:00'", "'null'", "'true'", "'length'", "'__proto__'", "'constructor'",
    "'İ'", "'ß'", "'ΣΑΣ'", "'\u3000x\xa0'", "'%E4%BA%8C'", "'%'", "'a-b-c'", "'a1b22c'", "'.'", "'01'", "'1'", "'b'",
    "'n'", "'s'", "'id'",
]
PATTERN_LITERALS = [
    "'\\\\d+'", "'(\\\\d+)'", "'[a-z]+'", "'(?i)^a'", "'b'", "','", "'\\\\s+'", "'\\\\w+'", "'(\\\\d+)-(\\\\d+)'",
    "'(a)|(b)'", "'.'", "'^'", "'$'", "'[^,]*'", "'北'", "'😀'", "'x*'", "'\\\\bb'", "'(?m)^\\\\w'", "'(?s)a.b'",
    "'[\\\\s\\\\u3000]+'", "'[\\\\s\\u3000]+'", "'a{2}'", "'\\\\.'", "'\\\\p{Han}+'", "'(?=a)'", "'(a)\\\\1'",
    "'(?<=a)b'", "'\\d+'", "'(?U)a'", "'[0-9]+元'", "'(?:a|b)+'", "'-'",
]
REPLACEMENTS = [
    "'#'", "'$&$&'", "'[$1]'", "'$$'", "'$`'", '"$\'"', "''", "'$2'", "'$<x>'", "'二'",
]
TEMPLATE_QUASIS = [
    '', '', 'a', ' rooms in ', 'n=', '\\n', '\\`', '\\$', '$', '中', '😀', '\\d', ' ',
]
DATE_TEXTS = [
    '2026-11-30', '2026-11-30 08:00', '2026-11-30 17:05:30', '2026-11-30T10:00:00Z', '2026-11-30T10:00:00+09:00',
    '2026-02-28', '2024-02-29', '2026-02-30', '2026/1/5 9:05', '11月30日', '2026年1月5日', '08:30', '2026-12-31 23:59',
    'yesterday', '2026-11-30T08:00:00.123+08:00', '1999-12-31T23:59:59-05:00',
]
DATE_FORMATS = [
    "'YYYY-MM-DD'", "'YYYY-MM-DD HH:mm'", "'M月D日 dddd'", "'ddd H:mm'", "'YYYY/MM/DD HH:mm:ss'", "'[Y]YYYY'", "'D/M'",
    "'dddd'", "'HH:mm'",
]
DATE_READS = [
    ("'30/11/2026'", "'DD/MM/YYYY'"), ("'2026年1月5日'", "'YYYY年M月D日'"),
    ("'11/30/2026 08:00'", "'MM/DD/YYYY HH:mm'"), ("'5.1'", "'M.D'"), ("'1:05'", "'H:mm'"), ("'2027-03'", "'YYYY-MM'"),
    ("'12-25'", "'MM-DD'"), ("'at 2026'", "'[at] YYYY'"), ("'07'", "'DD'"), ("'26-11-30'", "'YY-MM-DD'"),
    ("'Mon 1'", "'ddd D'"), ("'1 days'", "'D days'"),
]
URL_TEXTS = [
    'https://a.pku.edu.cn/x/y.html', 'https://x.pku.edu.cn:8080/a/b?c=1&c=2&d=%E4%BA%8C#h', 'https://A.PKU.edu.cn',
    'http://example.com/a b', 'https://例子.cn/路径?q=二', 'not a url', 'https://x.cn/a/./b/../c', 'mailto:x@y',
    'https://x.cn/?a=1+2&b', 'https://x.cn',
]
URL_RELATIVES = [
    "'../z?q=1'", "'x'", "'/abs'", "'?q=1 2'", "'#frag'", "'//other.cn/p'", "'https://b.cn/'", "''", "'二'",
    "'a/../../b'",
]
NUMBERS: list[Any] = [
    0, -0.0, 1, -1, 0.1, 1.5, 2.5, -2.5, 1e+21, 1e-07, 2**53 + 1, 2**53, 1e+308, -1e+308, 5e-324, 123456.789,
    0.30000000000000004, 4294967295, 1.005, 10**400, 3, 7, 100, 36, 0.5, -0.4,
]
STRINGS = [
    '', 'a', 'abc', 'Hello', 'a,b,,c', '  二教  ', '北京大学', 'a\ud800b', '\udc00', '😀', 'a😀b', '1,234.5', '12元',
    ' 42 ',
    '45%', '1e3', '-0', '0', 'NaN', 'x y', '\u3000x\xa0', '\ufeffbom', 'İstanbul', 'straße', 'ΣΑΣ', 'a\nb',
    'tab\there', '$&$1', '%E4%BA%8C', '%', '2026-11-30', '__proto__', 'constructor', 'length', '01', '10', 'null',
    'true', '\x00', 'é', '\u2028', 'a-b-c', 'a1b22c', 'abc 12', '\x1c\x1d', '\x85x', '\x0b', 'a\r\nb',
]
KEYS = [
    'a', 'b', 'n', 's', '1', '01', '10', '2', '-1', '1.5', '4294967295', '4294967294', '__proto__', 'constructor',
    'length', 'x y', '二', '😀', '', 'toString',
]
# fmt: on


class Contexts:
    """Random context data, drawn from one seeded generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def number(self) -> Any:
        return self.rng.choice(NUMBERS)

    def string(self) -> str:
        return self.rng.choice(STRINGS)

    def scalar(self) -> Any:
        r = self.rng.random()
        if r < 0.35:
            return self.number()
        if r < 0.75:
            return self.string()
        return self.rng.choice([None, True, False])

    def json(self, depth: int) -> Any:
        r = self.rng.random()
        if depth <= 0 or r < 0.45:
            return self.scalar()
        if r < 0.7:
            return [self.json(depth - 1) for _ in range(self.rng.randint(0, 4))]
        return self.object(depth - 1)

    def object(self, depth: int) -> dict[str, Any]:
        keys = self.rng.sample(KEYS, self.rng.randint(0, 5))
        return {k: self.json(depth) for k in keys}

    def deep(self) -> Any:
        """A narrow value nested 6-12 levels, lists and objects in turn."""
        v: Any = self.scalar()
        for i in range(self.rng.randint(6, 12)):
            v = [v] if i % 2 else {"a": v}
        return v

    def row(self) -> dict[str, Any]:
        row = {
            "id": self.rng.choice(["r1", "r2", "r3", "1", "二教"]),
            "n": self.rng.choice([*NUMBERS[:12], None]),
            "s": self.string(),
            "tag": self.rng.choice(["a", "b", "c", "1", "2"]),
        }
        keys = list(row)
        self.rng.shuffle(keys)  # key order is part of a value; rows need not agree on it
        if self.rng.random() < 0.15:
            keys = keys[:-1]
        return {k: row[k] for k in keys}

    def context(self) -> dict[str, Any]:
        rng = self.rng
        return {
            "n": self.number(),
            "m": self.number(),
            "s": self.string(),
            "t": self.string(),
            "b": rng.random() < 0.5,
            "nil": None,
            "xs": [self.number() for _ in range(rng.randint(0, 6))],
            "ss": [self.string() for _ in range(rng.randint(0, 5))],
            "rows": [self.row() for _ in range(rng.randint(0, 5))],
            "o": self.object(2),
            "j": self.deep() if rng.random() < 0.15 else self.json(4),
            "d": rng.choice(DATE_TEXTS),
            "u": rng.choice(URL_TEXTS),
            "date": rng.choice(DATE_TEXTS),  # a bound name that is also a library function (§4)
            "now": NOW,
        }
