"""The recorded-test file format (language.md §8), as pydantic models."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from tui.lang.documents.common import Strict


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

    @model_validator(mode="after")
    def _one_expectation(self) -> Case:
        given = [k for k in ("expectError", "check") if getattr(self, k) is not None]
        has_expect = "expect" in self.model_fields_set
        if has_expect + len(given) == 0 and self.expectKv is None:
            raise ValueError("a case needs expect, expectError, check or expectKv")
        if has_expect and "expectError" in given:
            raise ValueError("give expect or expectError, not both")
        return self


class TestFile(Strict):
    """A file in the plugin's tests/ folder."""

    tool: str
    """The tool these cases run."""
    now: str | None = None
    """Beijing time seen by every case."""
    cases: list[Case]
    """The cases."""
