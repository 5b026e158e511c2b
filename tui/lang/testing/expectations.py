"""What a recorded test may assert besides the result: stale or truncated runs, and the calls a run made.

`expectCalls` and `expectRequests` test a write tool's writes: the arguments it gave `todos.add`, the JSON it
posted. Matching is partial inside an entry (keys not named are not compared, at any depth; lists compare
element by element and must be as long) and complete across the entries of one name: of each ability (each
HTTP method) a list names, the run's calls must be exactly those, in that order — so a second, unexpected
`todos.add` fails the case; abilities (methods) the list does not name are not compared; `[]` means the run
made none at all.
"""

from __future__ import annotations

import json
import math
from typing import Any
from urllib.parse import parse_qsl

from tui.lang.expr import from_json, stringify
from tui.lang.expr.values import int_to_float, to_str
from tui.lang.host import HttpRequest
from tui.lang.netpolicy import campus_url
from tui.lang.steps.interpreter import RunResult
from tui.lang.testing.model import Case, ExpectedCall, ExpectedRequest
from tui.lang.testing.recorded import RecordedHost, request_key


def short(v: Any) -> str:
    """A value as JSON for a message, at most 300 characters."""
    text = stringify(from_json(v))
    return text if len(text) <= 300 else text[:297] + "..."


def differs(actual: Any, expected: Any, where: str = "") -> str | None:
    """Where `actual` does not match `expected` partially, in words, or None when it matches."""
    at = where or "the value"
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{at}: expected an object, got {short(actual)}"
        for key, want in expected.items():
            path = f"{where}.{key}" if where else key
            if key not in actual:
                return f"{path}: missing (expected {short(want)})"
            found = differs(actual[key], want, path)
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{at}: expected {short(expected)}, got {short(actual)}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            found = differs(a, e, f"{where}[{i}]")
            if found:
                return found
        return None
    if scalar_same(actual, expected):
        return None
    return f"{at}: expected {short(expected)}, got {short(actual)}"


def first_difference(actual: Any, expected: Any, where: str = "result") -> tuple[str, Any, Any] | None:
    """Where `actual` first differs from `expected` exactly (every key compared), or None when they are equal.

    Gives the difference in words (`result[4].copies: expected 7, got 2`) and the values of the innermost object
    or list that holds it, so a failed `expect` can show the difference and its neighbourhood instead of two long
    values cut at the same place.
    """
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, want in expected.items():
            path = f"{where}.{key}"
            if key not in actual:
                return f"{path}: missing (expected {short(want)})", expected, actual
            found = first_difference(actual[key], want, path)
            if found:
                return found if found[1] is not None else (found[0], expected, actual)
        extra = [k for k in actual if k not in expected]
        if extra:
            return f"{where}.{extra[0]}: not expected (got {short(actual[extra[0]])})", expected, actual
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (a, e) in enumerate(zip(actual, expected, strict=False)):
            found = first_difference(a, e, f"{where}[{i}]")
            if found:
                return found if found[1] is not None else (found[0], expected, actual)
        if len(actual) != len(expected):
            return f"{where}: expected {len(expected)} items, got {len(actual)}", expected, actual
        return None
    if type(expected) in (dict, list) or type(actual) in (dict, list) or not scalar_same(actual, expected):
        return f"{where}: expected {short(expected)}, got {short(actual)}", None, None
    return None


