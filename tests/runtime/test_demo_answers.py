"""The demo answers an ability call with the recording whose case was run with the same inputs: a grades screen
asked with a code shows the grades (before, the demo always answered with the first recording, "verify first",
so the screen's verification could not be tried)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.lang.documents.source import DirectorySource
from tui.lang.testing.demo import demo_host
from tui.runtime.runtime import builtin_folders, recorded_test_files

NOW = "2026-11-30T12:00:00+08:00"


def grades_host() -> object:
    folder = next(f for f in builtin_folders() if f.name == "grades")
    return demo_host(DirectorySource(folder), recorded_test_files(Path(folder)), NOW)


def args(code: str | None, via: str | None) -> dict[str, object]:
    return {"request": {"url": "/chapi/api/course/score_v2"}, "code": code, "via": via, "kind": "course"}


@pytest.mark.parametrize(
    ("code", "via", "verified"),
    [
        (None, None, False),  # asked without a code: the recording that asks to verify
        ("482913", "sms", True),  # the code of a recording: that recording
        ("105377", "otp", True),
        ("123456", "sms", True),  # any other code: the closest recording (one made with a code)
    ],
)
async def test_the_recording_with_the_same_inputs_answers(code: str | None, via: str | None, verified: bool) -> None:
    answer = await grades_host().ability("verify.treehole", args(code, via))  # type: ignore[attr-defined]
    assert (answer.get("status") != "verification_required") is verified, answer


async def test_an_ability_nobody_recorded_is_refused() -> None:
    from tui.lang.testing.recorded import Unrecorded

    with pytest.raises(Unrecorded):
        await grades_host().ability("todos.list", {})  # type: ignore[attr-defined]


async def test_after_a_verification_calls_without_a_code_get_the_data_for_the_session() -> None:
    """The campus session keeps what a code earned: once the grades screen is verified, the 我的绩点 widget (which
    asks without a code) shows the GPA instead of 需要验证. Shared between the plugin's hosts, as the runtime does."""
    session: dict[str, int] = {}
    first, second, later = grades_host(), grades_host(), grades_host()
    for host in (first, second, later):
        host.verified = session  # type: ignore[attr-defined]
    before = await first.ability("verify.treehole", args(None, None))  # type: ignore[attr-defined]
    assert before["status"] == "verification_required"
    await second.ability("verify.treehole", args("482913", "sms"))  # type: ignore[attr-defined]
    after = await later.ability("verify.treehole", args(None, None))  # type: ignore[attr-defined]
    assert after.get("status") != "verification_required" and after["success"] is True
    assert await grades_host().ability("verify.treehole", args(None, None)) == before  # type: ignore[attr-defined]


async def test_the_demo_runtime_keeps_a_verification_for_its_widgets(tmp_path: Path) -> None:
    from tui.runtime.runtime import Runtime

    rt = Runtime.open(tmp_path / "store.db", demo=True)
    try:
        tool = rt.registry.find("grades.scores")
        assert tool is not None
        before = await rt.gate.call(tool.id, {}, "user", now=NOW)
        assert before.result["status"] == "verification_required"
        await rt.gate.call(tool.id, {"code": "482913", "method": "sms"}, "user", now=NOW)
        after = await rt.gate.call(tool.id, {}, "user", now=NOW)
        assert isinstance(after.result.get("gpa"), float)
    finally:
        rt.close()
