"""The documented differences from JavaScript, one entry per row of docs/PLUGIN-LANGUAGE.md §10, plus the
documented refusals of §2-§8 that the oracle raises by name.

Each entry says where the docs state it, gives the docs' example, and recognises the difference in a finding:

* rows the oracle implements (`==` is `===`, `undefined` is null, no prototypes) cannot disagree; their
  `test` is None and their example is checked to agree;
* rows the oracle refuses by name (`'5' * 2`, `'' + [1, 2]`, `[1] == [1]`, `sort()` …) label the "both
  refuse" cases through `row`;
* the others are recognised by taking the cause away (lab.py's variants) and seeing the two sides agree, or
  by the engine's error kind (RE2's refusals, unknown globals, limits).

Disagreements that are not documented go to pending.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import render as R
from . import tree as T
from .lab import ASCII_SPACE, BMP, COOKED, JS_ONLY_SPACE, NO_LINE_ENDS, Change, Finding, Lab
from .outcomes import Verdict

Test = Callable[[Finding, Lab], bool]
DISAGREE = (Verdict.DIFFERENT, Verdict.PROJECT_REFUSES, Verdict.JS_THROWS)
REGEX_FUNCTIONS = {"regex", "test", "match", "matchAll"}


@dataclass(frozen=True)
class Entry:
    """One known difference: a name, where it is (or should be) written down, an example, a recogniser.

    A finding is explained by the entry when `test` says so, or when `applies` (a cheap look at the case)
    holds and the case with `change` made agrees. Changes compose: harness.explain() tries them together
    for a case with two causes.
    """

    name: str
    where: str
    example: str
    says: str
    test: Test | None = None
    verdicts: tuple[Verdict, ...] = DISAGREE
    row: str = ""  # the oracle's refusal row this entry names
    context: dict[str, Any] = field(default_factory=dict)
    change: Change | None = None
    applies: Callable[[Finding], bool] | None = None
    crash: bool = False

    def explains(self, f: Finding, lab: Lab) -> bool:
        if f.verdict not in self.verdicts:
            return False
        if self.test is not None and self.test(f, lab):
            return True
        return self.usable(f) and lab.apply(f, [self.change]).verdict.agrees  # type: ignore[list-item]

    def usable(self, f: Finding) -> bool:
        """True when this entry's change may take a cause out of `f`."""
        return self.change is not None and (self.applies is None or self.applies(f))


def _literals(t: T.Node) -> list[str]:
    out: list[str] = []
    for n in T.walk(t):
        if isinstance(n, T.Str):
            out.append(n.raw)
        elif isinstance(n, T.Tpl):
            out += n.quasis
        elif isinstance(n, T.Prop) and n.key[0] in "'\"":
            out.append(n.key)
    return out


def _strings(v: Any) -> list[str]:
    if isinstance(v, str):
        return [v]
    if isinstance(v, list):
        return [s for x in v for s in _strings(x)]
    if isinstance(v, dict):
        return [s for k, x in v.items() for s in [k, *_strings(x)]]
    return []


def text_of(f: Finding) -> str:
    """All literal text and context text of a case (for the cheap checks before a rerun)."""
    raws = _literals(f.tree)
    cooked = [R.cook(r) if r[:1] in "'\"" else R.cook(r, template=True) for r in raws]
    return "".join(raws + cooked + _strings(f.context))


def _odd_escape(f: Finding) -> bool:
    """A literal with a backslash JavaScript reads differently (`\\d`, `\\x41`, `\\u{41}`, '\\`' …)."""
    odd = re.compile(r"\\(?![\\'\"ntr]|u[0-9a-fA-F]{4})")
    return any(odd.search(raw.replace("\\\\", "")) for raw in _literals(f.tree))


def _has_astral(f: Finding) -> bool:
    text = text_of(f)
    return any(ord(c) > 0xFFFF for c in text) or "\\ud83d" in text


def uses_regex(f: Finding) -> bool:
    return any(
        (isinstance(n, T.Call) and n.fname in REGEX_FUNCTIONS) or (isinstance(n, T.MCall) and n.name in REGEX_FUNCTIONS)
        for n in T.walk(f.tree)
    )


def _regex_and_spaces(f: Finding) -> bool:
    text = text_of(f)
    return uses_regex(f) and (any(c in JS_ONLY_SPACE for c in text) or "\\u3000" in text)


def _re2_refuses(f: Finding, lab: Lab) -> bool:
    return f.project.error.startswith("RegexError") and f.verdict is Verdict.PROJECT_REFUSES


def _globals(f: Finding, lab: Lab) -> bool:
    return f.project.error.startswith("UnboundNameError") and any(isinstance(n, T.Global) for n in T.walk(f.tree))


