"""Which way a desktop notification goes (notify-send, osascript, the terminal's own sequence), and that the text
in it — plugin names and tool titles among it — can neither break out of the sequence nor become an option."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tui.app import attention
from tui.app.attention import Backend, desktop_backend, desktop_command, desktop_sequence, run_detached

NOTIFY_SEND = Backend("notify-send", "/usr/bin/notify-send")
HOSTILE = "课表\x1b]0;pwned\x07 插件\n第二行\x1b[2J;--icon=/etc/passwd\u202e<b>&</b>\x9d8;;x\x07"


def which_all(name: str) -> str:
    return f"/usr/bin/{name}"


def which_none(name: str) -> None:
    return None


@pytest.mark.parametrize(
    ("env", "platform", "which", "expected"),
    [
        ({"TERM": "xterm-256color"}, "linux", which_all, NOTIFY_SEND),
        ({"TERM_PROGRAM": "WezTerm"}, "linux", which_all, NOTIFY_SEND),
        ({"TERM": "xterm-256color"}, "freebsd14", which_all, NOTIFY_SEND),
        ({"TERM_PROGRAM": "Apple_Terminal"}, "darwin", which_all, Backend("osascript", "/usr/bin/osascript")),
        ({"TERM_PROGRAM": "iTerm.app"}, "darwin", which_all, Backend("osascript", "/usr/bin/osascript")),
        # no command: the terminal's own sequence, where the terminal is known to show one
        ({"TERM_PROGRAM": "WezTerm"}, "linux", which_none, Backend("osc777")),
        ({"TERM_PROGRAM": "ghostty"}, "linux", which_none, Backend("osc777")),
        ({"TERM": "foot"}, "linux", which_none, Backend("osc777")),
        ({"TERM": "rxvt-unicode-256color"}, "linux", which_none, Backend("osc777")),
        ({"TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"}, "linux", which_none, Backend("osc99")),
        ({"TERM_PROGRAM": "iTerm.app"}, "darwin", which_none, Backend("osc9")),
        ({"TERM": "xterm-256color"}, "linux", which_none, None),  # unknown: nothing
        ({"TERM": "xterm-256color"}, "win32", which_all, None),
        # over SSH the command would notify the far machine: the terminal's sequence reaches the student
        ({"TERM": "xterm-kitty", "SSH_CONNECTION": "1 2 3 4"}, "linux", which_all, Backend("osc99")),
        ({"LC_TERMINAL": "iTerm2", "SSH_TTY": "/dev/pts/1"}, "linux", which_all, Backend("osc9")),
        ({"TERM": "xterm-256color", "SSH_TTY": "/dev/pts/1"}, "linux", which_all, NOTIFY_SEND),
        # inside tmux or screen the sequence would be dropped
        ({"TERM_PROGRAM": "tmux", "TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "1"}, "linux", which_none, None),
        ({"TERM": "foot", "STY": "1.pts"}, "linux", which_none, None),
    ],
)  # fmt: skip
def test_the_way_a_desktop_notification_goes(
    env: dict[str, str], platform: str, which: object, expected: Backend | None
) -> None:
    assert desktop_backend(env, platform, which) == expected  # type: ignore[arg-type]


def test_notify_send_gets_plain_text_after_the_options() -> None:
    argv = desktop_command(NOTIFY_SEND, "助手等你确认", HOSTILE)
    assert argv[:4] == ["/usr/bin/notify-send", "--app-name=PKU harness", "--", "助手等你确认"]
    body = argv[4]
    # no control character, escape sequence, line break or bidi override; markup escaped (servers read it)
    assert body == "课表 插件 第二行;--icon=/etc/passwd&lt;b&gt;&amp;&lt;/b&gt;"
    assert len(argv) == 5


def test_osascript_gets_the_texts_as_arguments_never_in_its_script() -> None:
    argv = desktop_command(Backend("osascript", "/usr/bin/osascript"), "助手等你确认", 'a" & (do shell script "x")')
    assert argv[:2] == ["/usr/bin/osascript", "-e"]
    assert "do shell script" not in argv[2] and "item 2 of argv" in argv[2]  # the script is the app's alone
    assert argv[3:] == ["助手等你确认", 'a" & (do shell script "x")']  # data, passed as argv
    assert desktop_command(Backend("osascript", "o"), "t", HOSTILE)[4] == "课表 插件 第二行;--icon=/etc/passwd<b>&</b>"


@pytest.mark.parametrize("kind", ["osc9", "osc99", "osc777"])
def test_a_terminal_sequence_carries_the_text_and_nothing_else(kind: str) -> None:
    sequence = desktop_sequence(Backend(kind), "助手等你确认", HOSTILE)
    inner = sequence.replace("\x1b]", "").replace("\x1b\\", "").removesuffix("\x07")
    assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in inner), repr(sequence)  # one sequence each
    assert "\u202e" not in inner and "pwned" not in inner
    assert "课表 插件 第二行,--icon=/etc/passwd<b>&</b>" in inner  # `;` would start another field
    expected_starts = {"osc9": "\x1b]9;助手等你确认: ", "osc99": "\x1b]99;i=pku:d=0;助手等你确认\x1b\\",
                       "osc777": "\x1b]777;notify;助手等你确认;课表"}  # fmt: skip
    assert sequence.startswith(expected_starts[kind])
    assert sequence.count("\x1b]") == (2 if kind == "osc99" else 1)


def test_long_text_is_cut() -> None:
    argv = desktop_command(Backend("notify-send", "n"), "t", "字" * 5000)
    assert len(argv[4]) == attention.MAX_TEXT


async def test_a_notification_command_never_hangs_or_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(attention, "COMMAND_TIMEOUT_S", 0.3)
    slow = tmp_path / "slow"
    slow.write_text("#!/bin/sh\nsleep 30\n")
    slow.chmod(0o755)
    started = time.monotonic()
    await run_detached([str(slow)])  # stopped after the time limit
    assert time.monotonic() - started < 5
    await run_detached([str(tmp_path / "missing")])  # not there: logged, not raised
    failing = tmp_path / "failing"
    failing.write_text("#!/bin/sh\nexit 3\n")
    failing.chmod(0o755)
    await run_detached([str(failing)])
