"""PENDING: every class of disagreement found that docs/PLUGIN-LANGUAGE.md does not document.

The engine's engineer works from this list: each entry has a short name, the docs' section it touches, one
minimal example (found by the minimiser) with what the engine gives and what JavaScript gives, and a
recogniser (recognise.py, or a change that takes the cause away, lab.py). When a fix lands, the entry's own
example stops disagreeing and test_tables fails until the entry is deleted; a disagreement that matches no
entry (here or in documented.py) fails test_differential.

Crashes (a Python exception that is not the language's LangError) are marked `crash=True`.
"""

from __future__ import annotations

from . import recognise as rec
from .documented import Entry
from .lab import NO_LINE_ENDS, NO_SURROGATES, alt

PENDING: list[Entry] = [
    Entry(
        "key-order",
        "§1 says objects keep insertion order; §2 says exactly what JavaScript gives",
        'json(\'{"b":1,"1":2}\')',
        "project {'b': 1, '1': 2}; JS {'1': 2, 'b': 1}: JavaScript lists integer-like keys ('1', '10', "
        "not '01') first, in numeric order, everywhere (literals, JSON, keys(), groupBy, stringify …)",
        verdicts=rec.ANY,
        change=alt("insertion-order"),
    ),
    Entry(
        "negative-zero",
        "§1 numbers are IEEE doubles exactly as in JavaScript",
        "round(-0.4)",
        "project 0; JS -0 (Math.round(-0.4) is -0; also ceil(-0.5), int(-0.5), …): visible as 1 / x",
        rec.negative_zero,
        rec.DIFF,
    ),
    Entry(
        "lone-surrogate-crash",
        "§6 regexes; §5 URLs: a crash",
        "test(s, 'a')",
        "project UnicodeEncodeError (a lone surrogate cannot be encoded as UTF-8); JS true. The same crash in "
        "match, matchAll, regex(s), split/replace/replaceAll with regex() (text or pattern holding one), and in "
        "encodeURIComponent and query (JS: URIError, so a language error would do there)",
        rec.surrogate_crash,
        rec.CRASH,
        context={"s": "a\ud800b"},
        crash=True,
    ),
    Entry(
        "round-overflow-crash",
        "§5 round(x, digits): a crash",
        "round(1e308, 10)",
        "project OverflowError: cannot convert float infinity to integer; JS 1e308",
        rec.overflow_crash,
        rec.CRASH,
        crash=True,
    ),
    Entry(
        "empty-arrow-crash",
        "§3 arrows `() => body`: a crash",
        "[1].map(() => 1)",
        "project SyntaxError from the generated Python (invalid syntax); JS [1]",
        rec.empty_arrow_crash,
        rec.CRASH,
        crash=True,
    ),
    Entry(
        "invalid-url-accepted",
        "§5 url(), parseUrl()",
        "url('not a url', 'x')",
        "project 'x' (parseUrl('not a url') gives {scheme: '', path: 'not a url', …}); JS throws TypeError: "
        "Invalid URL (new URL)",
        rec.invalid_url,
        rec.THROWS,
    ),
    Entry(
        "num-of-non-text",
        "§5 num(x): 'A number from text'; wrong kinds fail",
        "num([1])",
        "project null (num(true) is 1); JS refuses: num() is for numbers and text, and §5 says wrong kinds "
        "fail instead of guessing",
        rec.num_of_non_text,
        rec.THROWS,
    ),
    Entry(
        "variadic-needs-one",
        "§5 zip(…lists), merge(…objs), coalesce(…args)",
        "merge()",
        "project: syntax error 'merge() takes at least 1 arguments, got 0'; JS {} (zip() [], coalesce() null)"
        ": the docs' '…' does not say at least one",
        rec.variadic_needs_one,
        rec.REFUSES,
    ),
    Entry(
        "num-leading-number",
        "§5 notes: num 'reads the first number in the text'",
        "num('abc 12')",
        "project null: the engine reads only a number at the start of the text; JS (the docs' sentence) 12",
        change=alt("num-leading"),
        applies=rec.calls_num,
        verdicts=rec.ANY,
    ),
    Entry(
        "optional-call-chain",
        "§2 '?. short-circuits the whole chain, as in JavaScript'",
        "o.f?.().a",
        "project: cannot read 'a' of null; JS null: a ?.() that meets null must end the whole chain (the "
        "rest of the chain, index expressions included, is not evaluated)",
        rec.optional_call_chain,
        rec.REFUSES,
        context={"o": {}},
    ),
    Entry(
        "fromEntries-pairs",
        "§5 fromEntries(pairs)",
        "fromEntries([[]])",
        "project refuses a pair that is not two items; JS Object.fromEntries reads [] as key undefined",
        rec.from_entries_pairs,
        rec.REFUSES,
    ),
    Entry(
        "null-as-missing-argument",
        "§3 'where JavaScript has a method …, it behaves as JavaScript's does'",
        "'x'.split(',', null)",
        "project ['x']: the engine reads an optional argument given null as not given; JS [] (limit null is 0;"
        " likewise 'ab'.padEnd(4, null) is 'abnu', 'abc'.slice(0, null) is '')",
        change=alt("null-absent"),
        verdicts=rec.ANY,
    ),
    Entry(
        "array-key-refused",
        "§2 member access; §3 computed keys",
        "({})[[]]",
        "project refuses: 'an array cannot be used as a key'; JS null (the key is String([]), '')",
        rec.array_key,
        rec.REFUSES,
    ),
    Entry(
        "stringify-lone-surrogate",
        "§5 stringify(), str(): JSON.stringify",
        "stringify(s)",
        "project '\"\\ud800\"' with the lone surrogate itself (which cannot leave as UTF-8); JS escapes it: "
        "'\"\\\\ud800\"' (well-formed JSON.stringify, ES2019)",
        rec.stringify_surrogate,
        rec.ANY,
        context={"s": "\ud800"},
        change=NO_SURROGATES,
        applies=rec.surrogates_stringified,
    ),
    Entry(
        "url-not-normalised",
        "§5 url(base, relative?)",
        "url('https://x.cn')",
        "project 'https://x.cn' (as written); JS new URL(…).href 'https://x.cn/': host lower-cased and "
        "punycoded, path percent-encoded, '/' added",
        rec.url_text,
        rec.ANY,
    ),
    Entry(
        "parseUrl-parts",
        "§5 parseUrl(u): { scheme, host, path, query, hash }",
        "parseUrl('https://x.cn')",
        "project path ''; JS (URL.pathname) '/'; also host without its port and not punycoded (JS URL.host "
        "'n:0', 'xn--…')",
        rec.url_parts,
        rec.ANY,
    ),
    Entry(
        "regex-empty-match",
        "§5 matchAll(), replace(s, regex(), …), split(s, regex())",
        "matchAll('ab', '$')",
        "project [[''], ['']]: an empty match at the end of the text is found twice (also "
        "'a'.replace(regex('$'), '#') is 'a##', JS 'a#'); split('', regex('x*')) is [''], JS []",
        rec.empty_match,
        rec.ANY,
    ),
    Entry(
        "first-of-null",
        "§5 first(x, selector?)",
        "first(null)",
        "project null; JS refuses (the docs give first() a list or a node; text/htmlText/attr are the ones "
        "documented to give null for null)",
        rec.first_of_null,
        rec.THROWS,
    ),
    Entry(
        "diffMinutes-precision",
        "§5 diffMinutes(a, b): minutes from b to a",
        "diffMinutes('2026-11-30T08:00:00.123+08:00', '2026-11-30T10:00:00Z')",
        "project -599.9979500000001; JS (ms difference / 60000) -599.99795; epoch 1.5 counts as 1.5 ms in "
        "diffMinutes but 1 ms in date()",
        rec.diff_minutes,
        rec.DIFF,
    ),
    Entry(
        "nan-as-nothing",
        "§5 num(x), int(x): 'a number … default (or null) when there is none'; pct(part, whole)",
        "int(0 / 0)",
        "project null (and pct(0 / 0, 1) is 0); JS NaN: the docs say what num() reads from text, and a number "
        "(NaN too) is already one; Math.trunc(NaN) is NaN",
        change=alt("nan-as-nothing"),
        applies=rec.calls_num_or_pct,
        verdicts=rec.ANY,
    ),
    Entry(
        "get-path-edges",
        "§5 get(obj, path, default?)",
        "get('abc', '0')",
        "project null (a text has no steps); JS reading of the docs 'a' (own data: a text's index, §2). Also "
        "get(x, '') is x itself (JS: the key '', null) and get({ a: null }, 'a', 1) is 1 (JS: null, the docs "
        "give the default 'when any step is missing', and a null value is there)",
        change=alt("get-engine"),
        applies=rec.calls_get,
        verdicts=rec.ANY,
    ),
    Entry(
        "dates-in-undocumented-forms",
        "§5 notes: the date forms accepted",
        "date('2026-1-3')",
        "project '2026-01-03T00:00:00+08:00'; JS refuses: 'YYYY-MM-DD' has two-digit months and days, and "
        "the docs list no other dash form",
        rec.lenient_dates,
        rec.THROWS,
    ),
    Entry(
        "indexOf-same-list",
        "§5 indexOf/includes: JavaScript's own methods on lists",
        "[[]].map(y => [y].indexOf(y))",
        "project [-1]; JS [0]: the very same list is found (JavaScript compares lists by identity, so a list "
        "is found only as itself)",
        rec.index_of_identity,
        rec.DIFF,
    ),
    Entry(
        "round-digits-large",
        "§5 round(x, digits)",
        "round(1e21, 2)",
        "project 999999999999999900000 (9.999999999999999e20); JS 1e21: a number with no decimals left "
        "to round must come back unchanged",
        rec.round_digits,
        rec.DIFF,
    ),
    Entry(
        "decodeURIComponent-lenient",
        "§5 decodeURIComponent(s): JavaScript's",
        "decodeURIComponent('45%')",
        "project '45%'; JS throws URIError: URI malformed",
        rec.lenient_decode,
        rec.THROWS,
    ),
    Entry(
        "float-last-digit",
        "§1 numbers exactly as in JavaScript",
        "n ** n",
        "project 9.882117688026186 (C's pow); JS 9.882117688026185 (V8's ** is not the same function): the "
        "last digit of some results differs",
        rec.last_digit,
        rec.DIFF,
        context={"n": 2.5},
    ),
    Entry(
        "re2-line-terminators",
        "§6 known differences from JavaScript (not listed there)",
        "test('\\ra', '(?m)^a')",
        "project false; JS true: JavaScript's regexes also end lines at \\r, U+2028 and U+2029 (for ^ and $ "
        "in (?m), and . does not match them); RE2 only at \\n",
        change=NO_LINE_ENDS,
        applies=rec.regex_and_line_ends,
    ),
    Entry(
        "object-as-key",
        "§2 member access",
        "(15)[{}]",
        "project null; JS throws TypeError: Cannot convert object to primitive value (a prototype-free object "
        "has no text); ({})[{}] is refused by the project too",
        rec.object_key,
        rec.THROWS,
    ),
    Entry(
        "split-negative-limit",
        "§3 JavaScript's own split()",
        "'a,b'.split(',', -1)",
        "project []; JS ['a', 'b'] (the limit is ToUint32(-1), 4294967295)",
        rec.negative_split_limit,
        rec.ANY,
    ),
]