def _arity(f: Finding, lab: Lab) -> bool:
    """A direct call with the wrong number of arguments is a syntax error even where it is not reached;
    `merge()` and friends are PENDING (the docs' '…' does not say they need one)."""
    e = f.project.error
    return e.startswith("ParseError") and " argument" in e and "takes" in e and not e.endswith("got 0")


def _limit(f: Finding, lab: Lab) -> bool:
    return f.project.error.startswith("LimitError")


S10 = "§10 Differences from JavaScript"
DOCUMENTED: list[Entry] = [
    Entry(
        "backslash",
        S10 + ": `'\\d'` is `'d'` / `'\\d'` is `\\d`",
        "'\\d'.length",
        "every backslash that is not one of JavaScript's simple escapes stays as written",
        change=COOKED,
        applies=_odd_escape,
    ),
    Entry(
        "loose-equality",
        S10 + ": `==` coerces / `==` is `===`",
        "1 == '1'",
        "the oracle renders == as ===, so no case can disagree here",
        None,
    ),
    Entry(
        "coercion",
        S10 + ": `'5' * 2` is `10`, `null + 1` is `1` / errors",
        "'5' * 2",
        "arithmetic and unary +/- on anything but numbers are refused",
        None,
        row="coerce",
    ),
    Entry(
        "join-array",
        S10 + ": `'' + [1, 2]` is `'1,2'` / error",
        "'' + [1, 2]",
        "'+' joining text with a list or an object is refused",
        None,
        row="join-array",
    ),
    Entry(
        "identity",
        S10 + ": `[1] == [1]` is `false` (identity) / error",
        "[1] == [1]",
        "==, != between two lists or objects are refused",
        None,
        row="identity",
    ),
    Entry(
        "undefined",
        S10 + ": `undefined` / `null`",
        "({}).a",
        "the oracle reads undefined as null, so no case can disagree here",
        None,
    ),
    Entry(
        "prototypes",
        S10 + ": objects have prototypes / own keys only",
        "({}).constructor",
        "the oracle's objects are prototype-free and reads are own data only, so no case can disagree here",
        None,
    ),
    Entry(
        "sort",
        S10 + ": `arr.sort()` sorts as text / not provided",
        "[10, 9].sort()",
        "sort() is refused; the oracle refuses it too",
        None,
        row="sort",
    ),
    Entry(
        "utf16",
        S10 + ": strings index by UTF-16 unit / by character",
        "'a😀b'.length",
        "lengths, indexes, slices and comparisons count characters, not UTF-16 units (only emoji and other "
        "astral characters differ)",
        change=BMP,
        applies=_has_astral,
    ),
    Entry(
        "re2",
        S10 + ": regexes are backtracking / RE2, linear; §6",
        "test('ab', '(?<=a)b')",
        "RE2 refuses lookaround, backreferences and (?U); its \\s is [\\t\\n\\f\\r ]",
        _re2_refuses,
        row="re2",
        change=ASCII_SPACE,
        applies=_regex_and_spaces,
    ),
    Entry(
        "globals",
        S10 + ": `Math.round`, `Math.max` … / `round`, `max` …",
        "Math.max(1, 2)",
        "there are no globals: Math, JSON, Number … are unknown names",
        _globals,
    ),
    Entry(
        "plain-patterns",
        S10 + ": patterns may rename, default, nest, skip and collect: `({cap: c, n = 5, a: {b}, ...rest}) =>`, "
        "`([a, , c]) =>` / an arrow's parameters destructure plain names only",
        "[{ a: 1 }].map(({ a }) => a)",
        "patterns beyond plain names are a syntax error; the generator writes plain names only, so no case can "
        "disagree here",
        None,
    ),
    Entry(
        "named-groups",
        S10 + ": a replacement function also gets a `groups` object for named groups / it does not",
        "'ab'.replace(regex('(?<n>a)'), (m, g, i, s, gs) => gs == null ? 'x' : gs.n)",
        "a replacement function gets (match, groups…, offset, text), without JavaScript's groups object",
        lambda f, lab: _project_error_or_value(f) and "(?<" in f.source and _calls(f, "replace", "replaceAll"),
    ),
    Entry(
        "null-as-zero",
        S10 + ": `slice(0, null)`, `flat(null)` read `null` as 0 / error",
        "[1, 2].slice(0, null)",
        "an explicit null where JavaScript reads the number 0 is refused, as null + 1 is",
        lambda f, lab: "expects a number, got null" in f.project.error,
        verdicts=(Verdict.PROJECT_REFUSES,),
    ),
    Entry(
        "list-or-object-key",
        S10 + ": `[][[0]]`, `o[{}]` use the key's text (`'0'`, `'[object Object]'`) / error: a key is text or a number",
        "({})[[]]",
        "a list or an object as a key is refused",
        lambda f, lab: "cannot be used as a" in f.project.error,
        verdicts=(Verdict.PROJECT_REFUSES, Verdict.BOTH_REFUSE),
    ),
    Entry(
        "pair-of-two",
        S10 + ": `Object.fromEntries([[]])` reads a missing key as `undefined` / error: each pair is `[key, value]`",
        "fromEntries([[]])",
        "fromEntries refuses a pair that is not two items",
        lambda f, lab: "fromEntries() expects" in f.project.error,
        verdicts=(Verdict.PROJECT_REFUSES,),
    ),
    Entry(
        "years-1-to-9999",
        S10 + ": `new Date(1e15)` is the year 33658 / error outside the years 1–9999",
        "date(1e15)",
        "a time outside the years 1 to 9999 (in Beijing) is refused",
        lambda f, lab: "from the year 1 to 9999" in f.project.error,
        verdicts=(Verdict.PROJECT_REFUSES,),
    ),
    Entry(
        "pow-last-digit",
        S10 + ": `1.45 ** 3` is `3.0486249999999995` / `3.048625`",
        "n ** n",
        "V8's ** is not C's pow: the last digit of some results differs",
        lambda f, lab: _last_digit(f, lab),
        verdicts=(Verdict.DIFFERENT,),
        context={"n": 2.5},
    ),
    Entry(
        "utf8-out",
        S10 + ": sending text with a lone surrogate: U+FFFD (`TextEncoder`) / the same, for every value leaving a run",
        "stringify(s)",
        "stringify keeps the escape on both sides; only a value leaving a run is UTF-8 (not seen here)",
        None,
        context={"s": "a\ud800b"},
    ),
    Entry(
        "re2-line-terminators",
        "§6 known differences: `.` matches `\\r`, U+2028 and U+2029; (?m)'s ^ and $ only at \\n",
        "test('\\ra', '(?m)^a')",
        "JavaScript's regexes also end lines at \\r, U+2028 and U+2029; RE2 only at \\n",
        change=NO_LINE_ENDS,
        applies=lambda f: _line_ends(f),
    ),
    # Documented refusals outside §10: the oracle raises them by name, and so both sides refuse.
    Entry(
        "compare-types",
        "§2: `< <= > >=` compare two numbers or two strings",
        "1 < 'a'",
        "mixed-type comparisons are refused",
        None,
        row="compare-types",
    ),
    Entry(
        "template-array",
        "§7: backtick literals follow String(), so an array in one is an error",
        "`${[1]}`",
        "a list or object in a backtick literal is refused",
        None,
        row="template-array",
    ),
    Entry(
        "refused-method",
        "§3: push, pop, splice, forEach, toString … are refused",
        "[1].push(2)",
        "the mutating and host methods are refused",
        None,
        row="refused-method",
    ),
    Entry(
        "argument-kind",
        "§5: given the wrong kind of argument, functions fail",
        "'abc'.slice('1')",
        "library functions refuse arguments of the wrong kind (JavaScript would coerce)",
        None,
        row="sig",
    ),
    Entry(
        "bad-argument",
        "§5, §9: a bad argument to a library function",
        "chunk([1, 2], 0)",
        "a library function refuses an argument it cannot use",
        None,
        row="bad-arg",
    ),
    Entry(
        "arity",
        "§3: the number of arguments of a direct call is checked before anything runs",
        "null ? trim('a', 1) : 2",
        "a call with the wrong number of arguments is refused, reached or not",
        _arity,
        verdicts=(Verdict.PROJECT_REFUSES,),
        row="arity",
    ),
    Entry(
        "limits",
        "§8 Limits",
        "range(1000000000)",
        "a run stops at the documented limits",
        _limit,
        verdicts=(Verdict.PROJECT_REFUSES,),
        row="limit",
    ),
    Entry(
        "plugin-error",
        "§5 Other: error(message) fails the run",
        "error('boom')",
        "error() fails; the oracle refuses it by name",
        None,
        row="user",
    ),
]

BY_ROW = {e.row: e for e in DOCUMENTED if e.row}


def _calls(f: Finding, *names: str) -> bool:
    return any(
        (isinstance(n, T.Call) and n.fname in names) or (isinstance(n, T.MCall) and n.name in names)
        for n in T.walk(f.tree)
    )


def _project_error_or_value(f: Finding) -> bool:
    return f.verdict in DISAGREE


def _last_digit(f: Finding, lab: Lab) -> bool:
    from .recognise import last_digit  # recognise.py imports this module

    return last_digit(f, lab)


def _line_ends(f: Finding) -> bool:
    from .recognise import regex_and_line_ends  # recognise.py imports this module

    return regex_and_line_ends(f)
