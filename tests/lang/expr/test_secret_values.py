"""`otp.code`'s secret value in expressions: a hostile plugin author tries every way to read it (issue 15 item 1).

Two properties: every conversion to text or JSON, every comparison and property read is an error that names
the ability; and, checked over every library function with the secret in every argument position, nothing a
plugin can observe depends on the secret's text (two different codes give the same answers and errors).
"""

from __future__ import annotations

import itertools
import pickle
from typing import Any

import pytest

from tui.lang.expr import FUNCTIONS, Closure, LangError, Run, compile_expression, to_json
from tui.lang.expr.secret import SECRET_MASK, SecretValue, as_secret, open_for
from tui.lang.expr.stdlib.html import HtmlNode
from tui.lang.expr.stdlib.regex import Regex
from tui.lang.expr.values import stringify, to_str, to_text

from .helpers import NOW

CODE = "493817"
NAMED = "the value of otp.code is a secret"


def secret(text: str = CODE) -> SecretValue:
    return SecretValue("otp.code", text)


def evaluate(src: str, **names: Any) -> Any:
    return compile_expression(src).evaluate({"c": secret(), **names}, Run(NOW))


# Every way of turning the secret into text or JSON, comparing it or reading it: each is refused by name.
REFUSED = [
    # text
    "`${c}`",
    "`code: ${c}`",
    "'' + c",
    "c + ''",
    "str(c)",
    "str([c])",
    "str({ a: c })",
    "stringify(c)",
    "stringify([1, [c]])",
    "stringify({ a: { b: c } })",
    "join([c])",
    "join([[c]])",
    "[c].join('')",
    "concat('x', c)",
    "'x'.includes(c)",
    "'123456'.indexOf(c)",
    "'x'.startsWith(c)",
    "'x'.endsWith(c)",
    "'a'.replace('a', c)",
    "'a'.replaceAll('a', c)",
    "'a'.split(c)",
    "encodeURIComponent(c)",
    "error(c)",
    "groupBy([1], x => c)",
    "countBy([1], x => c)",
    "keyBy([1], x => c)",
    # strings functions on it
    "upper(c)",
    "c.trim()",
    "c.slice(1)",
    "c.padStart(8, '0')",
    "c.repeat(2)",
    "len(c)",
    "num(c)",
    "int(c)",
    "json(c)",
    "html(c)",
    "date(c)",
    "formatDate(c, 'YYYY')",
    "regex(c)",
    "test(c, regex('\\d'))",
    "match(c, regex('\\d+'))",
    "query(c)",
    "url(c, '/x')",
    "parseUrl(c)",
    "charAt(c, 0)",
    "at(c, 0)",
    "reverse(c)",
    # arithmetic and order
    "c + 1",
    "c - 1",
    "c * 1",
    "-c",
    "c < '5'",
    "c > 1",
    "c <= c",
    "sortBy([c, c], x => x)",
    "min([c])",
    "sum([c])",
    # properties, spreading, keys
    "c.length",
    "c[0]",
    "c.code",
    "keys(c)",
    "values(c)",
    "entries(c)",
    "{ ...c }",
    "[...c]",
    "({ [c]: 1 })",
    "c.toString()",
    "c.constructor",
]


@pytest.mark.parametrize("src", REFUSED)
def test_every_use_but_passing_it_along_is_an_error_naming_the_ability(src: str) -> None:
    with pytest.raises(LangError) as info:
        evaluate(src)
    assert "otp.code" in info.value.msg, info.value.msg
    assert CODE not in str(info.value)


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("type(c)", "secret"),
        ("c === '493817'", False),
        ("'493817' == c", False),
        ("c !== '493817'", True),
        ("equals(c, '493817')", False),
        ("equals([c], ['493817'])", False),
        ("[c].includes('493817')", False),
        ("['493817'].includes(c)", False),
        ("['493817'].indexOf(c)", -1),
        ("c ? 1 : 2", 1),
        ("c === null", False),
        ("uniq([c, c]).length", 1),
        ("[c, c].length", 2),
        ("type({ a: c }.a)", "secret"),
        ("type([c][0])", "secret"),
        ("type(coalesce(null, c))", "secret"),
        ("get(c, 'x')", None),  # like any value that is not an object or a list
    ],
)
def test_what_may_be_done_with_it_reveals_nothing(src: str, expected: Any) -> None:
    assert to_json(evaluate(src)) == expected


