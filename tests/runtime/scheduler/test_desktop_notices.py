"""Desktop notifications carry a check's text (a plugin's message template filled with a tool's result) to a
real `notify-send` process: its arguments are texts after `--`, never options, and its markup is escaped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui.runtime.scheduler.notices import Notices, send_desktop
from tui.runtime.store import Store


@pytest.fixture
def argv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake `notify-send` first on PATH that writes each argument it got, NUL-terminated."""
    out = tmp_path / "argv"
    script = tmp_path / "bin" / "notify-send"
    script.parent.mkdir()
    script.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done > {out}\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{script.parent}:{os.environ['PATH']}")
    return out


def received(out: Path) -> list[str]:
    return out.read_bytes().decode().split("\0")[:-1]


def test_a_title_that_looks_like_an_option_is_text_after_the_double_dash(argv: Path) -> None:
    assert send_desktop("--icon=/etc/passwd", "-u critical")
    assert received(argv) == ["--app-name=PKU harness", "--", "--icon=/etc/passwd", "-u critical"]


def test_markup_and_escapes_in_a_notice_reach_notify_send_as_text(argv: Path, tmp_path: Path) -> None:
    store = Store(tmp_path / "n.sqlite3")
    Notices(store).add(
        "s-1",
        "<b>余额</b> & 提醒\u202e",
        "<a href='file:///etc/passwd'>点这里</a> <img src=/tmp/x.png>\x1b]52;c;cHduZWQ=\x07 12 < 20",
    )
    store.close()
    assert received(argv) == [
        "--app-name=PKU harness",
        "--",
        "&lt;b&gt;余额&lt;/b&gt; &amp; 提醒",
        "&lt;a href='file:///etc/passwd'&gt;点这里&lt;/a&gt; &lt;img src=/tmp/x.png&gt; 12 &lt; 20",
    ]