def text_around(expected: Any, actual: Any, width: int = 300) -> tuple[str, str]:
    """Two values as JSON, each cut to `width` characters around where their texts first differ."""
    a, b = stringify(from_json(expected)), stringify(from_json(actual))
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    start = max(0, at - width // 3)

    def cut(t: str) -> str:
        return ("..." if start else "") + t[start : start + width] + ("..." if len(t) > start + width else "")

    return cut(a), cut(b)


def scalar_same(actual: Any, expected: Any) -> bool:
    """JSON equality of two scalars: numbers by value as the doubles JavaScript reads (2 equals 2.0, and
    12345678901234567890 equals the 12345678901234567168 a run gives for it), booleans strict."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        a = int_to_float(actual) if isinstance(actual, int) else actual
        e = int_to_float(expected) if isinstance(expected, int) else expected
        return a == e or (math.isnan(a) and math.isnan(e))
    return bool(actual == expected)


def run_flags(case: Case, result: RunResult) -> str | None:
    """`expectStale` and `expectTruncated` against how the runtime marked the run."""
    stale = "a cache answered with its stored value after an error"
    cut = "a paginate stopped at its max with a page still to read"
    for key, want, got, what in (
        ("expectStale", case.expectStale, result.stale, stale),
        ("expectTruncated", case.expectTruncated, result.truncated, cut),
    ):
        if want is True and not got:
            return f"{key}: true, but {what.replace('a ', 'no ', 1)}"
        if want is False and got:
            return f"{key}: false, but {what}"
    return None


def calls_differ(expected: list[ExpectedCall], host: RecordedHost) -> str | None:
    """`expectCalls` against the ability calls the run made."""
    made = list(zip(host.ability_calls, host.ability_args, strict=True))
    if not expected:
        return None if not made else f"expectCalls: [] but the run called {', '.join(n for n, _ in made)}"
    for name in dict.fromkeys(e.ability for e in expected):
        want = [e for e in expected if e.ability == name]
        got = [args for n, args in made if n == name]
        if len(got) != len(want):
            return f"expectCalls: {name} expected {_times(len(want))}, the run called it {_times(len(got))}"
        for i, (e, args) in enumerate(zip(want, got, strict=True)):
            if e.args is not None:
                found = differs(args, e.args, "args")
                if found:
                    return f"expectCalls: {name} call {i + 1}: {found}"
    return None


def requests_differ(expected: list[ExpectedRequest], host: RecordedHost) -> str | None:
    """`expectRequests` against the requests the run sent (method by method, each in order)."""
    if not expected:
        sent = ", ".join(f"{r.method} {r.url}" for r in host.sent)
        return None if not host.sent else f"expectRequests: [] but the run sent {sent}"
    methods = [e.method.upper() if e.method else None for e in expected]
    if None in methods:  # an entry without a method stands for every request
        return _in_order("every method", expected, host.sent)
    for method in dict.fromkeys(methods):
        want = [e for e, m in zip(expected, methods, strict=True) if m == method]
        found = _in_order(str(method), want, [r for r in host.sent if r.method.upper() == method])
        if found:
            return found
    return None


def _in_order(label: str, want: list[ExpectedRequest], got: list[HttpRequest]) -> str | None:
    if len(got) != len(want):
        listed = "".join(f"\n       {r.method} {r.url}" for r in got)
        return f"expectRequests: {label}: expected {_times(len(want), 'request')}, the run sent {len(got)}{listed}"
    for i, (e, r) in enumerate(zip(want, got, strict=True)):
        found = request_differs(e, r)
        if found:
            return f"expectRequests: {label} request {i + 1} ({r.method} {r.url}): {found}"
    return None


def request_differs(e: ExpectedRequest, r: HttpRequest) -> str | None:
    """How one sent request differs from what an entry names (the keys it gives), or None."""
    if e.method is not None and e.method.upper() != r.method.upper():
        return f"method: expected {e.method.upper()}"
    if e.campus is not None and e.campus != r.campus:
        return f"campus: expected {e.campus}, got {r.campus or 'a public request'}"
    if e.url is not None:
        url = str(campus_url(e.campus, e.url)) if e.campus is not None else e.url
        if request_key(r.method, url)[1:] != request_key(r.method, r.url)[1:]:
            return f"url: expected {url}"
    if e.headers:
        sent = {k.lower(): v for k, v in r.headers.items()}
        for name, value in e.headers.items():
            if sent.get(name.lower()) != value:
                return f"header {name}: expected {value!r}, got {sent.get(name.lower())!r}"
    body = (r.body or b"").decode("utf-8", errors="replace")
    if e.text is not None and body != e.text:
        return f"body: expected {short(e.text)}, got {short(body)}"
    if "json_body" in e.model_fields_set:
        try:
            data = json.loads(body)
        except ValueError:
            return f"body: expected JSON, got {short(body)}"
        return differs(data, e.json_body, "json")
    if e.form is not None:
        return differs(form_fields(body), {k: _form_text(v) for k, v in e.form.items()}, "form")
    return None


def form_fields(body: str) -> dict[str, Any]:
    """A form body's fields: name → text, or a list of texts for a repeated name."""
    fields: dict[str, Any] = {}
    for k, v in parse_qsl(body, keep_blank_values=True):
        fields[k] = [*fields[k], v] if isinstance(fields.get(k), list) else [fields[k], v] if k in fields else v
    return fields


def _form_text(v: Any) -> Any:
    """A form field as the body carries it: text, as the request step writes it (3 is "3"; a list repeats it)."""
    if isinstance(v, list):
        return [_form_text(x) for x in v]
    return to_str(from_json(v))


def _times(n: int, what: str = "") -> str:
    if what:
        return f"{n} {what}" + ("" if n == 1 else "s")
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"
