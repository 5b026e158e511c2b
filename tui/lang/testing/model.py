"""The recorded-test file format (language.md §8), as pydantic models."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from tui.lang.documents.common import DurationMs, Strict


class RecordedRequest(Strict):
    """What a recorded exchange answers: method + URL (query parameters as a set), and the campus service."""

    method: str = "GET"
    """The HTTP method."""
    url: str
    """The full URL, or with `campus` the path on that service."""
    campus: str | None = None
    """The campus service, for an app-signed request."""


class RecordedResponse(Strict):
    """The answer: a status and one of json, text or file (relative to the plugin folder)."""

    status: int = 200
    """The HTTP status."""
    headers: dict[str, str] = Field(default_factory=dict)
    """Response headers."""
    json_body: Any = Field(None, alias="json")
    """A JSON body."""
    text: str | None = None
    """A text body."""
    file: str | None = None
    """A fixture file in the plugin folder (`fixtures/page.html`)."""
    url: str | None = None
    """The final URL after redirects, when it differs from the request's."""

    @model_validator(mode="after")
    def _one_body(self) -> RecordedResponse:
        if sum(x is not None for x in (self.json_body, self.text, self.file)) > 1:
            raise ValueError("give one of json, text and file")
        return self


class Exchange(Strict):
    """One recorded request and its response."""

    request: RecordedRequest
    response: RecordedResponse


class AbilityAnswer(Strict):
    """A recorded host-ability answer, in call order."""

    call: str
    """The ability, `group.op`."""
    result: Any = None
    """What it returned."""
    error: str | None = None
    """Or the message it failed with."""


class CacheSeed(Strict):
    """A value a `cache` step stored before the run, and how long before (`age: 2h`): fresh or stale as the
    step's `ttl` makes it."""

    value: Any = None
    """What the cached steps had given."""
    age: DurationMs = 0
    """How long before the case's `now` it was stored (`30m`, `2h`, `1d`)."""


class ExpectedCall(Strict):
    """A host-ability call the run must have made (`expectCalls`)."""

    ability: str
    """The ability, `group.op`."""
    args: dict[str, Any] | None = None
    """The arguments it was called with: keys not named are not compared (at any depth); omitted: any."""


class ExpectedRequest(Strict):
    """A request the run must have sent (`expectRequests`); a key not given is not compared."""

    method: str | None = None
    """The HTTP method."""
    url: str | None = None
    """The URL, compared as recordings are (query parameters as a set); with `campus` the path on that service."""
    campus: str | None = None
    """The campus service it was signed for."""
    headers: dict[str, str] | None = None
    """Headers it must carry (names in any case); others are not compared."""
    json_body: Any = Field(None, alias="json")
    """Its JSON body: keys not named are not compared (at any depth)."""
    form: dict[str, Any] | None = None
    """Its form fields: fields not named are not compared."""
    text: str | None = None
    """Its whole body as text."""


class Case(Strict):
    """One test case."""

    name: str
    """Shown in the output."""
    input: dict[str, Any] = Field(default_factory=dict)
    """The tool's input."""
    settings: dict[str, Any] = Field(default_factory=dict)
    """Plugin settings for the run."""
    kv: dict[str, Any] = Field(default_factory=dict)
    """KV contents before the run."""
    cache: dict[str, CacheSeed] = Field(default_factory=dict)
    """Entries `cache` steps stored before the run, by their key: `{ value, age }`."""
    http: list[Exchange] = Field(default_factory=list)
    """Recorded exchanges."""
    abilities: list[AbilityAnswer] = Field(default_factory=list)
    """Recorded ability answers, in call order."""
    now: str | None = None
    """Beijing time for this case (overrides the file's)."""
    expect: Any = None
    """The exact result."""
    expectError: str | None = None
    """A substring of the error."""
    check: str | list[str] | None = None
    """Expressions over `result` that must all be truthy."""
    expectKv: dict[str, Any] | None = None
    """KV values after the run (keys not named are not compared)."""
    expectStale: bool | None = None
    """Whether a `cache` with `staleOnError` answered with its stored value after an error."""
    expectTruncated: bool | None = None
    """Whether a `paginate` stopped at its `max` with a page still to read."""
    expectCalls: list[ExpectedCall] | None = None
    """Host-ability calls: of each ability named, the run's calls in order; `[]`: none at all."""
    expectRequests: list[ExpectedRequest] | None = None
    """Requests: of each method named, the run's requests in order; `[]`: none at all."""

    @model_validator(mode="after")
    def _one_expectation(self) -> Case:
        given = [k for k in ("expectError", "check") if getattr(self, k) is not None]
        has_expect = "expect" in self.model_fields_set
        others = (self.expectKv, self.expectStale, self.expectTruncated, self.expectCalls, self.expectRequests)
        if has_expect + len(given) == 0 and all(x is None for x in others):
            raise ValueError(
                "a case needs expect, expectError, check, expectKv, expectStale, expectTruncated, expectCalls "
                "or expectRequests"
            )
        if has_expect and "expectError" in given:
            raise ValueError("give expect or expectError, not both")
        both = sorted(set(self.kv) & set(self.cache))
        if both:
            raise ValueError(f"{both[0]!r} is in both kv and cache: a key holds one value")
        return self


class TestFile(Strict):
    """A file in the plugin's tests/ folder."""

    tool: str
    """The tool these cases run."""
    now: str | None = None
    """Beijing time seen by every case."""
    cases: list[Case]
    """The cases."""


DEFAULT_NOW = "2026-11-30T09:00:00+08:00"
"""The Beijing time a test sees when neither the file nor the case gives one."""


def iso_now(text: str) -> str:
    """A recording's `now` (e.g. `2026-11-30 12:30`) as a full Beijing ISO timestamp.

    Raises:
        LangError: the text is not a time.
    """
    from tui.lang.expr import Run
    from tui.lang.expr.stdlib.dates import iso, parse

    return iso(parse(Run(DEFAULT_NOW), text))
