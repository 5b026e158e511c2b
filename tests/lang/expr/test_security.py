"""Known sandbox escapes, ported, each expected to fail cleanly (threats.md §3.1-3.3).

Sources: simpleeval's TestTryingToBreakOut, n8n expression-sandbox bypasses (computed keys, arrow bodies,
prototype pollution through data), Jinja2 sandbox CVEs (str.format, attribute walks). Nothing of the host is
reachable: member access is an own-key lookup on JSON data, so every payload reads null or fails with the
language's own error — never a Python object, never a side effect.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any

import pytest

from tui.lang.expr import LangError, Run, compile_expression, from_json, to_json

from .helpers import NOW, assert_plain

CONTEXT: dict[str, Any] = {
    "input": {"building": "二教", "n": 3},
    "s": "text",
    "list": [1, 2, 3],
    "obj": {"a": {"b": 1}},
}

PAYLOADS = [
    # E1: JavaScript prototype walks
    "input.constructor.constructor('return process')()",
    "input.constructor",
    "input.__proto__",
    "input.__proto__.__proto__",
    "toString.call(input)",
    "obj.hasOwnProperty('a')",
    "s.constructor.fromCharCode(65)",
    "list.constructor.prototype",
    "list.map.constructor('return this')()",
    "(x => x).constructor",
    "coalesce(x => x).constructor('return 1')",
    "coalesce(x => x).call(null, 1)",
    "coalesce(x => x).apply(null, [1])",
    "coalesce(x => x).bind(null)",
    # E2: Python walks (simpleeval TestTryingToBreakOut)
    "''.__class__",
    "''.__class__.__mro__[1].__subclasses__()",
    "s.__class__.__bases__[0].__subclasses__()",
    "s.__class__.__base__",
    "list.__class__",
    "obj.__dict__",
    "obj.__class__.__init__.__globals__",
    "coalesce(x => x).__globals__",
    "coalesce(x => x).__code__",
    "coalesce(x => x).fn",
    "coalesce(x => x).fn.__globals__",
    "coalesce(x => x)['fn']",
    "s.format",
    "'{0.__class__}'.format(1)",
    "s.__len__()",
    "list.__getitem__(0)",
    "obj.get('a')",
    "obj.items()",
    "obj.keys()",
    "s.encode()",
    "s.join",
    "html('<p>x</p>').node",
    "html('<p>x</p>').node.parser",
    "html('<p>x</p>')['node']",
    "html('<p>x</p>').base_url",
    "regex('a').re",
    "regex('a').pattern",
    "regex('a').re.sub",
    "first(html('<p>x</p>'), 'p').parent",
    # E3: computed keys (n8n bypasses)
    "input['con' + 'structor']",
    "input[['__proto__']]",
    "input[`constr${'uct'}or`]",
    "s['__class__']",
    "s['__cl' + 'ass__']['__mro__']",
    "list[['constructor']]",
    "obj[coalesce(x => x)]",
    "obj[{}]",
    # E5: free identifiers
    "globalThis",
    "process",
    "require('fs')",
    "import('fs')",
    "eval('1')",
    "Function('return 1')()",
    "__import__('os')",
    "open('/etc/passwd')",
    "exec",
    "getattr",
    "[...globalThis]",
    "({ ...process })",
    "({ [process]: 1 })",
    "list.map(x => globalThis)",
    "list.map((x = process) => x)",
    "self",
    "window.location",
    "Reflect.ownKeys(input)",
    "Object.keys(input)",
    "JSON.parse('1')",
    "Math.max(1, 2)",
    "Date.now()",
    "Symbol.iterator",
    # E6: forbidden syntax
    "a = 1",
    "input.n += 1",
    "input.n++",
    "new Function('return 1')",
    "delete input.n",
    "class X {}",
    "function f() {}",
    "list.map(x => { return process })",
    "list.map(async x => x)",
    "list.map(function (x) { return x })",
    "1; process",
    "yield 1",
    "await x",
    "void 0",
    "typeof process",
    "'x' in input",
    "input instanceof Object",
    "with (input) { n }",
    "label: 1",
    "`${process}`",
    "/a/.constructor",
    "#!shebang",
    "<!-- html comment",
    # E13: host formatting
    "str('{0.__class__}')",
    "'%s' + s",
    "stringify({ a: '{0.__class__}' })",
    "replace('{0}', '{0}', '{0.__class__}')",
]


@pytest.mark.parametrize("src", PAYLOADS)
def test_escape_attempt_is_contained(src: str) -> None:
    try:
        value = compile_expression(src).evaluate(from_json(CONTEXT), Run(NOW))
    except LangError:
        return  # failing with the language's own error is a contained outcome
    assert_plain(value)


@pytest.mark.parametrize(
    "src",
    [
        "input.constructor",
        "input.__proto__",
        "s.__class__",
        "obj.__dict__",
        "input['con' + 'structor']",
        "list.prototype",
        "obj.toString",
        "obj.valueOf",
    ],
)
def test_host_attribute_names_read_as_null(src: str) -> None:
    assert compile_expression(src).evaluate(from_json(CONTEXT), Run(NOW)) is None


def test_prototype_pollution_keys_are_plain_data() -> None:
    # E4: {"__proto__": …} and {"constructor": …} from a response stay ordinary keys through every helper.
    data = from_json({"rows": [{"__proto__": {"admin": True}}, {"constructor": {"prototype": {"x": 1}}}]})
    run = Run(NOW)
    src = "merge(...rows).__proto__.admin && groupBy(rows, r => keys(r)[0]).constructor[0].constructor.prototype.x"
    assert compile_expression(src).evaluate(data, run) == 1
    # run B after run A sees the same, untouched environment
    assert compile_expression("({}).admin ?? ({}).__proto__").evaluate({}, Run(NOW)) is None
    out = compile_expression("fromEntries([['__proto__', 1], ['__class__', 2]])").evaluate({}, Run(NOW))
    assert to_json(out) == {"__proto__": 1, "__class__": 2}


def test_big_numbers_never_become_python_big_ints() -> None:
    # E9: results are IEEE doubles: Infinity, not a 10,000-digit int; no ValueError escapes.
    run = Run(NOW)
    v = compile_expression("range(60).reduce((a, x) => a * a, 2)").evaluate({}, run)
    assert v == float("inf")
    assert compile_expression("num('9'.repeat(5000))").evaluate({}, Run(NOW)) == float("inf")
    assert compile_expression("int('9'.repeat(5000))").evaluate({}, Run(NOW)) == float("inf")
    assert compile_expression("json('1' + '0'.repeat(5000))").evaluate({}, Run(NOW)) == float("inf")
    assert compile_expression("2 ** 99999999").evaluate({}, Run(NOW)) == float("inf")


def test_nan_and_infinity_leave_as_null() -> None:
    # E10: JSON out of the interpreter is always valid JSON.
    assert to_json(compile_expression("[0 / 0, 1 / 0, -1 / 0, -0]").evaluate({}, Run(NOW))) == [None, None, None, 0]


def test_no_python_module_is_imported_or_file_opened_by_payloads() -> None:
    # An audit hook sees every import, open, exec and subprocess while all payloads run.
    seen: list[str] = []

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event in ("import", "open", "os.system", "subprocess.Popen", "exec", "compile") and active[0]:
            seen.append(f"{event} {args[0]!r}"[:80])

    active = [False]
    sys.addaudithook(hook)
    compiled = []
    for src in PAYLOADS:
        with contextlib.suppress(LangError):
            compiled.append(compile_expression(src))  # compiling runs `compile`/`exec` on our own code
    active[0] = True
    try:
        for expr in compiled:
            with contextlib.suppress(LangError):
                expr.evaluate(from_json(CONTEXT), Run(NOW))
    finally:
        active[0] = False
    assert seen == []


def test_generated_code_sees_no_builtins() -> None:
    expr = compile_expression("list.map(x => x)")
    assert expr._fn.__globals__["__builtins__"] == {}
    # and plugin text never reaches the generated Python as code: names become locals, strings are repr()'d
    nasty = compile_expression('"\'); import os; (\'" + `"""; import os`')
    assert nasty.evaluate({}, Run(NOW)) == '\'); import os; (\'"""; import os'
