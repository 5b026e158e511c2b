"""Telling the student that the app waits for them while they look at another window: an approval card, a
verification code, or a long answer that has finished.

Three ways, each switched in 设置 → 提醒 (all on by default): the terminal bell, a mark in the window title
("● PKU harness — 等待你的确认", the terminal's own title again once the app has the focus back), and a desktop
notification. Whether the student looks elsewhere is what the terminal says through its focus reports (Textual's
`AppBlur` / `AppFocus`). A terminal that never reports focus counts as focused: there only an approval card rings
the bell, as it always did, and nothing else is said (a finished answer would otherwise ring on every turn).

The desktop notification goes the way that reaches the student's desktop (`desktop_backend`):

* in a web page (`pku-harness serve`, Textual's web driver), a browser notification: the app sends the page a
  message (tui/cli/web_server.py passes it on), and the page shows it where the student allowed it; the title
  mark goes the same way, as the tab's title;
* over SSH, the terminal's own escape sequence when the terminal is known to show one (the commands below would
  notify the far machine's desktop, if any);
* on macOS `osascript` (`display notification`), on Linux and the BSDs `notify-send`, when on PATH;
* otherwise the terminal's escape sequence when its program is known to show it: OSC 99 in kitty, OSC 9 in iTerm2,
  OSC 777 (`notify;title;body`) in WezTerm, Ghostty, foot and rxvt-unicode. Unknown terminals get none: a
  sequence they do not read shows nothing at best. Inside tmux or screen none either: they drop the sequence
  unless passthrough was turned on.

Commands run detached, without a shell, with their output discarded and a time limit; a failure is logged and
otherwise ignored. Every text is cleaned of control characters first (plugin names and tool titles are in it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tui.app.i18n import t
from tui.runtime.scheduler.notices import desktop_text
from tui.runtime.settings import read_setting, write_setting
from widgets_render.safe_text import one_line

if TYPE_CHECKING:
    from tui.app.harness import HarnessApp

log = logging.getLogger(__name__)

#: The switches in 设置 → 提醒, each stored under `attention.<name>` (missing: on).
SWITCHES = ("bell", "title", "desktop")
#: What the app can wait for: an approval card, a verification code, and a finished long answer.
KINDS = ("approval", "code", "answer")
#: An answer that took longer than this is announced when it finishes (a quick one the student waited for).
LONG_TURN_S = 10.0
#: A notification command that has not finished by then is stopped (a hung notification daemon).
COMMAND_TIMEOUT_S = 5.0
#: Longest notification text: a notification is a nudge, the app has the whole story.
MAX_TEXT = 200

# The window title: xterm's title stack (XTWINOPS 22/23) keeps the terminal's own title to come back to; OSC 0
# sets the tab's and the window's title. A terminal without the stack gets the app's plain name back.
PUSH_TITLE, POP_TITLE = "\x1b[22;0t", "\x1b[23;0t"
PLAIN_TITLE = "PKU harness"
#: Systems whose desktops take notifications through `notify-send` (`sys.platform` starts with one of them).
FREEDESKTOP = ("linux", "freebsd", "openbsd", "netbsd")


@dataclass(frozen=True)
class Backend:
    """How a desktop notification is sent: a command (`notify-send`, `osascript`, with its path), an escape
    sequence the terminal turns into one (`osc9`, `osc99`, `osc777`), or a message to the page (`browser`)."""

    kind: str
    program: str = ""


def terminal_protocol(env: Mapping[str, str]) -> str | None:
    """The notification sequence the terminal running the app shows, known by its environment; None when unknown
    or behind a multiplexer."""
    if env.get("TMUX") or env.get("STY"):
        return None  # tmux and screen drop unknown OSC strings unless passthrough is on (it is off by default)
    term, program = env.get("TERM", ""), env.get("TERM_PROGRAM", "")
    if env.get("KITTY_WINDOW_ID") or term == "xterm-kitty":
        return "osc99"  # kitty's own protocol (it never took up OSC 777)
    if program == "iTerm.app" or env.get("LC_TERMINAL") == "iTerm2":  # LC_TERMINAL is forwarded by ssh
        return "osc9"
    if program in ("WezTerm", "ghostty") or term in ("wezterm", "xterm-ghostty", "foot", "foot-extra"):
        return "osc777"
    if term.startswith("rxvt-unicode"):
        return "osc777"
    return None


def desktop_backend(
    env: Mapping[str, str], platform: str, which: Callable[[str], str | None] = shutil.which
) -> Backend | None:
    """The way a desktop notification reaches the student here (see the module's docstring); None: no way."""
    protocol = terminal_protocol(env)
    if protocol and (env.get("SSH_CONNECTION") or env.get("SSH_TTY")):
        return Backend(protocol)  # the student's desktop is at the terminal's end, not this machine's
    command = "osascript" if platform == "darwin" else "notify-send" if platform.startswith(FREEDESKTOP) else None
    program = which(command) if command else None
    if command and program:
        return Backend(command, program)
    return Backend(protocol) if protocol else None


def notice_text(text: str) -> str:
    """`text` as one short line with no control characters, escape sequences or bidi controls."""
    return one_line(text).strip()[:MAX_TEXT]


def desktop_command(backend: Backend, title: str, body: str) -> list[str]:
    """The argv of a command backend (never run through a shell). `notify-send` reads markup, so `<`, `&` are
    escaped; its texts come after `--` so that none is read as an option. `osascript` gets them as arguments of
    its run handler, never inside the script's source, where a quote would end the string."""
    title, body = notice_text(title), notice_text(body)
    if backend.kind == "osascript":
        script = "on run argv\ndisplay notification (item 2 of argv) with title (item 1 of argv)\nend run"
        return [backend.program, "-e", script, title, body]
    return [backend.program, f"--app-name={PLAIN_TITLE}", "--", desktop_text(title), desktop_text(body)]


def desktop_sequence(backend: Backend, title: str, body: str) -> str:
    """The escape sequence of a terminal backend. `;` separates the sequences' fields, so the texts have none."""
    title, body = (notice_text(x).replace(";", ",") for x in (title, body))
    if backend.kind == "osc99":
        return f"\x1b]99;i=pku:d=0;{title}\x1b\\\x1b]99;i=pku:d=1:p=body;{body}\x1b\\"
    if backend.kind == "osc777":
        return f"\x1b]777;notify;{title};{body}\x07"
    return f"\x1b]9;{title}: {body}\x07"


def backend_words(backend: Backend | None, locale: str) -> str:
    """How 设置 names the way desktop notifications go here."""
    if backend is None:
        return t("attention_via_none", locale)
    if backend.kind == "browser":
        return t("attention_via", locale).format(via=t("attention_via_browser", locale))
    if backend.program:
        return t("attention_via", locale).format(via=backend.kind)
    code = {"osc9": "OSC 9", "osc99": "OSC 99", "osc777": "OSC 777"}[backend.kind]
    return t("attention_via", locale).format(via=t("attention_via_terminal", locale).format(code=code))


class Attention:
    """The app's way of calling the student back; the app owns one, the chat, the code prompts and 设置 use it."""

    def __init__(self, app: HarnessApp) -> None:
        self.app = app
        self.reported = False
        """The terminal has reported a focus change: until then whether the student looks is unknown."""
        self.title_shown: str | None = None
        """The window title the app set, None while the terminal shows its own."""
        self.sent: list[Backend] = []
        """The desktop notifications sent, by the way they went."""
        self.env: Mapping[str, str] = os.environ
        """Where the terminal and SSH are told apart (`desktop_backend`)."""
        self.platform = sys.platform

    # -- the switches ----------------------------------------------------------------------------------------

    def enabled(self, switch: str) -> bool:
        """Whether one of the three ways is switched on in 设置 (on unless switched off)."""
        return read_setting(self.app.runtime.store, f"attention.{switch}") is not False

    def set_enabled(self, switch: str, on: bool) -> None:
        """Switch one of the ways on or off (设置 → 提醒); switching the title off puts the terminal's back."""
        if switch not in SWITCHES:
            raise ValueError(f"no attention switch {switch!r}")
        write_setting(self.app.runtime.store, f"attention.{switch}", on)
        if switch == "title" and not on:
            self.restore_title()

    # -- focus -----------------------------------------------------------------------------------------------

    def focus_reported(self) -> None:
        """An `AppFocus` or `AppBlur` came: from now on the terminal says where the student looks."""
        self.reported = True

    def away(self) -> bool:
        """The student is known to look at another window."""
        return self.reported and not self.app.app_focus

    def back(self) -> None:
        """The app has the focus again (or quits): the terminal's own title comes back."""
        self.restore_title()

    # -- telling ---------------------------------------------------------------------------------------------

    def waiting(self, kind: str, detail: str = "") -> None:
        """The app waits for the student (`kind`: approval or code); `detail` says for what (plugin text is fine,
        it is cleaned). An approval card rings even while the student looks: it always has."""
        self._tell(kind, detail, ring=kind == "approval")

    def answered(self, seconds: float) -> None:
        """A turn of the assistant finished after `seconds`: said only when it was long and the student away."""
        if seconds > LONG_TURN_S:
            self._tell("answer", t("attention_took", self.locale).format(seconds=round(seconds)), ring=False)

    @property
    def locale(self) -> str:
        """The app's locale now (a language switch changes it while the app runs)."""
        return self.app.locale

    def _tell(self, kind: str, detail: str, ring: bool) -> None:
        away = self.away()
        if self.enabled("bell") and (ring or away):
            self.app.bell()
        if not away:
            return
        loc = self.locale
        if self.enabled("title"):
            self.show_title(t("attention_window", loc).format(what=t(f"attention_window_{kind}", loc)))
        if self.enabled("desktop"):
            self.notify_desktop(t(f"attention_{kind}", loc), detail or t("attention_come_back", loc))

    def show_title(self, title: str) -> None:
        """Put `title` in the terminal's window title, keeping the terminal's own to come back to."""
        title = notice_text(title)
        if self.title_shown is None:
            self._write(PUSH_TITLE)
        self._write(f"\x1b]0;{title}\x07")
        self._to_page({"type": "title", "title": title})
        self.title_shown = title

    def restore_title(self) -> None:
        """The terminal's own window title again (the app's plain name where the terminal kept none)."""
        if self.title_shown is None:
            return
        self._write(f"\x1b]0;{PLAIN_TITLE}\x07{POP_TITLE}")
        self._to_page({"type": "title", "title": PLAIN_TITLE})
        self.title_shown = None

    def backend(self) -> Backend | None:
        """The way desktop notifications go here (None: there is none). In a web page the browser is the
        student's desktop: this machine's `notify-send` would notify whoever sits at the server."""
        if self.app.is_web:
            return Backend("browser")
        return desktop_backend(self.env, self.platform)

    def notify_desktop(self, title: str, body: str) -> Backend | None:
        """Send a desktop notification the way that reaches the student (None: there is none here)."""
        backend = self.backend()
        if backend is None:
            return None
        self.sent.append(backend)
        if backend.kind == "browser":
            self._to_page({"type": "notify", "title": notice_text(title), "body": notice_text(body)})
        elif backend.program:
            argv = desktop_command(backend, title, body)
            self.app.run_worker(run_detached(argv), group="attention", exclusive=False, exit_on_error=False)
        else:
            self._write(desktop_sequence(backend, title, body))
        return backend

    def _write(self, sequence: str) -> None:
        # Textual has no call for the title or a notification sequence: it writes its own bell and clipboard
        # (OSC 52) the same way, straight to its driver. A headless app (the tests) has no terminal to write to.
        driver = self.app._driver
        if driver is not None and not self.app.is_headless:
            driver.write(sequence)

    def _to_page(self, message: dict[str, object]) -> None:
        # The web driver's side channel to textual-serve (as Textual's own `open_url` goes); none in a terminal.
        if not self.app.is_web:
            return
        from textual.drivers.web_driver import WebDriver

        driver = self.app._driver
        if isinstance(driver, WebDriver):
            driver.write_meta(message)


async def run_detached(argv: list[str]) -> None:
    """Run a notification command without waiting on the UI: no shell, no terminal (its output would land in the
    middle of the screen), its own session (Ctrl+C in the terminal is not for it), stopped after a time limit.
    Failures are logged, never raised: a notification that did not go is no reason to stop anything."""
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as e:
        log.warning("desktop notification through %s failed: %s", argv[0], e)
        return
    try:
        await asyncio.wait_for(process.wait(), COMMAND_TIMEOUT_S)
    except TimeoutError:
        log.warning("desktop notification through %s stopped: it took too long", argv[0])
    finally:
        if process.returncode is None:  # too long, or the app quits: asyncio's child watcher reaps it
            with contextlib.suppress(ProcessLookupError):
                process.kill()
    if process.returncode:
        log.warning("desktop notification through %s ended with %s", argv[0], process.returncode)