def test_it_stays_opaque_through_lists_objects_and_functions() -> None:
    kept = evaluate("{ obj: { code: c }, list: [1, c], mapped: [1].map(x => c), picked: pick({ a: c }, ['a']) }")
    assert isinstance(kept["list"][1], SecretValue) and isinstance(kept["obj"]["code"], SecretValue)
    assert isinstance(kept["mapped"][0], SecretValue) and isinstance(kept["picked"]["a"], SecretValue)
    for conversion in (to_text, stringify):
        with pytest.raises(LangError, match=NAMED):
            conversion(kept)
    with pytest.raises(LangError, match=r"result\.obj\.code: the value of otp\.code is a secret"):
        to_json(kept)
    with pytest.raises(LangError, match=NAMED):
        to_str(secret())


def test_python_never_prints_its_text() -> None:
    s = secret()
    assert CODE not in repr(s) + str(s) + f"{s}" + f"{s!r:>40}" + f"{s:>20}" and SECRET_MASK in repr(s)
    with pytest.raises(TypeError):
        pickle.dumps(s)


def test_only_a_verify_abilitys_code_opens_it() -> None:
    s = secret()
    assert open_for("verify.treehole", {"code": s, "via": "otp"}) == {"code": CODE, "via": "otp"}
    for ability, args in [
        ("crypto.sha256", {"code": s}),
        ("todos.add", {"title": s}),
        ("verify.treehole", {"request": {"url": "/x", "query": {"q": s}}, "code": "1"}),
        ("verify.treehole", {"codes": [s]}),
    ]:
        with pytest.raises(LangError, match=NAMED):
            to_json(open_for(ability, args), "ability args")
    assert isinstance(as_secret("otp.code", CODE), SecretValue)  # a recorded answer is a secret too
    assert as_secret("otp.code", None) is None and as_secret("todos.list", "x") == "x"


# -- non-interference over the whole library -------------------------------------------------------------
FILLERS = ["'x1'", "2", "[1, 'a']", "{ a: 1 }", "x => x", "null", "'a,b'"]


def _observe(v: Any) -> Any:
    """What a plugin could learn from a value: its JSON shape, with every secret (and function) as a marker."""
    if isinstance(v, SecretValue):
        return "<secret>"
    if isinstance(v, list):
        return [_observe(x) for x in v]
    if isinstance(v, dict):
        return {k: _observe(x) for k, x in v.items()}
    if isinstance(v, Closure):
        return "<fn>"
    if isinstance(v, HtmlNode):
        return ("<node>", v.node.html)
    if isinstance(v, Regex):
        return ("<regex>", v.pattern)
    if isinstance(v, float) and v != v:
        return "NaN"
    return v


def _outcome(src: str, text: str) -> Any:
    try:
        value = compile_expression(src).evaluate({"c": secret(text)}, Run(NOW))
    except LangError as e:
        return ("error", e.msg.replace(text, "<leaked>"))
    return ("value", _observe(value))


def _cases() -> list[str]:
    out = []
    for name, b in sorted(FUNCTIONS.items()):
        most = 3 if b.max_args is None else min(b.max_args, 3)
        n = max(b.min_args, 1)
        for arity in range(n, max(n, most) + 1):
            for pos in range(arity):
                others = arity - 1
                for fill in itertools.islice(itertools.product(FILLERS, repeat=others), 12):
                    args = list(fill)
                    args.insert(pos, "c")
                    out.append(f"{name}({', '.join(args)})")
                    args[pos] = "[c]"
                    out.append(f"{name}({', '.join(args)})")
    return out


CASES = _cases()


def test_the_library_cases_cover_every_function() -> None:
    assert {c.split("(")[0] for c in CASES} == set(FUNCTIONS) and len(CASES) > 2000


@pytest.mark.parametrize("chunk", range(8))
def test_no_library_function_lets_the_code_show_through(chunk: int) -> None:
    """Two different codes must look the same to the plugin: same value shape, same error — in every call."""
    for src in CASES[chunk::8]:
        a, b = _outcome(src, CODE), _outcome(src, "000000")
        assert a == b, (src, a, b)
        assert "<leaked>" not in str(a), src
        if a[0] == "error" and "secret" in a[1]:
            assert "otp.code" in a[1], (src, a)
